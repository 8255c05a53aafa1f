/**
 * The CSA server's clock, mirrored exactly (shogi-server `time_clock.rb`, CSA protocol 1.2.1):
 *
 * - a move is charged `t = max(floor(elapsed / unit), Least_Time_Per_Move)` units (`ceil` with
 *   `Time_Roundup:YES`), where `elapsed` runs from the moment the server sent the previous move (or START);
 * - after the move, `remaining = max(0, remaining + increment - t)`;
 * - the mover loses on time when `remaining - t + byoyomi + increment <= 0`, so a move must reach the
 *   server strictly before `remaining + byoyomi + increment` units have elapsed;
 * - both clocks start at `Total_Time` when the server sends START, also in a game whose Position block
 *   already has moves with their times (a buoy game, `%%FORK`): shogi-server's `Game#start` resets them.
 *
 * `planBudget` turns that into a hard deadline for our search, kept back by a safety margin plus the
 * measured round trip (the server's clock starts before its message reaches us, and stops only when
 * our reply reaches it). Pure: no I/O, no timers.
 */
import type { ClockState } from '../../player/player.js';
import type { CsaSign, TimeRule } from './summary.js';

/** Units the server charges for a move that took `elapsedMs` by its own clock. */
export function chargedUnits(rule: TimeRule, elapsedMs: number): number {
  const raw = elapsedMs / rule.unitMs;
  // Guard against floating-point noise (e.g. 2999.9999 ms for 3 s) before rounding.
  const units = rule.roundup ? Math.ceil(raw - 1e-9) : Math.floor(raw + 1e-9);
  return Math.max(units, rule.leastTimePerMove);
}

/** Whether a move charged `t` units loses on time, with `remaining` units left before it. */
export function isTimeUp(rule: TimeRule, remaining: number, t: number): boolean {
  return remaining - t + rule.byoyomi + rule.increment <= 0;
}

/** Remaining units after a move charged `t` units. */
export function afterMove(rule: TimeRule, remaining: number, t: number): number {
  return Math.max(0, remaining + rule.increment - t);
}

/**
 * The exclusive deadline of the next move, in ms of server time after the previous move was sent:
 * the move is on time iff it arrives strictly before this. Accounts for truncation (`floor`: anything
 * below the next whole unit is free), `Time_Roundup` and `Least_Time_Per_Move`.
 */
export function deadlineMs(rule: TimeRule, remaining: number): number {
  const limit = remaining + rule.byoyomi + rule.increment; // t must stay below this many units
  if (rule.leastTimePerMove >= limit) return 0;
  // floor(e/u) < limit  <=>  e < limit*u;   ceil(e/u) < limit  <=>  e <= (limit-1)*u.
  return rule.roundup ? (limit - 1) * rule.unitMs : limit * rule.unitMs;
}

/** Both sides' clocks as the server keeps them, in units. */
export class CsaClock {
  private readonly remainingUnits: Record<CsaSign, number>;

  constructor(readonly rules: { readonly black: TimeRule; readonly white: TimeRule }) {
    this.remainingUnits = { '+': rules.black.totalTime, '-': rules.white.totalTime };
  }

  rule(side: CsaSign): TimeRule {
    return side === '+' ? this.rules.black : this.rules.white;
  }

  /** Units left for `side` (without the increment of its coming move). */
  remaining(side: CsaSign): number {
    return this.remainingUnits[side];
  }

  remainingMs(side: CsaSign): number {
    return this.remainingUnits[side] * this.rule(side).unitMs;
  }

  /** Applies the time `t` (units) the server charged `side` for a move (`,T<t>` of the echo). */
  charge(side: CsaSign, t: number): void {
    this.remainingUnits[side] = afterMove(this.rule(side), this.remainingUnits[side], t);
  }

  /** Whether the server would flag `side` for a move charged `t` units now. */
  wouldTimeUp(side: CsaSign, t: number): boolean {
    return isTimeUp(this.rule(side), this.remainingUnits[side], t);
  }

  /** Exclusive deadline of `side`'s next move in ms after the server sent the previous one. */
  deadlineMs(side: CsaSign): number {
    return deadlineMs(this.rule(side), this.remainingUnits[side]);
  }
}

/** What our search may use for one move. */
export interface Budget {
  /** Stop thinking and send a move at most this many ms after the opponent's move reached us. */
  readonly hardMs: number;
  /** The clock to give the Player, our side already reduced by the margin. */
  readonly clock: ClockState;
  /** The margin used: safety margin plus round trip, ms. */
  readonly marginMs: number;
}

/**
 * Plans our move: the hard limit is the server's deadline minus `safetyMs + rttMs`, and the Player
 * sees a clock whose remaining time, increment and byoyomi together add up to exactly that limit, so
 * no time manager that stays within its clock can plan past the server's time-up rule.
 */
export function planBudget(clock: CsaClock, us: CsaSign, safetyMs: number, rttMs: number): Budget {
  const margin = Math.max(0, safetyMs) + Math.max(0, rttMs);
  const rule = clock.rule(us);
  const deadline = clock.deadlineMs(us);
  const hardMs = Math.max(0, deadline - margin);
  // Take the margin (and the Time_Roundup unit) out of the main time first, then the increment, then byoyomi.
  let cut = (clock.remaining(us) + rule.byoyomi + rule.increment) * rule.unitMs - hardMs;
  let mainMs = clock.remainingMs(us);
  let incMs = rule.increment * rule.unitMs;
  let byoMs = rule.byoyomi * rule.unitMs;
  const take = (have: number): number => {
    const d = Math.min(have, cut);
    cut -= d;
    return have - d;
  };
  mainMs = take(mainMs);
  incMs = take(incMs);
  byoMs = take(byoMs);
  const other: CsaSign = us === '+' ? '-' : '+';
  const otherRule = clock.rule(other);
  const mine = { ms: mainMs, inc: incMs };
  const theirs = { ms: clock.remainingMs(other), inc: otherRule.increment * otherRule.unitMs };
  const black = us === '+' ? mine : theirs;
  const white = us === '+' ? theirs : mine;
  return {
    hardMs,
    marginMs: margin,
    clock: {
      firstMs: black.ms,
      secondMs: white.ms,
      firstIncMs: black.inc,
      secondIncMs: white.inc,
      byoyomiMs: byoMs,
    },
  };
}
