/**
 * The moves of one game as the game handler follows them, whatever the game: ChessLine (chessops, UCI,
 * FEN) for lichess, ShogiLine (shogiops through the shogi adapter, USI, SFEN) for lishogi. The server's
 * full move list either extends the line or replaces it (a takeback).
 */
import type { Result } from '../../core/result.js';
import type { KishiError } from '../../core/result.js';
import type { Color } from './types.js';

export interface GameLine {
  /** Brings the line to exactly `moves` (the full list since the start). */
  sync(moves: readonly string[]): Result<void, KishiError>;
  /** Plays one move in the server's notation. */
  play(move: string): Result<void, KishiError>;
  isLegal(move: string): boolean;
  /** The side to move (shogi: white = sente, the first mover). */
  turn(): Color;
  /** The side that moved first from the initial position. */
  firstMover(): Color;
  plies(): number;
  moves(): readonly string[];
  /** Position text (FEN or SFEN) before ply `ply` (0 = the initial position). */
  fenAt(ply: number): string;
  fen(): string;
  /** Pieces on the board, both sides (draw offers look at it). */
  pieceCount(): number;
  /** Every legal move in the server's notation. */
  legalMoves(): string[];
  /** Whether the game is over on the board (logs only: the server decides). */
  isEnd(): boolean;
}
