/**
 * The draw score (Lc0's DrawScore) with the mock evaluator: after 1.Nf3 Nf6 2.Ng1 Ng8, white's
 * Nf3 repeats a position, a draw inside the tree. With values 0 everywhere and a prior that
 * favours Nf3, drawScore 0 plays the repetition; drawScore -0.3 (draws worth -0.3 to the root side)
 * avoids it; +0.3 seeks it. The tests assert that behaviour (the move chosen, the order of Nf3's visit
 * counts, its Q), not the exact counts, which any change to PUCT's constants would move.
 */
import { describe, expect, test } from 'vitest';
import type { NnInput } from '../../../src/nn/evaluator.js';
import { MockEvaluator } from '../../../src/nn/mock-evaluator.js';
import { ChessMctsBoard } from '../../../src/search/mcts/chess-mcts-board.js';
import { defaultMctsOptions } from '../../../src/search/mcts/options.js';
import { MctsSearch } from '../../../src/search/mcts/search.js';

const SHUFFLE = ['g1f3', 'g8f6', 'f3g1', 'f6g8'];

const setup = (drawScore: number): { board: ChessMctsBoard; search: MctsSearch } => {
  const board = ChessMctsBoard.fromText('startpos', SHUFFLE).unwrap();
  const list = new Int32Array(board.maxMoves);
  const n = board.generate(list);
  const idx = new Int32Array(n);
  board.moveIndices(list, n, idx);
  const nf3 = idx[Array.from(list.subarray(0, n)).findIndex((m) => board.moveToText(m) === 'g1f3')]!;
  // Nf3's policy index gets 4x the weight of any other move (white and black alike); values 0.
  const script = (input: NnInput): { weights: number[] } => ({
    weights: Array.from(input.moveIndices.subarray(0, input.moveCount), (p) => (p === nf3 ? 4 : 1)),
  });
  const mock = new MockEvaluator(board.spec, script);
  return { board, search: new MctsSearch(mock, { ...defaultMctsOptions('chess'), batchSize: 1, drawScore }) };
};

interface Summary {
  readonly move: string;
  readonly nf3: { visits: number; q: number; proven: number | undefined };
  /** The most visits any root move got. */
  readonly mostVisits: number;
}

const summary = async (drawScore: number, playouts: number): Promise<Summary> => {
  const { board, search } = setup(drawScore);
  await search.run(board, { playouts });
  const children = search.rootChildren();
  const nf3 = children.find((c) => board.moveToText(c.move) === 'g1f3')!;
  return {
    move: board.moveToText(search.chooseMove()),
    nf3: { visits: nf3.visits, q: nf3.q, proven: nf3.proven },
    mostVisits: Math.max(...children.map((c) => c.visits)),
  };
};

describe('draw score', () => {
  test('the repetition is a proven draw at the root whatever the draw score', async () => {
    for (const d of [0, -0.3]) expect((await summary(d, 50)).nf3.proven).toBe(0);
  });

  test('drawScore 0 repeats, -0.3 avoids the repetition, +0.3 seeks it', async () => {
    const zero = await summary(0, 400);
    expect(zero.move).toBe('g1f3');
    expect([zero.nf3.q, zero.nf3.proven]).toEqual([0, 0]);
    expect(zero.nf3.visits).toBe(zero.mostVisits);
    const minus = await summary(-0.3, 400);
    expect(minus.move).not.toBe('g1f3');
    expect(minus.nf3.q).toBeCloseTo(-0.3, 12);
    expect(minus.nf3.visits).toBeLessThan(minus.mostVisits);
    const plus = await summary(0.3, 400);
    expect(plus.move).toBe('g1f3');
    expect(plus.nf3.q).toBeCloseTo(0.3, 12);
    // The draw's worth orders how often the search goes back into it.
    expect(minus.nf3.visits).toBeLessThan(zero.nf3.visits);
    expect(zero.nf3.visits).toBeLessThan(plus.nf3.visits);
  });
});

describe('draw counts under tree reuse', () => {
  test('advance keeps the draw counts, and the score follows the new root side', async () => {
    const { board, search } = setup(-0.3);
    await search.run(board, { playouts: 400 });
    const t = search.tree;
    // Every terminal draw visit is counted at the root too: the root's count is its children's sum,
    // and each visit of the repeating Nf3 is one.
    const children = search.rootChildren();
    const drawsOf = (move: number): number => {
      const c = t.edgeChild[t.findEdge(0, move)]!;
      return c < 0 ? 0 : t.draws[c]!;
    };
    const rootDraws = t.draws[0]!;
    const nf3 = children.find((c) => board.moveToText(c.move) === 'g1f3')!;
    expect(drawsOf(nf3.move)).toBe(nf3.visits);
    expect(rootDraws).toBe(children.reduce((a, c) => a + drawsOf(c.move), 0));
    // Tree reuse: after the chosen move, the new root keeps that child's draws.
    const chosen = search.chooseMove();
    expect(board.moveToText(chosen)).not.toBe('g1f3');
    const childDraws = drawsOf(chosen);
    expect(search.advance([chosen])).toBe(true);
    expect(search.tree.draws[0]).toBe(childDraws);
  });
});
