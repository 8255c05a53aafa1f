/**
 * Pins the quiescence searches that share src/search/alphabeta/quiescence.ts with the tournament
 * search (whose tree tree-pin.test.ts pins): TreeStrap's full-width minimax tree (node count and
 * value at fixed depth) and TD-Leaf's resolved leaf (the quiescence line after a principal
 * variation and its value), on both games with the material and the shipped linear evaluations.
 * A refactoring that claims to keep them must keep these numbers.
 */
import { describe, expect, it } from 'vitest';
import { ChessLinearEval } from '../../../src/eval/linear/chess-eval.js';
import { chessMaterialTheta, shogiMaterialTheta } from '../../../src/eval/linear/material.js';
import { ShogiLinearEval } from '../../../src/eval/linear/shogi-eval.js';
import { leafEvaluator, resolveLeaf } from '../../../src/learning/tdleaf/leaf.js';
import { MinimaxTreeSearch } from '../../../src/learning/treestrap/minimax-tree.js';
import { loadWeightsFile } from '../../../src/player/weights-file.js';
import { ChessSearchBoard } from '../../../src/search/alphabeta/chess-board.js';
import type { SearchBoard } from '../../../src/search/alphabeta/search-board.js';
import { ShogiSearchBoard } from '../../../src/search/alphabeta/shogi-board.js';

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
const QGD = 'r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1QBPPP/R3KB1R w KQ - 0 1';
const SHOGI_MIDDLE = 'ln1g3nl/1r1sg1k2/p1pppsbpp/1p3pp2/7P1/2P1P1P2/PPBP1P2P/2S1GS1R1/LN1GK2NL b - 1';

const theta = (game: 'chess' | 'shogi', kind: 'material' | 'linear'): Float64Array =>
  kind === 'linear' ? loadWeightsFile(`models/${game}-linear.json`, game).unwrap().theta : game === 'chess' ? chessMaterialTheta() : shogiMaterialTheta();

const board = (game: 'chess' | 'shogi', text: string, kind: 'material' | 'linear'): SearchBoard =>
  game === 'chess'
    ? ChessSearchBoard.fromText(text, [], new ChessLinearEval(theta(game, kind))).unwrap()
    : ShogiSearchBoard.fromText(text, [], new ShogiLinearEval(theta(game, kind))).unwrap();

/** game, position, evaluation, depth, then nodes and value. */
const TREES: readonly [string, 'chess' | 'shogi', string, 'material' | 'linear', number, number, number][] = [
  ['kiwipete, material, depth 2', 'chess', KIWIPETE, 'material', 2, 60542, 0],
  ['qgd, linear, depth 3', 'chess', QGD, 'linear', 3, 278569, 150],
  ['shogi, linear, depth 2', 'shogi', SHOGI_MIDDLE, 'linear', 2, 1682, 0],
];

/** game, position, evaluation, pv (UCI/USI), then the resolved line and value. */
const LEAVES: readonly [string, 'chess' | 'shogi', string, 'material' | 'linear', readonly string[], string, number][] = [
  ['kiwipete, material', 'chess', KIWIPETE, 'material', ['e5f7'], 'e5f7 a6e2', -200],
  ['qgd, linear', 'chess', QGD, 'linear', ['c4d5'], 'c4d5 f6d5', 124.390577],
  ['shogi, linear', 'shogi', SHOGI_MIDDLE, 'linear', ['2e2d'], '2e2d 2c2d', -248.738156],
];

describe('quiescence pins', () => {
  it.each(TREES)('TreeStrap minimax: %s', (_name, game, text, kind, depth, nodes, value) => {
    const r = new MinimaxTreeSearch().search(board(game, text, kind), { depth }, { iterationStart: () => {}, node: () => {}, iterationDone: () => {} });
    expect([r.nodes, r.score]).toEqual([nodes, value]);
  });

  it.each(LEAVES)('TD-Leaf leaf: %s', (_name, game, text, kind, pv, line, value) => {
    const ev = leafEvaluator(game, theta(game, kind));
    const b = ev.board(text, 'standard') as SearchBoard;
    const moves = pv.map((t) => b.parseMove(t)!);
    const leaf = resolveLeaf(b, moves, ev, b.sideToMove());
    const texts = leaf.moves.map((m) => {
      const t = b.moveToText(m);
      b.make(m);
      return t;
    });
    for (let i = 0; i < texts.length; i++) b.unmake();
    expect([texts.join(' '), Number(leaf.value.toFixed(6))]).toEqual([line, value]);
  });
});
