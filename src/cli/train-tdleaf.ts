/**
 * `kishi train tdleaf`: TD-Leaf(lambda) over the logs of our own games (src/learning/tdleaf/).
 *
 *   kishi train tdleaf --logs records --game chess --weights models/chess-linear.json --out models/chess-tdleaf.json
 *   kishi train tdleaf --logs records --game chess --model nnue --weights models/chess-nnue.bin --out runs/chess-tdleaf.bin
 *       [--lambda 0.7] [--alpha 1000] [--beta 0.002554] [--prune-blunders 150] [--max-change 0]
 *       [--min-rating R] [--max-rating R] [--time-control 180+2,blitz] [--since 2026-01-01] [--until 2026-02-01]
 *       [--min-moves 5] [--top 20] [--dry-run] [--config config/kishi.yaml]
 *
 * The games are learnt in the order they were played, theta moving after each (as KnightCap did).
 * Bad logs (unreadable, unknown version, malformed lines, illegal moves) are reported with file and
 * line and left out; the rest of the directory still trains. The output is a new weights file with
 * provenance, written atomically; the command refuses to write over its input or the weights the
 * config plays with (`engine.chessWeights` / `engine.shogiWeights`). `--dry-run` prints the largest
 * changes and writes nothing. Defaults come from the config's `learning` section.
 *
 * Exit codes: 0 done, 1 nothing to learn from or a write failure, 2 bad usage.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option } from 'commander';
import type { Command } from 'commander';
import { loadConfig, parseConfig } from '../config/load.js';
import type { KishiConfig } from '../config/schema.js';
import { GAME_KINDS, type GameKind } from '../core/game.js';
import { serializeWeights } from '../eval/linear/weights.js';
import { formatGameLogProblem, readGameLogDir } from '../records/game-log-reader.js';
import { previousVersionPath, writeFileAtomic } from '../core/atomic-write.js';
import { parseDateOption } from '../learning/tdleaf/game-filter.js';
import { paramNames } from '../eval/nnue/float-network.js';
import type { LinearWeights } from '../eval/linear/weights.js';
import { loadTrainableNetwork, startedFrom, writeLearntNetwork, type LoadedTrainable } from '../learning/nnue/network-files.js';
import { liveNetworkPath } from '../learning/tdleaf/online.js';
import { topChanges, trainTdLeaf } from '../learning/tdleaf/trainer.js';
import { featureSetOf } from '../eval/linear/game-features.js';
import { loadWeightsFile } from '../player/weights-file.js';
import { resolveModelPath } from '../core/package-path.js';

export interface TrainTdLeafCliOptions {
  logs: string;
  game: string;
  weights: string;
  out?: string;
  lambda?: string;
  alpha?: string;
  beta?: string;
  pruneBlunders?: string;
  maxChange?: string;
  minRating?: string;
  maxRating?: string;
  timeControl?: string;
  since?: string;
  until?: string;
  minMoves?: string;
  top: string;
  dryRun?: boolean;
  config: string;
  /** `linear` (default) or `nnue`: --weights is then a network file, --out a new one. */
  model?: string;
}

/** Where the command writes (stdout lines, stderr lines). */
export interface TrainIo {
  out(line: string): void;
  err(line: string): void;
}

const fmt = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(3));

