/** The CSA client's shogiops position as the Thinker sees it (src/bot/thinker/position.ts), in USI. */
import type { ThinkerPosition } from '../../bot/thinker/position.js';
import { canDeclareWin, legalUsiMoves, parseUsiMove } from './shogi-rules.js';
import type { ShogiPosition } from './shogi-rules.js';

/** A view of `pos` (live: it follows the game as moves are applied). */
export function shogiThinkerPosition(pos: ShogiPosition): ThinkerPosition {
  return {
    legalMoves: () => legalUsiMoves(pos),
    illegalReason: (move) => {
      const m = parseUsiMove(pos, move);
      return m.isErr ? m.error.message : undefined;
    },
    pieceCount: () => pos.board.occupied.size(),
    canDeclareWin: () => canDeclareWin(pos),
  };
}
