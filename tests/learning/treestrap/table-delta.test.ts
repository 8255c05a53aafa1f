import { describe, expect, it } from 'vitest';
import { chessMaterialTheta, shogiMaterialTheta } from '../../../src/eval/linear/material.js';
import { SparseVector } from '../../../src/eval/linear/sparse.js';
import { createTrainingAdapter } from '../../../src/learning/treestrap/adapter-factory.js';
import { deltaFromTransTbl, type TableDeltaVisit } from '../../../src/learning/treestrap/table-delta.js';
import { TrainingSearch } from '../../../src/learning/treestrap/training-search.js';
import { DeltaAccumulator, boundError, firstPlayerBounds } from '../../../src/learning/treestrap/update-rule.js';
import { INFINITE, MATE } from '../../../src/search/alphabeta/score.js';
import { searchOptions } from '../../../src/search/alphabeta/options.js';
import { AlphaBetaSearch } from '../../../src/search/alphabeta/search.js';
import { TranspositionTable } from '../../../src/search/alphabeta/tt.js';
import { RecordingBoard } from '../../../src/learning/treestrap/recording-board.js';
import { HandTreeAdapter, HandTreeBoard, KEY_HI, hOf, type HandNode } from './hand-tree.js';

/** A dyadic step size, so that every expected number below is exact in binary. */
const ETA = 2 ** -10;

/**
 *            0 (first to move)            table: depth 3, exact 40
 *        /      |        \
 *       1       2         3  (second)     1: depth 2, upper -60 (side to move)   2: depth 0   3: depth 1, [-10, 10]
 *      / \      |
 *     4   5     6  (first)                4: depth 1, lower mate   5: depth 1, lower 12000   6: depth 1, lower 300
 */
const NODES: HandNode[] = [
  { children: [1, 2, 3], phi: { 0: 1, 1: 1 } },
  { children: [4, 5], phi: { 0: 2, 2: -1 } },
  { children: [6], phi: { 3: 0.5 } },
  { children: [], phi: { 4: 1 } },
  { children: [], phi: { 6: 1 } },
  { children: [], phi: { 5: 1 } },
  { children: [], phi: { 7: 1 } },
];
const THETA = [10, 20, 4, -100, 5, 0, 0, 0];

const table = (): TranspositionTable => {
  const tt = new TranspositionTable(1);
  const put = (node: number, depth: number, lower: number, upper: number): void => tt.storeBounds(KEY_HI, node + 1, depth, lower, upper, 0);
  put(0, 3, 40, 40);
  put(1, 2, -INFINITE, -60);
  put(2, 0, 500, INFINITE);
  put(3, 1, -10, 10);
  put(4, 1, MATE - 5, INFINITE);
  put(5, 1, 12000, INFINITE);
  put(6, 1, 300, INFINITE);
  return tt;
};

const run = (minDepth: number, rootOnly = false): { delta: Float64Array; visits: TableDeltaVisit[]; acc: DeltaAccumulator; count: number } => {
  const theta = Float64Array.from(THETA);
  const adapter = new HandTreeAdapter(NODES, theta);
  const acc = new DeltaAccumulator(theta.length);
  const visits: TableDeltaVisit[] = [];
  const count = deltaFromTransTbl(new HandTreeBoard(NODES), table(), adapter, acc, { minDepth, eta: ETA, rootOnly }, (v) => visits.push(v));
  expect(Array.from(theta)).toEqual(THETA); // theta is only read
  return { delta: acc.delta, visits, acc, count };
};

describe('the one-sided update rule', () => {
  it('moves H only towards a violated bound', () => {
    expect(boundError(30, 40, 40)).toBe(10);
    expect(boundError(50, 40, 40)).toBe(-10);
    expect(boundError(5, -10, 10)).toBe(0);
    expect(boundError(-20, -10, 10)).toBe(10);
    expect(boundError(25, -10, 10)).toBe(-15);
    expect(boundError(0, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY)).toBe(0);
    expect(boundError(1e6, 9900, Number.POSITIVE_INFINITY)).toBe(0);
    expect(firstPlayerBounds(-10, 30, 1)).toEqual({ lower: -10, upper: 30 });
    expect(firstPlayerBounds(-10, 30, -1)).toEqual({ lower: -30, upper: 10 });
  });

  it('adds exactly eta * (bound - H) * phi for a violation and nothing otherwise', () => {
    const acc = new DeltaAccumulator(4);
    const phi = new SparseVector();
    phi.add(1, 2);
    phi.add(3, -0.5);
    expect(acc.visit(phi, 12, 0, 20, ETA)).toBe(0);
    expect(Array.from(acc.delta)).toEqual([0, 0, 0, 0]);
    expect(acc.visit(phi, 12, 16, 16, ETA)).toBe(4);
    expect(Array.from(acc.delta)).toEqual([0, ETA * 4 * 2, 0, ETA * 4 * -0.5]);
    expect(acc.stats).toEqual({ visited: 2, violated: 1, squaredError: 16 });
    const theta = Float64Array.from([1, 1, 1, 1]);
    acc.applyTo(theta);
    expect(Array.from(theta)).toEqual([1, 1 + 8 * ETA, 1, 1 - 2 * ETA]);
  });
});

