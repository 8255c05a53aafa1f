/**
 * TD search on the real boards of both games: one step computed by hand from the board's own
 * evaluation and features, whole searches (drops and promotions in shogi's simulated games) equal
 * to a dense recomputation written as the paper states it, the memory reset between roots in shogi
 * as in chess, and TD search alone's greedy move.
 */
import { describe, expect, it } from 'vitest';
import { seededRng, type Rng } from '../../../src/core/rng.js';
import { CHESS_FEATURES } from '../../../src/eval/linear/chess-features.js';
import { SHOGI_FEATURES } from '../../../src/eval/linear/shogi-features.js';
import { SparseVector } from '../../../src/eval/linear/sparse.js';
import type { SearchBoard } from '../../../src/search/alphabeta/search-board.js';
import { Dyna2 } from '../../../src/search/td/dyna2.js';
import { QuietLeaf } from '../../../src/search/td/quiet-leaf.js';
import { ShortTermMemory } from '../../../src/search/td/short-term-memory.js';
import { tdPosition } from '../../../src/search/td/td-position.js';
import { DEFAULT_TD_PARAMS, TD_SCALE_CP, TdSearch, sigmoid, terminalValue, type TdPosition, type TdSearchParams } from '../../../src/search/td/td-search.js';
import { chessBoard, chessEval, shogiBoard, shogiEval } from '../alphabeta/helpers.js';

const K = TD_SCALE_CP;
const params = (over: Partial<TdSearchParams>): TdSearchParams => ({ ...DEFAULT_TD_PARAMS, ...over });

/** A game's board at a position with something to learn, its phi and the feature count. */
interface Case {
  readonly game: 'chess' | 'shogi';
  readonly board: SearchBoard;
  readonly features: (out: SparseVector) => void;
  readonly size: number;
  readonly names: readonly string[];
}

const cases = (): Case[] => {
  const chess = chessBoard('r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4');
  // Bishops exchanged: both sides hold a bishop in hand (drops); gote to move can take the pawn on 2d.
  const shogi = shogiBoard('startpos', ['7g7f', '3c3d', '8h2b+', '3a2b', '2g2f', '8c8d', '2f2e', '8d8e', '2e2d']);
  return [
    { game: 'chess', board: chess, features: (out) => chessEval.features(chess.board, out), size: CHESS_FEATURES.size, names: CHESS_FEATURES.names },
    { game: 'shogi', board: shogi, features: (out) => shogiEval.features(shogi.board, out), size: SHOGI_FEATURES.size, names: SHOGI_FEATURES.names },
  ];
};

/** phi . w summed entry by entry. */
const dot = (phi: SparseVector, w: Float64Array): number => {
  let s = 0;
  for (let k = 0; k < phi.count; k++) s += w[phi.index[k]!]! * phi.value[k]!;
  return s;
};

/**
 * TD search written as the paper states it (section 4, logistic TD(lambda) with our normalised
 * step), with dense weights and dense traces recomputed from scratch: the check of the sparse,
 * incremental implementation. It draws from `rng` in the same order (exploration, then the random
 * move), so that it simulates the same games; returns the weights and the plies played.
 */
const reference = (pos: TdPosition, p: TdSearchParams, rng: Rng, simulations: number, size: number, moves: string[], text: (m: number) => string): { w: Float64Array; plies: number } => {
  const w = new Float64Array(size);
  const probe = new Int32Array(pos.maxMoves);
  const value = (): { v: number; phi: SparseVector; terminal: boolean } => {
    const phi = new SparseVector();
    const t = terminalValue(pos, probe);
    if (t >= 0) return { v: t, phi, terminal: true };
    pos.features(phi);
    return { v: sigmoid((pos.longTerm() + dot(phi, w)) / K), phi, terminal: false };
  };
  let plies = 0;
  for (let sim = 0; sim < simulations; sim++) {
    const e = new Float64Array(size);
    let current = value();
    let depth = 0;
    while (depth < p.episodePlies) {
      const list = new Int32Array(pos.maxMoves);
      const n = pos.generate(list, false);
      let move: number;
      if (p.epsilon > 0 && rng() < p.epsilon) move = list[Math.floor(rng() * n)]!;
      else {
        const sign = pos.sideToMove() === 0 ? 1 : -1;
        move = list[0]!;
        let best = -Infinity;
        for (let k = 0; k < n; k++) {
          pos.make(list[k]!);
          const v = sign * value().v;
          pos.unmake();
          if (v > best) [best, move] = [v, list[k]!];
        }
      }
      moves.push(text(move));
      pos.make(move);
      depth++;
      const next = value();
      const delta = next.v - current.v;
      for (let i = 0; i < size; i++) e[i]! *= p.lambda;
      for (let k = 0; k < current.phi.count; k++) e[current.phi.index[k]!]! += current.phi.value[k]!;
      if (current.phi.count > 0) {
        const g = (K * p.stepSize * delta) / current.phi.count;
        for (let i = 0; i < size; i++) w[i]! += g * e[i]!;
      }
      if (next.terminal) break;
      current = value();
    }
    plies += depth;
    for (let i = 0; i < depth; i++) pos.unmake();
  }
  return { w, plies };
};

