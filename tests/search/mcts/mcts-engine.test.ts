/**
 * The MCTS engine behind the Player API, inline with the mock evaluator: node-limited searches,
 * `info`, tree reuse across requests, terminal and single-move positions, `stop` of an infinite
 * search, ponder + ponderhit, and the side-to-move/clock rule of `search: auto`.
 */
import { expect, test } from 'vitest';
import { CHESS_ENCODING } from '../../../src/nn/chess-encoding.js';
import { MockEvaluator } from '../../../src/nn/mock-evaluator.js';
import { SHOGI_ENCODING } from '../../../src/nn/shogi-encoding.js';
import { sideToMove } from '../../../src/player/auto-player.js';
import { SIGNAL_PONDERHIT, SIGNAL_STOP } from '../../../src/player/control-words.js';
import { MctsEngine } from '../../../src/player/mcts-engine.js';
import type { GoRequest } from '../../../src/player/player.js';

const signal = (): Int32Array => new Int32Array(new SharedArrayBuffer(8));

const chessRequest = (moves: string[], extra: Partial<GoRequest> = {}): GoRequest => ({
  game: 'chess',
  variant: 'standard',
  start: 'startpos',
  moves,
  ...extra,
});

test('node-limited search: legal move, info, pv and ponder move', async () => {
  const engine = new MctsEngine({ game: 'chess', evaluator: new MockEvaluator(CHESS_ENCODING), moveOverheadMs: 0, options: { batchSize: 8 } });
  const infos: number[] = [];
  const r = (await engine.go(chessRequest(['e2e4'], { limits: { nodes: 300 } }), signal(), (i) => infos.push(i.nodes))).unwrap();
  expect(r.move).toMatch(/^[a-h][1-8][a-h][1-8]$/);
  expect(r.info!.nodes).toBe(300);
  expect(r.info!.pv[0]).toBe(r.move);
  expect(r.ponder).toBe(r.info!.pv[1]);
  expect(r.info!.score).toEqual({ cp: 0 });
  expect(r.pvLeaf).toBeDefined();
  expect(infos.at(-1)).toBe(300);
  expect(engine.lastStats!.reason).toBe('playouts');
});

test('a mate the solver proves is reported with its length, for the winner and for the loser', async () => {
  const engine = (): MctsEngine => new MctsEngine({ game: 'chess', evaluator: new MockEvaluator(CHESS_ENCODING), moveOverheadMs: 0, options: { batchSize: 8 } });
  // 1.Ra7 (or Rb7) Kg8 2.Rb8# (Ra8#).
  const start = '7k/8/8/8/8/8/R7/1R4K1 w - - 0 1';
  const win = (await engine().go({ ...chessRequest([], { limits: { nodes: 5000 } }), start }, signal())).unwrap();
  expect(['a2a7', 'b1b7']).toContain(win.move);
  // SearchInfo counts plies (UCI prints `mate 2`, USI would print `mate 3`).
  expect(win.info!.score).toEqual({ mate: 3 });
  expect(win.info!.pv.length).toBe(3);
  // Black after 1.Ra7 Kg8 2.Kf1: both king moves are mated next move (Rb8#).
  const lose = (await engine().go({ ...chessRequest(['a2a7', 'h8g8', 'g1f1'], { limits: { nodes: 500 } }), start }, signal())).unwrap();
  expect(['g8h8', 'g8f8']).toContain(lose.move);
  expect(lose.info!.score).toEqual({ mate: -2 });
});

