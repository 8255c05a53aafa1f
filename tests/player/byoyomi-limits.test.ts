/**
 * The limits the alpha-beta engine hands its search in pure byoyomi, read off the search's call (no
 * search runs, no wall clock): period B with MoveOverhead O gives a hard limit of about B - O and never
 * more, the whole of it used (`useAllTime`), whether the request planned from the clock (USI `go
 * byoyomi`), came with the Thinker's budget, or is a ponder search whose limits count from ponderhit.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { shogiMaterialTheta } from '../../src/eval/linear/material.js';
import { AlphaBetaEngine } from '../../src/player/alphabeta-engine.js';
import type { GoRequest } from '../../src/player/player.js';
import type { AbLimits } from '../../src/search/alphabeta/options.js';
import { AlphaBetaSearch } from '../../src/search/alphabeta/search.js';
import type { SearchBoard } from '../../src/search/alphabeta/search-board.js';
import { byoyomiStopMs } from '../../src/search/time.js';

/** The shared control words; a ponder search answers only after ponderhit, so it comes already set. */
const signal = (ponderhit: boolean): Int32Array => {
  const s = new Int32Array(new SharedArrayBuffer(8));
  if (ponderhit) s[1] = 1;
  return s;
};
const base: GoRequest = { game: 'shogi', variant: 'standard', start: 'startpos', moves: ['7g7f', '3c3d'] };
const byoyomi = (ms: number) => ({ firstMs: 0, secondMs: 0, firstIncMs: 0, secondIncMs: 0, byoyomiMs: ms });

/** Runs one `go` with the search replaced by one that notes its limits and answers the first legal move. */
const limitsOf = (overheadMs: number, request: GoRequest): AbLimits => {
  const seen: AbLimits[] = [];
  vi.spyOn(AlphaBetaSearch.prototype, 'search').mockImplementation((board: SearchBoard, limits: AbLimits) => {
    seen.push(limits);
    const list = new Int32Array(board.maxMoves);
    board.generate(list, false);
    return { bestMove: list[0]!, ponderMove: 0, score: 0, depth: 1, seldepth: 1, nodes: 1, timeMs: 0, pv: [list[0]!], aborted: false };
  });
  const engine = new AlphaBetaEngine({ game: 'shogi', theta: shogiMaterialTheta(), hashMb: 1, moveOverheadMs: overheadMs });
  expect(engine.go(request, signal(request.ponder === true)).isOk).toBe(true);
  expect(seen).toHaveLength(1);
  return seen[0]!;
};

afterEach(() => vi.restoreAllMocks());

describe('pure byoyomi limits of the alpha-beta engine', () => {
  for (const [b, o] of [
    [1000, 0],
    [1000, 100],
    [2000, 300],
    [10_000, 1000],
  ] as const) {
    it(`B ${b} ms, O ${o} ms: planned from the clock, from a budget, and pondering`, () => {
      const fromClock = limitsOf(o, { ...base, clock: byoyomi(b) });
      expect(fromClock.useAllTime).toBe(true);
      expect(fromClock.hardMs).toBe(byoyomiStopMs(b - o));
      expect(fromClock.hardMs!).toBeLessThanOrEqual(b - o);
      expect(fromClock.hardMs!).toBeGreaterThanOrEqual(b - o - 100);
      // The Thinker's plan (planMove) as the budget: the same limit.
      const fromBudget = limitsOf(o, { ...base, clock: byoyomi(b), budget: { softMs: Math.floor((b - o) * 0.7), hardMs: b - o } });
      expect(fromBudget.hardMs).toBe(fromClock.hardMs);
      // A ponder search keeps the whole limit for after ponderhit (the search counts from there).
      const pondering = limitsOf(o, { ...base, clock: byoyomi(b), ponder: true, sentAt: Date.now() - 50 });
      expect(pondering.ponder).toBe(true);
      expect(pondering.hardMs).toBe(fromClock.hardMs);
    });
  }

  it('the time the request waited comes off, so the answer still leaves within B - O', () => {
    const late = limitsOf(100, { ...base, clock: byoyomi(1000), sentAt: Date.now() - 300 });
    expect(late.hardMs!).toBeLessThanOrEqual(byoyomiStopMs(900) - 300);
    expect(late.hardMs!).toBeGreaterThan(0);
  });
});
