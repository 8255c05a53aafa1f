/**
 * PUCT search with the mock evaluator: mates in one from a uniform prior (chess and shogi), visit
 * counts following the priors when values are equal, backup signs for both colours, tree reuse,
 * exact playout counts under batching, root noise and temperature.
 */
import { describe, expect, test } from 'vitest';
import type { NnInput } from '../../../src/nn/evaluator.js';
import { MockEvaluator, type MockScript } from '../../../src/nn/mock-evaluator.js';
import { CachedEvaluator } from '../../../src/nn/nn-cache.js';
import { ChessMctsBoard } from '../../../src/search/mcts/chess-mcts-board.js';
import type { MctsBoard } from '../../../src/search/mcts/mcts-board.js';
import { defaultMctsOptions, selfPlayMctsOptions, type MctsOptions } from '../../../src/search/mcts/options.js';
import { bestChild, MctsSearch, type RootChild } from '../../../src/search/mcts/search.js';
import { ShogiMctsBoard } from '../../../src/search/mcts/shogi-mcts-board.js';

const chess = (fen: string, moves: string[] = []): ChessMctsBoard => ChessMctsBoard.fromText(fen, moves).unwrap();
const shogi = (sfen: string, moves: string[] = []): ShogiMctsBoard => ShogiMctsBoard.fromText(sfen, moves).unwrap();

const searcher = (board: MctsBoard, script: MockScript = () => ({}), options: Partial<MctsOptions> = {}): { search: MctsSearch; mock: MockEvaluator } => {
  const mock = new MockEvaluator(board.spec, script);
  return { search: new MctsSearch(mock, { ...defaultMctsOptions(board.game), batchSize: 1, ...options }), mock };
};

const text = (board: MctsBoard, move: number): string => board.moveToText(move);

/** Mock answer "white/sente is better by `v`", from the side to move's view (colour plane of the encodings). */
const firstPlayerBetter =
  (v: number, colourPlane: number, squares: number): MockScript =>
  (input: NnInput) => ({ value: input.planes[colourPlane * squares] === 1 ? -v : v });

