/**
 * Pins the tournament search's tree: node count, best move and score of fixed-depth searches on
 * both games with the three evaluations (material, the shipped linear weights, the shipped
 * networks), one with singular extension on. A speed-up that claims to leave the search unchanged
 * must keep these numbers; a change of the search itself updates them (and is measured by a match).
 * Shipping a new network changes the `nnue` rows too: they are regenerated with the net.
 */
import { describe, expect, it } from 'vitest';
import { ChessLinearEval } from '../../../src/eval/linear/chess-eval.js';
import { chessMaterialTheta, shogiMaterialTheta } from '../../../src/eval/linear/material.js';
import { ShogiLinearEval } from '../../../src/eval/linear/shogi-eval.js';
import { ChessNnue } from '../../../src/eval/nnue/chess-nnue.js';
import { ShogiNnue } from '../../../src/eval/nnue/shogi-nnue.js';
import { loadNnueFile } from '../../../src/player/nnue-file.js';
import { loadWeightsFile } from '../../../src/player/weights-file.js';
import { ChessSearchBoard } from '../../../src/search/alphabeta/chess-board.js';
import { searchOptions, type SearchOptions } from '../../../src/search/alphabeta/options.js';
import { AlphaBetaSearch } from '../../../src/search/alphabeta/search.js';
import type { SearchBoard } from '../../../src/search/alphabeta/search-board.js';
import { ShogiSearchBoard } from '../../../src/search/alphabeta/shogi-board.js';
import { TranspositionTable } from '../../../src/search/alphabeta/tt.js';

type EvalKind = 'material' | 'linear' | 'nnue';

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
const QGD = 'r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1QBPPP/R3KB1R w KQ - 0 1';
const SHOGI_MIDDLE = 'ln1g3nl/1r1sg1k2/p1pppsbpp/1p3pp2/7P1/2P1P1P2/PPBP1P2P/2S1GS1R1/LN1GK2NL b - 1';

const board = (game: 'chess' | 'shogi', text: string, kind: EvalKind): SearchBoard => {
  if (game === 'chess') {
    const theta = kind === 'linear' ? loadWeightsFile('models/chess-linear.json', 'chess').unwrap().theta : chessMaterialTheta();
    const nnue = kind === 'nnue' ? new ChessNnue(loadNnueFile('models/chess-nnue.bin', 'chess').unwrap().net) : undefined;
    return ChessSearchBoard.fromText(text, [], new ChessLinearEval(theta), false, nnue).unwrap();
  }
  const theta = kind === 'linear' ? loadWeightsFile('models/shogi-linear.json', 'shogi').unwrap().theta : shogiMaterialTheta();
  const nnue = kind === 'nnue' ? new ShogiNnue(loadNnueFile('models/shogi-nnue.bin', 'shogi').unwrap().net) : undefined;
  return ShogiSearchBoard.fromText(text, [], new ShogiLinearEval(theta), nnue).unwrap();
};

/** game, position, evaluation, depth, option overrides, then nodes, best move, score. */
const PINS: readonly [game: 'chess' | 'shogi', text: string, kind: EvalKind, depth: number, overrides: Partial<SearchOptions>, nodes: number, best: string, score: number][] = [
  ['chess', 'startpos', 'material', 14, {}, 5339, 'b1a3', 0],
  ['chess', KIWIPETE, 'material', 7, {}, 44065, 'e2a6', 0],
  ['chess', QGD, 'linear', 9, {}, 17632, 'c4d5', 120],
  ['chess', KIWIPETE, 'nnue', 7, {}, 31934, 'e2a6', -101],
  ['chess', QGD, 'nnue', 7, { singularExtension: true }, 13392, 'a2a3', 43],
  ['shogi', 'startpos', 'material', 14, {}, 7861, '9g9f', 0],
  ['shogi', SHOGI_MIDDLE, 'linear', 9, {}, 3384, '5i6h', 0],
  ['shogi', SHOGI_MIDDLE, 'nnue', 8, {}, 5287, '4g4f', 281],
  ['shogi', 'startpos', 'nnue', 6, { singularExtension: true }, 1709, '7g7f', 135],
];

describe('the tournament search tree is pinned', () => {
  for (const [game, text, kind, depth, overrides, nodes, best, score] of PINS) {
    const extra = Object.keys(overrides).length > 0 ? ` ${JSON.stringify(overrides)}` : '';
    it(`${game} ${text.slice(0, 20)} ${kind} depth ${depth}${extra}`, () => {
      const b = board(game, text, kind);
      const r = new AlphaBetaSearch(new TranspositionTable(4), searchOptions('tournament', overrides)).search(b, { depth });
      expect([r.nodes, b.moveToText(r.bestMove), r.score]).toEqual([nodes, best, score]);
    });
  }
});

describe('the evaluation cache', () => {
  it('changes nothing but the number of evaluations', () => {
    for (const [game, text, kind, depth] of [['chess', KIWIPETE, 'linear', 7], ['shogi', SHOGI_MIDDLE, 'material', 10]] as const) {
      const run = (evalCache: boolean) => {
        const b = board(game, text, kind);
        let evaluations = 0;
        const evaluate = b.evaluate.bind(b);
        b.evaluate = () => {
          evaluations++;
          return evaluate();
        };
        const search = new AlphaBetaSearch(new TranspositionTable(4), searchOptions('tournament', { evalCache }));
        const r = search.search(b, { depth });
        // A second search of the same position with another evaluation must not read the first
        // search's entries.
        const again = search.search(board(game, text, kind === 'linear' ? 'material' : 'linear'), { depth: 4 });
        return { tree: [r.nodes, r.bestMove, r.score, again.nodes, again.score], evaluations };
      };
      const on = run(true);
      const off = run(false);
      expect(on.tree).toEqual(off.tree);
      expect(on.evaluations).toBeLessThan(off.evaluations * 0.7);
    }
  });
});