/** Runs the command; returns the exit code. `argv` is recorded in the provenance. */
export function runTrainTdLeaf(o: TrainTdLeafCliOptions, io: TrainIo, argv: readonly string[] = process.argv.slice(2)): number {
  const usage = (m: string): number => {
    io.err(`kishi train tdleaf: ${m}`);
    return 2;
  };
  if (!(GAME_KINDS as readonly string[]).includes(o.game)) return usage(`--game must be chess or shogi, not ${JSON.stringify(o.game)}`);
  const game = o.game as GameKind;
  const model = o.model ?? 'linear';
  if (model !== 'linear' && model !== 'nnue') return usage(`--model must be linear or nnue, not ${JSON.stringify(model)}`);
  let config: KishiConfig;
  if (existsSync(o.config)) {
    const c = loadConfig(o.config);
    if (c.isErr) return usage(c.error.message);
    config = c.value;
  } else config = parseConfig('').unwrap();
  const L = config.learning;
  const num = (text: string | undefined, name: string, fallback: number, min = Number.NEGATIVE_INFINITY, max = Number.POSITIVE_INFINITY): number | string => {
    if (text === undefined) return fallback;
    const v = Number(text);
    if (text.trim() === '' || !Number.isFinite(v) || v < min || v > max) return `${name} must be a number in [${min}, ${max}], not ${JSON.stringify(text)}`;
    return v;
  };
  const values = {
    lambda: num(o.lambda, '--lambda', L.lambda, 0, 1),
    alpha: num(o.alpha, '--alpha', model === 'nnue' ? L.nnueAlpha : L.alpha, 0),
    beta: num(o.beta, '--beta', L.beta, Number.MIN_VALUE),
    prune: num(o.pruneBlunders, '--prune-blunders', L.pruneBlundersCp, 0),
    cap: num(o.maxChange, '--max-change', 0, 0),
    minMoves: num(o.minMoves, '--min-moves', L.minMoves, 1),
    top: num(o.top, '--top', 20, 0),
    minRating: o.minRating === undefined ? undefined : num(o.minRating, '--min-rating', 0),
    maxRating: o.maxRating === undefined ? undefined : num(o.maxRating, '--max-rating', 0),
  };
  for (const v of Object.values(values)) if (typeof v === 'string') return usage(v);
  const n = values as { [K in keyof typeof values]: Exclude<(typeof values)[K], string> };
  const since = o.since === undefined ? undefined : parseDateOption(o.since, false);
  const until = o.until === undefined ? undefined : parseDateOption(o.until, true);
  if (o.since !== undefined && since === undefined) return usage(`--since ${JSON.stringify(o.since)} is not a date (YYYY-MM-DD or ISO 8601)`);
  if (o.until !== undefined && until === undefined) return usage(`--until ${JSON.stringify(o.until)} is not a date (YYYY-MM-DD or ISO 8601)`);
  if (!o.dryRun && o.out === undefined) return usage('--out is required (or --dry-run)');
  const inFile = resolveModelPath(o.weights);
  if (o.out !== undefined) {
    const out = resolve(o.out);
    if (out === inFile) return usage(`refusing to overwrite the input weights ${inFile} in place: write a new file with --out`);
    const live = model === 'nnue' ? liveNetworkPath(config, game) : resolveModelPath(game === 'chess' ? config.engine.chessWeights : config.engine.shogiWeights);
    if (out === live) return usage(`refusing to overwrite ${out}: it is the ${game} ${model === 'nnue' ? 'network' : 'weights'} the bot plays with (engine.${game}${model === 'nnue' ? 'Nnue' : 'Weights'} in ${o.config})`);
  }
  if (!existsSync(o.logs)) return usage(`--logs ${o.logs}: no such directory`);

  let start: { kind: 'linear'; weights: LinearWeights } | { kind: 'nnue'; loaded: LoadedTrainable };
  if (model === 'nnue') {
    const t = loadTrainableNetwork(inFile, game);
    if (t.isErr) return usage(t.error.message);
    if (t.value.masterProblem !== undefined) io.err(`warning: ${t.value.masterProblem}: starting from the integer weights`);
    start = { kind: 'nnue', loaded: t.value };
  } else {
    const weights = loadWeightsFile(inFile, game);
    if (weights.isErr) return usage(weights.error.message);
    start = { kind: 'linear', weights: weights.value };
  }
  const network = start.kind === 'nnue' ? start.loaded.trainable : undefined;
  const before = start.kind === 'nnue' ? start.loaded.trainable.theta.slice() : start.weights.theta;
  const theta = network !== undefined ? network.theta : before.slice();

  const { logs, problems } = readGameLogDir(o.logs);
  for (const p of problems) io.err(`warning: ${formatGameLogProblem(p)}`);
  const timeControls = o.timeControl?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const summary = trainTdLeaf(logs, theta, {
    lambda: n.lambda,
    alpha: n.alpha,
    beta: n.beta,
    pruneBlundersCp: n.prune,
    maxChangePerGameCp: n.cap,
    minMoves: n.minMoves,
    ...(network !== undefined ? { network } : {}),
    filter: {
      game,
      networkTimeLossMs: L.networkTimeLossMs,
      ...(n.minRating !== undefined ? { minRating: n.minRating } : {}),
      ...(n.maxRating !== undefined ? { maxRating: n.maxRating } : {}),
      ...(timeControls !== undefined ? { timeControls } : {}),
      ...(since !== undefined ? { since } : {}),
      ...(until !== undefined ? { until } : {}),
    },
  });
  for (const g of summary.games) if (g.problem) io.err(`warning: ${g.file}:${g.problem.line}: ${g.problem.message}: game skipped`);

  const files = new Set([...logs.map((l) => l.file), ...problems.filter((p) => p.fatal).map((p) => p.file)]).size;
  io.out(`kishi train tdleaf: ${game}, ${files} log file(s) in ${o.logs}, ${model === 'nnue' ? 'network' : 'weights'} ${inFile}`);
  io.out(`  TD-Leaf(lambda=${n.lambda}), alpha=${n.alpha}, beta=${n.beta}/cp, prune blunders > ${n.prune} cp, cap ${n.cap > 0 ? `${n.cap} cp/game` : 'none'}`);
  io.out(`  learnt from ${summary.used} game(s), ${summary.samples} positions, ${summary.pruned} difference(s) pruned as opponent blunders`);
  const unusable = problems.filter((p) => p.fatal).length;
  const skippedText = Object.entries(summary.skipped)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  if (skippedText !== '' || unusable > 0) io.out(`  skipped: ${[skippedText, unusable > 0 ? `unreadable ${unusable}` : ''].filter((s) => s !== '').join(', ')}`);
  const fs = network !== undefined ? { names: paramNames(network.layout), size: network.layout.size } : featureSetOf(game);
  const changes = topChanges(fs, before, theta, n.top);
  if (changes.length > 0) {
    io.out(`  largest weight changes (of ${topChanges(fs, before, theta, fs.size).length} changed):`);
    const w = Math.max(...changes.map((c) => c.name.length));
    for (const c of changes) io.out(`    ${c.name.padEnd(w)}  ${fmt(c.before)} -> ${fmt(c.after)}  (${c.delta >= 0 ? '+' : ''}${c.delta.toFixed(3)})`);
  }
  if (summary.used === 0) {
    io.err('kishi train tdleaf: no game to learn from');
    return 1;
  }
  if (o.dryRun) {
    io.out('  dry run: nothing written');
    return 0;
  }
  const out = resolve(o.out!);
  const notes = [
    `TD-Leaf(lambda=${n.lambda}), alpha=${n.alpha}, beta=${n.beta}/cp, prune=${n.prune}cp, cap=${n.cap}cp/game`,
    `from ${inFile} (${start.kind === 'linear' ? `${start.weights.manifest.provenance.method}${start.weights.manifest.provenance.date ? `, ${start.weights.manifest.provenance.date}` : ''}` : start.loaded.fromMaster ? 'with its float master copy' : 'integer weights'})`,
    `logs ${resolve(o.logs)}: ${summary.used} games, ${summary.samples} positions`,
    ...(n.minRating !== undefined || n.maxRating !== undefined ? [`opponent rating ${n.minRating ?? '-'}..${n.maxRating ?? '-'}`] : []),
    ...(timeControls !== undefined ? [`time controls ${timeControls.join(',')}`] : []),
    ...(since !== undefined || until !== undefined ? [`dates ${since?.toISOString() ?? '-'}..${until?.toISOString() ?? '-'}`] : []),
  ].join('; ');
  try {
    const date = new Date().toISOString();
    if (start.kind === 'nnue') {
      const manifest = start.loaded.loaded.manifest;
      writeLearntNetwork(out, start.loaded.trainable, manifest, { method: 'tdleaf', games: summary.used, date, notes: `kishi ${argv.join(' ')}; ${notes}`, startedFrom: startedFrom(manifest) });
    } else {
      writeFileAtomic(out, serializeWeights(featureSetOf(game), theta, { method: 'tdleaf', command: `kishi ${argv.join(' ')}`, games: summary.used, date, notes }, start.weights.manifest.evalGrain));
    }
  } catch (e) {
    io.err(`kishi train tdleaf: cannot write ${out}: ${(e as Error).message}`);
    return 1;
  }
  io.out(`  wrote ${out}${existsSync(previousVersionPath(out)) ? ` (the version it replaced is ${previousVersionPath(out)})` : ''}`);
  return 0;
}

