import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../../src/core/rng.js';
import { ChessLinearEval } from '../../../src/eval/linear/chess-eval.js';
import { CHESS_FEATURES } from '../../../src/eval/linear/chess-features.js';
import { ShogiLinearEval } from '../../../src/eval/linear/shogi-eval.js';
import { SHOGI_FEATURES } from '../../../src/eval/linear/shogi-features.js';
import { ChessNnue } from '../../../src/eval/nnue/chess-nnue.js';
import { networkOutput, screluOutput, type Activation, type FeatureSet, type NnueNetwork } from '../../../src/eval/nnue/network.js';
import { ShogiNnue } from '../../../src/eval/nnue/shogi-nnue.js';
import { NnueSimd, simdSupported } from '../../../src/eval/nnue/simd/simd-kernels.js';
import { NNUE_SIMD_WASM_BASE64 } from '../../../src/eval/nnue/simd/simd-module.js';
import { ChessSearchBoard } from '../../../src/search/alphabeta/chess-board.js';
import { RULE_NONE, type SearchBoard } from '../../../src/search/alphabeta/search-board.js';
import { ShogiSearchBoard } from '../../../src/search/alphabeta/shogi-board.js';
import { assembleNnueSimd, moduleSource, MODULE_PATH, WAT_PATH } from '../../../tools/wasm/build-nnue-simd.js';
import { randomNetwork } from './random-network.js';

const chessEval = new ChessLinearEval(new Float64Array(CHESS_FEATURES.size));
const shogiEval = new ShogiLinearEval(new Float64Array(SHOGI_FEATURES.size));
/** An NNUE (and the search board that drives it) built with the SIMD kernels on or off. */
const build = (net: NnueNetwork, text: string, simd: boolean): { board: SearchBoard; nnue: ChessNnue | ShogiNnue } => {
  if (net.game === 'chess') {
    const nnue = new ChessNnue(net, simd);
    return { board: ChessSearchBoard.fromText(text, [], chessEval, false, nnue).unwrap(), nnue };
  }
  const nnue = new ShogiNnue(net, simd);
  return { board: ShogiSearchBoard.fromText(text, [], shogiEval, nnue).unwrap(), nnue };
};

const accumulators = (nnue: ChessNnue | ShogiNnue): number[] => {
  const off = nnue.stack.update();
  return Array.from(nnue.stack.accumulators.slice(off, off + 2 * nnue.stack.net.hidden));
};

/**
 * Two boards, one on the SIMD kernels and one on the TypeScript loops, walk the same random line
 * (makes, unmakes, null moves; deeper than the stack's first capacity so that the module's memory
 * grows): accumulators and evaluations must agree bit for bit.
 */
const lockstep = (net: NnueNetwork, text: string, seed: number, steps: number): number => {
  const a = build(net, text, true);
  const b = build(net, text, false);
  expect(a.nnue.stack.simdActive).toBe(true);
  expect(b.nnue.stack.simdActive).toBe(false);
  const rng = seededRng(seed);
  const list = new Int32Array(a.board.maxMoves);
  const list2 = new Int32Array(b.board.maxMoves);
  let depth = 0;
  let maxDepth = 0;
  let checked = 0;
  for (let s = 0; s < steps; s++) {
    const n = a.board.generate(list, false);
    expect(b.board.generate(list2, false)).toBe(n);
    const r = rng();
    if (depth > 0 && (r < 0.12 || n === 0 || a.board.ruleState() !== RULE_NONE)) {
      a.board.unmake();
      b.board.unmake();
      depth--;
    } else if (r < 0.16 && !a.board.inCheck() && depth > 0) {
      a.board.makeNull();
      b.board.makeNull();
      depth++;
    } else if (n > 0) {
      const m = list[Math.floor(rng() * n)]!;
      a.board.make(m);
      b.board.make(m);
      depth++;
    } else continue;
    maxDepth = Math.max(maxDepth, depth);
    if (rng() < 0.4) {
      expect(a.board.evaluate()).toBe(b.board.evaluate());
      expect(accumulators(a.nnue)).toEqual(accumulators(b.nnue));
      checked++;
    }
  }
  expect(maxDepth).toBeGreaterThan(130);
  return checked;
};

