/**
 * A position of the rules adapters (`GameState` of src/games: `ChessGame`, `ShogiGame`) as the
 * Thinker sees it (position.ts), in UCI/USI: what the local page's game and the UCI/USI session
 * hold, as the lichess line and the CSA position are adapted beside their front-ends.
 */
import type { GameState } from '../../core/game.js';
import type { ThinkerPosition } from './position.js';

/** A rules position with shogi's entering-king declaration (`ShogiGame`). */
interface Declaring {
  canDeclareWin(): boolean;
}

// By its method rather than `instanceof ShogiGame`: a chess engine's session (`kishi uci`) need not
// load the shogi rules at start-up.
const declares = (state: GameState<unknown>): state is GameState<unknown> & Declaring =>
  typeof (state as Partial<Declaring>).canDeclareWin === 'function';

/** Pieces on the board (kings included), from the board field of a FEN or SFEN. */
export const piecesOnBoard = (text: string): number => (text.split(' ')[0]!.match(/[a-zA-Z]/g) ?? []).length;

/** A view of `state` (live: it follows the game as moves are played and taken back). */
export function gameStatePosition(state: GameState<unknown>): ThinkerPosition {
  return {
    legalMoves: () => state.legalMoves().map((m) => state.moveToText(m)),
    illegalReason: (move) => {
      const parsed = state.parseMove(move);
      return parsed.isErr ? parsed.error.message : undefined;
    },
    pieceCount: () => piecesOnBoard(state.toText()),
    ...(declares(state) ? { canDeclareWin: () => state.canDeclareWin() } : {}),
  };
}
