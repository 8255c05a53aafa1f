/**
 * What the Thinker sees of a position: enough to check the Player's answer, pick a fallback move and
 * apply the draw condition, in the Player's notation (UCI for chess, USI for shogi). Each front-end
 * adapts its own position (lichess's `ChessLine`, the CSA client's shogiops position); the Thinker never
 * sees chess or shogi.
 */
import type { SearchInfo } from '../../player/player.js';

export interface ThinkerPosition {
  /** The legal moves of the side to move, in the Player's notation; empty when the game is over. */
  legalMoves(): readonly string[];
  /** Why `move` cannot be played here (for the log), or undefined when it is legal. */
  illegalReason(move: string): string | undefined;
  /** Pieces on the board (the draw condition of `drawOrResign.offerDrawPieces`). */
  pieceCount(): number;
  /** Whether the side to move may declare a win now (shogi's entering-king rule); absent: never. */
  canDeclareWin?(): boolean;
}

/** A legal move when the Player cannot give one: the first PV move if legal, else the first legal move. */
export function fallbackMove(position: ThinkerPosition, info: SearchInfo | undefined): string | undefined {
  const legal = position.legalMoves();
  const pv = info?.pv[0];
  return pv !== undefined && legal.includes(pv) ? pv : legal[0];
}
