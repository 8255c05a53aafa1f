/**
 * The chess game adapter over chessops: `ChessGame` (a `GameState`), UCI move text in both
 * castling notations, FEN, Zobrist keys on Polyglot's table, Chess960 start positions and perft.
 */
export { ChessGame, SETUP_ERRORS } from './chess-game.js';
export type { ChessGameOptions } from './chess-game.js';
export { chess960BackRank, chess960Fen, STANDARD_CHESS960_NUMBER } from './chess960.js';
export { chessopsPerft, divide, perft, perftGameState, perftPosition } from './perft.js';
export type { DivideEntry } from './perft.js';
export { CASTLING_STYLES, makeUciMove, MOVE_ERRORS, parseUciMove, PROMOTION_ROLES } from './uci.js';
export type { CastlingStyle } from './uci.js';
export { legalEpSquare, polyglotKey, zobristKey } from './zobrist.js';
