/**
 * MCTS playouts/s on the CPU networks (issue 19; src/search/mcts/cpu-evaluator.ts: NNUE value with
 * a quiescence search, one-ply NNUE policy), one thread, against the same search on the shipped
 * INT8 ResNet (onnxruntime, batch 16, no NN cache) on the same positions. Also the CPU nets with
 * the static value (no quiescence) to show what the tactical guard costs, and with the trained
 * policy network as prior (src/eval/policy/; the file the engine config's `mctsPolicy` or models/<game>-policy.bin
 * names) against the one-ply prior; and two
 * search threads over one tree (src/search/mcts/threads.ts: the main search and one helper worker
 * thread, started once) against one, measured in turns in the same reps (on a machine whose other
 * work takes cores, the second thread gains only what is left of them). Target (issue 19):
 * 100k playouts/s in chess on one thread. A network that is missing or invalid gets no row (logged).
 */
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { GameKind } from '../../src/core/game.js';
import { NetEvaluator } from '../../src/nn/evaluator.js';
import { encodingOf } from '../../src/nn/manifest.js';
import { OnnxRunner } from '../../src/nn/onnx-runner.js';
import { loadCpuEvaluator, policyPathFor } from '../../src/player/mcts-cpu-nets.js';
import { MctsHelperPool } from '../../src/player/mcts-helpers.js';
import { resolveModelPath } from '../../src/core/package-path.js';
import { ChessMctsBoard } from '../../src/search/mcts/chess-mcts-board.js';
import type { LeafEvaluator } from '../../src/search/mcts/leaf-evaluator.js';
import type { MctsBoard } from '../../src/search/mcts/mcts-board.js';
import { STAT_EVALUATIONS, type MctsHelpers, type RootPosition } from '../../src/search/mcts/threads.js';
import { defaultMctsOptions, type MctsOptions } from '../../src/search/mcts/options.js';
import { MctsSearch } from '../../src/search/mcts/search.js';
import { ShogiMctsBoard } from '../../src/search/mcts/shogi-mcts-board.js';
import type { BenchModule, BenchRow } from './lib/measure.js';
import { rateRow } from './lib/measure.js';
import { MCTS_POSITIONS } from './lib/mcts-positions.js';

const positionOf = (game: GameKind, rep: number): RootPosition => MCTS_POSITIONS[game][rep % MCTS_POSITIONS[game].length]!;

const boardOf = (game: GameKind, rep: number): MctsBoard => {
  const p = positionOf(game, rep);
  return game === 'chess' ? ChessMctsBoard.fromText(p.start, [...p.moves]).unwrap() : ShogiMctsBoard.fromText(p.start, [...p.moves]).unwrap();
};

/** Playouts/s of one search of `playouts` from the rep's position, fresh tree (shared with `helpers` when given). */
const rate = async (game: GameKind, ev: LeafEvaluator | NetEvaluator, playouts: number, rep: number, options: Partial<MctsOptions> = {}, helpers?: MctsHelpers): Promise<number> => {
  const board = boardOf(game, rep);
  const search = new MctsSearch(ev, { ...defaultMctsOptions(game), batchSize: 16, ...options }, helpers);
  const t0 = performance.now();
  const r = await search.run(board, { playouts }, undefined, 1000, positionOf(game, rep));
  return (r.playouts * 1000) / (performance.now() - t0);
};

