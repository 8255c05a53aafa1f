/**
 * The shared control array between a worker player (worker-player.ts, the main thread) and the
 * engine searching in its worker (alpha-beta, MCTS): an `Int32Array` over shared memory whose words
 * the main thread sets while the worker's search polls them, as `stop` and `ponderhit` arrive.
 */

/** Word of the control array: `stop` (for a Lazy SMP helper: the main search ended). */
export const SIGNAL_STOP = 0;
/** Word of the control array: `ponderhit`. */
export const SIGNAL_PONDERHIT = 1;
/** Length of the control array. */
export const SIGNAL_WORDS = 2;
