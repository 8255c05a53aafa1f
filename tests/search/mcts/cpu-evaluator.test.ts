/**
 * MCTS on the CPU networks (src/search/mcts/cpu-evaluator.ts): the one-ply policy gives every legal
 * move, and only those, a prior equal to the softmax of a from-scratch network evaluation of the
 * position after it (castling, en passant, promotions, shogi drops and promotions included); the
 * value is the network's (static, or quiescence-resolved, in check the best evasion); the accumulators follow the descent of
 * a real search (every leaf's incremental evaluation equals a fresh one, the root is restored);
 * the search with it finds a mate in one and wins a hanging queen; broken network files and
 * tuning strings fail with clear errors.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ChessNnue } from '../../../src/eval/nnue/chess-nnue.js';
import { serializeNetwork } from '../../../src/eval/nnue/format.js';
import type { NnueNetwork } from '../../../src/eval/nnue/network.js';
import { ShogiNnue } from '../../../src/eval/nnue/shogi-nnue.js';
import { FastChessBoard } from '../../../src/games/chess/fast/board.js';
import { SEE_VALUE, see as chessSee } from '../../../src/games/chess/fast/see.js';
import { FastShogiBoard } from '../../../src/games/shogi/fast/board.js';
import { SEE_BOARD_VALUE, SEE_CAPTURE_VALUE, see as shogiSee } from '../../../src/games/shogi/fast/see.js';
import { cpuNetMctsOptions, loadCpuEvaluator } from '../../../src/player/mcts-cpu-nets.js';
import { cpuTuningFromText } from '../../../src/player/mcts-cpu-tuning.js';
import { createMctsPlayer } from '../../../src/player/mcts-factory.js';
import { nnueOutputOf } from '../../../src/player/nnue-file.js';
import { ChessCpuEvaluator } from '../../../src/search/mcts/chess-cpu-evaluator.js';
import { ChessMctsBoard } from '../../../src/search/mcts/chess-mcts-board.js';
import type { CpuEvaluator } from '../../../src/search/mcts/cpu-evaluator.js';
import type { MctsBoard } from '../../../src/search/mcts/mcts-board.js';
import { defaultMctsOptions } from '../../../src/search/mcts/options.js';
import { MctsSearch } from '../../../src/search/mcts/search.js';
import { ShogiCpuEvaluator } from '../../../src/search/mcts/shogi-cpu-evaluator.js';
import { ShogiMctsBoard } from '../../../src/search/mcts/shogi-mcts-board.js';
import { randomNetwork } from '../../eval/nnue/random-network.js';

const K = 300;
const TAU = 0.4;
const settings = { k: K, priorTemperature: TAU, qsearchPlies: 0, policyTemperature: 1 };

/** The network's output for the side to move, from scratch (no accumulator history). */
const freshChess = (net: NnueNetwork, fen: string): number => nnueOutputOf(net, fen).unwrap();
const freshShogi = (net: NnueNetwork, sfen: string): number => nnueOutputOf(net, sfen).unwrap();

