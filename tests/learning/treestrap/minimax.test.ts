import { describe, expect, it } from 'vitest';
import { chessMaterialTheta, shogiMaterialTheta } from '../../../src/eval/linear/material.js';
import { createTrainingAdapter } from '../../../src/learning/treestrap/adapter-factory.js';
import { MinimaxTreeSearch } from '../../../src/learning/treestrap/minimax-tree.js';
import { TrainingSearch } from '../../../src/learning/treestrap/training-search.js';
import { searchOptions } from '../../../src/search/alphabeta/options.js';
import { AlphaBetaSearch } from '../../../src/search/alphabeta/search.js';
import { TranspositionTable } from '../../../src/search/alphabeta/tt.js';
import { HandTreeAdapter, HandTreeBoard, type HandNode } from './hand-tree.js';

const ETA = 2 ** -10;

/**
 *          0 (first)
 *        /   \
 *       1     2  (second)
 *      / \    |
 *     3   4   5  (first; leaves 30, -20, 7 from the first player's view)
 * Exact values, first player's view: node 1 = min(30, -20) = -20, node 2 = 7, root = max(-20, 7) = 7.
 */
const NODES: HandNode[] = [
  { children: [1, 2], phi: { 0: 1 } },
  { children: [3, 4], phi: { 1: 1, 0: 0.5 } },
  { children: [5], phi: { 2: -1 } },
  { children: [], phi: { 3: 1 }, leaf: 30 },
  { children: [], phi: { 3: 1 }, leaf: -20 },
  { children: [], phi: { 3: 1 }, leaf: 7 },
];

describe('TreeStrap(minimax)', () => {
  it('hands every interior node its exact minimax value, once per completed iteration', () => {
    const seen: [number, number, number][] = [];
    const done: number[] = [];
    const r = new MinimaxTreeSearch().search(new HandTreeBoard(NODES), { depth: 2 }, {
      iterationStart: (d) => seen.push([-1, d, 0]),
      node: (b, ply, value) => seen.push([(b as HandTreeBoard).node, ply, value]),
      iterationDone: (d) => done.push(d),
    });
    expect(r.depth).toBe(2);
    expect(r.score).toBe(7);
    expect(r.bestMove).toBe(3); // move to node 2
    // Iteration 1: the root only (children are leaves of the quiescence search, static 0).
    // Iteration 2: post-order, values from the side to move's view (node 1 and 2: the second player).
    expect(seen).toEqual([
      [-1, 1, 0],
      [0, 0, 0],
      [-1, 2, 0],
      [1, 1, 20],
      [2, 1, -7],
      [0, 0, 7],
    ]);
    expect(done).toEqual([1, 2]);
  });

  it('updates towards the exact values of the last iteration: Delta theta = eta * sum (V - H) phi over interior nodes', () => {
    const theta = Float64Array.from([2, 4, 8, 100]);
    const adapter = new HandTreeAdapter(NODES, theta);
    const ts = new TrainingSearch(adapter, { method: 'treestrap-minimax', eta: ETA, minDepth: 1, hashMb: 1 });
    const r = ts.step(new HandTreeBoard(NODES), { depth: 2 });
    // H: root 2, node 1 4 + 1 = 5, node 2 -8.  delta: root 7 - 2 = 5, node 1 -20 - 5 = -25, node 2 7 + 8 = 15.
    expect(Array.from(theta)).toEqual([2 + ETA * (5 - 25 * 0.5), 4 - 25 * ETA, 8 - 15 * ETA, 100]);
    expect(r.stats).toEqual({ visited: 3, violated: 3, squaredError: 25 + 625 + 225 });
    expect(adapter.refreshed).toBe(1);
  });

  it('agrees with the training-mode alpha-beta search at the root (chess and shogi)', () => {
    const cases = [
      { game: 'chess' as const, theta: chessMaterialTheta(), start: 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', depth: 2 },
      { game: 'chess' as const, theta: chessMaterialTheta(), start: '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', depth: 3 },
      { game: 'shogi' as const, theta: shogiMaterialTheta(), start: 'startpos', depth: 2 },
    ];
    for (const c of cases) {
      const adapter = createTrainingAdapter(c.game, c.theta);
      const board = adapter.board(c.start, []).unwrap();
      const mm = new MinimaxTreeSearch().search(board, { depth: c.depth }, { iterationStart: () => {}, node: () => {}, iterationDone: () => {} });
      const ab = new AlphaBetaSearch(new TranspositionTable(4), searchOptions('training')).search(board, { depth: c.depth });
      expect(mm.score, `${c.start} depth ${c.depth}`).toBe(ab.score);
      expect(mm.depth).toBe(c.depth);
    }
  });
});
