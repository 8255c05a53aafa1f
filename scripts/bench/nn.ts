/**
 * Net and MCTS speed for the shipped models (models/<game>.onnx and models/<game>-int8.onnx):
 * - raw onnxruntime-node throughput, positions/s at batch 1, 8 and 32, one ORT thread, fp32 and
 *   INT8 (the input is a real position's planes, repeated);
 * - MCTS playouts/s with the same nets (no NN cache, so every playout is a net evaluation or a
 *   terminal), compared with the raw throughput at the search's batch size: the ratio is the share
 *   of the net's speed the tree keeps (goal: 90% chess, 75% shogi);
 * - the share of MCTS wall time spent outside the net call (tree, move generation, encoding).
 * Also run by `scripts/bench-nn.ts` on its own.
 */
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { GameKind } from '../../src/core/game.js';
import { NetEvaluator, type NnInput } from '../../src/nn/evaluator.js';
import { encodingOf } from '../../src/nn/manifest.js';
import { OnnxRunner } from '../../src/nn/onnx-runner.js';
import { encodePosition } from '../../src/nn/reference-check.js';
import { resolveModelPath } from '../../src/player/weights-file.js';
import { ChessMctsBoard } from '../../src/search/mcts/chess-mcts-board.js';
import type { MctsBoard } from '../../src/search/mcts/mcts-board.js';
import { defaultMctsOptions } from '../../src/search/mcts/options.js';
import { MctsSearch } from '../../src/search/mcts/search.js';
import { ShogiMctsBoard } from '../../src/search/mcts/shogi-mcts-board.js';
import type { BenchModule, BenchRow } from './lib/measure.js';
import { median, rateRow } from './lib/measure.js';

const POSITIONS: Record<GameKind, readonly { start: string; moves: string[] }[]> = {
  chess: [
    { start: 'startpos', moves: ['e2e4', 'c7c5', 'g1f3', 'd7d6'] },
    { start: 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', moves: [] },
  ],
  shogi: [
    { start: 'startpos', moves: ['7g7f', '3c3d', '2g2f'] },
    { start: 'ln1g3nl/1r1sg1k2/p1pppsbpp/1p3pp2/7P1/2P1P1P2/PPBP1P2P/2S1GS1R1/LN1GK2NL b - 1', moves: [] },
  ],
};

/** MCTS batch size used for the search rows. */
export const BENCH_BATCH = 16;

const variants = (game: GameKind): { precision: string; path: string }[] =>
  [
    { precision: 'fp32', path: resolveModelPath(`models/${game}.onnx`) },
    { precision: 'int8', path: resolveModelPath(`models/${game}-int8.onnx`) },
  ].filter((v) => existsSync(v.path));

/** Raw positions/s of one evaluator at `batch`, per rep. */
export async function rawRates(ev: NetEvaluator, input: NnInput, batch: number, reps: number, positions: number): Promise<number[]> {
  const slice = Array.from({ length: batch }, () => input);
  for (let i = 0; i < 3; i++) await ev.evaluate(slice);
  const out: number[] = [];
  const calls = Math.max(3, Math.round(positions / batch));
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) await ev.evaluate(slice);
    out.push((calls * batch * 1000) / (performance.now() - t0));
  }
  return out;
}

/** MCTS playouts/s and outside-net share per rep (a fresh tree each rep, positions in turn). */
export async function mctsRates(game: GameKind, ev: NetEvaluator, playouts: number, reps: number): Promise<{ nps: number[]; outside: number[] }> {
  const nps: number[] = [];
  const outside: number[] = [];
  for (let r = 0; r < reps; r++) {
    const p = POSITIONS[game][r % POSITIONS[game].length]!;
    const board: MctsBoard = game === 'chess' ? ChessMctsBoard.fromText(p.start, p.moves).unwrap() : ShogiMctsBoard.fromText(p.start, p.moves).unwrap();
    const search = new MctsSearch(ev, { ...defaultMctsOptions(game), batchSize: BENCH_BATCH });
    const t0 = performance.now();
    const res = await search.run(board, { playouts });
    const ms = performance.now() - t0;
    nps.push((res.playouts * 1000) / ms);
    outside.push(1 - res.evalMs / ms);
  }
  return { nps, outside };
}

export const bench: BenchModule = {
  name: 'nn',
  description: 'ORT positions/s (batch 1/8/32, fp32/INT8) and MCTS playouts/s with the shipped nets',
  async run(ctx) {
    const rows: BenchRow[] = [];
    const reps = Math.max(1, ctx.reps);
    for (const game of ['chess', 'shogi'] as const) {
      const spec = encodingOf(game);
      const input = encodePosition(game, POSITIONS[game][1]!).unwrap().input;
      const found = variants(game);
      if (found.length === 0) ctx.log(`nn: no ${game} model in models/, skipped`);
      for (const v of found) {
        const runner = await OnnxRunner.create(v.path, spec);
        if (runner.isErr) {
          ctx.log(`nn: ${runner.error.message}`);
          continue;
        }
        const ev = new NetEvaluator(runner.value, 64);
        const raw: Record<number, number[]> = {};
        for (const batch of [1, 8, BENCH_BATCH, 32]) {
          ctx.log(`nn: ${game} ${v.precision} batch ${batch}`);
          raw[batch] = await rawRates(ev, input, batch, reps, ctx.quick ? 64 : 512);
          if (batch !== BENCH_BATCH) rows.push(rateRow(`${game} ${v.precision} ORT batch ${batch}`, 'pos/s', 1, raw[batch]!));
        }
        ctx.log(`nn: ${game} ${v.precision} MCTS`);
        const m = await mctsRates(game, ev, ctx.quick ? 200 : game === 'chess' ? 2000 : 1000, reps);
        rows.push(
          rateRow(`${game} ${v.precision} MCTS playouts/s vs ORT batch ${BENCH_BATCH}`, 'nodes/s', 1, m.nps, raw[BENCH_BATCH], `raw ORT batch ${BENCH_BATCH}`),
        );
        rows.push({
          name: `${game} ${v.precision} MCTS time outside the net`,
          ours: median(m.outside) * 100,
          unit: '%',
          higherIsBetter: false,
          reps: m.outside.length,
          samples: { ours: m.outside.map((x) => x * 100) },
        });
        await ev.close();
      }
    }
    return rows;
  },
};