describe('mate in one from a uniform prior', () => {
  test('chess: Ra8#', async () => {
    const board = chess('6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1');
    const { search } = searcher(board);
    const r = await search.run(board, { playouts: 200 });
    expect(r.playouts).toBe(200);
    expect(text(board, search.chooseMove())).toBe('a1a8');
    const mate = search.rootChildren().find((c) => text(board, c.move) === 'a1a8')!;
    expect(mate.proven).toBe(1);
    expect(mate.q).toBe(1);
    expect(mate.visits).toBeGreaterThan(150);
    expect(board.toText()).toBe('6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1');
  });

  test('chess: black mates too (Qg2#)', async () => {
    const board = chess('8/8/8/8/8/5k2/q7/6K1 b - - 0 1');
    const { search } = searcher(board);
    await search.run(board, { playouts: 300 });
    expect(text(board, search.chooseMove())).toBe('a2g2');
    const proven = search.rootChildren().flatMap((c) => (c.proven !== undefined ? [[text(board, c.move), c.proven]] : []));
    expect(Object.fromEntries(proven)).toEqual({ a2g2: 1 });
  });

  test('chess: stalemating moves are proven draws', async () => {
    const board = chess('k7/8/1Q6/8/8/8/8/K7 w - - 0 1');
    const { search } = searcher(board);
    await search.run(board, { playouts: 100 });
    const proven = search.rootChildren().flatMap((c) => (c.proven !== undefined ? [[text(board, c.move), c.proven]] : []));
    // The king steps away and black, not in check, has no move; Qb6-b7/a7/... lines are not terminal.
    expect(Object.fromEntries(proven)).toMatchObject({ a1a2: 0, a1b1: 0, a1b2: 0 });
    expect(proven.every(([, v]) => v === 0)).toBe(true);
  });

  test('shogi: G*5b', async () => {
    const board = shogi('4k4/9/4P4/9/9/9/9/9/4K4 b G 1');
    const { search } = searcher(board);
    await search.run(board, { playouts: 300 });
    expect(text(board, search.chooseMove())).toBe('G*5b');
    expect(search.rootChildren().find((c) => text(board, c.move) === 'G*5b')!.proven).toBe(1);
  });

  test('a mate one ply deeper marks its parent won (one-ply solver), so the back rank is kept guarded', async () => {
    const board = chess('4r1k1/8/8/8/8/8/6PP/1R5K w - - 0 1');
    const { search } = searcher(board);
    await search.run(board, { playouts: 3000 });
    const byText = new Map(search.rootChildren().map((c) => [text(board, c.move), c]));
    // Leaving the first rank allows ...Re1#: those children are proven losses for white.
    for (const m of ['b1b2', 'b1b3', 'b1b4', 'b1b5', 'b1b6', 'b1b7']) expect(byText.get(m)!.proven, m).toBe(-1);
    expect(byText.get('b1c1')!.proven).toBeUndefined();
    expect(byText.get('b1e1')!.proven).toBe(-1); // ...Rxe1#
    expect(['b1b2', 'b1b3', 'b1b4', 'b1b5', 'b1b6', 'b1b7']).not.toContain(text(board, search.chooseMove()));
  });

  test('shogi leafMatePlies 1: a move that allows a mate in one is a proven loss at its first visit', async () => {
    // Gote threatens G*5h# (the pawn on 5g guards 5h); only 1g1f leaves it open, the king's steps do not.
    const sfen = 'k8/9/9/9/9/9/4p3P/9/4K4 b g 1';
    const proven = async (leafMatePlies: number): Promise<Record<string, number | undefined>> => {
      const board = shogi(sfen);
      const { search } = searcher(board, () => ({}), { leafMatePlies });
      await search.run(board, { playouts: 12 });
      return Object.fromEntries(search.rootChildren().map((c) => [text(board, c.move), c.proven]));
    };
    const on = await proven(1);
    expect(Object.keys(on).sort()).toEqual(['1g1f', '5i4h', '5i4i', '5i6h', '5i6i']);
    expect(on).toEqual({ '1g1f': -1, '5i4h': undefined, '5i4i': undefined, '5i6h': undefined, '5i6i': undefined });
    // Without the test the loss needs the mating reply to be found in the tree.
    expect((await proven(0))['1g1f']).toBeUndefined();
  });

  test('MCTS-Solver: a mate in two is proven at the root through the defender\'s only reply', async () => {
    // 1.Ra7 (or Rb7) Kg8 2.Rb8# (Ra8#): after Ra7 black's only move leads to a position where white
    // mates, so that position is a proven win for white and the one after Ra7 a proven loss for black.
    const board = chess('7k/8/8/8/8/8/R7/1R4K1 w - - 0 1');
    const { search } = searcher(board);
    await search.run(board, { playouts: 5000 });
    const proven = Object.fromEntries(search.rootChildren().flatMap((c) => (c.proven !== undefined ? [[text(board, c.move), c.proven]] : [])));
    expect(Object.keys(proven).length).toBeGreaterThan(0);
    for (const [move, v] of Object.entries(proven)) {
      expect(['a2a7', 'b1b7'], move).toContain(move);
      expect(v).toBe(1);
    }
    expect(proven[text(board, search.chooseMove())]).toBe(1);
  });
});

test('the move chosen: a proven win first, never a proven loss while another move is not one', () => {
  const child = (move: number, visits: number, proven?: number): RootChild => ({ move, prior: 0.1, visits, q: 0, proven });
  expect(bestChild([child(1, 500, -1), child(2, 20), child(3, 30)]).move).toBe(3);
  expect(bestChild([child(1, 500), child(2, 2, 1), child(3, 3, 1)]).move).toBe(3);
  expect(bestChild([child(1, 50, -1), child(2, 70, -1)]).move).toBe(2);
  expect(bestChild([child(1, 50, 0), child(2, 40)]).move).toBe(1);
});

test('visit counts follow the priors when every value is equal', async () => {
  const board = chess('startpos');
  const weights = Array.from({ length: 20 }, (_, i) => i + 1);
  const sum = weights.reduce((a, b) => a + b, 0);
  const rootKey = board.cacheKey();
  const { search } = searcher(board, (input) => (input.key === rootKey ? { weights } : {}), { fpuReduction: 0, fpuReductionRoot: 0 });
  await search.run(board, { playouts: 4000 });
  const children = search.rootChildren();
  expect(children.length).toBe(20);
  expect(children.reduce((a, c) => a + c.visits, 0)).toBe(4000);
  for (let i = 0; i < 20; i++) {
    const share = children[i]!.visits / 4000;
    expect(Math.abs(share - weights[i]! / sum)).toBeLessThan(0.01);
    if (i > 0) expect(children[i]!.visits).toBeGreaterThanOrEqual(children[i - 1]!.visits);
  }
});

