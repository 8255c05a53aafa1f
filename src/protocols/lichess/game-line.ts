/**
 * What a lichess game handler needs of the position: the server's full move list followed on one line
 * (a longer list applies the tail, a shorter one is a takeback), the side to move, positions for the
 * game log, legality and the piece count. `ChessLine` (chess-line.ts, chessops) is the chess line;
 * `ShogiLine` (src/protocols/lishogi/shogi-line.ts, shogiops) implements the same, with sente as
 * `white`, the side that moves first. It sits beside `ServerProfile`, whose `createLine` makes one, so
 * that its implementers import the seam of the Bot API core and not a part of the game handler
 * (`game/`), which only uses it.
 */
import type { KishiError, Result } from '../../core/result.js';
import type { Color } from './types.js';

export interface GameLine {
  /** The variant key as the server names it. */
  readonly variant: string;
  /** `startpos` or the start position (FEN/SFEN) as the server gives it. */
  readonly initialFen: string;
  /** Follows the server's full move list; Err at a move that is not legal (the moves before it stay applied). */
  sync(moves: readonly string[]): Result<void, KishiError>;
  /** Plies played since the start. */
  plies(): number;
  /** The moves played, in the Player's notation (UCI/USI). */
  moves(): readonly string[];
  /** The side to move. */
  turn(): Color;
  /** The side that moved at ply 0. */
  firstMover(): Color;
  /** The position now (FEN/SFEN). */
  fen(): string;
  /** The position before ply `ply` (FEN/SFEN). */
  fenAt(ply: number): string;
  isLegal(move: string): boolean;
  legalMoves(): string[];
  /** Pieces on the board (the draw condition). */
  pieceCount(): number;
  /** Whether the side to move may declare a win (shogi's entering-king rule); absent: never. */
  canDeclareWin?(): boolean;
}
