/**
 * The root mate probe of the alpha-beta engine (tuning `rootMateNodes`, shogi, off by default): under
 * a clock, df-pn runs first and a proven mate is played at once with its line; `go mate` uses the
 * same solver.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { shogiMaterialTheta } from '../../src/eval/linear/material.js';
import { AlphaBetaEngine } from '../../src/player/alphabeta-engine.js';
import type { GoRequest } from '../../src/player/player.js';
import { searchOptions } from '../../src/search/alphabeta/options.js';
import { DEFAULT_TUNING } from '../../src/search/alphabeta/tuning.js';

const signal = (): Int32Array => new Int32Array(new SharedArrayBuffer(8));
const fiveMover = readFileSync(new URL('../../data/suites/tsume_mate-5-ply.sfen', import.meta.url), 'utf8').split('\n')[0]!;
const request: GoRequest = { game: 'shogi', variant: 'standard', start: fiveMover, moves: [], budget: { softMs: 2000, hardMs: 4000 }, clock: { firstMs: 60_000, secondMs: 60_000, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 0 } };
const engine = (rootMateNodes: number): AlphaBetaEngine =>
  new AlphaBetaEngine({ game: 'shogi', theta: shogiMaterialTheta(), hashMb: 2, moveOverheadMs: 0, options: searchOptions('tournament', { tuning: { ...DEFAULT_TUNING.shogi, rootMateNodes } }) });

describe('root mate probe', () => {
  it('plays a proven mate with its line when switched on', () => {
    const r = engine(20_000).go(request, signal()).unwrap();
    expect(r.info?.score).toEqual({ mate: r.info?.pv.length });
    expect(r.info!.pv.length).toBeLessThanOrEqual(5);
    expect(r.info!.pv[0]).toBe(r.move);
    // The probe answered: its nodes are df-pn's, far below what the search would spend in 2 s.
    expect(r.info!.nodes).toBeLessThan(20_000 * 6);
  });

  it('answers go mate with the shortest line', () => {
    const r = engine(0).go({ ...request, limits: { mate: true, nodes: 200_000 } }, signal()).unwrap();
    expect(r.info?.score).toEqual({ mate: r.info?.pv.length });
    expect(r.info!.pv.length).toBeLessThanOrEqual(5);
  });
});
