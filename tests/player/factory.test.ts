/**
 * `createPlayer` routing of `search: mcts | alphabeta | auto` (src/player/factory.ts,
 * src/player/mcts-factory.ts) with the shipped nets and with broken model files:
 * - `mcts` with a missing model is an `ERR_MODEL` error value; with the shipped model it plays;
 * - `auto` with a missing, unreadable-manifest or corrupt model plays alpha-beta, legal moves, one
 *   clear log line, never an exception;
 * - `auto` below `mctsMinClockMs` of remaining clock plays alpha-beta, above it MCTS
 *   (`AutoPlayer.lastEngine` says which engine answered).
 * Searches are limited by nodes, never by time. The workers run from dist/ (built by the tests' global setup).
 */
import { copyFileSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import winston from 'winston';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { GameKind } from '../../src/core/game.js';
import { rootLogger } from '../../src/log/logger.js';
import { ChessMctsBoard } from '../../src/search/mcts/chess-mcts-board.js';
import { ShogiMctsBoard } from '../../src/search/mcts/shogi-mcts-board.js';
import { AutoPlayer } from '../../src/player/auto-player.js';
import { createPlayer, type PlayerConfig } from '../../src/player/factory.js';
import { MctsPlayer } from '../../src/player/mcts-player.js';
import { createMctsPlayer, modelPathOf } from '../../src/player/mcts-factory.js';
import type { ClockState, GoRequest, Player } from '../../src/player/player.js';
import { describeIf } from '../setup/skip.js';

const MODELS = process.env.KISHI_TEST_MODELS ?? 'models';
const haveModels = existsSync(join(MODELS, 'chess.onnx')) && existsSync(join(MODELS, 'shogi.onnx'));

const base = (over: Partial<PlayerConfig> = {}): PlayerConfig => ({
  search: 'auto',
  hashMb: 8,
  moveOverheadMs: 0,
  chessWeights: 'models/chess-linear.json',
  shogiWeights: 'models/shogi-linear.json',
  chessModel: join(MODELS, 'chess.onnx'),
  shogiModel: join(MODELS, 'shogi.onnx'),
  mctsMinClockMs: 10_000,
  ...over,
});

const clock = (ms: number): ClockState => ({ firstMs: ms, secondMs: ms, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 0 });
const chessGo = (over: Partial<GoRequest> = {}): GoRequest => ({ game: 'chess', variant: 'standard', start: 'startpos', moves: ['e2e4', 'e7e5'], ...over });
const shogiGo = (over: Partial<GoRequest> = {}): GoRequest => ({ game: 'shogi', variant: 'standard', start: 'startpos', moves: ['7g7f', '3c3d'], ...over });

/** Whether `move` is legal after the request's moves (the MCTS boards parse only legal moves). */
const legal = (request: GoRequest, move: string): boolean => {
  const board =
    request.game === 'chess' ? ChessMctsBoard.fromText(request.start, request.moves).unwrap() : ShogiMctsBoard.fromText(request.start, request.moves).unwrap();
  return board.parseMove(move) !== 0;
};

// Log lines of the `player/auto` module, captured from the root logger.
const lines: string[] = [];
const capture = new winston.transports.Stream({
  stream: new Writable({
    objectMode: true,
    write(info: { level: string; message: string; module?: string }, _enc, done) {
      if (info.module === 'player/auto') lines.push(`${info.level}: ${info.message}`);
      done();
    },
  }),
});

const players: Player[] = [];
const make = (config: PlayerConfig, game: GameKind): Player => {
  const p = createPlayer(config, game).unwrap();
  players.push(p);
  return p;
};

beforeAll(() => {
  rootLogger.add(capture);
});
afterAll(async () => {
  rootLogger.remove(capture);
  await Promise.all(players.map((p) => p.close()));
});

describeIf(haveModels, `chess.onnx or shogi.onnx not found in ${MODELS}`)('createPlayer: search kinds and broken models', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kishi-factory-'));

  test('search: mcts with a missing model is an ERR_MODEL value, not an exception', () => {
    for (const game of ['chess', 'shogi'] as const) {
      const r = createPlayer(base({ search: 'mcts', chessModel: join(dir, 'none.onnx'), shogiModel: join(dir, 'none.onnx') }), game);
      expect(r.isErr && r.error.code).toBe('ERR_MODEL');
      expect(r.isErr && r.error.message).toMatch(/none\.(onnx|manifest\.json)/);
    }
  });

  test('search: mcts with the shipped nets plays legal moves (chess and shogi, fp32 and the default INT8)', async () => {
    for (const [game, request] of [
      ['chess', chessGo({ limits: { nodes: 48 } })],
      ['shogi', shogiGo({ limits: { nodes: 48 } })],
    ] as const) {
      const p = make(base({ search: 'mcts' }), game);
      expect(p).toBeInstanceOf(MctsPlayer);
      const r = await p.go(request);
      expect(legal(request, r.move), r.move).toBe(true);
      expect(r.info!.nodes).toBe(48);
      // No model path named (the UCI/USI front-ends): the CPU networks when they are shipped, the
      // value trained for MCTS first, else the alpha-beta network.
      const { chessModel: _c, shogiModel: _s, ...unnamed } = base({ search: 'mcts' });
      const q = make(unnamed, game) as MctsPlayer;
      expect(q.settings.modelPath).toBe(modelPathOf(unnamed, game));
      if (MODELS === 'models') {
        const cpu = existsSync(join(MODELS, `${game}-mcts-value.bin`)) ? 'mcts-value' : existsSync(join(MODELS, `${game}-nnue.bin`)) ? 'nnue' : undefined;
        if (cpu !== undefined) expect(q.settings.modelPath).toMatch(new RegExp(`${game}-${cpu}\\.bin$`));
      }
      const s = await q.go(request);
      expect(legal(request, s.move), s.move).toBe(true);
      expect(s.info!.nodes).toBe(48);
    }
  }, 60_000);

  test('search: auto with a missing model: alpha-beta plays, one log line at creation', async () => {
    lines.length = 0;
    const p = make(base({ chessModel: join(dir, 'missing.onnx') }), 'chess') as AutoPlayer;
    expect(p).toBeInstanceOf(AutoPlayer);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warn: search auto: no usable chess model \(.*missing\.(onnx|manifest\.json).*\); playing with alpha-beta$/);
    for (const moves of [['e2e4'], ['e2e4', 'e7e5']]) {
      const request = chessGo({ moves, clock: clock(60_000), limits: { nodes: 2000 } });
      const r = await p.go(request);
      expect(legal(request, r.move), r.move).toBe(true);
      expect(p.lastEngine).toBe('alphabeta');
    }
    expect(lines).toHaveLength(1);
  }, 30_000);

  test('search: auto with garbage bytes as the model (no manifest): alpha-beta, one log line', async () => {
    lines.length = 0;
    writeFileSync(join(dir, 'garbage.onnx'), Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 131 + 17) & 255)));
    const p = make(base({ shogiModel: join(dir, 'garbage.onnx') }), 'shogi') as AutoPlayer;
    const request = shogiGo({ clock: clock(60_000), limits: { nodes: 2000 } });
    const r = await p.go(request);
    expect(legal(request, r.move), r.move).toBe(true);
    expect(p.lastEngine).toBe('alphabeta');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warn: search auto: no usable shogi model \(.*garbage\.manifest\.json: cannot read/);
  }, 30_000);

  test('search: auto with a corrupt ONNX file next to a valid manifest: alpha-beta every move, one log line when it fails to load', async () => {
    lines.length = 0;
    copyFileSync(join(MODELS, 'chess.manifest.json'), join(dir, 'corrupt.manifest.json'));
    writeFileSync(join(dir, 'corrupt.onnx'), Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919 + 3) & 255)));
    const p = make(base({ chessModel: join(dir, 'corrupt.onnx') }), 'chess') as AutoPlayer;
    expect(lines).toEqual([]); // the files pass the start-up check; the worker fails to load them
    for (const moves of [['d2d4'], ['d2d4', 'd7d5']]) {
      const request = chessGo({ moves, clock: clock(60_000), limits: { nodes: 2000 } });
      const r = await p.go(request);
      expect(legal(request, r.move), r.move).toBe(true);
      expect(p.lastEngine).toBe('alphabeta');
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warn: no usable chess model \(model .*corrupt\.onnx: cannot load.*\); playing with alpha-beta$/);
  }, 30_000);

  test('search: auto below mctsMinClockMs of remaining clock plays alpha-beta, above it MCTS', async () => {
    lines.length = 0;
    const p = make(base({ mctsMinClockMs: 20_000 }), 'chess') as AutoPlayer;
    // White to move after e4 e5: white's clock counts (black's is plenty).
    const low = chessGo({ clock: { ...clock(60_000), firstMs: 19_999 }, limits: { nodes: 300 } });
    const r1 = await p.go(low);
    expect(p.lastEngine).toBe('alphabeta');
    expect(legal(low, r1.move)).toBe(true);
    const high = chessGo({ clock: { ...clock(60_000), firstMs: 20_000 }, limits: { nodes: 40 } });
    const r2 = await p.go(high);
    expect(p.lastEngine).toBe('mcts');
    expect(r2.info!.nodes).toBe(40);
    expect(legal(high, r2.move)).toBe(true);
    // Byoyomi counts as remaining clock (shogi).
    const s = make(base({ mctsMinClockMs: 20_000 }), 'shogi') as AutoPlayer;
    await s.go(shogiGo({ clock: clock(15_000), limits: { nodes: 300 } }));
    expect(s.lastEngine).toBe('alphabeta');
    await s.go(shogiGo({ clock: { ...clock(15_000), byoyomiMs: 5_000 }, limits: { nodes: 40 } }));
    expect(s.lastEngine).toBe('mcts');
    expect(lines).toEqual([]);
  }, 60_000);
});

describe('the engine config reaches the MCTS worker (no environment)', () => {
  test('mctsTuning, mctsPolicy and nnueSimd become the worker settings; a bad mctsTuning is ERR_CONFIG', async () => {
    const config = { moveOverheadMs: 0, chessModel: 'models/chess-nnue.bin' };
    const p = createMctsPlayer({ ...config, mctsTuning: 'tau=0.3;cpuct=2', mctsPolicy: 'oneply', nnueSimd: false }, 'chess').unwrap();
    expect(p.settings.cpuNets).toEqual({ evaluator: { priorTemperature: 0.3 }, simd: false });
    expect(p.settings.options).toEqual({ cpuctInit: 2 });
    await p.close();
    const q = createMctsPlayer(config, 'chess').unwrap();
    expect(q.settings.cpuNets).toEqual({ evaluator: {}, policyPath: join(dirname(modelPathOf(config, 'chess')), 'chess-policy.bin') });
    expect(q.settings.options).toBeUndefined();
    await q.close();
    const bad = createMctsPlayer({ ...config, mctsTuning: 'speed=3' }, 'chess');
    expect(bad.isErr && bad.error.code).toBe('ERR_CONFIG');
  });
});
