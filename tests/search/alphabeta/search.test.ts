import { describe, expect, it } from 'vitest';
import { INFINITE, MATE, MAX_PLY, matePlies } from '../../../src/search/alphabeta/score.js';
import { RULE_DRAW, RULE_NONE, RULE_WIN, type SearchBoard } from '../../../src/search/alphabeta/search-board.js';
import { searchOptions } from '../../../src/search/alphabeta/options.js';
import { chessBoard, searcher, shogiBoard } from './helpers.js';

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

/**
 * Plain minimax with the search's conventions (rules, check extension, full quiescence), no
 * pruning, no table: the training search must return exactly this value.
 */
const minimax = (b: SearchBoard, depth: number, ply: number, rootDepth: number): number => {
  if (ply > 0) {
    const rule = b.ruleState();
    if (rule !== RULE_NONE) return rule === RULE_DRAW ? 0 : rule === RULE_WIN ? MATE - ply : -(MATE - ply);
  }
  const inCheck = b.inCheck();
  if (inCheck && ply < 2 * rootDepth + 4) depth += 1;
  if (depth <= 0) return quiesce(b, ply);
  const list = new Int32Array(b.maxMoves);
  const n = b.generate(list, false);
  if (n === 0) return b.noMovesIsLoss(inCheck) ? -(MATE - ply) : 0;
  let best = -INFINITE;
  for (let i = 0; i < n; i++) {
    b.make(list[i]!);
    best = Math.max(best, -minimax(b, depth - 1, ply + 1, rootDepth));
    b.unmake();
  }
  return best;
};
/** Quiescence by alpha-beta (exact with a full window; plain minimax would explode on capture chains). */
const quiesce = (b: SearchBoard, ply: number, alpha = -INFINITE, beta = INFINITE): number => {
  const inCheck = b.inCheck();
  const list = new Int32Array(b.maxMoves);
  const n = b.generate(list, !inCheck);
  if (inCheck && n === 0) return b.noMovesIsLoss(true) ? -(MATE - ply) : 0;
  let best = inCheck ? -(MATE - ply) : b.evaluate();
  if (best >= beta) return best;
  for (let i = 0; i < n; i++) {
    b.make(list[i]!);
    const v = -quiesce(b, ply + 1, -beta, -Math.max(alpha, best));
    b.unmake();
    if (v > best) best = v;
    if (best >= beta) break;
  }
  return best;
};