describe('backup signs', () => {
  test('chess: white better by 0.5 reads +0.5 for white at the root and -0.5 for black', async () => {
    for (const [fen, expected] of [
      ['startpos', 0.5],
      ['rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', -0.5],
    ] as const) {
      const board = chess(fen);
      const { search } = searcher(board, firstPlayerBetter(0.5, 20, 64));
      await search.run(board, { playouts: 500 });
      for (const c of search.rootChildren()) if (c.visits > 0) expect(c.q).toBeCloseTo(expected, 6);
      // The root's own W is from the view of the player who moved into it.
      expect(search.tree.q(0)).toBeCloseTo(-expected, 6);
      expect(text(board, search.principalVariation()[0]!).length).toBe(4);
    }
  });

  test('shogi: sente better by 0.25, both sides to move', async () => {
    for (const [moves, expected] of [
      [[], 0.25],
      [['7g7f'], -0.25],
    ] as const) {
      const board = shogi('startpos', [...moves]);
      const { search } = searcher(board, firstPlayerBetter(0.25, 45, 81));
      await search.run(board, { playouts: 300 });
      for (const c of search.rootChildren()) if (c.visits > 0) expect(c.q).toBeCloseTo(expected, 6);
    }
  });

  test('a deeper win is backed up with alternating signs', async () => {
    // Value +1 for the side to move only at ply 2 below the root: the root side (white) sees its grandchildren as +1.
    const board = chess('startpos');
    const { search } = searcher(board, (input) => ({ value: input.planes[20 * 64] === 0 ? 0.8 : -0.8 }));
    await search.run(board, { playouts: 200 });
    const pv = search.principalVariation();
    expect(pv.length).toBeGreaterThanOrEqual(2);
    for (const c of search.rootChildren()) if (c.visits > 0) expect(c.q).toBeCloseTo(0.8, 6);
  });
});

test('tree reuse keeps the chosen subtree and its visits', async () => {
  const board = chess('startpos');
  const { search, mock } = searcher(board, () => ({}), { batchSize: 8 });
  await search.run(board, { playouts: 1000 });
  expect(search.rootVisits).toBe(1001);
  const pv = search.principalVariation();
  const t = search.tree;
  const e1 = t.findEdge(0, pv[0]!);
  const child = t.edgeChild[e1]!;
  const e2 = t.findEdge(child, pv[1]!);
  const grandchild = t.edgeChild[e2]!;
  const kept = t.visits[grandchild]!;
  const keptChildren = t.edgeCount[grandchild]!;
  expect(kept).toBeGreaterThan(1);
  const texts = [text(board, pv[0]!)];
  board.make(pv[0]!);
  texts.push(text(board, pv[1]!));
  board.make(pv[1]!);
  expect(search.advance([pv[0]!, pv[1]!])).toBe(true);
  expect(search.rootVisits).toBe(kept);
  expect(search.tree.edgeCount[0]).toBe(keptChildren);
  const before = mock.positions;
  await search.run(board, { playouts: 100 });
  expect(search.rootVisits).toBe(kept + 100);
  expect(mock.positions - before).toBeLessThanOrEqual(100);
  // A move outside the tree starts over.
  expect(search.advance([123456])).toBe(false);
  expect(search.rootVisits).toBe(0);
  expect(texts.length).toBe(2);
});

test('tree reuse into a node the tree scored as a repetition draw searches it as a root', async () => {
  // After Nf3 Nf6 Ng1, ...Ng8 repeats the start position: a terminal draw inside the tree. When
  // that move is played the node becomes the root, where a move must still be found (a match
  // once got "a1a1" from a root left terminal and unexpanded).
  const board = chess('startpos', ['g1f3', 'g8f6', 'f3g1']);
  const { search } = searcher(board, () => ({}), { batchSize: 8 });
  await search.run(board, { playouts: 200 });
  const back = search.rootChildren().find((c) => text(board, c.move) === 'f6g8')!;
  expect(back.proven).toBe(0);
  expect(search.advance([back.move])).toBe(true);
  board.make(back.move);
  const r = await search.run(board, { playouts: 100 });
  expect(r.playouts).toBe(100);
  expect(search.rootChildren().length).toBe(20);
  const list = new Int32Array(board.maxMoves);
  const legal = list.subarray(0, board.generate(list));
  expect(legal.includes(search.chooseMove())).toBe(true);
  // Moves back into the repetition are draws in the tree; the others were searched.
  expect(search.rootChildren().find((c) => text(board, c.move) === 'g1f3')!.proven).toBe(0);
  expect(search.rootChildren().find((c) => text(board, c.move) === 'e2e4')!.proven).toBeUndefined();
});

