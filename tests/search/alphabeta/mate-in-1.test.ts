import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MATE, matePlies } from '../../../src/search/alphabeta/score.js';
import { searcher, shogiBoard } from './helpers.js';

const lines = (file: string, n: number): string[] =>
  readFileSync(new URL(`../../../data/suites/${file}`, import.meta.url), 'utf8').split('\n').filter(Boolean).slice(0, n);

describe('mate in one inside the alpha-beta search (options.mateIn1)', () => {
  it('mates in one at once on the mate-in-1 set', () => {
    for (const sfen of lines('tsume_mate-1-ply.sfen', 50)) {
      const b = shogiBoard(sfen);
      const r = searcher('tournament').search(b, { nodes: 2000 });
      expect(r.score, sfen).toBe(MATE - 1);
      b.make(r.bestMove);
      expect(b.inCheck() && b.generate(new Int32Array(b.maxMoves), false) === 0, sfen).toBe(true);
    }
  });

  it('proves more mate-in-5 problems at a fixed node budget than without it, and every full mating line it reports ends in mate', () => {
    const problems = lines('tsume_mate-5-ply.sfen', 40);
    const solved = { on: 0, off: 0 };
    for (const on of [true, false]) {
      for (const sfen of problems) {
        const b = shogiBoard(sfen);
        const r = searcher('tournament', { mateIn1: on }).search(b, { nodes: 10_000 });
        const mp = matePlies(r.score);
        expect(mp, sfen).toBeGreaterThanOrEqual(0);
        if (mp > 0 && mp <= 5) solved[on ? 'on' : 'off']++;
        if (mp > 0 && r.pv.length === mp) {
          for (const m of r.pv) b.make(m);
          expect(b.inCheck() && b.generate(new Int32Array(b.maxMoves), false) === 0, sfen).toBe(true);
        }
      }
    }
    expect(solved.on).toBeGreaterThanOrEqual(solved.off);
    expect(solved.on).toBeGreaterThanOrEqual(36);
  });
});
