/**
 * The clock of a game played on the local page: Fischer (main time plus an increment after each
 * move) and, for shogi, byoyomi (once the main time is spent, each move must be made within the
 * byoyomi period, which starts afresh every move; CSA and shogi-server count it the same way).
 * The server owns it; times come from an injected clock, so it is pure and testable.
 */
import type { ClockState } from '../core/clock.js';
import type { Side } from '../core/game.js';
import { otherSide } from '../core/game.js';

/** A time control, all in milliseconds. */
export interface TimeControl {
  readonly initialMs: number;
  readonly incrementMs: number;
  /** Shogi byoyomi per move once the main time is spent; 0: none. */
  readonly byoyomiMs: number;
}

/** What the page shows: both main times left, who runs, and whether each side is in byoyomi. */
export interface ClockView {
  readonly firstMs: number;
  readonly secondMs: number;
  /**
   * Time of the byoyomi period left to `byoyomiSide`: the running side once its main time is spent,
   * or, once the clock is stopped, the side that was in byoyomi then (a side that lost on time in
   * byoyomi shows an empty period, not a fresh one).
   */
  readonly byoyomiLeftMs?: number;
  readonly byoyomiSide?: Side;
  readonly running?: Side;
}

export class GameClock {
  private readonly left: Record<Side, number>;
  private running: Side | undefined;
  private since = 0;
  /** The byoyomi period left to the side that was in byoyomi when the clock stopped. */
  private stoppedInByoyomi: { readonly side: Side; readonly leftMs: number } | undefined;

  constructor(readonly control: TimeControl) {
    this.left = { first: control.initialMs, second: control.initialMs };
  }

  /** Starts `side`'s clock at `now`. */
  start(side: Side, now: number): void {
    this.running = side;
    this.since = now;
    this.stoppedInByoyomi = undefined;
  }

  /** Stops the clock (game over), charging the running side. */
  stop(now: number): void {
    if (this.running === undefined) return;
    const byoyomiLeft = this.byoyomiLeft(now);
    this.left[this.running] = Math.max(0, this.left[this.running] - (now - this.since));
    this.stoppedInByoyomi = byoyomiLeft === undefined ? undefined : { side: this.running, leftMs: byoyomiLeft };
    this.running = undefined;
  }

  /**
   * The side to move moved at `now`: charges its time, adds the increment (or restores the byoyomi
   * period) and starts the other side. Returns false when the mover had already run out of time.
   */
  press(now: number): boolean {
    const side = this.running;
    if (side === undefined) return true;
    if (this.flagged(now)) return false;
    const used = now - this.since;
    // Time spent in byoyomi does not come out of the (already empty) main time; the byoyomi period
    // starts afresh at the next move.
    this.left[side] = Math.max(0, this.left[side] - used) + this.control.incrementMs;
    this.start(otherSide(side), now);
    return true;
  }

  /** Whether the running side has used up its main time and its byoyomi period at `now`. */
  flagged(now: number): boolean {
    const side = this.running;
    if (side === undefined) return false;
    return now - this.since > this.left[side] + this.control.byoyomiMs;
  }

  /** Milliseconds until the running side's flag falls, from `now` (undefined when stopped). */
  msToFlag(now: number): number | undefined {
    const side = this.running;
    if (side === undefined) return undefined;
    return Math.max(0, this.left[side] + this.control.byoyomiMs - (now - this.since));
  }

  /** Main time left to `side` at `now`. */
  timeLeft(side: Side, now: number): number {
    const used = side === this.running ? now - this.since : 0;
    return Math.max(0, this.left[side] - used);
  }

  runningSide(): Side | undefined {
    return this.running;
  }

  /** The clock as the Player API takes it (search/time.ts plans from it). */
  state(now: number): ClockState {
    return {
      firstMs: this.timeLeft('first', now),
      secondMs: this.timeLeft('second', now),
      firstIncMs: this.control.incrementMs,
      secondIncMs: this.control.incrementMs,
      byoyomiMs: this.control.byoyomiMs,
    };
  }

  /** The byoyomi period left to the running side at `now`, when it has spent its main time. */
  private byoyomiLeft(now: number): number | undefined {
    const side = this.running;
    if (side === undefined || this.control.byoyomiMs <= 0) return undefined;
    const over = now - this.since - this.left[side];
    return over >= 0 ? Math.max(0, this.control.byoyomiMs - over) : undefined;
  }

  view(now: number): ClockView {
    const side = this.running;
    const running = this.byoyomiLeft(now);
    const byoyomi = running !== undefined && side !== undefined ? { side, leftMs: running } : this.stoppedInByoyomi;
    return {
      firstMs: this.timeLeft('first', now),
      secondMs: this.timeLeft('second', now),
      ...(byoyomi !== undefined ? { byoyomiLeftMs: byoyomi.leftMs, byoyomiSide: byoyomi.side } : {}),
      ...(side !== undefined ? { running: side } : {}),
    };
  }

  /** Both main times at `now` (the game log's `clockMs`). */
  snapshot(now: number): { first: number; second: number } {
    return { first: this.timeLeft('first', now), second: this.timeLeft('second', now) };
  }
}
