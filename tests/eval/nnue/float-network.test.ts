import { describe, expect, it } from 'vitest';
import { seededRng } from '../../../src/core/rng.js';
import { ChessLinearEval } from '../../../src/eval/linear/chess-eval.js';
import { CHESS_FEATURES } from '../../../src/eval/linear/chess-features.js';
import { ShogiLinearEval } from '../../../src/eval/linear/shogi-eval.js';
import { SHOGI_FEATURES } from '../../../src/eval/linear/shogi-features.js';
import { SparseVector } from '../../../src/eval/linear/sparse.js';
import { ChessNnue } from '../../../src/eval/nnue/chess-nnue.js';
import { dequantise, FT_LIMIT, paramLayout, quantise } from '../../../src/eval/nnue/float-network.js';
import { parseNetwork, serializeNetwork } from '../../../src/eval/nnue/format.js';
import type { Activation, NnueNetwork } from '../../../src/eval/nnue/network.js';
import { ShogiNnue } from '../../../src/eval/nnue/shogi-nnue.js';
import { TrainableNetwork } from '../../../src/eval/nnue/trainable.js';
import { ChessSearchBoard } from '../../../src/search/alphabeta/chess-board.js';
import { RULE_NONE, type SearchBoard } from '../../../src/search/alphabeta/search-board.js';
import { ShogiSearchBoard } from '../../../src/search/alphabeta/shogi-board.js';
import { randomNetwork } from './random-network.js';

const chessEval = new ChessLinearEval(new Float64Array(CHESS_FEATURES.size));
const shogiEval = new ShogiLinearEval(new Float64Array(SHOGI_FEATURES.size));
const FENS = ['startpos', 'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4', '8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50'];

const sameNet = (a: NnueNetwork, b: NnueNetwork): void => {
  expect(Array.from(a.l1w)).toEqual(Array.from(b.l1w));
  expect(Array.from(a.l1b)).toEqual(Array.from(b.l1b));
  expect(Array.from(a.l2w)).toEqual(Array.from(b.l2w));
  expect(a.l2b).toEqual(b.l2b);
};

/** Plays `plies` random legal moves (stopping at a game end). */
const randomWalk = (board: SearchBoard, plies: number, rng: () => number): number => {
  const list = new Int32Array(board.maxMoves);
  let made = 0;
  for (; made < plies; made++) {
    if (board.ruleState() !== RULE_NONE) break;
    const n = board.generate(list, false);
    if (n === 0) break;
    board.make(list[Math.floor(rng() * n)]!);
  }
  return made;
};

describe('float master copy', () => {
  it.each([
    ['chess', 1],
    ['chess', 8],
    ['shogi', 1],
  ] as const)('re-quantises a dequantised %s network (%i output buckets) to the same integers and file bytes', (game, buckets) => {
    const net = randomNetwork(game, 16, 'screlu', 7, 'base', buckets);
    const back = quantise(dequantise(net), net);
    sameNet(back, net);
    expect(serializeNetwork(back)).toEqual(serializeNetwork(net));
    sameNet(parseNetwork(serializeNetwork(back), 'x').unwrap(), net);
  });

  it('a learning step smaller than a quantisation step accumulates in the master copy until it shows', () => {
    const net = randomNetwork('chess', 8, 'screlu', 3);
    const t = new TrainableNetwork(net);
    const i = paramLayout(net.features, net.hidden).w1 + 5;
    const before = t.net.l1w[5]!;
    for (let k = 0; k < 3; k++) {
      t.theta[i] = t.theta[i]! + 0.3 / net.qa;
      t.sync();
    }
    expect(t.net.l1w[5]).toBe(before + 1);
    expect(net.l1w[5]).toBe(before); // the start network is not changed
    t.theta[i] = 99;
    t.sync();
    expect(t.theta[i]).toBe(FT_LIMIT);
    expect(t.net.l1w[5]).toBe(Math.round(FT_LIMIT * net.qa));
  });

  it.each([
    ['chess', 'screlu', 'base', 1],
    ['chess', 'crelu', 'base', 1],
    ['chess', 'screlu', 'base', 8],
    ['chess', 'screlu', 'king-bucket-4', 8],
    ['shogi', 'screlu', 'base', 1],
    ['shogi', 'screlu', 'king-bucket-9', 1],
    ['shogi', 'screlu', 'king-zone', 1],
  ] as const)('the float output of a %s %s %s network (%i output buckets) is the integer output up to rounding', (game, act: Activation, features, buckets) => {
    const net = randomNetwork(game, 24, act, 11, features, buckets);
    const t = new TrainableNetwork(net);
    const rng = seededRng(5);
    for (let g = 0; g < 6; g++) {
      const board: SearchBoard =
        game === 'chess' ? ChessSearchBoard.fromText('startpos', [], chessEval, false, new ChessNnue(t.net)).unwrap() : ShogiSearchBoard.fromText('startpos', [], shogiEval, new ShogiNnue(t.net)).unwrap();
      randomWalk(board, 10 + 7 * g, rng);
      const fast = game === 'chess' ? (board as ChessSearchBoard).board : (board as ShogiSearchBoard).board;
      const stm = board.evaluate(); // integer, side to move's view (clipped far beyond these values)
      const first = t.value(fast);
      expect(Math.abs(first * (board.sideToMove() === 0 ? 1 : -1) - stm)).toBeLessThanOrEqual(2);
    }
  });
});

