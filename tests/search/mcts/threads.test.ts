/**
 * MCTS with several search threads over one shared tree (src/search/mcts/threads.ts,
 * shared-tree.ts; the helpers are the player's worker threads, src/player/mcts-helpers.ts, run
 * from dist/): with a helper on the CPU networks, the search finds a mate in one; the shared tree
 * is consistent after a search (each expanded node's visits are its own valuation plus its
 * children's, no virtual visit, flag or half-made child left), also when nodes held by another
 * thread make the descents collide; node limits hold to a playout per helper; tree reuse hands
 * the helpers the new tree; a helper that cannot load or whose run fails is dropped and the
 * searches go on; the helpers end on close; `Threads 2` reaches the MCTS player.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { GameKind } from '../../../src/core/game.js';
import { loadCpuEvaluator, policyPathFor } from '../../../src/player/mcts-cpu-nets.js';
import { createMctsPlayer } from '../../../src/player/mcts-factory.js';
import { MctsHelperPool } from '../../../src/player/mcts-helpers.js';
import { resolveModelPath } from '../../../src/core/package-path.js';
import { ChessMctsBoard } from '../../../src/search/mcts/chess-mcts-board.js';
import type { MctsBoard } from '../../../src/search/mcts/mcts-board.js';
import { defaultMctsOptions, type MctsOptions } from '../../../src/search/mcts/options.js';
import { MctsSearch } from '../../../src/search/mcts/search.js';
import { CHILD_BUSY, SharedTree } from '../../../src/search/mcts/shared-tree.js';
import { ShogiMctsBoard } from '../../../src/search/mcts/shogi-mcts-board.js';
import { STAT_EVALUATIONS, type RootPosition } from '../../../src/search/mcts/threads.js';
import { FLAG_PENDING, FLAG_TERMINAL } from '../../../src/search/mcts/tree.js';
import { describeIf } from '../../setup/skip.js';

const ready = existsSync('models/chess-nnue.bin') && existsSync('models/shogi-nnue.bin');
const NO_NETS = 'models/chess-nnue.bin or models/shogi-nnue.bin not found';

const MATE_FEN = '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1';
const MIDDLEGAME = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
const SHOGI_START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';

const boardOf = (game: GameKind, p: RootPosition): MctsBoard =>
  game === 'chess' ? ChessMctsBoard.fromText(p.start, [...p.moves]).unwrap() : ShogiMctsBoard.fromText(p.start, [...p.moves]).unwrap();

/** A threaded search on `game`'s CPU networks with `helpers` helper threads (and the pool, to close). */
const threaded = (game: GameKind, helpers: number, options: Partial<MctsOptions> = {}, modelPath = resolveModelPath(`models/${game}-nnue.bin`)) => {
  const policyPath = policyPathFor(resolveModelPath(`models/${game}-nnue.bin`), game);
  const evaluator = loadCpuEvaluator(`models/${game}-nnue.bin`, game, {}, policyPath).unwrap();
  const o: MctsOptions = { ...defaultMctsOptions(game), threads: helpers + 1, ...options };
  const errors: string[] = [];
  const pool = new MctsHelperPool(helpers, { game, modelPath, ...(policyPath !== undefined ? { policyPath } : {}), evaluator: {}, options: o }, (m) => errors.push(m));
  return { search: new MctsSearch(evaluator, o, pool), pool, errors };
};

/** Evaluations the helper threads made in the last run. */
const helperEvaluations = (pool: MctsHelperPool): number => {
  let sum = 0;
  for (let id = 1; id <= pool.control.count; id++) sum += pool.control.stats[pool.control.stat(id, STAT_EVALUATIONS)]!;
  return sum;
};

/**
 * Node-limited searches of `playouts` from `position` (fresh trees) until the helpers took part in
 * one (a helper starts with its worker, which a loaded machine may make late), at most `tries`.
 */
