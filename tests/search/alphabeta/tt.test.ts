import { describe, expect, it } from 'vitest';
import { INFINITE, MATE, scoreFromTable, scoreToTable, toTrainingScore } from '../../../src/search/alphabeta/score.js';
import { TT_ENTRY_BYTES, TranspositionTable } from '../../../src/search/alphabeta/tt.js';

describe('transposition table', () => {
  it('is sized in MiB', () => {
    const tt = new TranspositionTable(1);
    expect(tt.capacity * TT_ENTRY_BYTES).toBeLessThanOrEqual(1024 * 1024);
    expect(tt.capacity * TT_ENTRY_BYTES * 2).toBeGreaterThan(1024 * 1024);
    tt.resize(4);
    expect(tt.capacity).toBeGreaterThan(3 * 1024 * 1024 / TT_ENTRY_BYTES / 2);
  });

  it('stores depth, lower and upper bounds and the move', () => {
    const tt = new TranspositionTable(1);
    expect(tt.probe(1, 2)).toBe(false);
    tt.store(1, 2, 5, 40, 0, 100, 77); // exact
    expect(tt.probe(1, 2)).toBe(true);
    expect({ ...tt.hit }).toEqual({ depth: 5, lower: 40, upper: 40, move: 77 });
    tt.store(3, 4, 2, -10, 0, 100, 0); // fail low: upper bound only
    tt.probe(3, 4);
    expect({ ...tt.hit }).toEqual({ depth: 2, lower: -INFINITE, upper: -10, move: 0 });
    tt.store(5, 6, 3, 150, 0, 100, 9); // fail high: lower bound only
    tt.probe(5, 6);
    expect({ ...tt.hit }).toEqual({ depth: 3, lower: 150, upper: INFINITE, move: 9 });
    // The same depth again with the other bound: both are kept.
    tt.store(5, 6, 3, 300, 300, 400, 0);
    tt.probe(5, 6);
    expect({ ...tt.hit }).toEqual({ depth: 3, lower: 150, upper: 300, move: 9 });
    // A deeper result replaces them.
    tt.store(5, 6, 4, 200, 100, 300, 8);
    tt.probe(5, 6);
    expect({ ...tt.hit }).toEqual({ depth: 4, lower: 200, upper: 200, move: 8 });
    // Another key with the same low half is a miss.
    expect(tt.probe(99, 2)).toBe(false);
    tt.clear();
    expect(tt.probe(1, 2)).toBe(false);
  });

  it('keeps several positions of one bucket and replaces old searches first', () => {
    const tt = new TranspositionTable(1);
    for (let hi = 1; hi <= 4; hi++) tt.store(hi, 7, hi, hi, -INFINITE, INFINITE, hi);
    for (let hi = 1; hi <= 4; hi++) expect(tt.probe(hi, 7)).toBe(true);
    tt.newSearch();
    tt.store(5, 7, 1, 5, -INFINITE, INFINITE, 5);
    expect(tt.probe(5, 7)).toBe(true);
    // The shallowest entry of the old search made room.
    expect(tt.probe(1, 7)).toBe(false);
    expect(tt.probe(4, 7)).toBe(true);
    expect(tt.hashfull()).toBeGreaterThanOrEqual(0);
  });

  it('stores mate scores relative to the node', () => {
    const mateIn3FromRoot = MATE - 3;
    // Found at ply 2: the node itself mates in 1 ply.
    expect(scoreToTable(mateIn3FromRoot, 2)).toBe(MATE - 1);
    expect(scoreFromTable(MATE - 1, 2)).toBe(mateIn3FromRoot);
    expect(scoreFromTable(scoreToTable(-(MATE - 4), 1), 1)).toBe(-(MATE - 4));
    expect(scoreFromTable(INFINITE, 5)).toBe(INFINITE);
    expect(toTrainingScore(MATE - 3)).toBe(9999);
    expect(toTrainingScore(-20000)).toBe(-9900);
    expect(toTrainingScore(-INFINITE)).toBe(Number.NEGATIVE_INFINITY);
  });

  it('shares its memory with another table (Lazy SMP) and reads a torn entry as a miss', () => {
    const a = TranspositionTable.shared(1);
    expect(a.isShared).toBe(true);
    const b = new TranspositionTable(1, a.memory as SharedArrayBuffer);
    a.store(11, 22, 7, 55, 0, 100, 1234);
    expect(b.probe(11, 22)).toBe(true);
    expect({ ...b.hit }).toEqual({ depth: 7, lower: 55, upper: 55, move: 1234 });
    b.store(33, 44, 3, -20, 0, 100, 99);
    expect(a.probeMove(33, 44)).toBe(99);
    // Another thread overwrote the move of the entry but not its key: the checksum no longer matches.
    const n = a.capacity;
    const moves = new Int32Array(a.memory, 8 * n, n);
    const i = moves.indexOf(1234);
    expect(i).toBeGreaterThanOrEqual(0);
    moves[i] = 4321;
    expect(a.probe(11, 22)).toBe(false);
    // Resizing a shared table gives it new shared memory.
    a.resize(2);
    expect(a.isShared).toBe(true);
    expect(a.capacity).toBeGreaterThan(n);
    expect(() => new TranspositionTable(1, new SharedArrayBuffer(100))).toThrow(RangeError);
  });
});
