/**
 * The leaves' mate tests of shogi MCTS (`MctsBoard.provenMate`) against their definition by full
 * move generation, on the vendored 3-ply tsume positions and every position one move after them;
 * and a 3-ply mate proven at the first visit of its first move.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { MAX_MOVES } from '../../../src/games/shogi/fast/board.js';
import type { MctsBoard } from '../../../src/search/mcts/mcts-board.js';
import { MockEvaluator } from '../../../src/nn/mock-evaluator.js';
import { defaultMctsOptions } from '../../../src/search/mcts/options.js';
import { MctsSearch } from '../../../src/search/mcts/search.js';
import { ShogiMctsBoard } from '../../../src/search/mcts/shogi-mcts-board.js';

const TSUME3 = readFileSync(new URL('../../../data/suites/tsume_mate-3-ply.sfen', import.meta.url), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '');

/**
 * The definition, by full move generation on any `MctsBoard`: 1 when the side to move, not in
 * check, has a move after which the opponent is in check without a legal move, -1 when it is in
 * check and each of its moves allows such a mate (`plies` >= 2), else 0.
 */
const reference = (b: MctsBoard, moves: Int32Array, n: number, plies: number): number => {
  const matesInOne = (): boolean => {
    const own = new Int32Array(MAX_MOVES);
    const replies = new Int32Array(MAX_MOVES);
    const k = b.generate(own);
    for (let i = 0; i < k; i++) {
      b.make(own[i]!);
      const mate = b.inCheck() && b.generate(replies) === 0;
      b.unmake();
      if (mate) return true;
    }
    return false;
  };
  const matedInTwo = (replies: Int32Array, r: number): boolean => {
    for (let i = 0; i < r; i++) {
      b.make(replies[i]!);
      const mated = matesInOne();
      b.unmake();
      if (!mated) return false;
    }
    return true;
  };
  if (b.inCheck()) return plies >= 2 && matedInTwo(moves, n) ? -1 : 0;
  return matesInOne() ? 1 : 0;
};

describe('provenMate', () => {
  test('equals its definition on the 3-ply tsume set and one ply after each position', () => {
    const counts = { win: 0, loss: 0 };
    const moves = new Int32Array(MAX_MOVES);
    const replies = new Int32Array(MAX_MOVES);
    for (const sfen of TSUME3.slice(0, 60)) {
      const b = ShogiMctsBoard.fromText(sfen, []).unwrap();
      const n = b.generate(moves);
      // A 3-ply tsume: no mate in one.
      expect(b.provenMate!(moves, n, 2), sfen).toBe(0);
      let solved = false;
      for (let i = 0; i < n; i++) {
        b.make(moves[i]!);
        const r = b.generate(replies);
        if (r > 0) {
          for (const plies of [1, 2]) expect(b.provenMate!(replies, r, plies), `${sfen} ${b.moveToText(moves[i]!)}`).toBe(reference(b, replies, r, plies));
          const v = b.provenMate!(replies, r, 2);
          if (v === 1) counts.win++;
          if (v === -1) counts.loss++;
          solved ||= v === -1;
        }
        b.unmake();
      }
      expect(b.toText()).toBe(ShogiMctsBoard.fromText(sfen, []).unwrap().toText());
      // A 3-ply tsume: some check leaves the defender mated in two.
      expect(solved, sfen).toBe(true);
    }
    expect(counts.loss).toBeGreaterThanOrEqual(60);
    expect(counts.win).toBeGreaterThan(0);
  });

  test('leafMatePlies 2 proves a 3-ply mate at the first visit of its first move', async () => {
    const sfen = TSUME3[0]!;
    const run = async (leafMatePlies: number): Promise<number> => {
      const board = ShogiMctsBoard.fromText(sfen, []).unwrap();
      // An unvisited root move first (a first-play value above any other), so each is visited at least once.
      const options = { ...defaultMctsOptions('shogi'), batchSize: 1, leafMatePlies, fpuReductionRoot: -10 };
      const search = new MctsSearch(new MockEvaluator(board.spec, () => ({})), options);
      await search.run(board, { playouts: board.generate(new Int32Array(MAX_MOVES)) + 1 });
      expect(search.rootChildren().every((c) => c.visits >= 1)).toBe(true);
      return search.rootChildren().filter((c) => c.proven === 1).length;
    };
    expect(await run(2)).toBeGreaterThan(0);
    expect(await run(1)).toBe(0);
  });
});