describe('NNUE WebAssembly SIMD kernels', () => {
  it('the committed module is the assembly of the .wat source', async () => {
    const bytes = await assembleNnueSimd(readFileSync(WAT_PATH, 'utf8'));
    expect(Buffer.from(bytes).toString('base64')).toBe(NNUE_SIMD_WASM_BASE64);
    expect(readFileSync(MODULE_PATH, 'utf8')).toBe(moduleSource(bytes));
  });

  it('runs where it applies and not where it does not', () => {
    expect(simdSupported()).toBe(true);
    expect(NnueSimd.create(randomNetwork('chess', 16, 'screlu'), 64)).toBeDefined();
    expect(NnueSimd.create(randomNetwork('chess', 12, 'screlu'), 64)).toBeUndefined();
    // The config's `nnueSimd: false` reaches the stacks as this argument.
    expect(new ChessNnue(randomNetwork('chess', 16, 'screlu'), false).stack.simdActive).toBe(false);
    expect(new ShogiNnue(randomNetwork('shogi', 16, 'screlu'), false).stack.simdActive).toBe(false);
    expect(new ChessNnue(randomNetwork('chess', 16, 'screlu')).stack.simdActive).toBe(true);
    expect(new ShogiNnue(randomNetwork('shogi', 16, 'screlu', 1, 'king-zone')).stack.simdActive).toBe(true);
  });

  it.each<[string, Activation, number]>([
    ['startpos', 'screlu', 1],
    ['r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 'crelu', 2],
    ['n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1', 'screlu', 3],
  ])('chess %s (%s): SIMD and TypeScript agree', (fen, activation, seed) => {
    expect(lockstep(randomNetwork('chess', 32, activation, seed), fen, seed, 1500)).toBeGreaterThan(300);
  });

  it('chess with 8 output buckets: SIMD and TypeScript agree in every bucket they meet', () => {
    const fen = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
    expect(lockstep(randomNetwork('chess', 32, 'screlu', 8, 'base', 8), fen, 8, 1500)).toBeGreaterThan(300);
  });

  it('chess king-bucket-4 with 8 output buckets: SIMD and TypeScript agree across king moves', () => {
    const fen = '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1';
    expect(lockstep(randomNetwork('chess', 32, 'screlu', 9, 'king-bucket-4', 8), fen, 9, 1500)).toBeGreaterThan(300);
  });

  it.each<[FeatureSet, string, number]>([
    ['base', 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1', 4],
    ['king-bucket-9', '4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrbgsnlp 1', 5],
    ['king-zone', 'l6nl/3g1k3/2n1ppspp/p1p1s1p2/1P1S1P3/P1P1P1P1P/3G1G3/1K+r6/LN5NL b BGSPbp 1', 6],
    ['king-zone', '4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrbgsnlp 1', 7],
  ])('shogi %s %s: SIMD and TypeScript agree', (featureSet, sfen, seed) => {
    expect(lockstep(randomNetwork('shogi', 24, 'screlu', seed, featureSet), sfen, seed, 1500)).toBeGreaterThan(300);
  });

  it('int16 lanes wrap as Int16Array stores do, and the SCReLU sum is exact at the extremes', () => {
    const rng = seededRng(9);
    const net = randomNetwork('chess', 64, 'screlu', 9);
    const extreme: NnueNetwork = { ...net, l1w: net.l1w.map(() => Math.round((rng() * 2 - 1) * 32767)), l2w: net.l2w.map(() => (rng() < 0.5 ? -32768 : 32767)) };
    const simd = NnueSimd.create(extreme, 4 * 64)!;
    const h = 64;
    // Four rows added and two subtracted onto a random accumulator: every lane overflows somewhere.
    const src = Int16Array.from({ length: h }, () => Math.round((rng() * 2 - 1) * 32767));
    simd.acc.set(src, 0);
    const rows = [3, 700, 12, 450, 99, 767];
    rows.forEach((r, i) => (simd.rows[i] = simd.rowAt(r * h)));
    simd.update(h, simd.accAt(0), 4, 2);
    const expected = new Int16Array(h);
    for (let i = 0; i < h; i++) {
      expected[i] = src[i]! + extreme.l1w[3 * h + i]! + extreme.l1w[700 * h + i]! + extreme.l1w[12 * h + i]! + extreme.l1w[450 * h + i]! - extreme.l1w[99 * h + i]! - extreme.l1w[767 * h + i]!;
    }
    expect(Array.from(simd.acc.slice(h, 2 * h))).toEqual(Array.from(expected));
    simd.addSub(2 * h, h, 5 * h, 6 * h);
    for (let i = 0; i < h; i++) expected[i] = expected[i]! + extreme.l1w[5 * h + i]! - extreme.l1w[6 * h + i]!;
    expect(Array.from(simd.acc.slice(2 * h, 3 * h))).toEqual(Array.from(expected));
    // Saturated halves (every lane at qa or above) against the largest output weights.
    simd.acc.fill(32767, 0, 2 * h);
    const jsAcc = new Int16Array(simd.acc.slice(0, 4 * h));
    expect(extreme.qa * extreme.qa * 32767 * 2 * h).toBeGreaterThan(2 ** 31);
    for (const [us, them] of [
      [0, h],
      [h, 2 * h],
      [2 * h, 0],
    ] as const) {
      expect(screluOutput(extreme, simd.screlu(us, them))).toBe(networkOutput(extreme, jsAcc, us, them));
    }
  });
});
