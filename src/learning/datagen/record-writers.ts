/**
 * Record writers of the two games' search boards: the position of the fast board under a
 * `SearchBoard` into a datagen record (position-record.ts).
 */
import type { GameKind } from '../../core/game.js';
import type { ChessSearchBoard } from '../../search/alphabeta/chess-board.js';
import type { SearchBoard } from '../../search/alphabeta/search-board.js';
import type { ShogiSearchBoard } from '../../search/alphabeta/shogi-board.js';
import { SQUARES } from '../../games/shogi/fast/squares.js';
import type { RecordWriter } from './datagen-game.js';
import { encodeChessRecord, encodeShogiRecord } from './position-record.js';

const chessPieces = new Uint8Array(64);
const shogiPieces = new Uint8Array(81);
const shogiHands = new Uint8Array(14);

const writeChess: RecordWriter = (sb: SearchBoard, out, off, score) => {
  const b = (sb as ChessSearchBoard).board;
  for (let sq = 0; sq < 64; sq++) chessPieces[sq] = b.squares[((sq >> 3) << 4) | (sq & 7)]!;
  encodeChessRecord(out, off, chessPieces, b.turn, b.halfmoveClock, b.fullmoveNumber, score, 0);
};

const writeShogi: RecordWriter = (sb: SearchBoard, out, off, score) => {
  const b = (sb as ShogiSearchBoard).board;
  for (let i = 0; i < 81; i++) shogiPieces[i] = b.board[SQUARES[i]!]!;
  for (let side = 0; side < 2; side++) for (let t = 1; t <= 7; t++) shogiHands[side * 7 + t - 1] = b.hands[side * 8 + t]!;
  encodeShogiRecord(out, off, shogiPieces, shogiHands, b.turn, b.ply, score, 0);
};

/** The record writer of a game's search board. */
export const recordWriter = (game: GameKind): RecordWriter => (game === 'chess' ? writeChess : writeShogi);
