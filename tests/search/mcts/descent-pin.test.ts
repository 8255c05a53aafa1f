/**
 * The MCTS descent pinned (issue 42): the trees that node-limited searches grow from fixed
 * positions with fixed seeds, in both games, on one thread (CPU networks with deferred or
 * immediate priors, the batched evaluator with root noise and a draw score, Sequential Halving)
 * and on a shared tree (the shared descent, played by the main thread alone: helpers that never
 * start), each followed by tree reuse and a second search. Each tree is summed up as its root
 * children's visits and a hash of every node's visits in depth-first edge order, so a refactor of
 * the descent that changes one visit anywhere fails here. The pins were taken from the search
 * before the descent was written once over a tree view (search.ts of commit 126ad7b); a change
 * that is meant to change the search takes new pins, printed by running this file with
 * `KISHI_PIN_PRINT=1`, and says why in its commit. The shared trees differ from the one-thread
 * ones by design: the shared descent takes its virtual visit at each node on the way down, where
 * the next step's c_puct and sqrt(N) read it, and the one-thread descent once at the leaf.
 */
import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { GameKind } from '../../../src/core/game.js';
import { MockEvaluator } from '../../../src/nn/mock-evaluator.js';
import { cpuNetMctsOptions, loadCpuEvaluator } from '../../../src/player/mcts-cpu-nets.js';
import { ChessMctsBoard } from '../../../src/search/mcts/chess-mcts-board.js';
import type { MctsBoard } from '../../../src/search/mcts/mcts-board.js';
import { defaultMctsOptions, selfPlayMctsOptions, type MctsOptions } from '../../../src/search/mcts/options.js';
import { MctsSearch } from '../../../src/search/mcts/search.js';
import { ShogiMctsBoard } from '../../../src/search/mcts/shogi-mcts-board.js';
import { MctsControl, type MctsHelpers, type RootPosition } from '../../../src/search/mcts/threads.js';
import type { Tree } from '../../../src/search/mcts/tree.js';

const ready = existsSync('models/chess-nnue.bin') && existsSync('models/shogi-nnue.bin');

