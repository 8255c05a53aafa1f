import { describe, expect, it } from 'vitest';
import { ChessLinearEval } from '../../../src/eval/linear/chess-eval.js';
import { ShogiLinearEval } from '../../../src/eval/linear/shogi-eval.js';
import { ChessNnue } from '../../../src/eval/nnue/chess-nnue.js';
import { ShogiNnue } from '../../../src/eval/nnue/shogi-nnue.js';
import { seededRng } from '../../../src/core/rng.js';
import { CHESS_FEATURES } from '../../../src/eval/linear/chess-features.js';
import { SHOGI_FEATURES } from '../../../src/eval/linear/shogi-features.js';
import { ChessSearchBoard } from '../../../src/search/alphabeta/chess-board.js';
import { RULE_NONE, type SearchBoard } from '../../../src/search/alphabeta/search-board.js';
import { ShogiSearchBoard } from '../../../src/search/alphabeta/shogi-board.js';
import type { FeatureSet } from '../../../src/eval/nnue/network.js';
import { randomNetwork } from './random-network.js';

const chessEval = new ChessLinearEval(new Float64Array(CHESS_FEATURES.size));
const shogiEval = new ShogiLinearEval(new Float64Array(SHOGI_FEATURES.size));

interface Probe {
  board: SearchBoard;
  /** Incremental accumulators of the current position. */
  incremental(): Int16Array;
  /** The same from scratch. */
  refreshed(): Int16Array;
  evaluate(): number;
  fresh(): number;
}

/** `views`: as shogiProbe's. */
const chessProbe = (fen: string, seed: number, chess960 = false, buckets = 1, featureSet: FeatureSet = 'base', views = new Set<number>()): Probe => {
  const net = randomNetwork('chess', 24, seed % 2 === 0 ? 'screlu' : 'crelu', seed, featureSet, buckets);
  const nnue = new ChessNnue(net);
  const board = ChessSearchBoard.fromText(fen, [], chessEval, chess960, nnue).unwrap();
  const codes = new Int32Array(32);
  return {
    board,
    incremental: () => nnue.stack.accumulators.slice(nnue.stack.update(), nnue.stack.update() + 48),
    refreshed: () => {
      const out = new Int16Array(48);
      const v0 = nnue.viewOf(board.board, 0);
      const v1 = nnue.viewOf(board.board, 1);
      views.add(v0 * 100 + v1);
      nnue.stack.refreshInto(out, 0, codes, ChessNnue.pieceCodes(board.board, codes), v0, v1);
      return out;
    },
    evaluate: () => board.evaluate(),
    fresh: () => ChessSearchBoard.fromText(board.toText(), [], chessEval, chess960, new ChessNnue(net)).unwrap().evaluate(),
  };
};

/** `views`: the distinct (black view, white view) pairs met when checking (king-relative features). */
const shogiProbe = (sfen: string, seed: number, featureSet: FeatureSet = 'base', views = new Set<number>()): Probe => {
  const net = randomNetwork('shogi', 16, 'screlu', seed, featureSet);
  const nnue = new ShogiNnue(net);
  const board = ShogiSearchBoard.fromText(sfen, [], shogiEval, nnue).unwrap();
  const codes = new Int32Array(128);
  return {
    board,
    incremental: () => nnue.stack.accumulators.slice(nnue.stack.update(), nnue.stack.update() + 32),
    refreshed: () => {
      const out = new Int16Array(32);
      const v0 = nnue.viewOf(board.board, 0);
      const v1 = nnue.viewOf(board.board, 1);
      views.add(v0 * 100 + v1);
      nnue.stack.refreshInto(out, 0, codes, ShogiNnue.pieceCodes(board.board, codes), v0, v1);
      return out;
    },
    evaluate: () => board.evaluate(),
    fresh: () => ShogiSearchBoard.fromText(board.toText(), [], shogiEval, new ShogiNnue(net)).unwrap().evaluate(),
  };
};

