/**
 * Throughput of the AlphaZero loop (issue 10) with the shipped INT8 nets:
 * - self-play games/hour as the loop plays them (`kishi selfplay`: worker threads with many games
 *   at once, 64 playouts a move, resignation at 0.9), and the net evaluations/s per worker against
 *   the raw onnxruntime-node rate at the same mean batch (one ORT thread): the ratio is the share of
 *   the net's speed that self-play keeps; the rest is the tree, move generation, encoding and
 *   waiting for the slowest game;
 * - trainer/train.py samples/s on the chunks that self-play just wrote (a fresh net of the shipped
 *   shape, batch 256, one PyTorch thread per core), against the same run's samples per second of
 *   pure compute (forward, backward, step): the ratio is the share of training time not spent
 *   decoding chunks into batches. Skipped with a message when no Python with PyTorch is found
 *   (`KISHI_PYTHON`, else python3).
 * Each rep is a fresh self-play run and a fresh training run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSelfplay, type SelfplayReport } from '../../src/learning/alphazero/selfplay.js';
import { resolvePython, trainScript } from '../../src/learning/alphazero/train-process.js';
import { NetEvaluator } from '../../src/nn/evaluator.js';
import { encodingOf } from '../../src/nn/manifest.js';
import { OnnxRunner } from '../../src/nn/onnx-runner.js';
import { encodePosition } from '../../src/nn/reference-check.js';
import { resolveModelPath } from '../../src/core/package-path.js';
import type { BenchModule, BenchRow } from './lib/measure.js';
import { median, rateRow } from './lib/measure.js';
import { rawRate, rawWarmUp } from './nn.js';

/** The loop's self-play settings (docs/experiments/2026-11-21-resnet-nets-and-alphazero-loop.md, session 3's loop run). */
const PLAYOUTS = 64;
const CONCURRENT_GAMES = 16;

/** Raw ORT positions/s at `batch` for `model` (median of `reps`). */
async function rawAt(game: 'chess' | 'shogi', model: string, batch: number, reps: number): Promise<number[]> {
  const runner = (await OnnxRunner.create(model, encodingOf(game))).unwrap();
  const ev = new NetEvaluator(runner, Math.max(64, batch));
  const start = game === 'chess' ? { start: 'startpos', moves: ['e2e4', 'c7c5'] } : { start: 'startpos', moves: ['7g7f', '3c3d'] };
  const input = encodePosition(game, start).unwrap().input;
  await rawWarmUp(ev, input, batch);
  const out: number[] = [];
  for (let i = 0; i < reps; i++) out.push((await rawRate(ev, input, batch, 2048)).wall);
  await ev.close();
  return out;
}

interface TrainFigures {
  readonly samplesPerSecond: number;
  readonly computeSamplesPerSecond: number;
}

/** One train.py run on `dataDir`; undefined (with a message) when it cannot run. */
function trainOnce(python: string, game: 'chess' | 'shogi', dataDir: string, steps: number, threads: number, log: (m: string) => void): TrainFigures | undefined {
  const report = join(dataDir, 'train-report.json');
  const args = [trainScript(), '--data', dataDir, '--steps', String(steps), '--batch', '256', '--blocks', '4', '--filters', '48', '--threads', String(threads), '--log-every', String(steps), '--report', report];
  if (game === 'shogi') args.push('--mirror');
  const r = spawnSync(python, args, { encoding: 'utf8' });
  if (r.status !== 0 || !existsSync(report)) {
    log(`alphazero: train.py failed (${r.status}): ${(r.stderr || r.stdout).slice(-400)}`);
    return undefined;
  }
  const rep = JSON.parse(readFileSync(report, 'utf8')) as { samples: number; stepsThisRun: number; samplesPerSecond: number; secondsCompute: number };
  return { samplesPerSecond: rep.samplesPerSecond, computeSamplesPerSecond: (rep.stepsThisRun * 256) / Math.max(1e-6, rep.secondsCompute) };
}

export const bench: BenchModule = {
  name: 'alphazero',
  description: 'self-play games/h (64 playouts, INT8) with net use against raw ORT; train.py samples/s against its pure compute',
  async run(ctx) {
    const rows: BenchRow[] = [];
    const reps = Math.max(1, ctx.reps);
    const workers = Math.max(1, Math.min(2, availableParallelism()));
    const python = resolvePython(process.env);
    if (python.isErr) ctx.log(`alphazero: ${python.error.message}; training rows skipped`);
    for (const game of ['chess', 'shogi'] as const) {
      const model = resolveModelPath(`models/${game}-int8.onnx`);
      if (!existsSync(model)) {
        ctx.log(`alphazero: no ${model}, ${game} skipped`);
        continue;
      }
      const concurrent = ctx.quick ? 4 : CONCURRENT_GAMES;
      const playouts = ctx.quick ? 16 : PLAYOUTS;
      const games = workers * concurrent * 2;
      const reports: SelfplayReport[] = [];
      const train: TrainFigures[] = [];
      for (let i = 0; i < reps; i++) {
        const dir = mkdtempSync(join(tmpdir(), `kishi-bench-az-${game}-`));
        try {
          ctx.log(`alphazero: ${game} self-play rep ${i + 1}/${reps}: ${games} games on ${workers} workers`);
          const rep = await runSelfplay({
            game,
            model,
            outDir: dir,
            games,
            firstGameIndex: 0,
            workers,
            concurrentGames: concurrent,
            playouts,
            temperatureMoves: 30,
            resignValue: 0.9,
            maxPlies: ctx.quick ? 40 : game === 'chess' ? 300 : 320,
            gamesPerChunk: games,
            seed: 100 + i,
            phase: 'selfplay',
          });
          if (rep.isErr) throw rep.error;
          reports.push(rep.value);
          if (python.isOk) {
            ctx.log(`alphazero: ${game} train.py rep ${i + 1}/${reps}`);
            const t = trainOnce(python.value, game, dir, ctx.quick ? 5 : 60, workers, ctx.log);
            if (t !== undefined) train.push(t);
          }
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
      const positions = reports.reduce((a, r) => a + r.positions, 0) / reports.length;
      rows.push(
        rateRow(`${game} self-play games/h (${playouts} playouts, ${workers} workers x ${concurrent} games)`, 'games/h', 1, reports.map((r) => r.gamesPerHour), undefined, undefined, `${(positions / games).toFixed(1)} positions a game`),
      );
      // Net evaluations per worker-second against raw ORT at the mean batch the workers formed.
      const batch = Math.max(1, Math.round(median(reports.map((r) => r.nnEvals / Math.max(1, r.nnCalls)))));
      const raw = await rawAt(game, model, batch, reps);
      rows.push(
        rateRow(`${game} self-play net evals/s per worker vs ORT batch ${batch}`, 'pos/s', 1, reports.map((r) => r.nnEvals / r.seconds / workers), raw, `raw ORT batch ${batch}, 1 thread`),
      );
      rows.push({
        name: `${game} self-play worker time inside the net`,
        ours: median(reports.map((r) => (100 * r.nnMs) / Math.max(1, r.nnMs + r.treeMs))),
        unit: '%',
        reps: reports.length,
        samples: { ours: reports.map((r) => (100 * r.nnMs) / Math.max(1, r.nnMs + r.treeMs)) },
      });
      if (train.length > 0) {
        rows.push(
          rateRow(`${game} train.py samples/s (4x48, batch 256, ${workers} threads)`, 'samples/s', 1, train.map((t) => t.samplesPerSecond), train.map((t) => t.computeSamplesPerSecond), 'same run, compute only'),
        );
      }
    }
    return rows;
  },
};