const POSITIONS: Record<GameKind, RootPosition> = {
  // Kiwipete (Peter McKenzie): many captures, checks and castling rights.
  chess: { start: 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', moves: [] },
  shogi: { start: 'startpos', moves: ['7g7f', '3c3d', '2g2f', '4c4d'] },
};

const boardOf = (game: GameKind): MctsBoard => {
  const p = POSITIONS[game];
  return game === 'chess' ? ChessMctsBoard.fromText(p.start, [...p.moves]).unwrap() : ShogiMctsBoard.fromText(p.start, [...p.moves]).unwrap();
};

/** Helpers that never play: the run takes its threaded path (the shared descent) on the main thread alone. */
const idleHelpers = (): MctsHelpers => ({ count: 1, control: new MctsControl(1), start: () => undefined, join: () => 0 });

/** FNV-1a over every node's visits, depth first in edge order (the tree's shape and counts). */
const treeHash = (t: Tree): string => {
  let h = 0x811c9dc5;
  const mix = (x: number): void => {
    h = Math.imul(h ^ (x & 0xffff), 0x01000193) >>> 0;
    h = Math.imul(h ^ (x >>> 16), 0x01000193) >>> 0;
  };
  const stack = [0];
  let nodes = 0;
  while (stack.length > 0) {
    const n = stack.pop()!;
    nodes++;
    mix(t.visits[n]!);
    const first = t.firstEdge[n]!;
    mix(first < 0 ? 0xffff : t.edgeCount[n]!);
    for (let e = first + t.edgeCount[n]! - 1; first >= 0 && e >= first; e--) {
      const c = t.edgeChild[e]!;
      if (c >= 0) stack.push(c);
      else mix(0xfffe);
    }
  }
  return `${nodes}:${h.toString(16)}`;
};

/** A tree summed up: the root children's visits in edge order, and the whole tree's hash. */
const summary = (search: MctsSearch): string => `${search.rootChildren().map((c) => c.visits).join(',')} #${treeHash(search.tree)}`;

type Kind = 'leaf-deferred' | 'leaf-at-once' | 'batched' | 'gumbel' | 'shared-deferred' | 'shared-at-once';

/** A search of `kind` on `game`, then tree reuse after its move and the reply it expects, then a second search. */
const pinRun = async (game: GameKind, kind: Kind): Promise<string[]> => {
  const board = boardOf(game);
  let search: MctsSearch;
  let playouts = 1500;
  if (kind === 'batched') {
    // Priors and values from the position's key: deterministic, and varied enough to shape the tree.
    const mock = new MockEvaluator(board.spec, (input) => {
      const k = input.key ?? 0;
      const weights = Array.from({ length: input.moveCount }, (_, i) => 1 + ((k >>> (i % 24)) & 7));
      return { weights, value: (k % 1009) / 1009 - 0.5 };
    });
    search = new MctsSearch(mock, { ...selfPlayMctsOptions(game), batchSize: 8, drawScore: -0.1, seed: 7 });
  } else {
    const ev = loadCpuEvaluator(`models/${game}-nnue.bin`, game, {}, `models/${game}-policy.bin`).unwrap();
    const o: MctsOptions = {
      ...defaultMctsOptions(game),
      ...cpuNetMctsOptions(game),
      deferPriors: kind !== 'leaf-at-once' && kind !== 'shared-at-once',
      ...(kind === 'gumbel' ? { gumbelActions: 8, temperature: 1, seed: 3 } : {}),
    };
    if (kind === 'gumbel') playouts = 300;
    search = kind.startsWith('shared') ? new MctsSearch(ev, o, idleHelpers()) : new MctsSearch(ev, o);
  }
  const position = POSITIONS[game];
  const first = await search.run(board, { playouts }, undefined, 1000, position);
  expect(first.playouts).toBe(playouts);
  const out = [summary(search)];
  const pv = search.principalVariation(2);
  expect(pv.length).toBe(2);
  expect(search.advance(pv)).toBe(true);
  for (const m of pv) board.make(m);
  const moved: RootPosition = { start: position.start, moves: [...position.moves, ...pv.map((m) => board.moveToText(m))] };
  await search.run(board, { playouts: playouts / 2 }, undefined, 1000, moved);
  out.push(summary(search));
  return out;
};

const PINS: Record<GameKind, Record<Kind, string[]>> = {
  chess: {
    'leaf-deferred': [
      '2,3,3,2,2,4,3,2,4,5,7,0,3,5,0,4,1264,2,1,3,1,19,1,21,8,1,0,0,7,0,3,0,2,0,0,10,82,0,1,0,1,2,0,2,2,1,10,7 #1501:ee6b6469',
      '1,2,1,1,1,1,1,2,1,24,1436,3,4,4,0,3,2,0,4,2,4,2,1,1,1,7,0,1,0,1,1,2,2,0,0,3,1,2,0,1,1,12,1,0,0,1,15,1,1,1,8,5 #1570:f17b2816',
    ],
    'leaf-at-once': [
      '2,3,3,2,2,4,3,2,4,5,7,0,3,5,0,4,1264,2,1,3,1,19,1,21,8,1,0,0,7,0,3,0,2,0,0,10,82,0,1,0,1,2,0,2,2,1,10,7 #1501:e942ddc5',
      '1,2,1,1,1,1,1,2,1,24,1436,3,4,4,0,3,2,0,4,2,4,2,1,1,1,7,0,1,0,1,1,2,2,0,0,3,1,2,0,1,1,12,1,0,0,1,15,1,1,1,8,5 #1570:8b1ad223',
    ],
    batched: [
      '67,1,14,9,1,50,23,64,15,35,11,15,35,8,16,37,7,9,26,35,34,32,108,4,69,5,9,1,14,79,8,36,13,141,50,62,25,3,116,11,25,16,84,3,10,23,29,12 #1501:f3ed9777',
      '2,1,1,1,4,5,15,23,55,3,12,1,17,13,15,3,12,15,3,13,3,5,15,19,4,22,15,4,54,14,2,27,14,9,8,4,9,55,10,11,6,1,36,59,8,21,11,1,17,4,25,48,12,12 #780:8310a555',
    ],
    gumbel: [
      '0,0,0,0,12,0,0,0,0,0,0,0,0,0,0,12,89,0,0,12,0,37,0,0,37,0,0,0,0,0,0,0,0,0,0,0,89,0,0,0,0,0,0,0,0,0,12,0 #301:e5a478eb',
      '0,0,0,52,0,0,0,0,0,6,0,0,0,19,0,1,0,0,0,0,0,0,0,0,0,0,0,1,6,0,1,1,0,0,0,0,72,0,0,7,0,0,0,6,0,0,0,19,0,0,0 #192:a9e45789',
    ],
    'shared-deferred': [
      '2,2,3,2,2,4,2,2,4,5,6,0,3,5,0,3,1288,2,1,3,1,18,1,18,7,1,0,0,6,0,2,0,2,0,0,8,72,0,1,0,1,2,0,2,2,1,9,7 #1501:907e90ad',
      '1,2,1,1,1,1,1,2,1,23,1404,2,4,4,0,4,2,0,4,2,4,1,1,1,1,8,0,1,0,1,1,2,2,0,0,3,1,2,0,1,1,12,1,0,0,1,15,1,1,1,7,5 #1536:4dc1b590',
    ],
    'shared-at-once': [
      '2,2,3,2,2,4,2,2,4,5,6,0,3,5,0,3,1288,2,1,3,1,18,1,18,7,1,0,0,6,0,2,0,2,0,0,8,72,0,1,0,1,2,0,2,2,1,9,7 #1501:e0fad6e0',
      '1,2,1,1,1,1,1,2,1,23,1404,2,4,4,0,4,2,0,4,2,4,1,1,1,1,8,0,1,0,1,1,2,2,0,0,3,1,2,0,1,1,12,1,0,0,1,15,1,1,1,7,5 #1536:a3cd756c',
    ],
  },
  shogi: {
    'leaf-deferred': [
      '19,678,27,3,10,16,29,23,39,84,27,76,1,81,6,7,7,5,6,10,7,16,38,6,12,4,30,5,6,0,19,7,6,41,21,128 #1501:51a39c57',
      '29,12,35,6,10,14,36,44,133,60,25,66,1,42,365,4,5,6,3,4,6,11,16,34,11,12,10,22,8,9,7,21,10,9,67,20,143 #1317:a36fadaa',
    ],
    'leaf-at-once': [
      '19,678,27,3,10,16,29,23,39,84,27,76,1,81,6,7,7,5,6,10,7,16,38,6,12,4,30,5,6,0,19,7,6,41,21,128 #1501:95b30d83',
      '29,12,35,6,10,14,36,44,133,60,25,66,1,42,365,4,5,6,3,4,6,11,16,34,11,12,10,22,8,9,7,21,10,9,67,20,143 #1317:c7333abf',
    ],
    batched: [
      '15,71,10,16,3,29,1,43,142,27,46,48,18,18,50,116,2,2,35,23,11,64,61,6,8,59,3,13,1,15,15,17,63,22,275,152 #1501:62f357d0',
      '8,34,5,21,67,18,6,8,51,46,15,14,4,39,56,23,1,1,5,25,47,5,6,4,6,87,1,17,23,83,15,47 #789:b84e06f2',
    ],
    gumbel: [
      '0,12,0,0,0,0,0,0,0,37,0,0,0,37,0,12,0,0,0,0,0,12,0,0,12,0,89,0,0,0,0,0,0,0,0,89 #301:9070e44a',
      '0,59,0,0,0,0,0,0,2,48,1,3,0,9,0,6,0,0,0,0,0,18,18,0,0,6,0,0,0,0,6,0,0,0,0 #177:1936ee8e',
    ],
    'shared-deferred': [
      '18,680,27,3,10,15,29,23,41,84,27,76,1,80,6,7,7,5,6,10,6,16,38,6,12,4,31,5,6,0,19,7,6,41,20,128 #1501:4a89c5f2',
      '34,13,35,6,10,14,35,44,126,60,25,68,1,42,366,4,5,6,3,4,6,11,16,34,11,11,10,22,8,9,7,20,10,9,69,20,144 #1319:bc1fbf25',
    ],
    'shared-at-once': [
      '18,680,27,3,10,15,29,23,41,84,27,76,1,80,6,7,7,5,6,10,6,16,38,6,12,4,31,5,6,0,19,7,6,41,20,128 #1501:2dca86f0',
      '34,13,35,6,10,14,35,44,126,60,25,68,1,42,366,4,5,6,3,4,6,11,16,34,11,11,10,22,8,9,7,20,10,9,69,20,144 #1319:e5bad3bf',
    ],
  },
};

describe.skipIf(!ready)('the trees of node-limited searches are pinned', () => {
  for (const game of ['chess', 'shogi'] as const) {
    for (const kind of Object.keys(PINS[game]) as Kind[]) {
      test(`${game}: ${kind}`, async () => {
        const got = await pinRun(game, kind);
        if (process.env['KISHI_PIN_PRINT'] === '1') console.log(`PIN ${game} ${kind} ${JSON.stringify(got)}`);
        expect(got).toEqual(PINS[game][kind]);
      }, 120_000);
    }
  }
});