/** What the one-ply policy should give, computed by another route: each child from scratch. */
const expectedPriors = (moves: Int32Array, n: number, childValue: (m: number) => number, loss: (m: number) => number): number[] => {
  const logits: number[] = [];
  for (let i = 0; i < n; i++) {
    const m = moves[i]!;
    const l = loss(m);
    logits.push((-childValue(m) + (l < 0 ? l : 0)) / (TAU * K));
  }
  const max = Math.max(...logits);
  const e = logits.map((l) => Math.exp(l - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
};

const chessChild = (net: NnueNetwork, board: ChessMctsBoard) => (m: number): number => {
  board.make(m);
  const v = freshChess(net, board.toText());
  board.unmake();
  return v;
};

const chessLoss = (fast: FastChessBoard) => (m: number): number => {
  const promo = (m >> 12) & 7;
  return chessSee(fast, m) - (SEE_VALUE[(m >> 17) & 7]! + (promo !== 0 ? SEE_VALUE[promo]! - SEE_VALUE[1]! : 0));
};

const shogiChild = (net: NnueNetwork, board: ShogiMctsBoard) => (m: number): number => {
  board.make(m);
  const v = freshShogi(net, board.toText());
  board.unmake();
  return v;
};

const shogiLoss = (fast: FastShogiBoard) => (m: number): number => {
  if (m >>> 17 !== 0) return shogiSee(fast, m);
  const victim = fast.board[(m >>> 8) & 255]! & 15;
  const type = fast.board[m & 255]! & 15;
  const promo = (m & (1 << 16)) !== 0 && type <= 6 ? SEE_BOARD_VALUE[type + 8]! - SEE_BOARD_VALUE[type]! : 0;
  return shogiSee(fast, m) - SEE_CAPTURE_VALUE[victim]! - promo;
};

const CHESS_POSITIONS = [
  'startpos',
  // Castling both ways, en passant (b4xa3 after a2a4 is not set up here; d5e6 captures), promotions on g2/h1.
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  // En passant available: e5xd6.
  'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3',
  // Promotions with and without capture, both colours' pieces around.
  'n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1',
];

const SHOGI_POSITIONS = [
  'startpos',
  // Pieces in hand (drops), promotions in the zone, captures.
  'ln1g3nl/1r1sg1k2/p1pppsbpp/1p3p3/9/2P1P1P2/PPBP1P2P/2S1GS1R1/LN1GK2NL b Pp 1',
  'lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL b Bb 1',
  '8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124',
];

describe('one-ply policy', () => {
  test('chess: a prior for exactly the legal moves, equal to the softmax of from-scratch child values', () => {
    const net = randomNetwork('chess', 16, 'screlu', 3);
    const ev = new ChessCpuEvaluator(net, settings);
    for (const fen of CHESS_POSITIONS) {
      const board = ChessMctsBoard.fromText(fen, []).unwrap();
      const walked = ev.attach(board);
      const moves = new Int32Array(256);
      const n = walked.generate(moves);
      expect(n).toBe(board.board.legalMoves().length);
      const priors = new Float32Array(256).fill(-1);
      const v = ev.evaluate(moves, n, priors);
      expect(v).toBeCloseTo(Math.tanh(freshChess(net, board.toText()) / (2 * K)), 12);
      const want = expectedPriors(moves, n, chessChild(net, board), chessLoss(board.board));
      for (let i = 0; i < n; i++) {
        expect(priors[i]!, `${fen} ${board.moveToText(moves[i]!)}`).toBeGreaterThan(0);
        expect(priors[i]!).toBeCloseTo(want[i]!, 6);
      }
      expect(priors[n]).toBe(-1);
      expect(priors.subarray(0, n).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
      expect(board.toText()).toBe(ChessMctsBoard.fromText(fen, []).unwrap().toText());
    }
  });

  test('shogi: the same with drops and promotions', () => {
    const net = randomNetwork('shogi', 16, 'screlu', 5);
    const ev = new ShogiCpuEvaluator(net, settings);
    for (const sfen of SHOGI_POSITIONS) {
      const board = ShogiMctsBoard.fromText(sfen, []).unwrap();
      const walked = ev.attach(board);
      const moves = new Int32Array(board.maxMoves);
      const n = walked.generate(moves);
      const texts = [...moves.subarray(0, n)].map((m) => board.moveToText(m));
      if (sfen !== 'startpos') {
        expect(texts.some((t) => t.includes('*')), `${sfen}: drops`).toBe(true);
      }
      if (sfen.startsWith('8l')) expect(texts.some((t) => t.endsWith('+')), 'promotions').toBe(true);
      const priors = new Float32Array(board.maxMoves).fill(-1);
      const v = ev.evaluate(moves, n, priors);
      expect(v).toBeCloseTo(Math.tanh(freshShogi(net, board.toText()) / (2 * K)), 12);
      const want = expectedPriors(moves, n, shogiChild(net, board), shogiLoss(board.board));
      for (let i = 0; i < n; i++) {
        expect(priors[i]!, `${sfen} ${texts[i]}`).toBeGreaterThan(0);
        expect(priors[i]!).toBeCloseTo(want[i]!, 6);
      }
      expect(priors[n]).toBe(-1);
      expect(priors.subarray(0, n).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    }
  });
});

describe('value', () => {
  test('the quiescence search resolves a hanging queen; in check, the best evasion', () => {
    const net = randomNetwork('chess', 16, 'screlu', 7);
    const fen = '4k3/8/5q2/8/8/8/6PP/5Q1K w - - 0 1';
    const stat = new ChessCpuEvaluator(net, settings);
    const quiet = new ChessCpuEvaluator(net, { ...settings, qsearchPlies: 8 });
    const value = (ev: CpuEvaluator, text: string): number => {
      const board = ChessMctsBoard.fromText(text, []).unwrap();
      const walked = ev.attach(board);
      const moves = new Int32Array(256);
      const n = walked.generate(moves);
      return ev.evaluate(moves, n, new Float32Array(256));
    };
    // Qxf6 wins the queen: the resolved value is the best of standing pat and the capture line.
    const board = FastChessBoard.fromFen(fen).unwrap();
    const afterCapture = -freshChess(net, (board.makeMove(board.parseUci('f1f6')), board.toFen()));
    const want = Math.max(freshChess(net, fen), afterCapture);
    expect(value(quiet, fen)).toBeCloseTo(Math.tanh(want / (2 * K)), 12);
    expect(value(stat, fen)).toBeCloseTo(Math.tanh(freshChess(net, fen) / (2 * K)), 12);
    // In check: the best evasion by the value after it (one quiescence ply: the static value there).
    const check = '4k3/8/8/8/8/5R2/6PP/q6K w - - 0 1';
    const oneQ = new ChessCpuEvaluator(net, { ...settings, qsearchPlies: 1 });
    const cb = ChessMctsBoard.fromText(check, []).unwrap();
    const evasions = cb.board.legalMoves();
    expect(evasions.map((m) => cb.moveToText(m))).toEqual(['f3f1']);
    const best = Math.max(...evasions.map((m) => -chessChild(net, cb)(m)));
    expect(value(oneQ, check)).toBeCloseTo(Math.tanh(best / (2 * K)), 12);
    expect(value(stat, check)).toBeCloseTo(Math.tanh(freshChess(net, check) / (2 * K)), 12);
  });
});

describe('the leaf\'s captures, picked out of its legal moves', () => {
  /** The evaluator's two routes to a position's captures: generated, and filtered from the legal moves. */
  const routes = <B extends { generateMoves(list: Int32Array, capturesOnly?: boolean): number }>(
    board: B,
    generated: () => number[],
    isCapture: (m: number) => boolean,
  ): [number[], number[]] => {
    const legal = new Int32Array(1024);
    const n = board.generateMoves(legal);
    return [generated().sort((a, b) => a - b), Array.from(legal.subarray(0, n)).filter(isCapture).sort((a, b) => a - b)];
  };
  class ChessProbe extends ChessCpuEvaluator {
    both(b: FastChessBoard): [number[], number[]] {
      this.board = b;
      const list = new Int32Array(256);
      return routes(b, () => Array.from(list.subarray(0, this.captures(list))), (m) => this.isCapture(m));
    }
  }
  class ShogiProbe extends ShogiCpuEvaluator {
    both(b: FastShogiBoard): [number[], number[]] {
      this.board = b;
      const list = new Int32Array(1024);
      return routes(b, () => Array.from(list.subarray(0, this.captures(list))), (m) => this.isCapture(m));
    }
  }
  /** Walks `plies` random legal moves (a fixed LCG), calling `visit` at each position. */
  const walk = (generate: (l: Int32Array) => number, make: (m: number) => void, plies: number, seed: number, visit: () => void): void => {
    const list = new Int32Array(1024);
    let x = seed;
    for (let i = 0; i < plies; i++) {
      visit();
      const n = generate(list);
      if (n === 0) return;
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      make(list[x % n]!);
    }
  };

  test('chess: the same moves as the captures-only generation (en passant and every promotion included)', () => {
    const probe = new ChessProbe(randomNetwork('chess', 16, 'screlu', 7), settings);
    let checked = 0;
    for (const fen of ['startpos', '4k3/P7/8/3pP3/8/8/1p6/R3K3 w - d6 0 1', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1']) {
      for (let seed = 1; seed <= 4; seed++) {
        const b = ChessMctsBoard.fromText(fen, []).unwrap().board;
        walk((l) => b.generateMoves(l), (m) => b.makeMove(m), 120, seed, () => {
          const [generated, filtered] = probe.both(b);
          expect(filtered, b.toFen()).toEqual(generated);
          checked += generated.length;
        });
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  test('shogi: the same moves as the captures-only generation (each promotion option, no drops)', () => {
    const probe = new ShogiProbe(randomNetwork('shogi', 16, 'screlu', 7), settings);
    let checked = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const b = ShogiMctsBoard.fromText('startpos', []).unwrap().board;
      walk((l) => b.generateMoves(l), (m) => b.makeMove(m), 200, seed, () => {
        const [generated, filtered] = probe.both(b);
        expect(filtered, b.toSfen()).toEqual(generated);
        checked += generated.length;
      });
    }
    expect(checked).toBeGreaterThan(500);
  });
});

/**
 * Wraps `ev.value` and `ev.priors` to compare the incremental evaluation with a fresh one wherever
 * the search asks for either (a leaf's value on its first visit, its priors on the next).
 */
const checkLeaves = (
  ev: CpuEvaluator,
  fresh: (text: string) => number,
  incremental: () => number,
  board: MctsBoard,
): { leaves: number; expansions: number; bad: string[] } => {
  const out = { leaves: 0, expansions: 0, bad: [] as string[] };
  const check = (): void => {
    const inc = incremental();
    const f = fresh(board.toText());
    if (inc !== f && out.bad.length < 5) out.bad.push(`${board.toText()}: ${inc} vs ${f}`);
  };
  const value = ev.value.bind(ev);
  const priors = ev.priors.bind(ev);
  ev.value = (moves, n) => {
    out.leaves++;
    check();
    return value(moves, n);
  };
  ev.priors = (moves, n, p) => {
    out.expansions++;
    check();
    priors(moves, n, p);
  };
  return out;
};

/** Counts `ev.priors` calls. */
const countPriors = (ev: CpuEvaluator): { calls: number } => {
  const out = { calls: 0 };
  const priors = ev.priors.bind(ev);
  ev.priors = (moves, n, p) => {
    out.calls++;
    priors(moves, n, p);
  };
  return out;
};

describe('search with the CPU evaluator', () => {
  test('chess: every leaf evaluated incrementally equals a fresh evaluation; the root is restored', async () => {
    const net = randomNetwork('chess', 16, 'crelu', 9);
    const ev = new ChessCpuEvaluator(net, { ...settings, qsearchPlies: 4 });
    const fen = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
    const board = ChessMctsBoard.fromText(fen, []).unwrap();
    const probe = checkLeaves(ev, (t) => freshChess(net, t), () => ev.nnue.stack.evaluate(board.board.turn), board);
    const search = new MctsSearch(ev, defaultMctsOptions('chess'));
    const r = await search.run(board, { playouts: 1500 });
    expect(r.playouts).toBe(1500);
    expect(probe.leaves).toBeGreaterThan(500);
    expect(probe.expansions).toBeGreaterThan(100);
    expect(probe.bad).toEqual([]);
    expect(board.toText()).toBe(ChessMctsBoard.fromText(fen, []).unwrap().toText());
    // A second run on the reused tree attaches afresh.
    const again = await search.run(board, { playouts: 300 });
    expect(again.playouts).toBe(300);
    expect(probe.bad).toEqual([]);
  });

  test('shogi: the same through captures, drops and promotions', async () => {
    const net = randomNetwork('shogi', 16, 'screlu', 13);
    const ev = new ShogiCpuEvaluator(net, { ...settings, qsearchPlies: 4 });
    const sfen = SHOGI_POSITIONS[1]!;
    const board = ShogiMctsBoard.fromText(sfen, []).unwrap();
    const probe = checkLeaves(ev, (t) => freshShogi(net, t), () => ev.nnue.stack.evaluate(board.board.turn), board);
    const search = new MctsSearch(ev, defaultMctsOptions('shogi'));
    await search.run(board, { playouts: 1000 });
    expect(probe.leaves).toBeGreaterThan(300);
    expect(probe.expansions).toBeGreaterThan(100);
    expect(probe.bad).toEqual([]);
    expect(board.toText()).toBe(ShogiMctsBoard.fromText(sfen, []).unwrap().toText());
  });

  test.each([
    ['chess', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'],
    ['shogi', 'ln1g3nl/1r1sg1k2/p1pppsbpp/1p3pp2/7P1/2P1P1P2/PPBP1P2P/2S1GS1R1/LN1GK2NL b - 1'],
  ] as const)('%s: priors deferred to the second visit grow the same tree with fewer prior computations, reused too', async (game, text) => {
    const grow = async (deferPriors: boolean) => {
      const ev = loadCpuEvaluator(`models/${game}-nnue.bin`, game).unwrap();
      const calls = countPriors(ev);
      const board = game === 'chess' ? ChessMctsBoard.fromText(text, []).unwrap() : ShogiMctsBoard.fromText(text, []).unwrap();
      const search = new MctsSearch(ev, { ...defaultMctsOptions(game), deferPriors });
      await search.run(board, { playouts: 3000 });
      const first = { children: search.rootChildren(), pv: search.principalVariation(), nodes: search.tree.nodeCount, calls: calls.calls };
      // Re-root at a move visited once: with deferred priors a root valued but not yet expanded.
      const once = first.children.find((c) => c.visits === 1 && c.proven === undefined);
      expect(once).toBeDefined();
      board.make(once!.move);
      expect(search.advance([once!.move])).toBe(true);
      expect(search.tree.isExpanded(0)).toBe(!deferPriors);
      const r = await search.run(board, { playouts: 500 });
      expect(search.rootVisits).toBe(501);
      return { first, reused: { children: search.rootChildren(), pv: search.principalVariation(), playouts: r.playouts } };
    };
    const lazy = await grow(true);
    const eager = await grow(false);
    expect(lazy.first.children.length).toBeGreaterThan(5);
    expect(lazy.first.children).toEqual(eager.first.children);
    expect(lazy.first.pv).toEqual(eager.first.pv);
    expect(lazy.first.nodes).toBe(eager.first.nodes);
    // Eagerly every non-terminal node gets priors (3000 playouts, one new node each, plus the root).
    expect(eager.first.calls).toBeGreaterThan(2500);
    expect(lazy.first.calls).toBeLessThan(eager.first.calls * 0.75);
    expect(lazy.reused.playouts).toBe(500);
    expect(lazy.reused.children).toEqual(eager.reused.children);
    expect(lazy.reused.pv).toEqual(eager.reused.pv);
  });

  test('with the shipped nets: mate in one, and a hanging queen taken', async () => {
    const chess = loadCpuEvaluator('models/chess-nnue.bin', 'chess').unwrap();
    const mate = ChessMctsBoard.fromText('6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1', []).unwrap();
    const s1 = new MctsSearch(chess, defaultMctsOptions('chess'));
    await s1.run(mate, { playouts: 200 });
    expect(mate.moveToText(s1.chooseMove())).toBe('a1a8');
    const queen = ChessMctsBoard.fromText('r3k3/ppp2ppp/8/3q4/8/2N5/PPP2PPP/4K2R w K - 0 1', []).unwrap();
    const s2 = new MctsSearch(chess, defaultMctsOptions('chess'));
    await s2.run(queen, { playouts: 400 });
    expect(queen.moveToText(s2.chooseMove())).toBe('c3d5');
    const shogi = loadCpuEvaluator('models/shogi-nnue.bin', 'shogi').unwrap();
    // Sente's rook takes the undefended gote rook.
    const rook = ShogiMctsBoard.fromText('lnsgkgsnl/9/ppppppppp/9/7r1/9/PPPPPPP1P/1B5R1/LNSGKGSNL b - 1', []).unwrap();
    const s3 = new MctsSearch(shogi, defaultMctsOptions('shogi'));
    await s3.run(rook, { playouts: 400 });
    expect(rook.moveToText(s3.chooseMove())).toBe('2h2e');
  });
});

describe('network files and tuning', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kishi-cpu-nets-'));

  test('a missing, corrupt or K-less network is ERR_MODEL naming the problem', () => {
    const missing = loadCpuEvaluator(join(dir, 'none.bin'), 'chess');
    expect(missing.isErr && missing.error.code).toBe('ERR_MODEL');
    expect(missing.isErr && missing.error.message).toMatch(/cannot read/);
    const bytes = readFileSync('models/chess-nnue.bin');
    const manifest = readFileSync('models/chess-nnue.manifest.json', 'utf8');
    const flipped = new Uint8Array(bytes);
    flipped[200]! ^= 1;
    writeFileSync(join(dir, 'bad.bin'), flipped);
    writeFileSync(join(dir, 'bad.manifest.json'), manifest);
    const corrupt = loadCpuEvaluator(join(dir, 'bad.bin'), 'chess');
    expect(corrupt.isErr && corrupt.error.code).toBe('ERR_MODEL');
    expect(corrupt.isErr && corrupt.error.message).toMatch(/checksum|reference/);
    const json = JSON.parse(manifest) as { training?: unknown };
    delete json.training;
    writeFileSync(join(dir, 'nok.bin'), bytes);
    writeFileSync(join(dir, 'nok.manifest.json'), JSON.stringify(json));
    const noK = loadCpuEvaluator(join(dir, 'nok.bin'), 'chess');
    expect(noK.isErr && noK.error.message).toMatch(/training\.k/);
    const wrongGame = loadCpuEvaluator('models/chess-nnue.bin', 'shogi');
    expect(wrongGame.isErr && wrongGame.error.message).toMatch(/not shogi/);
    // A round trip of a random net through the file format loads.
    const net = randomNetwork('chess', 8, 'screlu', 2);
    writeFileSync(join(dir, 'rnd.bin'), serializeNetwork(net));
    writeFileSync(
      join(dir, 'rnd.manifest.json'),
      JSON.stringify({ format: 'kishi-nnue', version: 1, game: 'chess', arch: { features: 768, hidden: 8, activation: 'screlu', qa: 255, qb: 64, scale: 400 }, training: { k: 250 }, references: [{ position: CHESS_POSITIONS[1], output: freshChess(net, CHESS_POSITIONS[1]!) }] }),
    );
    const ok = loadCpuEvaluator(join(dir, 'rnd.bin'), 'chess');
    expect(ok.isOk && ok.value.settings.k).toBe(250);
    // `search: mcts` refuses the same files at creation, as it does a broken ONNX model.
    const refused = createMctsPlayer({ moveOverheadMs: 0, chessModel: join(dir, 'bad.bin') }, 'chess');
    expect(refused.isErr && refused.error.code).toBe('ERR_MODEL');
    expect(createMctsPlayer({ moveOverheadMs: 0, chessModel: join(dir, 'nok.bin') }, 'chess').isErr).toBe(true);
    const made = createMctsPlayer({ moveOverheadMs: 0, chessModel: 'models/chess-nnue.bin' }, 'chess');
    expect(made.isOk && made.value.settings.modelPath).toMatch(/chess-nnue\.bin$/);
  });

  test("the config's mctsTuning overrides, and rejects what it does not know", () => {
    const t = cpuTuningFromText('tau=0.3, qplies=4,cpuct=2,fpu=0.5').unwrap();
    expect(t.evaluator).toEqual({ priorTemperature: 0.3, qsearchPlies: 4 });
    expect(t.options).toEqual({ cpuctInit: 2, fpuReduction: 0.5, fpuReductionRoot: 0.5 });
    expect(cpuTuningFromText('').unwrap()).toEqual({ evaluator: {}, options: {} });
    // Semicolons too (a `kishi match` engine spec splits at commas); the time shares reach the
    // search options.
    const time = cpuTuningFromText('tsoft=1;textend=2;tau=0.5').unwrap();
    expect(time.options).toEqual({ softTimeShare: 1, extendTimeShare: 2 });
    expect(time.evaluator).toEqual({ priorTemperature: 0.5 });
    // The mate guard (mcts-mate-guard.ts): length, node limit, candidates; mplies=0 turns it off.
    expect(cpuTuningFromText('mplies=9;mnodes=16000;mcands=2').unwrap().options).toEqual({
      mateGuardPlies: 9,
      mateGuardNodes: 16000,
      mateGuardCandidates: 2,
    });
    expect(cpuTuningFromText('mplies=0').unwrap().options).toEqual({ mateGuardPlies: 0 });
    expect(cpuNetMctsOptions('shogi').mateGuardPlies).toBe(7);
    expect(cpuNetMctsOptions('chess').mateGuardPlies).toBeUndefined();
    // The leaves' mate tests (src/search/mcts/search-worker.ts): on in shogi, off in chess.
    expect(cpuTuningFromText('lmate=0').unwrap().options).toEqual({ leafMatePlies: 0 });
    expect([cpuNetMctsOptions('shogi').leafMatePlies, cpuNetMctsOptions('chess').leafMatePlies]).toEqual([2, undefined]);
    const bad = cpuTuningFromText('speed=3');
    expect(bad.isErr && bad.error.message).toMatch(/unknown key "speed"/);
    const nan = cpuTuningFromText('tau=abc');
    expect(nan.isErr && nan.error.code).toBe('ERR_CONFIG');
    // `k` replaces the manifest's sigmoid scale; it must be positive.
    const k = cpuTuningFromText('k=600').unwrap().evaluator;
    expect(k).toEqual({ k: 600 });
    const scaled = loadCpuEvaluator('models/shogi-nnue.bin', 'shogi', k);
    expect(scaled.isOk && scaled.value.settings.k).toBe(600);
    const zero = loadCpuEvaluator('models/shogi-nnue.bin', 'shogi', { k: 0 });
    expect(zero.isErr && zero.error.code).toBe('ERR_CONFIG');
    const range = loadCpuEvaluator('models/chess-nnue.bin', 'chess', { priorTemperature: 0 });
    expect(range.isErr && range.error.code).toBe('ERR_CONFIG');
  });
});

// Keep the fresh-evaluation helpers honest: they agree with the network classes' own refresh.
test('fresh evaluation helpers', () => {
  const net = randomNetwork('chess', 8, 'screlu', 1);
  const b = FastChessBoard.fromFen(CHESS_POSITIONS[1]!).unwrap();
  const n = new ChessNnue(net);
  n.attach(b);
  expect(freshChess(net, CHESS_POSITIONS[1]!)).toBe(n.evaluate(b));
  const snet = randomNetwork('shogi', 8, 'screlu', 1);
  const sb = FastShogiBoard.fromSfen(SHOGI_POSITIONS[1]!).unwrap();
  const sn = new ShogiNnue(snet);
  sn.attach(sb);
  expect(freshShogi(snet, SHOGI_POSITIONS[1]!)).toBe(sn.evaluate(sb));
});
