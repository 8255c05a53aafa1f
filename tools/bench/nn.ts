/**
 * Net and MCTS speed for the shipped models (models/<game>.onnx and models/<game>-int8.onnx):
 * - raw onnxruntime-node throughput, positions/s at batch 1, 8 and 32, one ORT thread, fp32 and
 *   INT8 (the input is a real position's planes, repeated);
 * - MCTS playouts/s with the same nets (no NN cache, so every playout is a net evaluation or a
 *   terminal), compared with the raw throughput at the search's batch size: the ratio is the share
 *   of the net's speed the tree keeps (goal: 90% chess, 75% shogi);
 * - the share of MCTS wall time spent outside the net call (tree, move generation, encoding).
 * Every figure is also given per CPU-second of the process (`process.cpuUsage`, all threads; ORT
 * runs one thread, on the calling one): on a shared machine the wall-clock rates move with the
 * other load, the CPU-time ones much less. Each rep measures the raw batch-16 rate and the MCTS
 * rate back to back (same load), after untimed warm-up searches (JIT), so the ratios compare like
 * with like.
 * On its own: `npm run bench -- --filter nn`.
 */
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { GameKind } from '../../src/core/game.js';
import { NetEvaluator, type NnInput } from '../../src/nn/evaluator.js';
import { encodingOf } from '../../src/nn/manifest.js';
import { OnnxRunner } from '../../src/nn/onnx-runner.js';
import { encodePosition } from '../../src/nn/reference-check.js';
import { resolveModelPath } from '../../src/core/package-path.js';
import { ChessMctsBoard } from '../../src/search/mcts/chess-mcts-board.js';
import type { MctsBoard } from '../../src/search/mcts/mcts-board.js';
import { defaultMctsOptions } from '../../src/search/mcts/options.js';
import { MctsSearch } from '../../src/search/mcts/search.js';
import { ShogiMctsBoard } from '../../src/search/mcts/shogi-mcts-board.js';
import type { BenchModule, BenchRow } from './lib/measure.js';
import { median, rateRow } from './lib/measure.js';
import { MCTS_POSITIONS } from './lib/mcts-positions.js';

/** MCTS batch size used for the search rows. */
export const BENCH_BATCH = 16;

const variants = (game: GameKind): { precision: string; path: string }[] =>
  [
    { precision: 'fp32', path: resolveModelPath(`models/${game}.onnx`) },
    { precision: 'int8', path: resolveModelPath(`models/${game}-int8.onnx`) },
  ].filter((v) => existsSync(v.path));

/** CPU milliseconds used by this process so far (all threads). */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** A rate per wall-clock second and per CPU-second. */
export interface Rate {
  readonly wall: number;
  readonly cpu: number;
}

/** Raw positions/s of one evaluator at `batch` (one rep; call `rawWarmUp` first). */
export async function rawRate(ev: NetEvaluator, input: NnInput, batch: number, positions: number): Promise<Rate> {
  const slice = Array.from({ length: batch }, () => input);
  const calls = Math.max(3, Math.round(positions / batch));
  const t0 = performance.now();
  const c0 = cpuMs();
  for (let i = 0; i < calls; i++) await ev.evaluate(slice);
  return { wall: (calls * batch * 1000) / (performance.now() - t0), cpu: (calls * batch * 1000) / Math.max(1e-3, cpuMs() - c0) };
}

export async function rawWarmUp(ev: NetEvaluator, input: NnInput, batch: number): Promise<void> {
  const slice = Array.from({ length: batch }, () => input);
  for (let i = 0; i < 3; i++) await ev.evaluate(slice);
}

/** One MCTS search of `playouts` from the rep's position (fresh tree): playouts/s and the share of wall time outside the net. */
export async function mctsRate(game: GameKind, ev: NetEvaluator, playouts: number, rep: number): Promise<Rate & { outside: number }> {
  const p = MCTS_POSITIONS[game][rep % MCTS_POSITIONS[game].length]!;
  const board: MctsBoard = game === 'chess' ? ChessMctsBoard.fromText(p.start, p.moves).unwrap() : ShogiMctsBoard.fromText(p.start, p.moves).unwrap();
  const search = new MctsSearch(ev, { ...defaultMctsOptions(game), batchSize: BENCH_BATCH });
  const t0 = performance.now();
  const c0 = cpuMs();
  const res = await search.run(board, { playouts });
  const cpu = Math.max(1e-3, cpuMs() - c0);
  const ms = performance.now() - t0;
  return { wall: (res.playouts * 1000) / ms, cpu: (res.playouts * 1000) / cpu, outside: 1 - res.evalMs / ms };
}

export const bench: BenchModule = {
  name: 'nn',
  description: 'ORT positions/s (batch 1/8/32, fp32/INT8) and MCTS playouts/s with the shipped nets',
  async run(ctx) {
    const rows: BenchRow[] = [];
    const reps = Math.max(1, ctx.reps);
    for (const game of ['chess', 'shogi'] as const) {
      const spec = encodingOf(game);
      const input = encodePosition(game, MCTS_POSITIONS[game][1]!).unwrap().input;
      const found = variants(game);
      if (found.length === 0) ctx.log(`nn: no ${game} model in models/, skipped`);
      for (const v of found) {
        const runner = await OnnxRunner.create(v.path, spec);
        if (runner.isErr) {
          ctx.log(`nn: ${runner.error.message}`);
          continue;
        }
        const ev = new NetEvaluator(runner.value, 64);
        const positions = ctx.quick ? 64 : 512;
        for (const batch of [1, 8, 32]) {
          ctx.log(`nn: ${game} ${v.precision} batch ${batch}`);
          await rawWarmUp(ev, input, batch);
          const r: number[] = [];
          for (let i = 0; i < reps; i++) r.push((await rawRate(ev, input, batch, positions)).wall);
          rows.push(rateRow(`${game} ${v.precision} ORT batch ${batch}`, 'pos/s', 1, r));
        }
        ctx.log(`nn: ${game} ${v.precision} MCTS`);
        const playouts = ctx.quick ? 200 : game === 'chess' ? 2000 : 1000;
        await rawWarmUp(ev, input, BENCH_BATCH);
        // Untimed warm-up, one search per position: until the JIT has compiled the tree code, its
        // threads' CPU time and the interpreted code would be charged to the first reps.
        for (let i = 0; i < MCTS_POSITIONS[game].length; i++) await mctsRate(game, ev, playouts, i);
        const raw: Rate[] = [];
        const mcts: (Rate & { outside: number })[] = [];
        for (let i = 0; i < reps; i++) {
          raw.push(await rawRate(ev, input, BENCH_BATCH, playouts));
          mcts.push(await mctsRate(game, ev, playouts, i));
        }
        const base = `raw ORT batch ${BENCH_BATCH}`;
        const name = `${game} ${v.precision} MCTS playouts/s vs ORT batch ${BENCH_BATCH}`;
        rows.push(rateRow(name, 'nodes/s', 1, mcts.map((m) => m.wall), raw.map((r) => r.wall), base));
        rows.push(rateRow(`${name}, per CPU-s`, 'nodes/cpu-s', 1, mcts.map((m) => m.cpu), raw.map((r) => r.cpu), `${base}, per CPU-s`));
        rows.push({
          name: `${game} ${v.precision} MCTS time outside the net`,
          ours: median(mcts.map((m) => m.outside)) * 100,
          unit: '%',
          higherIsBetter: false,
          reps: mcts.length,
          samples: { ours: mcts.map((m) => m.outside * 100) },
        });
        await ev.close();
      }
    }
    return rows;
  },
};
