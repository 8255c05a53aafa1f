import { describe, expect, it } from 'vitest';
import { byoyomiOnly, planTime } from '../../src/search/time.js';

const clock = (firstMs: number, incMs = 0, byoyomiMs = 0, movesToGo?: number) => ({
  firstMs,
  secondMs: firstMs,
  firstIncMs: incMs,
  secondIncMs: incMs,
  byoyomiMs,
  ...(movesToGo !== undefined ? { movesToGo } : {}),
});

describe('time management', () => {
  it('spreads sudden death time over the expected rest of the game', () => {
    expect(planTime({ game: 'chess', clock: clock(60_000), side: 'first', plies: 0, moveOverheadMs: 100 })).toEqual({ softMs: 1198, hardMs: 4792 });
    // Later in the game, fewer moves are expected: more per move.
    const late = planTime({ game: 'chess', clock: clock(60_000), side: 'first', plies: 80, moveOverheadMs: 100 });
    expect(late.softMs).toBeGreaterThan(1198);
  });

  it('adds most of the increment, and uses moves-to-go when given', () => {
    expect(planTime({ game: 'chess', clock: clock(60_000, 1000), side: 'second', plies: 0, moveOverheadMs: 100 })).toEqual({
      softMs: 1948,
      hardMs: 7792,
    });
    expect(planTime({ game: 'chess', clock: clock(30_000, 0, 0, 10), side: 'first', plies: 0, moveOverheadMs: 0 })).toEqual({
      softMs: 3000,
      hardMs: 12000,
    });
    // The last move before the control may use most of the time.
    expect(planTime({ game: 'chess', clock: clock(10_000, 0, 0, 1), side: 'first', plies: 0, moveOverheadMs: 0 }).hardMs).toBe(9000);
  });

  it('uses the byoyomi once the main time is gone, minus the overhead', () => {
    expect(planTime({ game: 'shogi', clock: clock(0, 0, 10_000), side: 'first', plies: 50, moveOverheadMs: 1000 })).toEqual({
      softMs: 6300,
      hardMs: 9000,
    });
    const withMain = planTime({ game: 'shogi', clock: clock(300_000, 0, 10_000), side: 'second', plies: 20, moveOverheadMs: 1000 });
    expect(withMain.softMs).toBeGreaterThan(10_000);
    expect(withMain.hardMs).toBeLessThanOrEqual(300_000 + 10_000 - 1000);
  });

  it('never plans past the clock, even when the overhead eats it', () => {
    const tight = planTime({ game: 'chess', clock: clock(150), side: 'first', plies: 40, moveOverheadMs: 100 });
    expect(tight.hardMs).toBeLessThanOrEqual(50);
    expect(tight.softMs).toBeLessThanOrEqual(tight.hardMs);
    const gone = planTime({ game: 'chess', clock: clock(50), side: 'first', plies: 40, moveOverheadMs: 100 });
    expect(gone).toEqual({ softMs: 1, hardMs: 1 });
    for (const ms of [1, 10, 100, 1000, 10_000, 100_000, 1_000_000]) {
      for (const inc of [0, 100, 2000]) {
        const t = planTime({ game: 'shogi', clock: clock(ms, inc, inc === 0 ? 5000 : 0), side: 'first', plies: 30, moveOverheadMs: 200 });
        expect(t.softMs).toBeLessThanOrEqual(t.hardMs);
        expect(t.hardMs).toBeLessThanOrEqual(Math.max(1, ms + (inc === 0 ? 5000 : 0) - 200));
      }
    }
  });
});

describe('pure byoyomi', () => {
  it('is recognised when the main time is gone (or below the overhead), so the search may use the whole period', () => {
    expect(byoyomiOnly({ game: 'shogi', clock: clock(0, 0, 1000), side: 'first', plies: 30, moveOverheadMs: 50 })).toBe(true);
    expect(byoyomiOnly({ game: 'shogi', clock: clock(40, 0, 1000), side: 'second', plies: 30, moveOverheadMs: 50 })).toBe(true);
    expect(byoyomiOnly({ game: 'shogi', clock: clock(60_000, 0, 1000), side: 'first', plies: 30, moveOverheadMs: 50 })).toBe(false);
    expect(byoyomiOnly({ game: 'chess', clock: clock(0, 100), side: 'first', plies: 30, moveOverheadMs: 50 })).toBe(false);
  });
});
