/**
 * The internal chess move generator for alpha-beta search (the chessops-based adapter in
 * `src/games/chess/` stays the reference for rules and protocol I/O).
 *
 * ```ts
 * const board = FastChessBoard.fromFen(fen, chess960).unwrap(); // Result<_, KishiError>
 * const moves = new Int32Array(256);
 * const n = board.generateMoves(moves);            // legal moves; (moves, true) for captures+promotions
 * board.makeMove(moves[0]); ...; board.unmakeMove();
 * board.hashLo, board.hashHi                        // Zobrist key halves (int32), or board.hash (53 bits)
 * board.inCheck(), board.isRepetition(), board.halfmoveClock
 * board.makeNullMove(); board.unmakeNullMove();
 * board.moveToUci(m), board.parseUci('e1g1')        // NO_MOVE (0) when not legal
 * ```
 * Squares are 0..63 (a1 = 0, h8 = 63); pieces are `color << 3 | type` (`piece.ts`); moves are
 * integers whose fields are read with the helpers of `move.ts`.
 */
export { FastChessBoard, squareName } from './board.js';
export * from './move.js';
export * from './piece.js';
export { to64, to88 } from './tables.js';
