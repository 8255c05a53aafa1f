/** The lichess game's `ChessLine` as the Thinker sees it (src/bot/thinker/position.ts), in UCI. */
import type { ThinkerPosition } from '../../../bot/thinker/position.js';
import type { ChessLine } from '../chess-line.js';

/** A view of `line` (live: it follows the game as the line syncs). */
export function chessThinkerPosition(line: ChessLine): ThinkerPosition {
  return {
    legalMoves: () => line.legalMoves(),
    illegalReason: (move) => (line.isLegal(move) ? undefined : `not legal in ${line.fen()}`),
    pieceCount: () => line.pieceCount(),
  };
}
