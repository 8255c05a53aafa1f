/**
 * Several search threads over one MCTS tree (issue 19): the main search (`MctsSearch.run`) and
 * `count` helper threads play on one `SharedTree` (shared-tree.ts), each with its own board and
 * its own CPU evaluator, as Lc0's and KataGo's search threads share one tree; the main thread also
 * keeps the clock, the limits, the progress reports and the choice of the move. Where the helpers
 * live (worker threads) is the player's business (src/player/mcts-helpers.ts); this file is the
 * contract between the two sides: the search's view of its helpers and the control words they
 * share.
 *
 * Control memory (`MctsControl`): Int32 words [stop, target, status of helper 1 .. count], then
 * per helper the statistics of its last run (Float64: evaluations, depth sum, depth count,
 * seldepth). `target`: root visits, completed and in flight, at which no thread starts another
 * playout (the playout and visit limits). A helper's status is `HELPER_LOADING` until it can
 * search (its networks loaded), then `HELPER_IDLE`; `HELPER_BUSY` from the `start` that gives it
 * work until it has stopped; `HELPER_FAILED` when it could not load or its run threw.
 */
import type { SharedTreeMemory } from './shared-tree.js';

export const CONTROL_STOP = 0;
export const CONTROL_TARGET = 1;
/** Status word of helper `id` (1-based). */
export const controlStatus = (id: number): number => 1 + id;

export const HELPER_IDLE = 0;
export const HELPER_BUSY = 1;
export const HELPER_FAILED = 2;
export const HELPER_LOADING = 3;

/** Statistics slots per helper, in the Float64 part. */
export const STAT_EVALUATIONS = 0;
export const STAT_DEPTH_SUM = 1;
export const STAT_DEPTH_COUNT = 2;
export const STAT_SELDEPTH = 3;
const STATS = 4;

/** The shared control words of a main search and `count` helpers. */
export class MctsControl {
  readonly words: Int32Array;
  readonly stats: Float64Array;

  constructor(
    readonly count: number,
    readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(MctsControl.bytes(count)),
  ) {
    this.words = new Int32Array(buffer, 0, 2 + count);
    this.stats = new Float64Array(buffer, MctsControl.wordBytes(count), STATS * count);
  }

  static bytes(count: number): number {
    return MctsControl.wordBytes(count) + STATS * count * 8;
  }

  /** Bytes of the Int32 words, rounded up to 8 so that the Float64 statistics that follow are aligned. */
  private static wordBytes(count: number): number {
    return Math.ceil((2 + count) / 2) * 8;
  }

  /** Index into `stats` of helper `id`'s statistic `stat`. */
  stat(id: number, stat: number): number {
    return (id - 1) * STATS + stat;
  }
}

/** The root of a threaded search as text, for the helpers to set up their own boards. */
export interface RootPosition {
  /** FEN / SFEN or `startpos`, then the moves played from it (the history the repetition rules read). */
  readonly start: string;
  readonly moves: readonly string[];
  readonly chess960?: boolean;
}

/** The main search's view of its helper threads. */
export interface MctsHelpers {
  /** Helpers not lost (some may still be loading: `start` gives work to those that are ready). */
  readonly count: number;
  readonly control: MctsControl;
  /**
   * Sets the status of each helper that is ready (`HELPER_IDLE`) to `HELPER_BUSY` and has it play
   * on the tree in `memory` from `position` (the tree's root) until the stop word is set; a helper
   * still loading sits this search out. The caller has set the stop word to 0 and the target.
   */
  start(memory: SharedTreeMemory, position: RootPosition): void;
  /**
   * After the caller set the stop word: waits until every started helper has stopped, at most
   * `timeoutMs`. Returns how many were lost (failed, or silent past the time; they take no more work),
   * whose playouts in flight may have left virtual visits in the tree.
   */
  join(timeoutMs: number): number;
}
