/**
 * Time management: from the clock a front-end reports, how long to think about one move.
 *
 * Two limits come out: `softMs`, after which no new iteration starts (iterative deepening checks it
 * between iterations), and `hardMs`, at which the search is aborted wherever it is. Both already
 * leave `moveOverheadMs` for network lag. Handles sudden death, Fischer increments, moves-to-go
 * controls and shogi byoyomi (with or without main time left).
 */
import type { GameKind, Side } from '../core/game.js';
import type { ClockState } from '../core/clock.js';

export interface TimeBudget {
  /** Do not start another iteration after this many milliseconds. */
  readonly softMs: number;
  /** Stop the search, wherever it is, after this many milliseconds. */
  readonly hardMs: number;
}

export interface TimePlanInput {
  readonly game: GameKind;
  readonly clock: ClockState;
  /** The side that is to move (ours). */
  readonly side: Side;
  /** Plies played so far in the game (for the expected number of moves left). */
  readonly plies: number;
  readonly moveOverheadMs: number;
}

/** The shortest think we ever plan, so that the search at least finishes depth 1. */
const MIN_THINK_MS = 5;

/**
 * Expected number of our moves left in the game when the control has no moves-to-go: a game is
 * assumed to last about 80 moves per side in chess and 120 plies in shogi, but we always plan for
 * at least 15 more.
 */
const expectedMovesLeft = (game: GameKind, plies: number): number => {
  const ourMovesPlayed = plies / 2;
  const total = game === 'chess' ? 50 : 70;
  return Math.max(15, total - ourMovesPlayed * 0.5);
};

/**
 * Whether this move is played in pure byoyomi (no main time left, or less than the overhead): the
 * period is lost when unused, so the search should run to the hard limit instead of stopping
 * once it has "enough".
 */
export const byoyomiOnly = (input: TimePlanInput): boolean => {
  const remaining = Math.max(0, input.side === 'first' ? input.clock.firstMs : input.clock.secondMs);
  return input.clock.byoyomiMs > 0 && remaining <= input.moveOverheadMs;
};

/**
 * Where a search that runs to the end of a pure byoyomi period (`AbLimits.useAllTime`) stops itself:
 * the plan's hard limit less 5% of it, at most 100 ms, so that the answer leaves the search (time is
 * polled every 256 nodes), the worker thread and the front-end before the plan's limit on a loaded
 * machine. Never above `hardMs` (at least 1).
 */
export const byoyomiStopMs = (hardMs: number): number => Math.max(1, Math.min(hardMs, Math.floor(hardMs - Math.min(100, hardMs * 0.05))));

/** Plans the time for one move. */
export const planTime = (input: TimePlanInput): TimeBudget => {
  const { clock, side, moveOverheadMs } = input;
  const remaining = Math.max(0, side === 'first' ? clock.firstMs : clock.secondMs);
  const inc = Math.max(0, side === 'first' ? clock.firstIncMs : clock.secondIncMs);
  const byoyomi = Math.max(0, clock.byoyomiMs);
  const mtg = clock.movesToGo !== undefined && clock.movesToGo > 0 ? clock.movesToGo : expectedMovesLeft(input.game, input.plies);

  // The most we may spend without losing on time: the main time plus byoyomi (the increment is
  // only added after the move), less the overhead.
  const safe = remaining + byoyomi - moveOverheadMs;
  if (safe <= MIN_THINK_MS) return { softMs: Math.max(1, safe * 0.5), hardMs: Math.max(1, safe) };

  let soft: number;
  let hard: number;
  if (remaining <= moveOverheadMs && byoyomi > 0) {
    // Pure byoyomi: the period is lost when unused, so use most of it.
    soft = safe * 0.7;
    hard = safe;
  } else {
    const usable = Math.max(0, remaining - moveOverheadMs);
    soft = usable / mtg + inc * 0.75 + byoyomi * 0.8;
    // Never plan more than the main time allows with a margin for the rest of the game.
    const cap = usable * (mtg <= 1 ? 0.9 : 0.4) + byoyomi;
    soft = Math.min(soft, cap);
    hard = Math.min(safe, Math.max(soft * 4, byoyomi), cap + inc * 0.5);
    hard = Math.max(hard, soft);
  }
  soft = Math.max(MIN_THINK_MS, Math.min(soft, safe));
  hard = Math.max(soft, Math.min(hard, safe));
  return { softMs: Math.floor(soft), hardMs: Math.floor(hard) };
};
