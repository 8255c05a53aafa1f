import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DfPn } from '../../../src/search/alphabeta/dfpn.js';
import type { MateResult } from '../../../src/search/alphabeta/mate-search.js';
import { MateSolver } from '../../../src/search/alphabeta/mate-solver.js';
import { chessBoard, replaysToMate, shogiBoard } from './helpers.js';

const lines = (file: string): string[] =>
  readFileSync(new URL(`../../../data/suites/${file}`, import.meta.url), 'utf8').split('\n').filter(Boolean);

const SETS = [
  ['tsume_mate-1-ply.sfen', 1],
  ['tsume_mate-3-ply.sfen', 3],
  ['tsume_mate-5-ply.sfen', 5],
] as const;

describe('df-pn', () => {
  it.each(SETS)('proves every problem of %s within 20,000 nodes, each line replayed to mate', (file, plies) => {
    const solver = new DfPn(8);
    let nodes = 0;
    for (const sfen of lines(file)) {
      const b = shogiBoard(sfen);
      const before = b.toText();
      const r = solver.solve(b, { nodes: 20_000 });
      expect(r.kind, sfen).toBe('mate');
      expect(b.toText()).toBe(before);
      if (r.kind === 'mate') expect(replaysToMate(b, r.moves), sfen).toBe(true);
      nodes += r.nodes;
    }
    // Today's totals are 200, 13242 and 45619 nodes; a regression that doubles them fails here.
    expect(nodes).toBeLessThan({ 1: 400, 3: 30_000, 5: 100_000 }[plies]);
  });

  it('announces no false mate in the no-mate-in-1 set (any mate it finds replays to mate)', () => {
    const solver = new DfPn(8);
    let mates = 0;
    for (const sfen of lines('tsume_no-mate-1-ply.sfen').slice(0, 100)) {
      const b = shogiBoard(sfen);
      const r = solver.solve(b, { nodes: 3000 });
      if (r.kind === 'mate') {
        mates++;
        expect(r.moves.length, sfen).toBeGreaterThan(1);
        expect(replaysToMate(b, r.moves), sfen).toBe(true);
      }
    }
    expect(mates).toBeLessThan(100);
  });

  it('answers nomate without checks, nomate when maxPlies is too short, and timeout at its limits', () => {
    const solver = new DfPn(4);
    expect(solver.solve(shogiBoard('startpos')).kind).toBe('nomate');
    expect(solver.solve(chessBoard('startpos')).kind).toBe('nomate');
    const five = lines('tsume_mate-5-ply.sfen')[0]!;
    expect(solver.solve(shogiBoard(five), { maxPlies: 1 }).kind).toBe('nomate');
    expect(solver.solve(shogiBoard(five), { nodes: 3 }).kind).toBe('timeout');
    const signal = new Int32Array(new SharedArrayBuffer(8));
    signal[0] = 1;
    expect(solver.solve(shogiBoard(five), { signal }).kind).toBe('timeout');
  });

  it('works on chess boards too (no mate-in-one test there)', () => {
    const b = chessBoard('r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1');
    const r = new DfPn(4).solve(b);
    expect(r.kind).toBe('mate');
    if (r.kind === 'mate') expect(replaysToMate(b, r.moves)).toBe(true);
  });
});

/** Every set at its length: 7, 9 and 11 plies since the mate search's horizon fix (the first 200, 100 and 50: the bench runs all 200). */
const SOLVER_SETS = [...SETS, ['tsume_mate-7-ply.sfen', 7, 200], ['tsume_mate-9-ply.sfen', 9, 100], ['tsume_mate-11-ply.sfen', 11, 50]] as const;

describe('mate solver (go mate: df-pn, then the shortest line)', () => {
  it.each(SOLVER_SETS)('solves every problem of %s at its length within 1M nodes, each line replayed to mate', (file, plies, count = 200) => {
    const solver = new MateSolver(16);
    for (const sfen of lines(file).slice(0, count)) {
      const b = shogiBoard(sfen);
      const r: MateResult = solver.solve(b, { nodes: 1_000_000 });
      expect(r.kind, sfen).toBe('mate');
      if (r.kind !== 'mate') continue;
      expect(r.moves.length, sfen).toBeLessThanOrEqual(plies);
      expect(replaysToMate(b, r.moves), sfen).toBe(true);
    }
  });
});