const runUntilHelped = async (search: MctsSearch, pool: MctsHelperPool, game: GameKind, position: RootPosition, playouts: number, tries = 20) => {
  for (let i = 0; i < tries; i++) {
    search.reset();
    const r = await search.run(boardOf(game, position), { playouts }, undefined, 1000, position);
    if (helperEvaluations(pool) > 0) return r;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the helpers never played in ${tries} searches`);
};

/** What must hold of a shared tree once a search is over; returns the nodes checked. */
const checkTree = (search: MctsSearch): number => {
  const t = search.tree;
  expect(t).toBeInstanceOf(SharedTree);
  let nodes = 0;
  const queue = [0];
  while (queue.length > 0) {
    const n = queue.pop()!;
    nodes++;
    expect(t.virtual[n], `virtual visits left at node ${n}`).toBe(0);
    expect(t.flags[n]! & FLAG_PENDING, `pending flag left at node ${n}`).toBe(0);
    const terminal = (t.flags[n]! & FLAG_TERMINAL) !== 0;
    // Every node a thread created was reached by that thread's playout (or marked terminal at the root's expansion).
    if (!terminal) expect(t.visits[n], `unvisited node ${n}`).toBeGreaterThan(0);
    expect(Math.abs(t.valueSum[n]!)).toBeLessThanOrEqual(t.visits[n]! + 1e-9);
    const first = t.firstEdge[n]!;
    if (first < 0) continue;
    let children = 0;
    for (let e = first; e < first + t.edgeCount[n]!; e++) {
      const c = t.edgeChild[e]!;
      expect(c, `half-made child at edge ${e}`).not.toBe(CHILD_BUSY);
      if (c < 0) continue;
      children += t.visits[c]!;
      queue.push(c);
    }
    // Its own valuation plus what went through it; a node proven after its expansion also counts
    // the visits that stopped at it.
    if (terminal) expect(t.visits[n]).toBeGreaterThanOrEqual(children);
    else expect(t.visits[n], `visits of node ${n}`).toBe(children + 1);
  }
  expect(nodes).toBe(t.nodeCount);
  return nodes;
};

describeIf(ready, NO_NETS)('two search threads over one tree (CPU networks)', () => {
  const pools: MctsHelperPool[] = [];
  let chess: ReturnType<typeof threaded>;
  beforeAll(() => {
    chess = threaded('chess', 1);
    pools.push(chess.pool);
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
  });

  test('finds the mate in one, and the helper plays', async () => {
    const position = { start: MATE_FEN, moves: [] };
    const r = await runUntilHelped(chess.search, chess.pool, 'chess', position, 2000);
    const board = boardOf('chess', position);
    expect(board.moveToText(chess.search.chooseMove())).toBe('a1a8');
    expect(chess.search.rootChildren().find((c) => board.moveToText(c.move) === 'a1a8')!.proven).toBe(1);
    // The limit, plus at most one playout in flight per helper.
    expect(r.reason).toBe('playouts');
    expect(r.playouts).toBeGreaterThanOrEqual(2000);
    expect(r.playouts).toBeLessThanOrEqual(2001);
    checkTree(chess.search);
    expect(chess.errors).toEqual([]);
  }, 60_000);

  test('the shared tree is consistent after a search: visits, virtual visits, flags, children', async () => {
    const position = { start: MIDDLEGAME, moves: [] };
    const r = await runUntilHelped(chess.search, chess.pool, 'chess', position, 3000);
    const t = chess.search.tree;
    // The root: its own expansion plus its children's visits.
    const children = chess.search.rootChildren().reduce((s, c) => s + c.visits, 0);
    expect(t.visits[0]).toBe(children + 1);
    expect(t.visits[0]).toBe(r.playouts + 1);
    expect(r.evaluations).toBeGreaterThan(helperEvaluations(chess.pool));
    expect(checkTree(chess.search)).toBeGreaterThan(100);
  }, 60_000);

  test('a node another thread holds is a collision: the threads go around it and leave no virtual visit', async () => {
    const position = { start: MIDDLEGAME, moves: [] };
    await runUntilHelped(chess.search, chess.pool, 'chess', position, 1000);
    const t = chess.search.tree;
    // Every valued leaf taken, as by a thread in the middle of expanding it.
    const held: number[] = [];
    for (let n = 1; n < t.nodeCount; n++) {
      if (t.firstEdge[n]! < 0 && (t.flags[n]! & FLAG_TERMINAL) === 0) {
        t.flags[n]! |= FLAG_PENDING;
        held.push(n);
      }
    }
    expect(held.length).toBeGreaterThan(100);
    const visits = t.visits[0]!;
    const r = await chess.search.run(boardOf('chess', position), { playouts: 2000, hardMs: 1000, earlyStop: false }, undefined, 1000, position);
    // New nodes only (fresh edges), or the clock.
    expect(['playouts', 'time']).toContain(r.reason);
    expect(t.visits[0]).toBe(visits + r.playouts);
    for (const n of held) {
      expect(t.flags[n]! & FLAG_PENDING).toBe(FLAG_PENDING);
      expect(t.firstEdge[n]).toBe(-1);
      t.flags[n]! &= ~FLAG_PENDING;
    }
    checkTree(chess.search);
  }, 60_000);

  test('priors at the first visit (deferPriors off) and a visit limit', async () => {
    const s = threaded('chess', 1, { deferPriors: false });
    pools.push(s.pool);
    const position = { start: MIDDLEGAME, moves: ['e1g1'] };
    for (let i = 0; i < 20 && helperEvaluations(s.pool) === 0; i++) {
      s.search.reset();
      const r = await s.search.run(boardOf('chess', position), { rootVisits: 1500 }, undefined, 1000, position);
      expect(r.reason).toBe('visits');
      expect(s.search.rootVisits).toBeGreaterThanOrEqual(1500);
      expect(s.search.rootVisits).toBeLessThanOrEqual(1501);
      checkTree(s.search);
    }
    expect(helperEvaluations(s.pool)).toBeGreaterThan(0);
  }, 60_000);

  test('tree reuse: the next search plays on the re-rooted tree, helpers included', async () => {
    const position = { start: MIDDLEGAME, moves: [] };
    await runUntilHelped(chess.search, chess.pool, 'chess', position, 3000);
    const board = boardOf('chess', position);
    const best = chess.search.chooseMove();
    const before = chess.search.tree as SharedTree;
    expect(chess.search.advance([best])).toBe(true);
    const kept = chess.search.rootVisits;
    expect(kept).toBeGreaterThan(1);
    const after = chess.search.tree as SharedTree;
    expect(after).toBeInstanceOf(SharedTree);
    expect(after.memory.buffer).not.toBe(before.memory.buffer);
    checkTree(chess.search);
    const next = { start: MIDDLEGAME, moves: [board.moveToText(best)] };
    const r = await chess.search.run(boardOf('chess', next), { playouts: 2000 }, undefined, 1000, next);
    expect(r.playouts).toBeGreaterThanOrEqual(2000);
    expect(r.playouts).toBeLessThanOrEqual(2001);
    expect(chess.search.rootVisits).toBe(kept + r.playouts);
    checkTree(chess.search);
  }, 60_000);

  test('shogi: a consistent tree and a legal choice', async () => {
    const s = threaded('shogi', 1);
    pools.push(s.pool);
    const position = { start: SHOGI_START, moves: ['7g7f', '3c3d'] };
    await runUntilHelped(s.search, s.pool, 'shogi', position, 2000);
    const board = boardOf('shogi', position);
    const list = new Int32Array(board.maxMoves);
    const n = board.generate(list);
    expect(list.subarray(0, n)).toContain(s.search.chooseMove());
    checkTree(s.search);
    expect(s.errors).toEqual([]);
  }, 60_000);

  test('a helper that cannot load is dropped, a helper whose run fails too, and the searches go on alone', async () => {
    const position = { start: MATE_FEN, moves: [] };
    // The helper cannot load its networks: it says so, and never gets work.
    const broken = threaded('chess', 1, {}, '/nonexistent/chess-nnue.bin');
    pools.push(broken.pool);
    expect(broken.pool.count).toBe(1);
    // Its message arrives through the event loop.
    for (let i = 0; i < 200 && broken.errors.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(broken.errors.join('\n')).toMatch(/nonexistent/);
    const r = await broken.search.run(boardOf('chess', position), { playouts: 1000 }, undefined, 1000, position);
    expect(r.playouts).toBe(1000);
    expect(boardOf('chess', position).moveToText(broken.search.chooseMove())).toBe('a1a8');
    expect(broken.pool.count).toBe(0);
    checkTree(broken.search);

    // A helper given a root it cannot set up: its run throws, the search ends without it.
    const s = threaded('chess', 1);
    pools.push(s.pool);
    await runUntilHelped(s.search, s.pool, 'chess', position, 500);
    const bad = { start: 'not a position', moves: [] };
    s.search.reset();
    const t0 = performance.now();
    const again = await s.search.run(boardOf('chess', position), { playouts: 1000 }, undefined, 1000, bad);
    expect(again.playouts).toBe(1000);
    expect(performance.now() - t0).toBeLessThan(30_000);
    expect(s.pool.count).toBe(0);
    checkTree(s.search);
    for (let i = 0; i < 200 && s.errors.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(s.errors.join('\n')).toMatch(/MCTS helper 1/);
  }, 60_000);

  test('the helper threads end on close', async () => {
    const s = threaded('chess', 2);
    expect(s.pool.running).toBe(2);
    const position = { start: MATE_FEN, moves: [] };
    await s.search.run(boardOf('chess', position), { playouts: 500 }, undefined, 1000, position);
    await s.pool.close();
    expect(s.pool.running).toBe(0);
    expect(s.pool.count).toBe(0);
  }, 60_000);
});

describeIf(ready, NO_NETS)('the MCTS player with Threads 2', () => {
  test('a node-limited search on the CPU networks, then close', async () => {
    const made = createMctsPlayer({ moveOverheadMs: 0, chessModel: 'models/chess-nnue.bin', threads: 2 }, 'chess');
    const player = made.unwrap();
    try {
      expect(player.settings.options?.threads).toBe(2);
      const r = await player.go({ game: 'chess', variant: 'standard', start: MATE_FEN, moves: [], limits: { nodes: 3000 } });
      expect(r.move).toBe('a1a8');
      expect(r.info!.nodes).toBeGreaterThanOrEqual(3000);
      expect(r.info!.nodes).toBeLessThanOrEqual(3001);
    } finally {
      await player.close();
    }
  }, 60_000);
});
