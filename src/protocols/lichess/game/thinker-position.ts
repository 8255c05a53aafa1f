/** A game line as the Thinker sees it (src/bot/thinker/position.ts), in the Player's notation. */
import type { ThinkerPosition } from '../../../bot/thinker/position.js';
import type { GameLine } from '../game-line.js';

/** A view of `line` (live: it follows the game as the line syncs). */
export function thinkerPositionOf(line: GameLine): ThinkerPosition {
  return {
    legalMoves: () => line.legalMoves(),
    illegalReason: (move) => (line.isLegal(move) ? undefined : `not legal in ${line.fen()}`),
    pieceCount: () => line.pieceCount(),
    ...(line.canDeclareWin ? { canDeclareWin: () => line.canDeclareWin?.() === true } : {}),
  };
}
