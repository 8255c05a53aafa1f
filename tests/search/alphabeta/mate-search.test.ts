import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MateSearch } from '../../../src/search/alphabeta/mate-search.js';
import { chessBoard, replaysToMate, shogiBoard } from './helpers.js';

const lines = (file: string, n: number): string[] =>
  readFileSync(new URL(`../../../data/suites/${file}`, import.meta.url), 'utf8').split('\n').filter(Boolean).slice(0, n);

describe('mate search (go mate)', () => {
  it('finds checking mates in chess with the full line', () => {
    const m = new MateSearch(4);
    const b = chessBoard('r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1');
    const r = m.solve(b);
    expect(r.kind).toBe('mate');
    if (r.kind === 'mate') expect(r.moves.map((x, i) => text(b, r.moves, i, x))).toEqual(['d5f6', 'g7f6', 'c4f7']);
  });

  it('solves tsume problems at their length (3 and 5 plies)', () => {
    const m = new MateSearch(8);
    for (const [file, plies] of [
      ['tsume_mate-3-ply.sfen', 3],
      ['tsume_mate-5-ply.sfen', 5],
    ] as const) {
      for (const sfen of lines(file, 10)) {
        const r = m.solve(shogiBoard(sfen), { nodes: 500_000 });
        expect(r.kind, sfen).toBe('mate');
        if (r.kind === 'mate') expect(r.moves.length, sfen).toBeLessThanOrEqual(plies);
      }
    }
  });

  it('passes a horizon-bounded disproof from the table on as bounded (mates an earlier iteration had hidden)', () => {
    // Lines 6, 10, 47 and 94 of the 9-ply set: a disproof an earlier, shallower iteration had stored
    // with its horizon was read from the table as final, and the nodes above stored "no mate at any
    // length" from it; the search answered nomate within 9 plies where df-pn proves a 9-ply mate.
    const m = new MateSearch(8);
    const nine = lines('tsume_mate-9-ply.sfen', 100);
    for (const i of [5, 9, 46, 93]) {
      const b = shogiBoard(nine[i]!);
      const r = m.solve(b, { maxPlies: 9, nodes: 500_000 });
      expect(r.kind, nine[i]).toBe('mate');
      if (r.kind === 'mate') {
        expect(r.moves.length, nine[i]).toBe(9);
        expect(replaysToMate(b, r.moves), nine[i]).toBe(true);
      }
    }
  });

  it('announces a mate only with a line that replays to mate (the table may have replaced a link)', () => {
    // Line 99 of the 11-ply set: the line read from the table broke off after 8 plies when a
    // proof's entry had been replaced; the line is now rebuilt by searching the node again.
    const b = shogiBoard(lines('tsume_mate-11-ply.sfen', 99)[98]!);
    const r = new MateSearch(8).solve(b, { maxPlies: 11, nodes: 2_000_000 });
    expect(r.kind).toBe('mate');
    if (r.kind === 'mate') expect(replaysToMate(b, r.moves)).toBe(true);
  });

  it('answers nomate when no check can mate, and timeout when stopped', () => {
    const m = new MateSearch(4);
    expect(m.solve(chessBoard('startpos')).kind).toBe('nomate');
    expect(m.solve(shogiBoard('startpos')).kind).toBe('nomate');
    // Plenty of checks with pieces in hand: 50 nodes are not enough to decide.
    expect(m.solve(shogiBoard(lines('tsume_no-mate-1-ply.sfen', 1)[0]!), { nodes: 50 }).kind).toBe('timeout');
    const signal = new Int32Array(new SharedArrayBuffer(8));
    signal[0] = 1;
    expect(m.solve(shogiBoard(lines('tsume_no-mate-1-ply.sfen', 2)[1]!), { signal }).kind).toBe('timeout');
  });
});

const text = (b: ReturnType<typeof chessBoard>, line: readonly number[], i: number, m: number): string => {
  for (let k = 0; k < i; k++) b.make(line[k]!);
  const t = b.moveToText(m);
  for (let k = 0; k < i; k++) b.unmake();
  return t;
};
