/**
 * `search: dyna2` in the alpha-beta engine: TD search first (bounded here by simulations, never by
 * time), then alpha-beta over the combined evaluation, with the `info string` summary sent once.
 */
import { describe, expect, it } from 'vitest';
import { TD_DEFAULTS } from '../../src/config/sections/engine.js';
import { chessMaterialTheta, shogiMaterialTheta } from '../../src/eval/linear/material.js';
import { AlphaBetaEngine } from '../../src/player/alphabeta-engine.js';
import { tdParams } from '../../src/player/factory.js';
import type { SearchInfo } from '../../src/player/player.js';

const signal = (): Int32Array => new Int32Array(new SharedArrayBuffer(8));
const params = { ...TD_DEFAULTS, simulations: 25, episodePlies: 6, epsilon: 0.2 };

describe('dyna2 engine', () => {
  it('runs TD search before alpha-beta and reports what it learned once', () => {
    for (const game of ['chess', 'shogi'] as const) {
      const theta = game === 'chess' ? chessMaterialTheta() : shogiMaterialTheta();
      const engine = new AlphaBetaEngine({ game, theta, hashMb: 2, moveOverheadMs: 0, dyna2: params });
      const infos: SearchInfo[] = [];
      const start = game === 'chess' ? 'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4' : 'startpos';
      const moves = game === 'chess' ? [] : ['7g7f', '3c3d', '8h2b+'];
      const r = engine.go({ game, variant: 'standard', start, moves, limits: { depth: 3 } }, signal(), (i) => infos.push(i)).unwrap();
      const strings = infos.map((i) => i.string).filter((s) => s !== undefined);
      expect(strings).toHaveLength(1);
      expect(strings[0]).toMatch(/^td search: 25 simulations of [\d.]+ plies in \d+ ms; \d+ features touched; largest: /);
      expect(r.move).not.toBe('resign');
      expect(infos.at(-1)!.depth).toBe(3);
    }
  });

  it('plays TD search alone with search td: go nodes counts simulations, one info line at depth 1', () => {
    for (const game of ['chess', 'shogi'] as const) {
      const theta = game === 'chess' ? chessMaterialTheta() : shogiMaterialTheta();
      const engine = new AlphaBetaEngine({ game, theta, hashMb: 2, moveOverheadMs: 0, dyna2: { ...params, alone: true } });
      const infos: SearchInfo[] = [];
      const moves = game === 'chess' ? ['e2e4', 'd7d5'] : ['7g7f', '3c3d', '8h2b+'];
      const r = engine.go({ game, variant: 'standard', start: 'startpos', moves, limits: { nodes: 14 } }, signal(), (i) => infos.push(i)).unwrap();
      expect(infos).toHaveLength(1);
      expect(infos[0]).toMatchObject({ depth: 1, nodes: 14, pv: [r.move] });
      expect(infos[0]!.string).toMatch(/^td search: 14 simulations of /);
      // The capture back is the greedy move of both games here (the long-term weights are material).
      expect(r.move).toBe(game === 'chess' ? 'e4d5' : '3a2b');
    }
  });

  it('reads its parameters from the config keys, with the defaults for absent ones', () => {
    expect(tdParams({})).toEqual(TD_DEFAULTS);
    expect(tdParams({ tdLambda: 0.5, tdCarry: 0.25 })).toEqual({ ...TD_DEFAULTS, lambda: 0.5, carry: 0.25 });
  });

  it('leaves plain alpha-beta without a string', () => {
    const engine = new AlphaBetaEngine({ game: 'chess', theta: chessMaterialTheta(), hashMb: 2, moveOverheadMs: 0 });
    const infos: SearchInfo[] = [];
    engine.go({ game: 'chess', variant: 'standard', start: 'startpos', moves: [], limits: { depth: 2 } }, signal(), (i) => infos.push(i)).unwrap();
    expect(infos.every((i) => i.string === undefined)).toBe(true);
  });
});
