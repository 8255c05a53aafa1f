/**
 * The game clock as a front-end reports it when it asks for a move. It sits in core because the
 * search's time planning (search/time.ts), the players, the match runner and every protocol read it.
 */

/** The clock as a front-end sees it when it asks for a move; all times in milliseconds. */
export interface ClockState {
  /** Time left for the first player (chess white, shogi sente/black). */
  readonly firstMs: number;
  /** Time left for the second player (chess black, shogi gote/white). */
  readonly secondMs: number;
  /** Fischer increment added after each move of the first player. */
  readonly firstIncMs: number;
  /** Fischer increment added after each move of the second player. */
  readonly secondIncMs: number;
  /** Shogi byoyomi per move once the main time is spent (0 when none). */
  readonly byoyomiMs: number;
  /** Moves until the next time control (0 or undefined: sudden death). */
  readonly movesToGo?: number;
}
