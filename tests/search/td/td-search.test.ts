import { describe, expect, it } from 'vitest';
import { seededRng } from '../../../src/core/rng.js';
import { CHESS_FEATURES } from '../../../src/eval/linear/chess-features.js';
import { SHOGI_FEATURES } from '../../../src/eval/linear/shogi-features.js';
import { SparseVector } from '../../../src/eval/linear/sparse.js';
import { RULE_NONE } from '../../../src/search/alphabeta/search-board.js';
import { Dyna2 } from '../../../src/search/td/dyna2.js';
import { ShortTermEvalBoard } from '../../../src/search/td/short-term-board.js';
import { ShortTermMemory } from '../../../src/search/td/short-term-memory.js';
import { TdLambda } from '../../../src/search/td/td-lambda.js';
import { DEFAULT_TD_PARAMS, TD_SCALE_CP, TdSearch, sigmoid, type TdPosition, type TdSearchParams } from '../../../src/search/td/td-search.js';
import { chessBoard, chessEval, searcher, shogiBoard, shogiEval } from '../alphabeta/helpers.js';

/**
 * A tiny game: states 0 -> 1 -> 2, one move each, the first player to move in state 0 and state 2;
 * in state 2 nobody can move and the side to move (the first player) has lost. State i has the one
 * feature i; the long-term value is 0 everywhere.
 */
class Chain implements TdPosition {
  readonly maxMoves = 4;
  state = 0;
  sideToMove(): number {
    return this.state % 2;
  }
  generate(list: Int32Array): number {
    if (this.state >= 2) return 0;
    list[0] = 1;
    return 1;
  }
  make(): void {
    this.state++;
  }
  unmake(): void {
    this.state--;
  }
  inCheck(): boolean {
    return false;
  }
  ruleState(): number {
    return RULE_NONE;
  }
  noMovesIsLoss(): boolean {
    return true;
  }
  longTerm(): number {
    return 0;
  }
  features(out: SparseVector): void {
    out.clear();
    out.add(this.state, 1);
  }
}

const params = (over: Partial<TdSearchParams>): TdSearchParams => ({ ...DEFAULT_TD_PARAMS, ...over });
const K = TD_SCALE_CP;

