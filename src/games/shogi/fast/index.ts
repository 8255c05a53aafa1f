/**
 * Internal shogi move generator for search: a fast mailbox board with make/unmake, incremental
 * Zobrist keys, fully legal generation and integer moves. See board.ts.
 */
export { FastShogiBoard, MAX_MOVES, newMoveList } from './board.js';
export {
  NULL_MOVE,
  PROMOTE_FLAG,
  isDropMove,
  makeBoardMove,
  makeDrop,
  moveDropType,
  moveFrom,
  movePromotes,
  moveTo,
  moveToUsi,
  parseUsiSyntax,
} from './move.js';
export * from './pieces.js';
export { Repetition, type RepetitionResult } from './repetition.js';
export {
  BOARD_SIZE,
  STRIDE,
  COL_OF,
  DIRS,
  RANK_OF,
  SQUARES,
  from81,
  parseSquareName,
  squareAt,
  squareName,
  squareOfFileRank,
  to81,
} from './squares.js';
