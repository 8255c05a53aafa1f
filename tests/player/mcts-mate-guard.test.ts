/**
 * The MCTS mate guard: the moves it rejects are the ones after which the opponent mates (a chess
 * back rank, a position of a lost shogi game), its own mates are real ones, and the engine plays
 * a mate found before the search and steers away from a move that allows one.
 */
import { expect, test } from 'vitest';
import { CHESS_ENCODING } from '../../src/nn/chess-encoding.js';
import { MockEvaluator } from '../../src/nn/mock-evaluator.js';
import { SHOGI_ENCODING } from '../../src/nn/shogi-encoding.js';
import { SIGNAL_PONDERHIT } from '../../src/player/control-words.js';
import { MctsEngine } from '../../src/player/mcts-engine.js';
import { MctsMateGuard } from '../../src/player/mcts-mate-guard.js';
import type { GoRequest } from '../../src/player/player.js';

const settings = { plies: 7, nodes: 4000, candidates: 4 };
const signal = (): Int32Array => new Int32Array(new SharedArrayBuffer(8));

/** Black to move at ply 141 of a game MCTS lost to alpha-beta (session 10): after B*7a, 6f6g+ 6h6i 6g6h mates. */
const SHOGI_LOST = 'l3G3l/3r3k1/4p2p1/p4Pg1p/1L3n1P1/PPppsG2P/9/1+p1K1Bs+s1/LN2R4 b BGS2N6P 141';
/** A 3-ply tsume (data/suites/tsume_mate-3-ply.sfen, first line): white mates. */
const TSUME_3 = 'ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42';
/** White to move; a rook move off the first rank lets Re1 mate. */
const BACK_RANK = '4r1k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1';
const OFF_THE_BACK_RANK = ['a1a2', 'a1a3', 'a1a4', 'a1a5', 'a1a6', 'a1a7', 'a1a8'];

test('chess: a move that opens the back rank is rejected, one that keeps it covered is not', () => {
  const g = new MctsMateGuard('chess', settings);
  const b = g.board(BACK_RANK, [], false).unwrap();
  expect(g.check(b, ['a1a2', 'h2h3'])).toEqual({ move: 'h2h3', rejected: ['a1a2'] });
  expect(g.check(b, ['a1a2', 'a1b1'])).toEqual({ move: 'a1b1', rejected: ['a1a2'] });
  expect(g.check(b, ['h2h3', 'a1a2'])).toEqual({ move: 'h2h3', rejected: [] });
  // The board is left as it was.
  expect(b.toText()).toBe(BACK_RANK);
});

test('shogi: the moves of a lost game that allow a short mate are rejected', () => {
  const g = new MctsMateGuard('shogi', settings);
  const b = g.board(SHOGI_LOST, [], false).unwrap();
  expect(g.check(b, ['B*7a', '5i5f', '6h6i'])).toEqual({ move: '6h6i', rejected: ['B*7a', '5i5f'] });
  // All candidates lose: the search's choice stands.
  expect(g.check(b, ['B*7a', '5i5f'])).toEqual({ move: 'B*7a', rejected: ['B*7a', '5i5f'] });
  // Only `candidates` moves are tested.
  const one = new MctsMateGuard('shogi', { ...settings, candidates: 1 });
  expect(one.check(b, ['B*7a', '6h6i'])).toEqual({ move: 'B*7a', rejected: ['B*7a'] });
});

test('own mates: found within the length, not beyond it', () => {
  const g = new MctsMateGuard('shogi', settings);
  expect(g.ownMate(g.board(TSUME_3, [], false).unwrap())).toEqual(['B*5g', '4h5h', '7i6i']);
  expect(g.ownMate(g.board(SHOGI_LOST, [], false).unwrap())).toBeUndefined();
  const short = new MctsMateGuard('shogi', { ...settings, plies: 1 });
  expect(short.ownMate(short.board(TSUME_3, [], false).unwrap())).toBeUndefined();
});

test('the engine plays a mate found before the search, and steers away from a mate after it', async () => {
  const shogi = (plies: number): MctsEngine =>
    new MctsEngine({ game: 'shogi', evaluator: new MockEvaluator(SHOGI_ENCODING), moveOverheadMs: 0, options: { mateGuardPlies: plies, batchSize: 8 } });
  const tsume: GoRequest = { game: 'shogi', variant: 'standard', start: TSUME_3, moves: [], limits: { nodes: 50 } };
  const mate = (await shogi(7).go(tsume, signal())).unwrap();
  expect(mate.move).toBe('B*5g');
  expect(mate.info!.score).toEqual({ mate: 3 });
  expect((await shogi(0).go(tsume, signal())).unwrap().info!.nodes).toBe(50);

  // Chess: a net that favours the sixth move everywhere (a1a2 at the root, in the generator's
  // order) makes the search choose it; the guard answers with the most visited move that keeps the
  // back rank covered.
  // (The net yields to the event loop on each call, so that the ponderhit timer below can fire.)
  const favour = (k: number): MockEvaluator =>
    new MockEvaluator(CHESS_ENCODING, (input) => ({ weights: Array.from({ length: input.moveCount }, (_, i) => (i === k ? 1000 : 1)) }), 256, true);
  const chess = (plies: number): MctsEngine => new MctsEngine({ game: 'chess', evaluator: favour(5), moveOverheadMs: 0, options: { mateGuardPlies: plies, batchSize: 8 } });
  const backRank: GoRequest = { game: 'chess', variant: 'standard', start: BACK_RANK, moves: [], limits: { nodes: 30 } };
  expect((await chess(0).go(backRank, signal())).unwrap().move).toBe('a1a2');
  const guarded = (await chess(3).go(backRank, signal())).unwrap().move;
  expect(OFF_THE_BACK_RANK).not.toContain(guarded);

  // Pondering: no guard while the opponent thinks; after ponderhit the answer is guarded too.
  const clock = { firstMs: 500, secondMs: 500, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 0 };
  const pondering: GoRequest = { game: 'chess', variant: 'standard', start: BACK_RANK, moves: [], clock, ponder: true };
  const hit = signal();
  setTimeout(() => Atomics.store(hit, SIGNAL_PONDERHIT, 1), 30);
  const afterHit = (await chess(3).go(pondering, hit)).unwrap().move;
  expect(OFF_THE_BACK_RANK).not.toContain(afterHit);
});