describe('TD search', () => {
  it('makes the TD(lambda) updates computed by hand on a tiny game', () => {
    const memory = new ShortTermMemory(3);
    const td = new TdSearch(memory, params({ lambda: 0.5, stepSize: 0.1, epsilon: 0, episodePlies: 10 }), seededRng(1));
    const game = new Chain();

    // Episode 1: V(s0) = V(s1) = 1/2, so delta_0 = 0; the terminal reward is 0 (the first player
    // lost), delta_1 = -1/2 with e_1 = 0.5 phi(s0) + phi(s1).
    const first = td.run(game, { simulations: 1 });
    expect(first).toMatchObject({ simulations: 1, plies: 2 });
    expect(game.state).toBe(0);
    expect(memory.weights[0]).toBeCloseTo(K * 0.1 * -0.5 * 0.5, 9);
    expect(memory.weights[1]).toBeCloseTo(K * 0.1 * -0.5, 9);
    expect(memory.weights[2]).toBe(0);

    // Episode 2 from those weights (w / K in logit units: -0.025 and -0.05).
    let w0 = -0.025;
    const w1 = -0.05;
    const d0 = sigmoid(w1) - sigmoid(w0);
    w0 += 0.1 * d0;
    const d1 = 0 - sigmoid(w1);
    const expected0 = w0 + 0.1 * d1 * 0.5;
    const expected1 = w1 + 0.1 * d1;
    td.run(game, { simulations: 1 });
    expect(memory.weights[0]! / K).toBeCloseTo(expected0, 9);
    expect(memory.weights[1]! / K).toBeCloseTo(expected1, 9);
  });

  it('bootstraps from the last value when an episode is cut short', () => {
    const memory = new ShortTermMemory(3);
    const td = new TdSearch(memory, params({ lambda: 0.5, stepSize: 0.1, epsilon: 0, episodePlies: 1 }), seededRng(1));
    td.run(new Chain(), { simulations: 5 });
    // V(s0) and V(s1) start equal and only phi(s0) is ever updated, towards V(s1) = 1/2: no change.
    expect(memory.touched).toBe(0);
  });

  it('starts no simulation past its deadline and cuts a running one there', () => {
    const memory = new ShortTermMemory(3);
    const td = new TdSearch(memory, params({ epsilon: 0, episodePlies: 1000 }), seededRng(1));
    expect(td.run(new Chain(), { simulations: 10, deadline: performance.now() - 1 })).toMatchObject({ simulations: 0, plies: 0 });
    expect(memory.touched).toBe(0);

    // A long game whose positions take 1 ms each to evaluate: 1000 plies cannot fit in 200 ms.
    class SlowLine extends Chain {
      override generate(list: Int32Array): number {
        if (this.state >= 2000) return 0;
        list[0] = 1;
        return 1;
      }
      override features(out: SparseVector): void {
        const until = performance.now() + 1;
        while (performance.now() < until);
        out.clear();
        out.add(this.state % 3, 1);
      }
    }
    const line = new SlowLine();
    const stats = td.run(line, { simulations: 10, deadline: performance.now() + 200 });
    expect(stats.simulations).toBe(1);
    expect(stats.plies).toBeGreaterThan(0);
    expect(stats.plies).toBeLessThan(1000);
    expect(line.state).toBe(0);
  });

  it('resets the short-term memory at a new root, or keeps a share of it', () => {
    const memory = new ShortTermMemory(3);
    const td = new TdSearch(memory, params({ epsilon: 0 }), seededRng(1));
    td.run(new Chain(), { simulations: 3 });
    expect(memory.touched).toBe(2);
    const w1 = memory.weights[1]!;
    memory.newRoot(0.5);
    expect(memory.weights[1]).toBeCloseTo(w1 / 2, 12);
    memory.newRoot(0);
    expect(memory.touched).toBe(0);
    expect([...memory.weights]).toEqual([0, 0, 0]);

    // Dyna-2 resets it at a new root with carry 0, decays it with carry 0.5, before searching the new one.
    // A position with captures to simulate (the material-only weights of the tests see nothing else).
    const board = chessBoard('r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4');
    const features = (out: SparseVector): void => chessEval.features(board.board, out);
    const reset = new Dyna2(params({ episodePlies: 6, epsilon: 0.2, carry: 0 }), CHESS_FEATURES.names, seededRng(7));
    reset.think(board, features, { simulations: 30 });
    expect(reset.memory.touched).toBeGreaterThan(0);
    reset.think(board, features, { simulations: 0 });
    expect(reset.memory.touched).toBe(0);
    expect(reset.memory.weights.every((w) => w === 0)).toBe(true);
    const decay = new Dyna2(params({ episodePlies: 6, epsilon: 0.2, carry: 0.5 }), CHESS_FEATURES.names, seededRng(7));
    decay.think(board, features, { simulations: 30 });
    const learned = decay.memory.weights.slice();
    decay.think(board, features, { simulations: 0 });
    for (let i = 0; i < learned.length; i++) expect(decay.memory.weights[i]).toBeCloseTo(learned[i]! / 2, 12);
    // carry 1 (the default, as the paper) keeps it between moves; a new game clears it.
    const keep = new Dyna2(params({ episodePlies: 6, epsilon: 0.2, carry: 1 }), CHESS_FEATURES.names, seededRng(7));
    keep.think(board, features, { simulations: 30 });
    const kept = keep.memory.weights.slice();
    keep.think(board, features, { simulations: 0 });
    expect([...keep.memory.weights]).toEqual([...kept]);
    keep.clear();
    expect(keep.memory.touched).toBe(0);
  });

  it('updates incrementally exactly as a full recomputation of the traces', () => {
    const rng = seededRng(3);
    const size = 40;
    const memory = new ShortTermMemory(size);
    const learner = new TdLambda(memory, K);
    const lambda = 0.7;
    const alpha = 0.05;
    const phis: SparseVector[] = [];
    const deltas: number[] = [];
    learner.startEpisode();
    for (let t = 0; t < 25; t++) {
      const phi = new SparseVector();
      const n = 1 + Math.floor(rng() * 6);
      // Repeated indices on purpose: the trace must sum them as phi . w does.
      for (let k = 0; k < n; k++) phi.add(Math.floor(rng() * size), rng() < 0.5 ? 1 : -1);
      const delta = rng() - 0.5;
      phis.push(phi);
      deltas.push(delta);
      learner.step(phi, delta, lambda, alpha);
    }
    // w = sum_t K (alpha / n_t) delta_t sum_{k <= t} lambda^(t-k) phi_k, n_t the entries of phi_t.
    const full = new Float64Array(size);
    for (let t = 0; t < phis.length; t++) {
      for (let k = 0; k <= t; k++) phis[k]!.addTo(full, ((K * alpha * deltas[t]!) / phis[t]!.count) * lambda ** (t - k));
    }
    for (let i = 0; i < size; i++) expect(memory.weights[i]).toBeCloseTo(full[i]!, 9);

    // A new episode starts from an empty trace.
    learner.startEpisode();
    const before = memory.weights.slice();
    const phi = new SparseVector();
    phi.add(5, 1);
    learner.step(phi, 0.25, lambda, alpha);
    for (let i = 0; i < size; i++) expect(memory.weights[i]).toBeCloseTo(before[i]! + (i === 5 ? K * alpha * 0.25 : 0), 9);
  });
});

