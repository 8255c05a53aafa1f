/**
 * The one time plan of a move. A front-end passes its clock through as the server keeps it (with a
 * protocol deadline when the server has a stricter rule than the clock: floodgate's time-up rule, lichess's
 * first-move window); here, once per move, that becomes the soft and hard limits the Player searches to
 * (`GoRequest.budget`, from `planTime` of src/search/time.ts) and the moment the Thinker stops a Player
 * that overruns them. Nothing else plans: the Player takes the budget as is, the Thinker's guard reads
 * `stopMs`. Pure.
 */
import type { ClockState } from '../../core/clock.js';
import type { GameKind, Side } from '../../core/game.js';
import type { SearchLimits } from '../../player/player.js';
import { byoyomiOnly, planTime } from '../../search/time.js';
import type { TimeBudget } from '../../search/time.js';

/** What a front-end knows about the time of one move. */
export interface MoveTime {
  /** The clock to pass to the Player, our side already charged for the time since the server's update. */
  readonly clock?: ClockState;
  /** Our side (whose time the plan spends). */
  readonly side: Side;
  /** Plies played before our move (the plan expects fewer moves left later in the game). */
  readonly plies: number;
  /** Network lag kept back per move, milliseconds (config `engine.moveOverheadMs`). */
  readonly overheadMs: number;
  /**
   * The protocol's last moment for the move, milliseconds after the turn began, when the server has a
   * stricter rule than the clock alone (CSA: the server's time-up rule less the safety margin and the
   * round trip; lichess: the first-move window). The guard stops the Player here.
   */
  readonly deadlineMs?: number;
  /** Fixed limits instead of a plan (correspondence move time, `lichess.goOverrides`). */
  readonly limits?: SearchLimits;
}

/** The plan of one move. */
export interface TimePlan {
  /** The soft and hard limits for the Player (`GoRequest.budget`); absent when `limits` or no clock decide. */
  readonly budget?: TimeBudget;
  /** When the Thinker stops a Player that has not answered, ms after the turn began; absent: never. */
  readonly stopMs?: number;
}

/**
 * Of the time left on our clock, the part the guard lets a search overrun its plan into before it stops
 * it: the rest stays for the fallback move and the next moves. Not in pure byoyomi, where the period
 * is lost when unused and no later move needs what is left of it: there the guard stops at the
 * overhead itself, and the plan's hard limit is the whole period less the overhead.
 */
const GUARD_SHARE = 0.8;

/** The shortest guard, milliseconds: a search gets to answer at all. */
const MIN_STOP_MS = 20;

/** Plans one move of `game` from what the front-end knows. */
export function planMove(game: GameKind, time: MoveTime): TimePlan {
  const { clock, limits } = time;
  const deadline = time.deadlineMs;
  // A protocol deadline holds exactly (the server's rule); a guard of our own gets at least MIN_STOP_MS.
  const cap = (ms: number): number => (deadline === undefined ? Math.max(MIN_STOP_MS, ms) : Math.max(0, Math.min(ms, deadline)));
  // Fixed move time: the Player stops itself there; the guard leaves it half as long again and a second.
  if (limits?.movetimeMs !== undefined) return { stopMs: cap(limits.movetimeMs * 1.5 + 1000) };
  if (clock === undefined) return deadline === undefined ? {} : { stopMs: cap(deadline) };
  const ours = Math.max(0, time.side === 'first' ? clock.firstMs : clock.secondMs);
  const input = { game, clock, side: time.side, plies: time.plies, moveOverheadMs: time.overheadMs };
  // Without a protocol deadline, the guard lets the search run into most of what our clock has left
  // (all of the period, less the overhead, in pure byoyomi).
  const stopMs = cap(deadline ?? (ours + clock.byoyomiMs - time.overheadMs) * (byoyomiOnly(input) ? 1 : GUARD_SHARE));
  // Node or depth limits bound the search by themselves; the guard still keeps the clock.
  if (limits?.nodes !== undefined || limits?.depth !== undefined || limits?.infinite === true) return { stopMs };
  const planned = planTime(input);
  const hardMs = Math.max(1, Math.min(planned.hardMs, stopMs));
  return { budget: { softMs: Math.min(planned.softMs, hardMs), hardMs }, stopMs };
}