describe('the clipped (Huber) variant', () => {
  it('clips each node\'s error before it scales phi, and reports the raw error', () => {
    const acc = new DeltaAccumulator(2, 100);
    const phi = new SparseVector();
    phi.add(0, 1);
    expect(acc.visit(phi, 0, 9999, 9999, ETA)).toBe(9999);
    expect(acc.visit(phi, 0, -50, -50, ETA)).toBe(-50);
    expect(Array.from(acc.delta)).toEqual([ETA * 100 - ETA * 50, 0]);
    expect(acc.stats.squaredError).toBe(9999 ** 2 + 2500);
  });
});

describe('DeltaFromTransTbl on a hand-built tree', () => {
  it('updates every violated entry by eta * (bound - H(s)) * phi(s), on the paper scale, first player view', () => {
    const { delta, visits, acc, count } = run(1);
    const theta = Float64Array.from(THETA);
    // Root: exact 40, H = 30 -> +10.  Node 1 (second to move, upper -60) = first player's lower 60, H = 16 -> +44.
    // Node 3: inside [-10, 10] (H = 5).  Node 4: mate -> 9999, H = 0.  Node 5: 12000 clipped to 9900, H = 0.
    expect(hOf(NODES, theta, 0)).toBe(30);
    expect(hOf(NODES, theta, 1)).toBe(16);
    expect(Array.from(delta)).toEqual([
      ETA * 10 + ETA * 44 * 2,
      ETA * 10,
      ETA * 44 * -1,
      0, // node 2 is shallower than d, and its subtree (node 6) is skipped with it
      0, // node 3 is inside its bounds
      ETA * 9900,
      ETA * 9999,
      0,
    ]);
    expect(count).toBe(5);
    expect(visits.map((v) => [v.ply, v.depth, v.lower, v.upper, v.h, v.error])).toEqual([
      [0, 3, 40, 40, 30, 10],
      [1, 2, 60, Number.POSITIVE_INFINITY, 16, 44],
      [2, 1, 9999, Number.POSITIVE_INFINITY, 0, 9999],
      [2, 1, 9900, Number.POSITIVE_INFINITY, 0, 9900],
      [1, 1, -10, 10, 5, 0],
    ]);
    expect(acc.stats).toEqual({ visited: 5, violated: 4, squaredError: 10 ** 2 + 44 ** 2 + 9999 ** 2 + 9900 ** 2 });
  });

  it('skips entries shallower than d with their subtrees', () => {
    const { delta, count } = run(2);
    expect(count).toBe(2);
    expect(Array.from(delta)).toEqual([ETA * 10 + ETA * 88, ETA * 10, -ETA * 44, 0, 0, 0, 0, 0]);
    expect(run(4).count).toBe(0);
  });

  it('RootStrap updates the root only', () => {
    const { delta, count } = run(1, true);
    expect(count).toBe(1);
    expect(Array.from(delta)).toEqual([ETA * 10, ETA * 10, 0, 0, 0, 0, 0, 0]);
  });
});

