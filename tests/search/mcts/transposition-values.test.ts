/**
 * `transpositionValues`: a new leaf whose position was already valued elsewhere in the tree takes
 * that node's mean value instead of a new evaluation.
 */
import { expect, test } from 'vitest';
import { ChessMctsBoard } from '../../../src/search/mcts/chess-mcts-board.js';
import type { LeafEvaluator } from '../../../src/search/mcts/leaf-evaluator.js';
import type { MctsBoard } from '../../../src/search/mcts/mcts-board.js';
import { defaultMctsOptions } from '../../../src/search/mcts/options.js';
import { MctsSearch } from '../../../src/search/mcts/search.js';

/** Uniform priors and a small value that depends on the position only; records each position valued. */
class KeyedEvaluator implements LeafEvaluator {
  readonly kind = 'leaf' as const;
  readonly valued: number[] = [];
  private board: MctsBoard | undefined;
  attach(board: MctsBoard): MctsBoard {
    this.board = board;
    return board;
  }
  value(): number {
    const key = this.board!.cacheKey();
    this.valued.push(key);
    return ((key % 1000) / 1000 - 0.5) * 0.2;
  }
  priors(_moves: Int32Array, n: number, priors: Float32Array): void {
    priors.fill(1 / n, 0, n);
  }
  evaluate(moves: Int32Array, n: number, priors: Float32Array): number {
    this.priors(moves, n, priors);
    return this.value();
  }
}

const run = async (transpositionValues: boolean): Promise<{ ev: KeyedEvaluator; search: MctsSearch }> => {
  const board = ChessMctsBoard.fromText('startpos', []).unwrap();
  const ev = new KeyedEvaluator();
  const search = new MctsSearch(ev, { ...defaultMctsOptions('chess'), transpositionValues });
  const r = await search.run(board, { playouts: 4000 });
  expect(r.playouts).toBe(4000);
  return { ev, search };
};

const distinct = (keys: number[]): number => new Set(keys).size;

test('each position is evaluated once with transposition values, several times without', async () => {
  const off = (await run(false)).ev.valued;
  expect(distinct(off)).toBeLessThan(off.length);
  const on = await run(true);
  expect(distinct(on.ev.valued)).toBe(on.ev.valued.length);
  // The same tree shape costs fewer evaluations: transposed leaves were not evaluated.
  expect(on.ev.valued.length).toBeLessThan(off.length);
});

test('after re-rooting (node indices change) the table starts afresh and still evaluates each position once', async () => {
  const { ev, search } = await run(true);
  const before = ev.valued.length;
  const pv = search.principalVariation();
  expect(search.advance([pv[0]!, pv[1]!])).toBe(true);
  const board = ChessMctsBoard.fromText('startpos', []).unwrap();
  board.make(pv[0]!);
  board.make(pv[1]!);
  const r = await search.run(board, { playouts: 2000 });
  expect(r.playouts).toBe(2000);
  const after = ev.valued.slice(before);
  expect(after.length).toBeGreaterThan(0);
  expect(distinct(after)).toBe(after.length);
});
