import { describe, expect, it } from 'vitest';
import { CsaClock, chargedUnits, deadlineMs, planBudget } from '../../../src/protocols/csa/clock.js';
import type { TimeRule } from '../../../src/protocols/csa/summary.js';
import { ServerClock } from '../../fakes/csa-server/time-rule.js';

const rule = (over: Partial<TimeRule> = {}): TimeRule => ({
  unitMs: 1000,
  totalTime: 300,
  byoyomi: 0,
  increment: 10,
  leastTimePerMove: 0,
  roundup: false,
  delay: 0,
  ...over,
});

describe('CSA clock (mirror of shogi-server)', () => {
  it('truncates elapsed time to whole units, with the least time per move', () => {
    expect([0, 999, 1000, 1999, 4380, 5080].map((ms) => chargedUnits(rule(), ms))).toEqual([0, 0, 1, 1, 4, 5]);
    expect(chargedUnits(rule({ leastTimePerMove: 1 }), 200)).toBe(1);
    expect([0, 1, 1000, 1001].map((ms) => chargedUnits(rule({ roundup: true }), ms))).toEqual([0, 1, 1, 2]);
    expect(chargedUnits(rule({ unitMs: 10 }), 1234)).toBe(123);
  });

  it('adds the increment after the move and never goes below zero', () => {
    const c = new CsaClock({ black: rule({ totalTime: 3, increment: 2 }), white: rule() });
    c.charge('+', 4); // 3 + 2 - 4
    expect(c.remaining('+')).toBe(1);
    c.charge('+', 2); // 1 + 2 - 2
    expect(c.remaining('+')).toBe(1);
    const byo = new CsaClock({ black: rule({ totalTime: 10, increment: 0, byoyomi: 5 }), white: rule() });
    byo.charge('+', 14);
    expect(byo.remaining('+')).toBe(0);
    expect(byo.remainingMs('-')).toBe(300_000);
  });

  it('flags exactly what the transcripts show was flagged', () => {
    // transcript-timeup-keepalive: 3+2F, no move: blank lines at 2 s and 4 s passed, at 6 s #TIME_UP.
    const c = new CsaClock({ black: rule({ totalTime: 3, increment: 2 }), white: rule({ totalTime: 3, increment: 2 }) });
    expect([2, 4, 5, 6].map((t) => c.wouldTimeUp('+', t))).toEqual([false, false, true, true]);
    // §1: fairy-stockfish with btime 4000 binc 1000 used 5.08 s: 4+1 remaining+inc, t=5 -> #TIME_UP.
    const f = new CsaClock({ black: rule({ totalTime: 4, increment: 1 }), white: rule() });
    expect(f.wouldTimeUp('+', chargedUnits(f.rule('+'), 5080))).toBe(true);
    expect(f.wouldTimeUp('+', chargedUnits(f.rule('+'), 4999))).toBe(false);
  });

  it('time-up edge: a move at remaining+increment-1 s passes, the next second is lost', () => {
    for (const [total, inc, byo] of [
      [3, 2, 0],
      [300, 10, 0],
      [0, 10, 0],
      [10, 0, 5],
      [0, 0, 10],
    ] as const) {
      const r = rule({ totalTime: total, increment: inc, byoyomi: byo });
      const c = new CsaClock({ black: r, white: r });
      const limit = total + inc + byo;
      expect(c.wouldTimeUp('+', limit - 1)).toBe(false);
      expect(c.wouldTimeUp('+', limit)).toBe(true);
      expect(deadlineMs(r, total)).toBe(limit * 1000);
      // Any elapsed time below the deadline is charged at most limit-1.
      expect(chargedUnits(r, deadlineMs(r, total) - 1)).toBe(limit - 1);
    }
    // With Time_Roundup the last free millisecond is one unit earlier.
    expect(deadlineMs(rule({ totalTime: 3, increment: 2, roundup: true }), 3)).toBe(4000);
  });

  it('agrees with the test server rule on every remaining/elapsed pair', () => {
    for (const tc of [
      { total: 5, inc: 2, byo: 0, least: 0 },
      { total: 5, inc: 0, byo: 3, least: 0 },
      { total: 2, inc: 1, byo: 0, least: 1 },
    ]) {
      const r = rule({ totalTime: tc.total, increment: tc.inc, byoyomi: tc.byo, leastTimePerMove: tc.least });
      for (let elapsed = 0; elapsed < 12_000; elapsed += 250) {
        const mirror = new CsaClock({ black: r, white: r });
        const server = new ServerClock({ unitMs: 1000, total: tc.total, byoyomi: tc.byo, increment: tc.inc, least: tc.least });
        for (let move = 0; move < 3; move++) {
          const t = chargedUnits(r, elapsed);
          expect(t).toBe(server.charge(elapsed));
          expect(mirror.wouldTimeUp('+', t)).toBe(server.timeUp('+', t));
          expect(elapsed < mirror.deadlineMs('+')).toBe(!server.timeUp('+', server.charge(elapsed)));
          if (server.timeUp('+', t)) break;
          mirror.charge('+', t);
          server.apply('+', t);
          expect(mirror.remaining('+')).toBe(server.left('+'));
        }
      }
    }
  });

  it('the budget never plans past the deadline and keeps the margin plus the round trip', () => {
    const r = rule({ totalTime: 3, increment: 2 });
    const c = new CsaClock({ black: r, white: rule({ totalTime: 7, increment: 2 }) });
    const b = planBudget(c, '+', 1000, 150);
    expect(b.hardMs).toBe(5000 - 1150);
    expect(b.marginMs).toBe(1150);
    // The Player's clock adds up to exactly the hard limit (main time first, then the increment).
    expect(b.clock).toEqual({ firstMs: 1850, secondMs: 7000, firstIncMs: 2000, secondIncMs: 2000, byoyomiMs: 0 });
    expect(b.clock.firstMs + b.clock.firstIncMs + b.clock.byoyomiMs).toBe(b.hardMs);
    // With little time left the cut eats into the increment.
    c.charge('+', 4); // remaining 1
    const low = planBudget(c, '+', 1000, 500);
    expect(low.hardMs).toBe(1500);
    expect([low.clock.firstMs, low.clock.firstIncMs]).toEqual([0, 1500]);
    // Byoyomi games: white to move with 10 s byoyomi and nothing left.
    const byo = rule({ totalTime: 0, increment: 0, byoyomi: 10 });
    const cb = new CsaClock({ black: byo, white: byo });
    const bb = planBudget(cb, '-', 1500, 0);
    expect(bb.hardMs).toBe(8500);
    expect(bb.clock).toEqual({ firstMs: 0, secondMs: 0, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 8500 });
    // Never negative.
    expect(planBudget(new CsaClock({ black: rule({ totalTime: 0, increment: 1 }), white: r }), '+', 1000, 500).hardMs).toBe(0);
  });

  it('takes the Time_Roundup unit out of the budget too', () => {
    const r = rule({ totalTime: 3, increment: 2, roundup: true });
    const b = planBudget(new CsaClock({ black: r, white: r }), '+', 1000, 0);
    expect(b.hardMs).toBe(3000);
    expect(b.clock.firstMs + b.clock.firstIncMs).toBe(3000);
  });
});