describe('quiet-only updates', () => {
  it('pass over entries in check or reached by a capture, and update the others as usual', () => {
    const adapter = createTrainingAdapter('chess', chessMaterialTheta());
    const board = adapter.board('r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4', []).unwrap();
    const rec = new RecordingBoard(board);
    const tt = new TranspositionTable(4);
    new AlphaBetaSearch(tt, searchOptions('training')).search(rec, { nodes: 5000 });
    const counts = (['all', 'quiet'] as const).map((update) => {
      const acc = new DeltaAccumulator(adapter.featureSet.size);
      let inCheck = 0;
      deltaFromTransTbl(rec, tt, adapter, acc, { minDepth: 1, eta: 1, walk: 'searched', update }, () => {
        if (board.inCheck()) inCheck++;
      });
      return { visited: acc.stats.visited, inCheck };
    });
    expect(counts[0]!.inCheck).toBeGreaterThan(0);
    expect(counts[1]!.inCheck).toBe(0);
    expect(counts[1]!.visited).toBeGreaterThan(20);
    expect(counts[1]!.visited).toBeLessThan(counts[0]!.visited);
    expect(() => deltaFromTransTbl(rec, tt, adapter, new DeltaAccumulator(adapter.featureSet.size), { minDepth: 1, eta: 1, walk: 'all', update: 'quiet' })).toThrow();
  });
});

describe('calm-only updates', () => {
  it('also pass over entries whose best move is a capture, keeping the quiet ones that are left unchanged', () => {
    const adapter = createTrainingAdapter('chess', chessMaterialTheta());
    const board = adapter.board('r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4', []).unwrap();
    const rec = new RecordingBoard(board);
    const tt = new TranspositionTable(4);
    new AlphaBetaSearch(tt, searchOptions('training')).search(rec, { nodes: 5000 });
    const run = (update: 'quiet' | 'calm') => {
      const acc = new DeltaAccumulator(adapter.featureSet.size);
      const seen = new Map<string, number>();
      let tactical = 0;
      deltaFromTransTbl(rec, tt, adapter, acc, { minDepth: 1, eta: 1, walk: 'searched', update }, (v) => {
        seen.set(board.toText(), v.error);
        if (tt.probe(board.keyHi(), board.keyLo()) && tt.hit.move !== 0 && board.tacticalOrder(tt.hit.move) > 0) tactical++;
      });
      return { visited: acc.stats.visited, seen, tactical };
    };
    const quiet = run('quiet');
    const calm = run('calm');
    expect(quiet.tactical).toBeGreaterThan(0);
    expect(calm.tactical).toBe(0);
    expect(calm.visited).toBe(quiet.visited - quiet.tactical);
    for (const [fen, error] of calm.seen) expect(quiet.seen.get(fen)).toBe(error);
    expect(() => deltaFromTransTbl(rec, tt, adapter, new DeltaAccumulator(adapter.featureSet.size), { minDepth: 1, eta: 1, walk: 'all', update: 'calm' })).toThrow(
      "update 'calm' needs the 'searched' walk",
    );
  });
});

describe('frozen features', () => {
  it('keep their weights while the others learn', () => {
    const acc = new DeltaAccumulator(3);
    const phi = new SparseVector();
    phi.add(0, 1);
    phi.add(2, 1);
    acc.visit(phi, 0, 8, 8, ETA);
    const theta = Float64Array.from([1, 1, 1]);
    acc.applyTo(theta, Uint8Array.from([0, 0, 1]));
    expect(Array.from(theta)).toEqual([1 + 8 * ETA, 1, 1]);
  });
});

describe('the searched-successor walk', () => {
  it('visits the same entries as Algorithm 2 after real searches (chess and shogi)', () => {
    const cases = [
      { game: 'chess' as const, theta: chessMaterialTheta, start: 'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4' },
      { game: 'shogi' as const, theta: shogiMaterialTheta, start: 'startpos' },
    ];
    for (const c of cases) {
      const results = (['all', 'searched'] as const).map((walk) => {
        const adapter = createTrainingAdapter(c.game, c.theta());
        const ts = new TrainingSearch(adapter, { method: 'treestrap-ab', eta: 1e-4, minDepth: 1, hashMb: 4, walk });
        const board = adapter.board(c.start, c.game === 'shogi' ? ['7g7f', '3c3d'] : []).unwrap();
        const r = ts.step(board, { nodes: 4000 });
        return { r, theta: adapter.theta };
      });
      const [all, searched] = results as [(typeof results)[0], (typeof results)[0]];
      expect(searched.r.bestMove).toBe(all.r.bestMove);
      expect(searched.r.stats.visited).toBe(all.r.stats.visited);
      expect(searched.r.stats.violated).toBe(all.r.stats.violated);
      expect(all.r.stats.visited).toBeGreaterThan(50);
      expect(searched.r.stats.squaredError).toBeCloseTo(all.r.stats.squaredError, 3);
      for (let i = 0; i < all.theta.length; i++) expect(searched.theta[i]!).toBeCloseTo(all.theta[i]!, 9);
    }
  });
});