describe('TD search on chess and shogi boards', () => {
  it('makes the first update computed by hand from the board: K alpha (V(s1) - V(s0)) phi(s0) / n', () => {
    for (const c of cases()) {
      const memory = new ShortTermMemory(c.size);
      const td = new TdSearch(memory, params({ stepSize: 0.2, lambda: 0.5, epsilon: 0, episodePlies: 1 }), seededRng(1));
      const pos = tdPosition(c.board, c.features);
      const text = c.board.toText();
      td.run(pos, { simulations: 1 });
      expect(c.board.toText()).toBe(text);

      // By hand: V(s) = sigmoid(L(s) / K) with an empty memory, L from the first player's view; the
      // greedy move is the child best for the side to move.
      const L = (): number => (c.board.sideToMove() === 0 ? c.board.evaluate() : -c.board.evaluate());
      const v0 = sigmoid(L() / K);
      const phi0 = new SparseVector();
      c.features(phi0);
      const list = new Int32Array(c.board.maxMoves);
      const n = c.board.generate(list, false);
      const sign = c.board.sideToMove() === 0 ? 1 : -1;
      let v1 = -Infinity;
      for (let k = 0; k < n; k++) {
        c.board.make(list[k]!);
        v1 = Math.max(v1, sign * sigmoid(L() / K));
        c.board.unmake();
      }
      v1 *= sign;
      expect(v1).not.toBe(v0); // a capture: there is something to learn
      const expected = new Map<number, number>();
      for (const [i, x] of phi0.toMap()) expected.set(i, (K * 0.2 * (v1 - v0) * x) / phi0.count);
      expect(memory.touched).toBe(expected.size);
      for (const [i, x] of expected) expect(memory.weights[i]).toBeCloseTo(x, 9);
    }
  });

  it.each([false, true])('learns exactly what a dense recomputation of the traces learns, over whole searches (quiet %s)', (quiet) => {
    for (const c of cases()) {
      const p = params({ lambda: 0.7, stepSize: 0.3, epsilon: 0.3, episodePlies: 8 });
      const memory = new ShortTermMemory(c.size);
      const leaf = quiet ? new QuietLeaf(200) : undefined;
      const stats = new TdSearch(memory, p, seededRng(5)).run(tdPosition(c.board, c.features, leaf), { simulations: 12 });
      const moves: string[] = [];
      const ref = reference(tdPosition(c.board, c.features, leaf), p, seededRng(5), 12, c.size, moves, (m) => c.board.moveToText(m));
      expect(stats.plies).toBe(ref.plies);
      expect(memory.touched).toBeGreaterThan(0);
      for (let i = 0; i < c.size; i++) expect(memory.weights[i]).toBeCloseTo(ref.w[i]!, 7);
      if (c.game === 'shogi') {
        // The simulated games drop pieces from the hand and promote.
        expect(moves.some((m) => m.includes('*'))).toBe(true);
        expect(moves.some((m) => m.endsWith('+'))).toBe(true);
      }
    }
  });

  it('takes values and features at the quiescence leaf in the quiet variant, and the static ones in a quiet position', () => {
    // A knight left hanging on e5 (chess), a bishop on 4d (shogi, the pawn on 4c takes it).
    const hanging = chessBoard('rnbqkb1r/pppppppp/8/4n3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 3');
    const loose = shogiBoard('startpos', ['7g7f', '3c3d', '8h4d']);
    const both: Case[] = [
      { game: 'chess', board: hanging, features: (out) => chessEval.features(hanging.board, out), size: CHESS_FEATURES.size, names: CHESS_FEATURES.names },
      { game: 'shogi', board: loose, features: (out) => shogiEval.features(loose.board, out), size: SHOGI_FEATURES.size, names: SHOGI_FEATURES.names },
    ];
    for (const c of both) {
      const leaf = new QuietLeaf(200);
      const line = leaf.line(c.board);
      expect(line.length).toBeGreaterThan(0);
      const text = c.board.toText();
      const pos = tdPosition(c.board, c.features, leaf);
      const phi = new SparseVector();
      pos.features(phi);
      const value = pos.longTerm();
      expect(c.board.toText()).toBe(text);
      for (const m of line) c.board.make(m);
      const expected = new SparseVector();
      c.features(expected);
      const leafValue = c.board.sideToMove() === 0 ? c.board.evaluate() : -c.board.evaluate();
      for (let i = 0; i < line.length; i++) c.board.unmake();
      expect(value).toBe(leafValue);
      expect(phi.toMap()).toEqual(expected.toMap());
      // The static value differs (the exchange is not counted); longTerm alone finds the leaf too.
      expect(tdPosition(c.board, c.features).longTerm()).not.toBe(value);
      expect(tdPosition(c.board, c.features, leaf).longTerm()).toBe(value);
    }
    // No capture to make: the leaf is the position itself.
    const quietBoard = shogiBoard('startpos');
    const quietFeatures = (out: SparseVector): void => shogiEval.features(quietBoard.board, out);
    expect(new QuietLeaf(200).line(quietBoard)).toEqual([]);
    expect(tdPosition(quietBoard, quietFeatures, new QuietLeaf(200)).longTerm()).toBe(tdPosition(quietBoard, quietFeatures).longTerm());
  });

  it('resets the short-term memory at a new root with carry 0 and keeps it with carry 1, in both games', () => {
    for (const c of cases()) {
      const reset = new Dyna2(params({ episodePlies: 6, epsilon: 0.2, carry: 0 }), c.names, seededRng(7));
      reset.think(c.board, c.features, { simulations: 20 });
      expect(reset.memory.touched).toBeGreaterThan(0);
      reset.think(c.board, c.features, { simulations: 0 });
      expect(reset.memory.touched).toBe(0);
      expect(reset.memory.weights.every((w) => w === 0)).toBe(true);
      const keep = new Dyna2(params({ episodePlies: 6, epsilon: 0.2, carry: 1 }), c.names, seededRng(7));
      keep.think(c.board, c.features, { simulations: 20 });
      const kept = keep.memory.weights.slice();
      keep.think(c.board, c.features, { simulations: 0 });
      expect([...keep.memory.weights]).toEqual([...kept]);
      keep.clear();
      expect(keep.memory.weights.every((w) => w === 0)).toBe(true);
    }
  });

  it('plays, alone, the greedy move over long-term plus short-term', () => {
    for (const c of cases()) {
      const dyna = new Dyna2(params({ episodePlies: 6, epsilon: 0.2 }), c.names, seededRng(3));
      // An empty memory: the greedy move is the one-ply best by the long-term evaluation.
      const list = new Int32Array(c.board.maxMoves);
      const n = c.board.generate(list, false);
      let oneply = list[0]!;
      let bestScore = Infinity;
      for (let k = 0; k < n; k++) {
        c.board.make(list[k]!);
        const s = c.board.evaluate(); // the opponent's view: the smallest is ours best
        c.board.unmake();
        if (s < bestScore) [bestScore, oneply] = [s, list[k]!];
      }
      expect(dyna.bestMove(c.board, c.features)!.move).toBe(oneply);

      // After learning, the choice is the argmax of V = sigmoid((L + phi . w) / K) over the children.
      dyna.think(c.board, c.features, { simulations: 20 });
      const sign = c.board.sideToMove() === 0 ? 1 : -1;
      const phi = new SparseVector();
      let best = list[0]!;
      let bestV = -Infinity;
      for (let k = 0; k < n; k++) {
        c.board.make(list[k]!);
        c.features(phi);
        const L = c.board.sideToMove() === 0 ? c.board.evaluate() : -c.board.evaluate();
        const v = sign * sigmoid((L + dot(phi, dyna.memory.weights)) / K);
        c.board.unmake();
        if (v > bestV) [bestV, best] = [v, list[k]!];
      }
      const chosen = dyna.bestMove(c.board, c.features)!;
      expect(chosen.move).toBe(best);
      expect(sign * chosen.value).toBeCloseTo(bestV, 12);
    }
  });
});