export function register(train: Command): void {
  train
    .command('tdleaf')
    .description('TD-Leaf(lambda) over the logs of our own games: a new weights file')
    .requiredOption('--logs <dir>', 'directory of game logs (*.jsonl, searched recursively)')
    .addOption(new Option('-g, --game <game>', 'which game to learn').choices([...GAME_KINDS]).makeOptionMandatory())
    .requiredOption('--weights <file>', 'weights to start from (kishi-linear-weights JSON; with --model nnue a network .bin, its float master copy .bin.master used when it belongs to it)')
    .option('-o, --out <file>', 'new weights file (never the input, never the weights in use); --model nnue: a .bin, written with its manifest and master copy')
    .addOption(new Option('--model <model>', 'what is learned: the linear evaluation or the network evaluation (float master copy, re-quantised after every game)').choices(['linear', 'nnue']).default('linear'))
    .option('--lambda <x>', 'TD-Leaf lambda, 0..1 (default: config learning.lambda, 0.7)')
    .option('--alpha <x>', 'step size on the centipawn scale (default: learning.alpha; KnightCap 1.0 = 10000); --model nnue: learning.nnueAlpha')
    .option('--beta <x>', 'squashing tanh(beta * cp), per centipawn (default: learning.beta = atanh(0.25)/100)')
    .option('--prune-blunders <cp>', 'ignore gains after unpredicted opponent moves that jumped the score by more than this, centipawns; 0: off')
    .option('--max-change <cp>', 'largest change of one weight per game, centipawns; 0: no cap (default 0)')
    .option('--min-rating <r>', 'only games against opponents rated at least this')
    .option('--max-rating <r>', 'only games against opponents rated at most this')
    .option('--time-control <list>', 'only these time controls (180+2, 600+10b) or speeds (bullet, blitz...), comma-separated')
    .option('--since <date>', 'only games started on or after this date (YYYY-MM-DD or ISO 8601)')
    .option('--until <date>', 'only games started before the end of this date')
    .option('--min-moves <n>', 'skip games with fewer of our searched moves (default: learning.minMoves)')
    .option('--top <n>', 'weight changes to print', '20')
    .option('--dry-run', 'print what would change, write nothing')
    .option('-c, --config <file>', 'config file for defaults and the weights in use', 'config/kishi.yaml')
    .action((opts: TrainTdLeafCliOptions) => {
      const code = runTrainTdLeaf(opts, { out: (l) => console.log(l), err: (l) => console.error(l) });
      process.exitCode = code;
    });
}