test('batched gathering: exact playout and evaluation counts, board restored', async () => {
  const board = chess('r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3');
  const fen = board.toText();
  const mock = new MockEvaluator(board.spec, (input) => ({ value: ((input.key ?? 0) % 1000) / 1000 - 0.5 }));
  const cached = new CachedEvaluator(mock, 100_000);
  const search = new MctsSearch(cached, { ...defaultMctsOptions('chess'), batchSize: 16 });
  const r = await search.run(board, { playouts: 777 });
  expect(r.playouts).toBe(777);
  expect(search.rootVisits).toBe(778);
  expect(board.toText()).toBe(fen);
  expect(cached.hits + cached.misses).toBe(r.evaluations);
  expect(mock.positions).toBe(cached.misses);
  // Same inputs, same tree: the search is deterministic.
  const again = new MctsSearch(new MockEvaluator(board.spec, (input) => ({ value: ((input.key ?? 0) % 1000) / 1000 - 0.5 })), {
    ...defaultMctsOptions('chess'),
    batchSize: 16,
  });
  await again.run(board, { playouts: 777 });
  expect(again.rootChildren().map((c) => c.visits)).toEqual(search.rootChildren().map((c) => c.visits));
});

test('root noise and temperature are seeded and keep priors normalised', async () => {
  const board = shogi('startpos');
  const runOnce = async (): Promise<{ priors: number[]; picks: string[] }> => {
    const mock = new MockEvaluator(board.spec);
    const search = new MctsSearch(mock, { ...selfPlayMctsOptions('shogi'), batchSize: 4, seed: 42 });
    await search.run(board, { playouts: 200 });
    const picks = Array.from({ length: 5 }, () => text(board, search.chooseMove(1)));
    return { priors: search.rootChildren().map((c) => c.prior), picks };
  };
  const a = await runOnce();
  const b = await runOnce();
  expect(a).toEqual(b);
  expect(a.priors.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 5);
  expect(new Set(a.priors.map((p) => p.toFixed(6))).size).toBeGreaterThan(1);
});

test('stops on the external signal and on a full tree', async () => {
  const board = chess('startpos');
  const { search } = searcher(board, () => ({}), { batchSize: 8, maxEdges: 2000 });
  const full = await search.run(board, { playouts: 100_000 });
  expect(full.reason).toBe('full');
  expect(search.tree.edgeTotal).toBeLessThanOrEqual(2000);
  const s2 = searcher(board, () => ({}), { batchSize: 8 }).search;
  let polls = 0;
  const stopped = await s2.run(board, { shouldStop: () => ++polls > 5 });
  expect(stopped.reason).toBe('stopped');
  expect(stopped.playouts).toBe(40);
});

test('concurrent searches share net calls through the batching evaluator, with the same trees as alone', async () => {
  const { BatchingEvaluator } = await import('../../../src/nn/batching-evaluator.js');
  const script: MockScript = (input) => ({ value: ((input.key ?? 0) % 997) / 997 - 0.5 });
  const starts = [['e2e4'], ['d2d4'], ['c2c4'], ['g1f3']];
  const alone = [];
  for (const moves of starts) {
    const board = chess('startpos', moves);
    const s = new MctsSearch(new MockEvaluator(board.spec, script), { ...defaultMctsOptions('chess'), batchSize: 8 });
    await s.run(board, { playouts: 300 });
    alone.push(s.rootChildren().map((c) => c.visits));
  }
  const mock = new MockEvaluator(chess('startpos').spec, script, 32);
  const shared = new BatchingEvaluator(mock);
  const searches = starts.map(() => new MctsSearch(shared, { ...defaultMctsOptions('chess'), batchSize: 8 }));
  await Promise.all(starts.map((moves, i) => searches[i]!.run(chess('startpos', moves), { playouts: 300 })));
  expect(searches.map((s) => s.rootChildren().map((c) => c.visits))).toEqual(alone);
  expect(shared.positions).toBe(mock.positions);
  // Four searches of batches of up to 8 fill most calls of 32.
  expect(shared.positions / shared.calls).toBeGreaterThan(20);
});