export const bench: BenchModule = {
  name: 'mcts-cpu',
  description: 'MCTS playouts/s with the CPU networks (NNUE value + one-ply policy) vs the INT8 ResNet',
  async run(ctx) {
    const rows: BenchRow[] = [];
    const reps = Math.max(1, ctx.reps) * 2;
    for (const game of ['chess', 'shogi'] as const) {
      const cpu = loadCpuEvaluator(`models/${game}-nnue.bin`, game);
      const stat = loadCpuEvaluator(`models/${game}-nnue.bin`, game, { qsearchPlies: 0 });
      if (cpu.isErr || stat.isErr) {
        ctx.log(`mcts-cpu ${game}: no CPU network (${cpu.isErr ? cpu.error.message : ''})`);
        continue;
      }
      const policyPath = policyPathFor(resolveModelPath(`models/${game}-nnue.bin`), game);
      const withPolicy = policyPath !== undefined ? loadCpuEvaluator(`models/${game}-nnue.bin`, game, {}, policyPath) : undefined;
      const pol = withPolicy?.isOk && withPolicy.value.policy !== undefined ? withPolicy.value : undefined;
      if (policyPath !== undefined && pol === undefined) ctx.log(`mcts-cpu ${game}: policy ${policyPath} unusable (${withPolicy?.isOk ? withPolicy.value.policyError?.message : ''})`);
      const playouts = ctx.quick ? 2000 : 20000;
      let resnet: NetEvaluator | undefined;
      const onnx = resolveModelPath(`models/${game}-int8.onnx`);
      if (existsSync(onnx)) {
        const runner = await OnnxRunner.create(onnx, encodingOf(game));
        if (runner.isOk) resnet = new NetEvaluator(runner.value, 64);
        else ctx.log(`mcts-cpu ${game}: ${runner.error.message}`);
      }
      // One helper thread over the same network (the one-ply prior, as `cpu`), started once.
      const threads = { ...defaultMctsOptions(game), batchSize: 16, threads: 2 };
      const pool = new MctsHelperPool(1, { game, modelPath: resolveModelPath(`models/${game}-nnue.bin`), evaluator: {}, options: threads }, (m) => ctx.log(`mcts-cpu ${game}: ${m}`));
      ctx.log(`mcts-cpu ${game}: warm-up`);
      for (let i = 0; i < MCTS_POSITIONS[game].length; i++) {
        await rate(game, cpu.value, playouts / 4, i);
        await rate(game, cpu.value, playouts / 4, i, threads, pool);
        await rate(game, stat.value, playouts / 4, i);
        if (pol !== undefined) await rate(game, pol, playouts / 4, i);
        if (resnet !== undefined) await rate(game, resnet, 200, i);
      }
      // The helper joins a search once its networks are loaded, and plays slowly until its code is
      // compiled: warm the two threads up until it has played in a few searches.
      for (let i = 0, helped = 0; helped < 4 && i < 40; i++) {
        await rate(game, cpu.value, playouts / 4, i, threads, pool);
        if (pool.control.stats[pool.control.stat(1, STAT_EVALUATIONS)]! > 0) helped++;
      }
      const ours: number[] = [];
      const noQ: number[] = [];
      const base: number[] = [];
      const withNet: number[] = [];
      const two: number[] = [];
      for (let i = 0; i < reps; i++) {
        ctx.log(`mcts-cpu ${game}: rep ${i + 1}/${reps}`);
        ours.push(await rate(game, cpu.value, playouts, i));
        two.push(await rate(game, cpu.value, playouts, i, threads, pool));
        noQ.push(await rate(game, stat.value, playouts, i));
        if (pol !== undefined) withNet.push(await rate(game, pol, playouts, i));
        if (resnet !== undefined) base.push(await rate(game, resnet, ctx.quick ? 200 : 2000, i));
      }
      const note = 'one thread; positions alternate between an opening and a middlegame';
      rows.push(rateRow(`${game} MCTS CPU nets playouts/s`, 'kplayouts/s', 1e-3, ours, resnet !== undefined ? base : undefined, resnet !== undefined ? 'INT8 ResNet (ORT batch 16)' : undefined, note));
      rows.push(rateRow(`${game} MCTS CPU nets, 2 threads`, 'kplayouts/s', 1e-3, two, ours, 'one thread', `${note}; the main search and one helper thread over one tree`));
      rows.push(rateRow(`${game} MCTS CPU nets, static value (no quiescence)`, 'kplayouts/s', 1e-3, noQ, ours, 'with quiescence', note));
      if (pol !== undefined) rows.push(rateRow(`${game} MCTS CPU nets, policy network prior`, 'kplayouts/s', 1e-3, withNet, ours, 'one-ply prior', note));
      await pool.close();
      await resnet?.close();
    }
    return rows;
  },
};