test('the tree is reused when the next request continues the game', async () => {
  const engine = new MctsEngine({ game: 'chess', evaluator: new MockEvaluator(CHESS_ENCODING), moveOverheadMs: 0, options: { batchSize: 8 } });
  const first = (await engine.go(chessRequest([], { limits: { nodes: 2000 } }), signal())).unwrap();
  const reply = first.ponder!;
  await engine.go(chessRequest([first.move, reply], { limits: { nodes: 100 } }), signal());
  expect(engine.lastStats!.reused).toBeGreaterThan(1);
  expect(engine.search.rootVisits).toBe(engine.lastStats!.reused + 100);
  // A different game start throws the tree away.
  await engine.go({ ...chessRequest([], { limits: { nodes: 50 } }), start: 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1' }, signal());
  expect(engine.lastStats!.reused).toBe(0);
});

test('terminal positions, single legal moves, go mate', async () => {
  const engine = new MctsEngine({ game: 'chess', evaluator: new MockEvaluator(CHESS_ENCODING), moveOverheadMs: 0 });
  const mated = (await engine.go(chessRequest(['f2f3', 'e7e5', 'g2g4', 'd8h4'], { limits: { nodes: 10 } }), signal())).unwrap();
  expect(mated.move).toBe('resign');
  const clock = { firstMs: 60_000, secondMs: 60_000, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 0 };
  const single = (await engine.go({ game: 'chess', variant: 'standard', start: '7k/8/8/8/8/8/r7/K6r w - - 0 1', moves: [], clock }, signal())).unwrap();
  expect(single.move).toBe('a1a2');
  const mate = (await engine.go(chessRequest([], { limits: { mate: true } }), signal())).unwrap();
  expect(mate.move).toBe('notimplemented');
  const bad = await engine.go(chessRequest(['e2e5']), signal());
  expect(bad.isErr && bad.error.code).toBe('ERR_ILLEGAL_MOVE');
});

test('an infinite search runs until stop; a ponder search continues after ponderhit on its own clock', async () => {
  const engine = new MctsEngine({ game: 'shogi', evaluator: new MockEvaluator(SHOGI_ENCODING, () => ({}), 256, true), moveOverheadMs: 0, options: { batchSize: 4 } });
  const s = signal();
  setTimeout(() => Atomics.store(s, SIGNAL_STOP, 1), 150);
  const r = (await engine.go({ game: 'shogi', variant: 'standard', start: 'startpos', moves: [], limits: { infinite: true } }, s)).unwrap();
  expect(r.move).toMatch(/^[1-9][a-i][1-9][a-i]\+?$/);
  expect(engine.lastStats!.reason).toBe('stopped');
  expect(engine.lastStats!.playouts).toBeGreaterThan(0);

  const p = signal();
  setTimeout(() => Atomics.store(p, SIGNAL_PONDERHIT, 1), 100);
  const clock = { firstMs: 1000, secondMs: 1000, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 0 };
  const pr = (await engine.go({ game: 'shogi', variant: 'standard', start: 'startpos', moves: ['7g7f'], clock, ponder: true }, p)).unwrap();
  expect(pr.move).toMatch(/^[1-9][a-i][1-9][a-i]\+?$/);
  // Nobody sends stop: after ponderhit the search ended on its own clock (or early, its move settled).
  expect(['time', 'early']).toContain(engine.lastStats!.reason);
});

test('side to move of a request (for the auto player clock rule)', () => {
  expect(sideToMove(chessRequest([]))).toBe('first');
  expect(sideToMove(chessRequest(['e2e4']))).toBe('second');
  expect(sideToMove({ ...chessRequest(['e7e5']), start: 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1' })).toBe('first');
  expect(sideToMove({ game: 'shogi', variant: 'standard', start: '4k4/9/9/9/9/9/9/9/4K4 w - 1', moves: [] })).toBe('second');
});

test('go depth stops at the mean leaf depth', async () => {
  const engine = new MctsEngine({ game: 'chess', evaluator: new MockEvaluator(CHESS_ENCODING), moveOverheadMs: 0, options: { batchSize: 8 } });
  const r = (await engine.go(chessRequest([], { limits: { depth: 3 } }), signal())).unwrap();
  expect(engine.lastStats!.reason).toBe('depth');
  expect(engine.lastStats!.depth).toBeGreaterThanOrEqual(3);
  expect(r.info!.depth).toBeGreaterThanOrEqual(3);
});

test('a clock game aims at softTimeShare of the planned soft budget', async () => {
  const clock = { firstMs: 60_000, secondMs: 60_000, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 0 };
  const budget = { softMs: 4000, hardMs: 4000 };
  const engine = new MctsEngine({ game: 'chess', evaluator: new MockEvaluator(CHESS_ENCODING), moveOverheadMs: 0, options: { batchSize: 8, softTimeShare: 0.05, extendTimeShare: 0.05 } });
  const t0 = performance.now();
  await engine.go(chessRequest([], { clock, budget }), signal());
  // 5% of 4 s is 200 ms; the whole budget would be 4 s (generous bound for a loaded machine).
  expect(performance.now() - t0).toBeLessThan(2000);
  expect(['time', 'early']).toContain(engine.lastStats!.reason);
});