describe('Dyna-2 evaluation', () => {
  const positions = {
    chess: ['startpos', 'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4', '8/5pk1/6p1/8/3Q4/8/5PPP/6K1 b - - 0 1'],
    shogi: ['startpos', 'lnsgk1snl/1r4gb1/p1pppp1pp/6p2/1p5P1/2P6/PP1PPPP1P/1BG4R1/LNS1KGSNL b - 9'],
  };

  it('equals the long-term evaluation while the short-term memory is zero', () => {
    for (const fen of positions.chess) {
      const inner = chessBoard(fen);
      const wrapped = new ShortTermEvalBoard(inner, new ShortTermMemory(CHESS_FEATURES.size), (out) => chessEval.features(inner.board, out));
      expect(wrapped.evaluate()).toBe(inner.evaluate());
      const a = searcher().search(inner, { depth: 4 });
      const b = searcher().search(wrapped, { depth: 4 });
      expect(b.bestMove).toBe(a.bestMove);
      expect(b.score).toBe(a.score);
      expect(b.nodes).toBe(a.nodes);
    }
    for (const sfen of positions.shogi) {
      const inner = shogiBoard(sfen);
      const wrapped = new ShortTermEvalBoard(inner, new ShortTermMemory(SHOGI_FEATURES.size), (out) => shogiEval.features(inner.board, out));
      expect(wrapped.evaluate()).toBe(inner.evaluate());
      const a = searcher().search(inner, { depth: 3 });
      const b = searcher().search(wrapped, { depth: 3 });
      expect(b.bestMove).toBe(a.bestMove);
      expect(b.score).toBe(a.score);
    }
  });

  it('adds phi . w from the side to move\'s view', () => {
    const inner = chessBoard('startpos', ['e2e4']);
    const memory = new ShortTermMemory(CHESS_FEATURES.size);
    const wrapped = new ShortTermEvalBoard(inner, memory, (out) => chessEval.features(inner.board, out));
    const phi = new SparseVector();
    chessEval.features(inner.board, phi);
    const [i, v] = [...phi.toMap()][0]!;
    memory.add(i, 30);
    // Black to move: the first player's +30 v is -30 v for black.
    expect(wrapped.evaluate()).toBe(inner.evaluate() - Math.round(30 * v));
  });

  it('learns something in chess and shogi, leaves the root as it was and summarises it', () => {
    for (const game of ['chess', 'shogi'] as const) {
      const board = game === 'chess' ? chessBoard(positions.chess[1]!) : shogiBoard(positions.shogi[1]!);
      const features = game === 'chess' ? (out: SparseVector) => chessEval.features((board as ReturnType<typeof chessBoard>).board, out) : (out: SparseVector) => shogiEval.features((board as ReturnType<typeof shogiBoard>).board, out);
      const names = game === 'chess' ? CHESS_FEATURES.names : SHOGI_FEATURES.names;
      const dyna = new Dyna2(params({ epsilon: 0.2, episodePlies: 6 }), names, seededRng(11));
      const text = board.toText();
      const { board: combined, stats, summary } = dyna.think(board, features, { simulations: 30 });
      expect(board.toText()).toBe(text);
      expect(stats.simulations).toBe(30);
      expect(dyna.memory.touched).toBeGreaterThan(0);
      expect(summary).toMatch(/^td search: 30 simulations of [\d.]+ plies in \d+ ms; \d+ features touched; largest: \S+ [+-]\d+\.\d/);
      expect(summary).toContain(`${dyna.memory.touched} features touched`);
      const top = dyna.memory.largest(1)[0]!;
      expect(summary).toContain(names[top.index]!);
      expect(combined.evaluate()).toBe(Math.max(-30000, Math.min(30000, Math.round(board.evaluate() + (board.sideToMove() === 0 ? 1 : -1) * combined.shortTerm()))));
    }
  });
});
