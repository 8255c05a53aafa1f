/**
 * Byoyomi time use, on clocks given as numbers (no wall clock): for a pure byoyomi period B and an
 * overhead O, the search's limit is about B - O and never more, from the clock each front-end builds
 * (lishogi with its 750 ms bot hold, floodgate's CSA deadline with its margin and round trip) through
 * the Thinker's one plan (planMove) to where the alpha-beta search stops itself (byoyomiStopMs).
 */
import { describe, expect, it } from 'vitest';
import { planMove } from '../../src/bot/thinker/time-plan.js';
import { parseConfig } from '../../src/config/load.js';
import type { ClockState } from '../../src/core/clock.js';
import { CsaClock, planBudget } from '../../src/protocols/csa/clock.js';
import { csaBotOptions } from '../../src/protocols/csa/game-server.js';
import type { TimeRule } from '../../src/protocols/csa/summary.js';
import { shogiClockState } from '../../src/protocols/lishogi/clock.js';
import { byoyomiStopMs, planTime } from '../../src/search/time.js';

const byoyomi = (ms: number, mainMs = 0): ClockState => ({ firstMs: mainMs, secondMs: mainMs, firstIncMs: 0, secondIncMs: 0, byoyomiMs: ms });

const PERIODS = [500, 1000, 2000, 3000, 5000, 10_000, 30_000, 60_000];
const OVERHEADS = [0, 20, 50, 100, 300, 1000];

describe('pure byoyomi: the search gets the period less the overhead, never more', () => {
  it('planTime: the hard limit is B - O exactly', () => {
    for (const b of PERIODS) {
      for (const o of OVERHEADS) {
        if (o >= b) continue;
        const t = planTime({ game: 'shogi', clock: byoyomi(b), side: 'first', plies: 60, moveOverheadMs: o });
        expect(t.hardMs, `B ${b} O ${o}`).toBe(b - o);
        expect(t.softMs).toBeLessThanOrEqual(t.hardMs);
      }
    }
  });

  it('planMove: the budget is B - O and the guard stops there too (not at 80% of it)', () => {
    for (const b of PERIODS) {
      for (const o of OVERHEADS) {
        if (o >= b) continue;
        for (const side of ['first', 'second'] as const) {
          const plan = planMove('shogi', { clock: byoyomi(b), side, plies: 80, overheadMs: o });
          expect(plan.budget!.hardMs, `B ${b} O ${o}`).toBe(b - o);
          expect(plan.stopMs).toBe(Math.max(20, b - o));
          expect(plan.budget!.hardMs).toBeLessThanOrEqual(plan.stopMs!);
        }
      }
    }
    // With main time left the guard still keeps a share of the clock back for the moves to come.
    const main = planMove('shogi', { clock: byoyomi(10_000, 60_000), side: 'first', plies: 80, overheadMs: 100 });
    expect(main.stopMs).toBe(Math.round((60_000 + 10_000 - 100) * 0.8));
  });

  it('byoyomiStopMs: the search stops itself a little before the plan, at most 100 ms and 5% before', () => {
    for (const hard of [1, 2, 10, 50, 99, 100, 400, 1000, 1999, 2000, 2001, 9000, 59_000]) {
      const stop = byoyomiStopMs(hard);
      expect(stop, `hard ${hard}`).toBeLessThanOrEqual(hard);
      expect(stop).toBeGreaterThanOrEqual(1);
      expect(stop).toBeGreaterThanOrEqual(Math.min(hard, Math.floor(hard * 0.95)));
      expect(stop).toBeGreaterThanOrEqual(hard - 100);
    }
    expect(byoyomiStopMs(1000)).toBe(950);
    expect(byoyomiStopMs(9000)).toBe(8900);
  });

  it('lishogi: the 750 ms hold (bot against bot) and the time already run come off the period', () => {
    for (const b of [2000, 3000, 5000, 10_000]) {
      for (const elapsed of [0, 30, 200]) {
        for (const hold of [0, 750]) {
          const o = 100;
          const clock = shogiClockState({
            state: { wtime: b, btime: b, winc: 0, binc: 0, byo: b },
            initialMs: 0,
            ourColor: 'black',
            elapsedMs: elapsed,
            serverDelayMs: hold,
          });
          const plan = planMove('shogi', { clock, side: 'second', plies: 40, overheadMs: o });
          const left = b - hold - elapsed - o;
          expect(plan.budget!.hardMs, `B ${b} run ${elapsed} hold ${hold}`).toBe(Math.max(1, left));
          expect(byoyomiStopMs(plan.budget!.hardMs)).toBeLessThanOrEqual(Math.max(1, left));
          expect(byoyomiStopMs(plan.budget!.hardMs)).toBeGreaterThanOrEqual(left - 100);
        }
      }
    }
  });

  it('floodgate (CSA): the deadline less the margin and round trip, with no engine overhead counted twice', () => {
    const rule: TimeRule = { unitMs: 1000, totalTime: 0, byoyomi: 10, increment: 0, leastTimePerMove: 0, roundup: false, delay: 0 };
    const clock = new CsaClock({ black: rule, white: rule });
    for (const rtt of [0, 40, 250]) {
      const budget = planBudget(clock, '+', 1500, rtt);
      expect(budget.hardMs).toBe(10_000 - 1500 - rtt);
      // The CSA client plans with no overhead of its own (game-server.ts): the margin is the overhead.
      const plan = planMove('shogi', { clock: budget.clock, side: 'first', plies: 30, overheadMs: 0, deadlineMs: budget.hardMs });
      expect(plan.budget!.hardMs).toBe(budget.hardMs);
      expect(plan.stopMs).toBe(budget.hardMs);
      expect(byoyomiStopMs(plan.budget!.hardMs)).toBeGreaterThanOrEqual(budget.hardMs - 100);
    }
    // The CSA bot's client plans with no engine overhead whatever engine.moveOverheadMs says.
    const config = parseConfig(
      ['csa: {enabled: true, host: 127.0.0.1, port: 4081, user: kishi, gameName: csatest-0-10, maxGames: 1}', 'engine: {moveOverheadMs: 1000}'].join('\n'),
    ).unwrap();
    const options = csaBotOptions(config, { csaPassword: 'trip' }).unwrap();
    expect(options.client.moveOverheadMs).toBe(0);
    expect(options.client.safetyMarginMs).toBe(1500);
  });
});