describe('alpha-beta search', () => {
  it('training mode returns the minimax value (chess, depths 1-3)', () => {
    const cases: [string, number][] = [
      ['startpos', 3],
      ['8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', 3],
      ['6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1', 3],
      ['4k3/8/3n4/8/2B1P3/8/8/4K3 w - - 0 1', 3],
    ];
    for (const [fen, maxDepth] of cases) {
      for (let depth = 1; depth <= maxDepth; depth++) {
        const b = chessBoard(fen);
        const r = searcher('training').search(b, { depth, noEarlyMateStop: true });
        expect(r.depth).toBe(depth);
        expect(r.score, `${fen} depth ${depth}`).toBe(minimax(b, depth, 0, depth) + 0);
      }
    }
  });

  it('training mode returns the minimax value (shogi, depths 1-2)', () => {
    for (const [sfen, maxDepth] of [
      ['startpos', 2],
      ['4k4/9/4p4/9/4b4/9/4P4/4R4/4K4 b G 1', 2],
    ] as const) {
      for (let depth = 1; depth <= maxDepth; depth++) {
        const b = shogiBoard(sfen);
        const r = searcher('training').search(b, { depth });
        expect(r.score, `${sfen} depth ${depth}`).toBe(minimax(b, depth, 0, depth) + 0);
      }
    }
  });

  it('scores mate in N as mate in 2N-1 plies, and being mated negatively', () => {
    const cases: [string, number][] = [
      ['6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1', 1],
      ['r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4', 1],
      ['6k1/8/6K1/8/8/8/8/1R6 w - - 0 1', 1],
      ['r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1', 2],
      // WAC.001: Qg6 mates next move.
      ['2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1', 2],
    ];
    for (const [fen, moves] of cases) {
      for (const mode of ['tournament', 'training'] as const) {
        const r = searcher(mode).search(chessBoard(fen), { nodes: 400_000 });
        expect(matePlies(r.score), `${fen} ${mode}`).toBe(2 * moves - 1);
      }
    }
    // Black's only move is Kb8, then Rh8 mates.
    const r = searcher().search(chessBoard('k7/8/1K6/8/8/8/8/7R b - - 0 1'), { nodes: 100_000 });
    expect(r.score).toBeLessThan(0);
    expect(matePlies(r.score)).toBe(-2);
  });

  it('answers positions without moves: checkmate, stalemate, shogi mate', () => {
    const mated = searcher().search(chessBoard('R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1'), { nodes: 1000 });
    expect(mated.bestMove).toBe(0);
    expect(mated.score).toBe(-MATE);
    const stalemate = searcher().search(chessBoard('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1'), { nodes: 1000 });
    expect(stalemate.bestMove).toBe(0);
    expect(stalemate.score).toBe(0);
    // Shogi: a mated king (gold on 5b backed by a lance, no escape, no drops).
    const shogi = searcher().search(shogiBoard('3lkl3/4G4/4L4/9/9/9/9/9/4K4 w - 1'), { nodes: 1000 });
    expect(shogi.bestMove).toBe(0);
    expect(shogi.score).toBe(-MATE);
  });

  it('is deterministic under a node budget and respects it', () => {
    const run = () => searcher().search(chessBoard(KIWIPETE), { nodes: 30_000 });
    const a = run();
    const b = run();
    expect(a.nodes).toBe(30_000);
    expect(b.nodes).toBe(a.nodes);
    expect(b.bestMove).toBe(a.bestMove);
    expect(b.score).toBe(a.score);
    expect(b.pv).toEqual(a.pv);
    expect(a.aborted).toBe(true);
  });

  it('stops at the depth limit and reports every iteration', () => {
    const depths: number[] = [];
    const r = searcher().search(chessBoard(KIWIPETE), { depth: 5 }, (it) => depths.push(it.depth));
    expect(depths).toEqual([1, 2, 3, 4, 5]);
    expect(r.depth).toBe(5);
    expect(r.aborted).toBe(false);
    expect(r.pv.length).toBeGreaterThan(0);
    expect(r.pv[0]).toBe(r.bestMove);
    expect(r.seldepth).toBeGreaterThanOrEqual(5);
    expect(r.seldepth).toBeLessThan(MAX_PLY);
  });

  it('stops when the shared stop word is set', () => {
    const signal = new Int32Array(new SharedArrayBuffer(8));
    Atomics.store(signal, 0, 1);
    const r = searcher().search(chessBoard(KIWIPETE), { signal });
    expect(r.aborted).toBe(true);
    expect(r.nodes).toBeLessThanOrEqual(256);
    expect(r.bestMove).not.toBe(0);
  });

  it('scores repetitions as draws inside the tree', () => {
    // Knights out and back: the position after the fourth move repeats the start.
    const b = chessBoard('startpos', ['g1f3', 'g8f6', 'f3g1', 'f6g8']);
    expect(b.ruleState()).toBe(RULE_DRAW);
    const c = chessBoard('startpos', ['g1f3', 'g8f6', 'f3g1']);
    expect(c.ruleState()).toBe(RULE_NONE);
    expect(chessBoard('8/8/4k3/8/8/3NK3/8/8 w - - 0 1').ruleState()).toBe(RULE_DRAW);
    expect(chessBoard('8/8/4k3/8/8/4K3/8/8 w - - 99 80', []).ruleState()).toBe(RULE_DRAW);
  });

  it('finds a mate in shogi through drops (tsume 3 plies)', () => {
    const r = searcher().search(shogiBoard('ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42'), {
      nodes: 100_000,
    });
    expect(matePlies(r.score)).toBe(3);
  });

  it('probability-limited search plays and mates, uniformly or with move probabilities', () => {
    const s = searcher('tournament', { limit: 'probability' });
    const r = s.search(chessBoard('6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1'), { depth: 4 });
    expect(matePlies(r.score)).toBe(1);
    const depths: number[] = [];
    const k = s.search(chessBoard(KIWIPETE), { nodes: 20_000 }, (it) => depths.push(it.depth));
    expect(k.bestMove).not.toBe(0);
    expect(depths.length).toBeGreaterThan(2);
    // All probability on the first generated move: the search follows that line only.
    let calls = 0;
    const focused = searcher('training', {
      limit: 'probability',
      moveProbabilities: (_b, _m, n, out) => {
        calls++;
        out.fill(0, 0, n);
        out[0] = 1;
      },
    });
    const f = focused.search(chessBoard(KIWIPETE), { depth: 3 });
    expect(calls).toBeGreaterThan(0);
    expect(f.bestMove).not.toBe(0);
  });

  it('training mode turns off every weight-dependent pruning', () => {
    const o = searchOptions('training');
    expect([o.aspiration, o.nullMove, o.futility, o.lateMoveReductions, o.deltaPruning]).toEqual([false, false, false, false, false]);
    expect(o.checkExtension).toBe(true);
    const t = searchOptions('tournament');
    expect([t.aspiration, t.nullMove, t.futility, t.lateMoveReductions, t.deltaPruning]).toEqual([true, true, true, true, true]);
    // Pruning lets the tournament search reach further on the same budget.
    const a = searcher('tournament').search(chessBoard(KIWIPETE), { nodes: 100_000 });
    const b = searcher('training').search(chessBoard(KIWIPETE), { nodes: 100_000 });
    expect(a.depth).toBeGreaterThan(b.depth);
  });
});