/** Random walk with make/unmake/null moves, checking accumulators against a refresh after each step. */
const walk = (p: Probe, seed: number, steps: number): number => {
  const rng = seededRng(seed);
  const list = new Int32Array(p.board.maxMoves);
  let depth = 0;
  let checked = 0;
  for (let s = 0; s < steps; s++) {
    const n = p.board.generate(list, rng() < 0.3);
    const r = rng();
    if (depth > 0 && (r < 0.25 || n === 0 || p.board.ruleState() !== RULE_NONE)) {
      p.board.unmake();
      depth--;
    } else if (r < 0.3 && !p.board.inCheck() && depth > 0) {
      p.board.makeNull();
      depth++;
    } else if (n > 0) {
      p.board.make(list[Math.floor(rng() * n)]!);
      depth++;
    } else continue;
    // Evaluate only sometimes, so lazy updates span several plies.
    if (rng() < 0.5) {
      expect([...p.incremental()]).toEqual([...p.refreshed()]);
      expect(p.evaluate()).toBe(p.fresh());
      checked++;
    }
  }
  return checked;
};

describe('NNUE accumulators: incremental equals a full refresh', () => {
  it.each([
    ['startpos', 1],
    ['r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 2], // castling both ways, promotions ahead
    ['8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', 3], // en passant
    ['n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1', 4], // promotions with capture
  ])('chess %s', (fen, seed) => {
    expect(walk(chessProbe(fen, seed), seed, 3000)).toBeGreaterThan(500);
  });

  it.each([
    ['r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 6],
    ['n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1', 7],
  ])('chess %s, 8 output buckets (the bucket follows captures)', (fen, seed) => {
    expect(walk(chessProbe(fen, seed, false, 8), seed, 3000)).toBeGreaterThan(500);
  });

  it('chess960 castling', () => {
    expect(walk(chessProbe('1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1', 5, true), 5, 3000)).toBeGreaterThan(500);
  });

  // king-bucket-4: king moves and castling that change a perspective's bucket or mirroring rebuild it.
  it.each([
    ['r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', false, 12], // castling both ways
    ['8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', false, 13], // open kings
    ['1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1', true, 14], // chess960 castling
  ])('chess king-bucket-4 %s', (fen, chess960, seed) => {
    const views = new Set<number>();
    expect(walk(chessProbe(fen, seed, chess960, 8, 'king-bucket-4', views), seed, 4000)).toBeGreaterThan(500);
    expect(views.size).toBeGreaterThan(4);
  });

  it.each([
    ['lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1', 6],
    ['lnsgk2nl/1r4gs1/p1pppp1pp/6p2/1p7/2P6/PPBPPPPPP/2S4R1/LN1GKGSNL b B 1', 7], // drops from hand
  ])('shogi %s', (sfen, seed) => {
    expect(walk(shogiProbe(sfen, seed), seed, 3000)).toBeGreaterThan(500);
  });

  // King-relative features: king moves that change a perspective's bucket or mirroring rebuild that
  // perspective; captures, drops and promotions go on incrementally. Open kings and full hands make
  // king moves (and so view changes) frequent in the random walk.
  it.each([
    ['lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1', 8],
    ['4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrbgsnlp 1', 9], // bare kings, every piece type in hand
    ['l6nl/3g1k3/2n1ppspp/p1p1s1p2/1P1S1P3/P1P1P1P1P/3G1G3/1K+r6/LN5NL b BGSPbp 1', 10], // castled, promoted rook near the king
  ])('shogi king-bucket-9 %s', (sfen, seed) => {
    const views = new Set<number>();
    expect(walk(shogiProbe(sfen, seed, 'king-bucket-9', views), seed, 4000)).toBeGreaterThan(500);
    expect(views.size).toBeGreaterThan(4);
  });

  // king-zone: every king move rebuilds the mover's half; other moves add and remove zone rows too.
  it.each([
    ['lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1', 11],
    ['4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrbgsnlp 1', 12],
    ['l6nl/3g1k3/2n1ppspp/p1p1s1p2/1P1S1P3/P1P1P1P1P/3G1G3/1K+r6/LN5NL b BGSPbp 1', 13],
  ])('shogi king-zone %s', (sfen, seed) => {
    const views = new Set<number>();
    expect(walk(shogiProbe(sfen, seed, 'king-zone', views), seed, 4000)).toBeGreaterThan(500);
    expect(views.size).toBeGreaterThan(10);
  });
});