describe('gradient', () => {
  it.each([
    ['chess', 'screlu', 1],
    ['chess', 'crelu', 1],
    ['chess', 'screlu', 4],
    ['shogi', 'screlu', 1],
  ] as const)('of a %s %s network (%i output buckets) matches central finite differences', (game, act: Activation, buckets) => {
    const net = randomNetwork(game, 12, act, 21, 'base', buckets);
    const t = new TrainableNetwork(net);
    // Off the quantisation grid, so that nothing sits exactly on a clamp edge.
    const rng = seededRng(9);
    for (let i = 0; i < t.theta.length; i++) t.theta[i] = t.theta[i]! + (rng() - 0.5) * 1e-3;
    const L = t.layout;
    let checked = 0;
    for (const pos of game === 'chess' ? FENS : ['startpos', 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2', 'ln1g4l/1r2k1g2/p1ppspn1p/1s4pp1/1p7/2P1P1P2/PPSP1PN1P/2G2S1R1/LN2KG2L b BPb 27']) {
      const fast = game === 'chess' ? ChessSearchBoard.fromText(pos, [], chessEval).unwrap().board : ShogiSearchBoard.fromText(pos, [], shogiEval).unwrap().board;
      const g = new SparseVector();
      const h = t.value(fast, g, 1);
      expect(t.value(fast)).toBe(h);
      const grad = g.toMap();
      // Every parameter the gradient names, plus some it does not (inactive features: exactly 0).
      const probe = new Set<number>([...grad.keys()].filter(() => rng() < 0.15));
      for (let k = 0; k < 40; k++) probe.add(Math.floor(rng() * L.b1));
      for (let i = L.b1; i < L.size; i++) probe.add(i);
      for (const i of probe) {
        const x = t.theta[i]!;
        const eps = 1e-6;
        t.theta[i] = x + eps;
        const up = t.value(fast);
        t.theta[i] = x - eps;
        const down = t.value(fast);
        t.theta[i] = x;
        const fd = (up - down) / (2 * eps);
        const an = grad.get(i) ?? 0;
        expect(Math.abs(an - fd)).toBeLessThanOrEqual(1e-4 * Math.max(1, Math.abs(fd)));
        checked++;
      }
      // Everything but some first-layer biases at clamp edges and the other buckets' output layers.
      expect(grad.size).toBeGreaterThan(L.size - L.b1 - 2 * L.hidden - (L.buckets - 1) * (2 * L.hidden + 1));
    }
    expect(checked).toBeGreaterThan(300);
  });
});

describe('after an update', () => {
  it.each(['chess', 'shogi'] as const)('the %s incremental accumulators equal a full refresh and the evaluation a fresh board', (game) => {
    const net = randomNetwork(game, 16, 'screlu', 33);
    const t = new TrainableNetwork(net);
    const rng = seededRng(17);
    const make = (text: string): { board: SearchBoard; nnue: ChessNnue | ShogiNnue } => {
      if (game === 'chess') {
        const nnue = new ChessNnue(t.net);
        return { board: ChessSearchBoard.fromText(text, [], chessEval, false, nnue).unwrap(), nnue };
      }
      const nnue = new ShogiNnue(t.net);
      return { board: ShogiSearchBoard.fromText(text, [], shogiEval, nnue).unwrap(), nnue };
    };
    const { board, nnue } = make('startpos');
    const codes = new Int32Array(128);
    const refreshed = (): Int16Array => {
      const out = new Int16Array(2 * t.net.hidden);
      const n = game === 'chess' ? ChessNnue.pieceCodes((board as ChessSearchBoard).board, codes) : ShogiNnue.pieceCodes((board as ShogiSearchBoard).board, codes);
      nnue.stack.refreshInto(out, 0, codes, n);
      return out;
    };
    for (let round = 0; round < 4; round++) {
      randomWalk(board, 12, rng);
      // A gradient step on the current position, then re-quantisation and a re-attach of the board.
      const fast = game === 'chess' ? (board as ChessSearchBoard).board : (board as ShogiSearchBoard).board;
      const g = new SparseVector();
      t.value(fast, g, 1);
      g.addTo(t.theta, 0.05 / t.net.scale);
      const l1Before = Int16Array.from(t.net.l1w);
      t.sync();
      expect(Array.from(t.net.l1w)).not.toEqual(Array.from(l1Before));
      if (game === 'chess') (nnue as ChessNnue).attach(fast as never);
      else (nnue as ShogiNnue).attach(fast as never);
      // Moves and take-backs after the update: incremental == refresh, evaluation == a fresh board's.
      const made = randomWalk(board, 8, rng);
      const off = nnue.stack.update();
      expect(Array.from(nnue.stack.accumulators.slice(off, off + 2 * t.net.hidden))).toEqual(Array.from(refreshed()));
      expect(board.evaluate()).toBe(make(board.toText()).board.evaluate());
      for (let k = 0; k < Math.min(made, 3); k++) board.unmake();
      const off2 = nnue.stack.update();
      expect(Array.from(nnue.stack.accumulators.slice(off2, off2 + 2 * t.net.hidden))).toEqual(Array.from(refreshed()));
    }
  });
});
