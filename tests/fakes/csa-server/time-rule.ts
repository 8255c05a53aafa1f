/**
 * The test server's clock: shogi-server's `time_clock.rb` rule, written out independently of the
 * client's mirror (src/protocols/csa/clock.ts) so that tests can hold one against the other.
 *
 * Everything in units of `unitMs`. A move is charged `max(floor(elapsed), least)` units; the mover
 * loses on time when `remaining - t + byoyomi + increment <= 0`; otherwise
 * `remaining := max(0, remaining + increment - t)`.
 */
export interface ServerTimeControl {
  readonly unitMs: number;
  readonly total: number;
  readonly byoyomi: number;
  readonly increment: number;
  readonly least: number;
}

/** `csatest-300-10F` → 300 total + 10 increment; `x-600-10` → 600 total, byoyomi 10. */
export function timeControlFromGameName(name: string, unitMs: number, least = 0): ServerTimeControl | undefined {
  const m = /^(.+)-(\d+)-(\d+)(F?)(?:-[BWbw])?$/.exec(name);
  if (!m) return undefined;
  const total = Number(m[2]);
  const second = Number(m[3]);
  return m[4] === 'F'
    ? { unitMs, total, byoyomi: 0, increment: second, least }
    : { unitMs, total, byoyomi: second, increment: 0, least };
}

export class ServerClock {
  private remaining: Record<'+' | '-', number>;

  constructor(readonly tc: ServerTimeControl) {
    this.remaining = { '+': tc.total, '-': tc.total };
  }

  left(side: '+' | '-'): number {
    return this.remaining[side];
  }

  /** Units charged for `elapsedMs`. */
  charge(elapsedMs: number): number {
    return Math.max(Math.floor(elapsedMs / this.tc.unitMs), this.tc.least);
  }

  /** Whether a move charged `t` units by `side` is too late. */
  timeUp(side: '+' | '-', t: number): boolean {
    return this.remaining[side] - t + this.tc.byoyomi + this.tc.increment <= 0;
  }

  /** Elapsed ms at which `side` is flagged (the smallest elapsed time whose charge is time-up). */
  flagAtMs(side: '+' | '-'): number {
    let t = this.remaining[side] + this.tc.byoyomi + this.tc.increment;
    if (t < this.tc.least) t = 0;
    return Math.max(0, t) * this.tc.unitMs;
  }

  apply(side: '+' | '-', t: number): void {
    this.remaining[side] = Math.max(0, this.remaining[side] + this.tc.increment - t);
  }
}
