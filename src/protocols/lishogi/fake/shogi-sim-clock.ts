/**
 * lishogi's game clock, as scalashogi's `Clock.scala` counts it, for the local lishogi server: main time,
 * a Fischer increment added after a move made while main time is left, and `periods` byoyomi periods;
 * once a move runs past the main time the side is in byoyomi, each move must be made within one period
 * (which starts afresh every move), a move that overruns a period spends it and goes on in the next, and
 * the side loses when it has no period left. A clock with no main time starts in byoyomi (its first
 * period counted as spent) with at least 5 s for the first move. Times in milliseconds; the clock runs in
 * real time from `start` (scalashogi's `Timestamper`), here read from `now`.
 */
export interface ShogiClockConfig {
  readonly initialMs: number;
  readonly incrementMs: number;
  readonly byoyomiMs: number;
  /** Byoyomi periods (scalashogi `periodsTotal`: at least 1 with byoyomi, 0 without). */
  readonly periods: number;
}

interface SideClock {
  remaining: number;
  spentPeriods: number;
}

export type Side = 0 | 1;

export class ShogiSimClock {
  private readonly sides: [SideClock, SideClock];
  private readonly periodsTotal: number;
  /** The side whose clock runs, and since when; undefined while stopped. */
  private running: { side: Side; since: number } | undefined;

  constructor(
    readonly config: ShogiClockConfig,
    private readonly now: () => number = Date.now,
  ) {
    const byo = config.byoyomiMs;
    this.periodsTotal = byo > 0 ? Math.max(1, config.periods) : 0;
    const startsAtZero = config.initialMs === 0 && byo > 0;
    // scalashogi Config.initTime: pure byoyomi gets max(byoyomi, 5 s); no time at all gets max(increment, 5 s).
    const init = config.initialMs > 0 ? config.initialMs : byo > 0 ? Math.max(byo, 5000) : Math.max(config.incrementMs, 5000);
    const side = (): SideClock => ({ remaining: init, spentPeriods: startsAtZero ? 1 : 0 });
    this.sides = [side(), side()];
  }

  isRunning(): boolean {
    return this.running !== undefined;
  }

  runningSide(): Side | undefined {
    return this.running?.side;
  }

  /** Starts (or switches) the clock to `side`. */
  start(side: Side): void {
    this.running = { side, since: this.now() };
  }

  stop(): void {
    this.running = undefined;
  }

  private periodsLeft(s: SideClock): number {
    return Math.max(0, this.periodsTotal - s.spentPeriods);
  }

  /** Periods a move of `t` ms spends (scalashogi `periodsInUse`). */
  private periodsInUse(s: SideClock, t: number): number {
    const after = s.remaining - t;
    if (after > 0 || this.config.byoyomiMs <= 0) return 0;
    return Math.min(Math.floor(-after / this.config.byoyomiMs) + 1, this.periodsLeft(s));
  }

  private elapsed(side: Side): number {
    return this.running?.side === side ? this.now() - this.running.since : 0;
  }

  /** Whether `side` has run out of time (scalashogi `outOfTime` without lag grace). */
  outOfTime(side: Side): boolean {
    const s = this.sides[side];
    return s.remaining + this.periodsLeft(s) * this.config.byoyomiMs <= this.elapsed(side);
  }

  /** The time `gameState` reports for `side` (scalashogi `currentClockFor(c).time`), ms. */
  reported(side: Side): number {
    const s = this.sides[side];
    const e = this.elapsed(side);
    return Math.max(0, s.remaining - e + this.config.byoyomiMs * this.periodsInUse(s, e));
  }

  /** Periods `side` has spent (lishogi's round JSON `sPeriods`/`gPeriods`). */
  spentPeriods(side: Side): number {
    return this.sides[side].spentPeriods;
  }

  /**
   * The running side moved now (scalashogi `step`): charges the time, gives the increment or restores
   * the period, and switches the clock to the other side. Returns false when the move came too late
   * (the clock then stops: the game is lost on time).
   */
  step(): boolean {
    const run = this.running;
    if (run === undefined) return true;
    const s = this.sides[run.side];
    const moveTime = this.now() - run.since;
    const byo = this.config.byoyomiMs;
    const active = moveTime < s.remaining + this.periodsLeft(s) * byo;
    const span = this.periodsInUse(s, moveTime);
    const usingByoyomi = active && byo > 0 && (s.spentPeriods > 0 || span > 0);
    if (usingByoyomi) {
      s.remaining = Math.max(s.remaining - moveTime, byo);
    } else {
      s.remaining = s.remaining - moveTime + (active ? this.config.incrementMs : 0);
    }
    s.spentPeriods += span;
    if (!active) {
      this.running = undefined;
      return false;
    }
    this.running = { side: run.side === 0 ? 1 : 0, since: this.now() };
    return true;
  }
}
