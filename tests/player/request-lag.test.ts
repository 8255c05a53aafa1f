/**
 * The clock of a move runs from the moment the request was made (GoRequest.sentAt), not from the
 * moment the search starts: time the request spent in queues and the thread hand-off comes off the
 * search's limits (under load it was tens to hundreds of ms, enough to lose 10 s + 0.1 s games on time).
 */
import { describe, expect, it } from 'vitest';
import { chessMaterialTheta } from '../../src/eval/linear/material.js';
import { AlphaBetaEngine } from '../../src/player/alphabeta-engine.js';
import type { GoRequest } from '../../src/player/player.js';

const signal = (): Int32Array => new Int32Array(new SharedArrayBuffer(8));
const engine = (): AlphaBetaEngine => new AlphaBetaEngine({ game: 'chess', theta: chessMaterialTheta(), hashMb: 2, moveOverheadMs: 0 });
const base: GoRequest = { game: 'chess', variant: 'standard', start: 'startpos', moves: ['e2e4', 'e7e5'] };

// The bounds leave a wide margin either side (a busy two-core machine can stall a thread for hundreds of
// ms): the search left with about 100 ms must stop well before half of what it would use without the lag.
describe('request lag', () => {
  it('takes the time since sentAt off a fixed move time', () => {
    const fresh = engine().go({ ...base, limits: { movetimeMs: 2000 } }, signal()).unwrap();
    const late = engine().go({ ...base, limits: { movetimeMs: 2000 }, sentAt: Date.now() - 1900 }, signal()).unwrap();
    // Without the lag both run the whole 2 s; with it the late one has about 100 ms left.
    expect(fresh.info!.timeMs).toBeGreaterThanOrEqual(1950);
    expect(late.info!.timeMs).toBeLessThan(1000);
  });

  it('takes it off a clock plan too, and still answers a legal move when the lag ate the budget', () => {
    const clock = { firstMs: 60_000, secondMs: 60_000, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 0 };
    const budget = { softMs: 2000, hardMs: 2500 };
    // 2400 ms of lag leave 100 ms of the hard limit.
    const late = engine().go({ ...base, clock, budget, sentAt: Date.now() - 2400 }, signal()).unwrap();
    expect(late.info!.timeMs).toBeLessThan(1000);
    const eaten = engine().go({ ...base, clock, budget, sentAt: Date.now() - 5000 }, signal()).unwrap();
    expect(eaten.move).toMatch(/^[a-h][1-8][a-h][1-8]$/);
  });
});
