/**
 * Gumbel root selection with Sequential Halving (src/search/mcts/gumbel.ts): the schedule shares
 * the budget by phases and keeps the better half; with a few playouts the search then finds a
 * move the prior neglects, where PUCT plays the prior's favourite.
 */
import { expect, test } from 'vitest';
import { MockEvaluator } from '../../../src/nn/mock-evaluator.js';
import { ChessMctsBoard } from '../../../src/search/mcts/chess-mcts-board.js';
import { gumbelSample, improvedPolicy, SequentialHalving, sigma, type RootStats } from '../../../src/search/mcts/gumbel.js';
import { defaultMctsOptions } from '../../../src/search/mcts/options.js';
import { MctsSearch } from '../../../src/search/mcts/search.js';

/** Root moves 0..n-1 with fixed values; visits counted as the schedule hands them out. */
const fakeRoot = (q: number[]): RootStats & { given: number[] } => {
  const given = q.map(() => 0);
  return {
    given,
    visits: (e) => given[e]!,
    q: (e) => (given[e]! > 0 ? q[e]! : 0),
    maxVisits: () => Math.max(...given),
  };
};

test('Sequential Halving: equal shares per phase, the better half kept, the best value chosen', () => {
  const q = [-0.5, 0.1, 0.6, -0.2, 0.3, 0, -0.1, 0.2];
  const stats = fakeRoot(q);
  const logits = q.map(() => 0);
  const sh = new SequentialHalving([0, 1, 2, 3, 4, 5, 6, 7], logits, logits, 8, 64, stats);
  // Phase 1 of 3: 64 / (3 * 8) = 2 visits each.
  for (let i = 0; i < 16; i++) stats.given[sh.next(stats)]!++;
  expect(stats.given).toEqual([2, 2, 2, 2, 2, 2, 2, 2]);
  // Phase 2: the four best by value (2, 4, 7, 1) share 48 / (2 * 4) = 6 more each.
  for (let i = 0; i < 24; i++) stats.given[sh.next(stats)]!++;
  expect([...sh.candidates].sort()).toEqual([1, 2, 4, 7]);
  expect(stats.given).toEqual([2, 8, 8, 2, 8, 2, 2, 8]);
  // Phase 3: the two best (2, 4) share the rest.
  for (let i = 0; i < 24; i++) stats.given[sh.next(stats)]!++;
  expect([...sh.candidates].sort()).toEqual([2, 4]);
  expect(stats.given[2]! + stats.given[4]!).toBe(16 + 24);
  expect(sh.choice(stats)).toBe(2);
});

test('the Gumbel-top-k sample: only the m best by g + logit run, and the choice weighs the value gap (sigma) against the logit gap', () => {
  const stats = fakeRoot([0, 0.05, 0.9, 0]);
  // Move 2 has the best value but the lowest logit: with m = 2 it is never sampled.
  const sh = new SequentialHalving([0, 1, 2, 3], [3, 2, -5, 1], [0, 0, 0, 0], 2, 20, stats);
  for (let i = 0; i < 20; i++) stats.given[sh.next(stats)]!++;
  expect(stats.given[2]).toBe(0);
  expect(stats.given[3]).toBe(0);
  // Move 1's value beats move 0's by 0.05 (sigma: (50 + 10 visits) * 0.025 = 1.5), more than its logit lacks (1).
  expect(sh.choice(stats)).toBe(1);
  expect(Number.isFinite(gumbelSample(0))).toBe(true);
  expect(Number.isFinite(gumbelSample(1))).toBe(true);
});

test('with 32 playouts Gumbel finds the move the prior neglects; PUCT plays the favourite', async () => {
  const start = ChessMctsBoard.fromText('startpos', []).unwrap();
  const after = ChessMctsBoard.fromText('startpos', ['e2e4']).unwrap().cacheKey();
  // A net that puts almost all the prior on the first move everywhere and values only the
  // position after 1.e4 (bad for black, to move there).
  const mock = (): MockEvaluator =>
    new MockEvaluator(start.spec, (input) => ({
      weights: Array.from({ length: input.moveCount }, (_, i) => (i === 0 ? 1000 : 1)),
      value: input.key === after ? -0.9 : 0,
    }));
  const run = async (gumbelActions: number): Promise<string> => {
    const board = ChessMctsBoard.fromText('startpos', []).unwrap();
    const search = new MctsSearch(mock(), { ...defaultMctsOptions('chess'), batchSize: 1, gumbelActions });
    const r = await search.run(board, { playouts: 32 });
    expect(r.playouts).toBe(32);
    return board.moveToText(search.chooseMove());
  };
  expect(await run(0)).not.toBe('e2e4');
  expect(await run(20)).toBe('e2e4');
});

test('the improved policy: softmax of logit + sigma(completed q)', () => {
  const out = new Float32Array(3);
  improvedPolicy([Math.log(0.5), Math.log(0.3), Math.log(0.2)], [0, 0, 0], 10, out);
  // Equal values: the prior comes back.
  expect(Array.from(out).map((p) => +p.toFixed(6))).toEqual([0.5, 0.3, 0.2]);
  improvedPolicy([0, 0, 0], [0.1, -0.1, 0], 10, out);
  // sigma(0.1) - sigma(0) = (50 + 10) * 0.05 = 3: move 0 takes e^3 times move 2's share.
  expect(sigma(0.1, 10) - sigma(0, 10)).toBeCloseTo(3, 9);
  expect(out[0]! / out[2]!).toBeCloseTo(Math.exp(3), 3);
  expect(out[1]! / out[2]!).toBeCloseTo(Math.exp(-3), 3);
});
