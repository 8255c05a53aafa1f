/**
 * The MCTS Player in its worker thread with a real ONNX model (the shipped one; the worker runs
 * from dist/, which the tests' global setup builds), and `search: auto`: MCTS with a loadable model and enough
 * clock, alpha-beta with a missing or corrupt model (one log line, no crash), on a low clock, and
 * for `go depth` / `go mate`.
 */
import { copyFileSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { AutoPlayer } from '../../../src/player/auto-player.js';
import { createAlphaBetaPlayer } from '../../../src/player/factory.js';
import { createMctsPlayer } from '../../../src/player/mcts-factory.js';
import { MctsPlayer } from '../../../src/player/mcts-player.js';
import type { ClockState, GoRequest, Player } from '../../../src/player/player.js';
import { describeIf } from '../../setup/skip.js';

const MODELS = process.env.KISHI_TEST_MODELS ?? 'models';
const model = join(MODELS, 'chess.onnx');
const ready = existsSync(model);
const NO_MODEL = `${model} not found (KISHI_TEST_MODELS names the models folder)`;
const AB_CONFIG = { search: 'alphabeta' as const, hashMb: 8, moveOverheadMs: 0, chessWeights: 'models/chess-linear.json', shogiWeights: 'models/shogi-linear.json' };
const clock = (ms: number): ClockState => ({ firstMs: ms, secondMs: ms, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 0 });
const request = (extra: Partial<GoRequest> = {}): GoRequest => ({ game: 'chess', variant: 'standard', start: 'startpos', moves: ['e2e4', 'e7e5'], ...extra });

const players: Player[] = [];
afterAll(async () => {
  await Promise.all(players.map((p) => p.close()));
});

describeIf(ready, NO_MODEL)('MCTS player in a worker with the shipped net', () => {
  test('node-limited search, then stop of an infinite search', async () => {
    const p = new MctsPlayer({ game: 'chess', modelPath: model, moveOverheadMs: 0 });
    players.push(p);
    expect((await p.ready()).isOk).toBe(true);
    const infos: number[] = [];
    const r = await p.go(request({ limits: { nodes: 64 } }), (i) => infos.push(i.nodes));
    expect(r.move).toMatch(/^[a-h][1-8][a-h][1-8]$/);
    expect(r.info!.nodes).toBe(64);
    let done = false;
    const pending = p.go(request({ moves: ['e2e4'], limits: { infinite: true } })).then((r) => {
      done = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(done).toBe(false);
    p.stop();
    // Stop ends a search that would never end (how fast is a speed, for the bench, not a test on shared cores).
    const s = await Promise.race([pending, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000))]);
    expect(s, 'the search went on after stop').toBeDefined();
    expect(s!.move).toMatch(/^[a-h][1-8][a-h][1-8]$/);
    expect(s!.info!.nodes).toBeGreaterThan(0);
  }, 30_000);

  test('a stop sent while the go is still queued behind another request ends that go (the worker-player fix)', async () => {
    const p = new MctsPlayer({ game: 'chess', modelPath: model, moveOverheadMs: 0 });
    players.push(p);
    // `ucinewgame`, `go infinite`, `stop` in quick succession: the newGame runs first.
    const fresh = p.newGame();
    const pending = p.go(request({ limits: { infinite: true } }));
    p.stop();
    await fresh;
    const r = await Promise.race([pending, new Promise<string>((resolve) => setTimeout(() => resolve('still searching'), 10_000))]);
    expect(r).not.toBe('still searching');
    // And a stop with nothing queued does not leak into the next search.
    p.stop();
    const next = await p.go(request({ limits: { nodes: 32 } }));
    expect(next.info!.nodes).toBe(32);
  }, 30_000);

  test('search: mcts refuses a missing model at creation', () => {
    const r = createMctsPlayer({ moveOverheadMs: 0, chessModel: '/nonexistent/chess.onnx' }, 'chess');
    expect(r.isErr && r.error.code).toBe('ERR_MODEL');
  });
});

describeIf(ready, NO_MODEL)('search: auto', () => {
  const logs: string[] = [];
  const auto = (mcts: MctsPlayer | undefined): AutoPlayer => {
    const p = new AutoPlayer({
      game: 'chess',
      mcts,
      alphabeta: createAlphaBetaPlayer(AB_CONFIG, 'chess').unwrap(),
      minClockMs: 10_000,
      log: (level, message) => logs.push(`${level}: ${message}`),
    });
    players.push(p);
    return p;
  };

  test('MCTS with a model and enough clock; alpha-beta on a low clock, for go depth and go mate', async () => {
    const p = auto(new MctsPlayer({ game: 'chess', modelPath: model, moveOverheadMs: 0 }));
    const r = await p.go(request({ clock: clock(60_000), limits: { nodes: 32 } }));
    expect(p.lastEngine).toBe('mcts');
    expect(r.info!.nodes).toBe(32);
    await p.go(request({ clock: clock(5_000), limits: { nodes: 200 } }));
    expect(p.lastEngine).toBe('alphabeta');
    await p.go(request({ limits: { depth: 2 } }));
    expect(p.lastEngine).toBe('alphabeta');
    await p.go(request({ limits: { mate: true, depth: 3 } }));
    expect(p.lastEngine).toBe('alphabeta');
    expect(logs).toEqual([]);
  }, 30_000);

  test('a corrupt model: one log line, alpha-beta plays every move', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-auto-'));
    copyFileSync(join(MODELS, 'chess.manifest.json'), join(dir, 'chess.manifest.json'));
    writeFileSync(join(dir, 'chess.onnx'), Buffer.alloc(2048, 1));
    const p = auto(new MctsPlayer({ game: 'chess', modelPath: join(dir, 'chess.onnx'), moveOverheadMs: 0 }));
    for (let i = 0; i < 2; i++) {
      const r = await p.go(request({ clock: clock(60_000), limits: { nodes: 500 } }));
      expect(r.move).toMatch(/^[a-h][1-8][a-h][1-8]$/);
      expect(p.lastEngine).toBe('alphabeta');
    }
    expect(logs.length).toBe(1);
    expect(logs[0]).toMatch(/^warn: no usable chess model \(model .*chess\.onnx: cannot load/);
  }, 30_000);

  test('no model at all: alpha-beta', async () => {
    const p = auto(undefined);
    await p.go(request({ clock: clock(60_000), limits: { nodes: 300 } }));
    expect(p.lastEngine).toBe('alphabeta');
  }, 30_000);
});
