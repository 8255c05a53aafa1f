/**
 * Implicit minimax backups (`minimaxWeight`): every visited node holds the best of its visited
 * children's minimax values for its side to move (W's sign convention), a leaf its own value.
 */
import { expect, test } from 'vitest';
import { MockEvaluator } from '../../../src/nn/mock-evaluator.js';
import { loadCpuEvaluator } from '../../../src/player/mcts-cpu-nets.js';
import { ChessMctsBoard } from '../../../src/search/mcts/chess-mcts-board.js';
import { defaultMctsOptions } from '../../../src/search/mcts/options.js';
import { MctsSearch } from '../../../src/search/mcts/search.js';
import { FLAG_TERMINAL, type Tree } from '../../../src/search/mcts/tree.js';

const FEN = 'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4';

/** Checks the invariant at every visited node below the root; returns how many interior nodes it checked. */
const checkTree = (t: Tree): number => {
  let interior = 0;
  for (let node = 0; node < t.nodeCount; node++) {
    if (t.visits[node] === 0 || (t.flags[node]! & FLAG_TERMINAL) !== 0) continue;
    let best = -Infinity;
    const first = t.firstEdge[node]!;
    for (let e = first; first >= 0 && e < first + t.edgeCount[node]!; e++) {
      const c = t.edgeChild[e]!;
      if (c >= 0 && t.visits[c]! > 0) best = Math.max(best, t.minimax[c]!);
    }
    if (best === -Infinity) continue; // a leaf: its own value, checked below
    interior++;
    expect(t.minimax[node]).toBe(Math.fround(-best));
  }
  return interior;
};

test('batched evaluator: each node holds minus the best of its children, a leaf minus its value', async () => {
  const board = ChessMctsBoard.fromText(FEN, []).unwrap();
  // Values from the position key, so that leaves differ.
  const mock = new MockEvaluator(board.spec, (input) => ({ value: ((input.key % 997) / 997 - 0.5) * 1.6 }));
  const search = new MctsSearch(mock, { ...defaultMctsOptions('chess'), batchSize: 4, minimaxWeight: 0.5 });
  await search.run(board, { playouts: 3000 });
  expect(checkTree(search.tree)).toBeGreaterThan(100);
  // A leaf never revisited: minus the value the net gave its side to move, which W holds too.
  const t = search.tree;
  let leaves = 0;
  for (let node = 1; node < t.nodeCount; node++) {
    if (t.visits[node] !== 1 || (t.flags[node]! & FLAG_TERMINAL) !== 0) continue;
    leaves++;
    expect(t.minimax[node]).toBeCloseTo(t.valueSum[node]!, 6);
  }
  expect(leaves).toBeGreaterThan(100);
});

test('leaf evaluator (CPU networks): the same invariant; without the option the values stay unset', async () => {
  const ev = loadCpuEvaluator('models/chess-nnue.bin', 'chess', {}, 'models/chess-policy.bin').unwrap();
  const run = async (minimaxWeight: number): Promise<Tree> => {
    const search = new MctsSearch(ev, { ...defaultMctsOptions('chess'), minimaxWeight });
    await search.run(ChessMctsBoard.fromText(FEN, []).unwrap(), { playouts: 3000 });
    return search.tree;
  };
  expect(checkTree(await run(0.3))).toBeGreaterThan(100);
  const off = await run(0);
  expect(off.minimax.subarray(0, off.nodeCount).every((v) => v === 0)).toBe(true);
});
