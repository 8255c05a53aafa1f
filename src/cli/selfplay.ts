/**
 * `kishi selfplay`: AlphaZero self-play games written as training chunks (src/learning/alphazero/selfplay.ts),
 * and `kishi log-records`: training chunks from the logs of our online games (log-records.ts).
 *
 *   kishi selfplay --game chess --model models/chess.onnx --out records/az/chess/selfplay --games 200 \
 *       --workers 2 --concurrent 16 --playouts 200 [--fast-playouts 40 --full-share 0.25] [--resign 0.9]
 *   kishi log-records --game shogi --logs logs/ --out records/az/shogi/online [--sides ours]
 *
 * Self-play goes on after the last game already in `--out` unless `--first-index` says otherwise;
 * Ctrl-C stops after writing the games finished so far (a second Ctrl-C quits at once).
 * Workers load compiled JavaScript from dist/.
 *
 * Exit codes: 0 done, 1 the model, a worker or the output failed, 2 bad usage.
 */
import { existsSync, statSync } from 'node:fs';
import cliProgress from 'cli-progress';
import { InvalidArgumentError, Option } from 'commander';
import type { Command } from 'commander';
import type { GameKind } from '../core/game.js';
import { convertGameLogs, ONLINE_SIDES, type OnlineSides } from '../learning/alphazero/log-records.js';
import { scanSelfplayChunks } from '../learning/alphazero/selfplay-chunks.js';
import { runSelfplay, type SelfplayOptions, type SelfplayReport } from '../learning/alphazero/selfplay.js';
import { resolveModelPath } from '../core/package-path.js';

export interface SelfplayCliOptions {
  game: GameKind;
  model?: string;
  out: string;
  games: number;
  firstIndex?: number;
  workers: number;
  concurrent: number;
  playouts: number;
  fastPlayouts?: number;
  fullShare?: number;
  temperatureMoves?: number;
  dirichletAlpha?: number;
  dirichletFrac?: number;
  gumbel?: number;
  resign?: number;
  resignCheck?: number;
  maxPlies?: number;
  gamesPerChunk: number;
  seed: number;
  phase: string;
  searchBatch?: number;
  progress: boolean;
  json: boolean;
}

const int =
  (name: string, min: number) =>
  (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be a whole number >= ${min}, got "${v}"`);
    return n;
  };
const real =
  (name: string, min: number, max: number) =>
  (v: string): number => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n < min || n > max) throw new InvalidArgumentError(`${name} must be a number in [${min}, ${max}], got "${v}"`);
    return n;
  };

/** The shipped model of a game: the INT8 net when there is one, else fp32. */
export const defaultSelfplayModel = (game: GameKind): string => {
  const int8 = `models/${game}-int8.onnx`;
  return existsSync(resolveModelPath(int8)) ? int8 : `models/${game}.onnx`;
};

/** One line of the final report. */
export const formatSelfplayReport = (r: SelfplayReport): string[] => {
  const busy = r.nnMs + r.treeMs;
  const pct = (x: number): string => (busy > 0 ? `${((100 * x) / busy).toFixed(0)}%` : '-');
  const results = { first: 0, draw: 0, second: 0 };
  for (const g of r.summaries) results[g.result > 0 ? 'first' : g.result < 0 ? 'second' : 'draw']++;
  return [
    `${r.games} games (${results.first} first-player wins, ${results.draw} draws, ${results.second} second-player wins; ${r.resigned} resigned), ` +
      `${r.positions} positions in ${r.seconds.toFixed(1)} s: ${r.gamesPerHour.toFixed(0)} games/hour, ${(r.positions / Math.max(r.seconds, 1e-9)).toFixed(1)} positions/s`,
    `resign checks: ${r.resignFalsePositives.checked} played out, ${r.resignFalsePositives.wrong} false positives`,
    `net: ${r.nnEvals} positions in ${r.nnCalls} calls (mean batch ${(r.nnEvals / Math.max(1, r.nnCalls)).toFixed(1)}), ${r.cacheHits} cache hits; ` +
      `worker time ${(busy / 1000).toFixed(1)} s: net ${pct(r.nnMs)}, tree and the rest ${pct(r.treeMs)}`,
    ...r.files.map((f) => `wrote ${f}`),
    ...(r.aborted ? [`stopped early: ${r.dropped} finished game(s) after the first unfinished one dropped; next game index ${r.nextGameIndex}`] : []),
  ];
};

/** Runs `kishi selfplay`; returns the exit code. */
export async function runSelfplayCli(o: SelfplayCliOptions): Promise<number> {
  const model = o.model ?? defaultSelfplayModel(o.game);
  const first = o.firstIndex ?? scanSelfplayChunks(o.out).nextGameIndex;
  const abort = new AbortController();
  const onSigint = (): void => {
    if (abort.signal.aborted) process.exit(130);
    abort.abort();
    process.stderr.write('\ninterrupted: writing the games finished so far (Ctrl-C again to quit now)\n');
  };
  process.on('SIGINT', onSigint);
  const tty = o.progress && process.stderr.isTTY === true;
  const bar = tty
    ? new cliProgress.SingleBar(
        { format: '{bar} {value}/{total} games | {gph} games/h | {positions} positions | {resigned} resigned, checks {checked} ({wrong} wrong)', hideCursor: true, stream: process.stderr },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  const t0 = performance.now();
  let done = 0;
  let positions = 0;
  let resigned = 0;
  let checked = 0;
  let wrong = 0;
  const payload = (): Record<string, string | number> => ({
    gph: ((done / Math.max(1e-9, (performance.now() - t0) / 1000)) * 3600).toFixed(0),
    positions,
    resigned,
    checked,
    wrong,
  });
  bar?.start(o.games, 0, payload());
  if (!tty) process.stderr.write(`kishi selfplay: ${o.game}, ${model}, games ${first}..${first + o.games - 1}, ${o.workers} worker(s) x ${o.concurrent} games, ${o.playouts} playouts\n`);
  const options: SelfplayOptions = {
    game: o.game,
    model,
    outDir: o.out,
    games: o.games,
    firstGameIndex: first,
    workers: o.workers,
    concurrentGames: o.concurrent,
    playouts: o.playouts,
    ...(o.fastPlayouts !== undefined ? { fastPlayouts: o.fastPlayouts } : {}),
    ...(o.fullShare !== undefined ? { fullSearchShare: o.fullShare } : {}),
    temperatureMoves: o.temperatureMoves ?? (o.game === 'chess' ? 30 : 40),
    ...(o.dirichletAlpha !== undefined ? { dirichletAlpha: o.dirichletAlpha } : {}),
    ...(o.dirichletFrac !== undefined ? { dirichletFrac: o.dirichletFrac } : {}),
    ...(o.gumbel !== undefined ? { gumbelActions: o.gumbel } : {}),
    ...(o.resign !== undefined ? { resignValue: o.resign } : {}),
    ...(o.resignCheck !== undefined ? { resignPlayoutShare: o.resignCheck } : {}),
    ...(o.maxPlies !== undefined ? { maxPlies: o.maxPlies } : {}),
    ...(o.searchBatch !== undefined ? { searchBatch: o.searchBatch } : {}),
    gamesPerChunk: o.gamesPerChunk,
    seed: o.seed,
    phase: o.phase,
    signal: abort.signal,
    onGame: (g) => {
      done++;
      positions += g.positions;
      if (g.resigned) resigned++;
      if (g.falsePositiveCheck === true) checked++;
      if (g.falsePositive === true) wrong++;
      if (bar !== undefined) bar.update(done, payload());
      else if (o.progress) {
        const p = payload();
        process.stderr.write(
          `game ${g.index}: ${g.result > 0 ? '1-0' : g.result < 0 ? '0-1' : '1/2'} (${g.reason}, ${g.plies} plies, ${g.positions} positions) | ` +
            `${done}/${o.games} | ${p['gph']} games/h | ${positions} positions | checks ${checked} (${wrong} wrong)\n`,
        );
      }
    },
  };
  const r = await runSelfplay(options);
  bar?.stop();
  process.off('SIGINT', onSigint);
  if (r.isErr) {
    process.stderr.write(`kishi selfplay: ${r.error.message}\n`);
    return r.error.code === 'ERR_USAGE' ? 2 : 1;
  }
  if (o.json) process.stdout.write(`${JSON.stringify({ ...r.value, summaries: undefined })}\n`);
  else for (const line of formatSelfplayReport(r.value)) process.stdout.write(`${line}\n`);
  return 0;
}

export function register(program: Command): void {
  const game = new Option('-g, --game <game>', 'which game').choices(['chess', 'shogi']).makeOptionMandatory();
  program
    .command('selfplay')
    .description('AlphaZero self-play with the MCTS and a net: training chunks of whole games')
    .addOption(game)
    .option('--model <path>', 'ONNX model (default models/<game>-int8.onnx if present, else models/<game>.onnx); an NNUE .bin for the CPU networks (models/<game>-nnue.bin, with the <game>-policy.bin beside it); mock:uniform for a scripted net')
    .requiredOption('-o, --out <dir>', 'directory of the chunk files')
    .option('--games <n>', 'games to play', int('--games', 0), 100)
    .option('--first-index <n>', 'global index of the first game (default: after the games already in --out)', int('--first-index', 0))
    .option('--workers <n>', 'worker threads, each with its own net (0: in this thread)', int('--workers', 0), 2)
    .option('--concurrent <n>', 'games per worker played at once (their leaves share each net call)', int('--concurrent', 1), 16)
    .option('--playouts <n>', 'playouts of a full search', int('--playouts', 1), 200)
    .option('--fast-playouts <n>', 'playout-cap randomisation: playouts of a fast search (only full searches are recorded)', int('--fast-playouts', 1))
    .option('--full-share <x>', 'with --fast-playouts: share of moves searched fully (default 0.25)', real('--full-share', 0.001, 1))
    .option('--temperature-moves <n>', 'plies whose move is drawn by visit count (default 30 chess, 40 shogi)', int('--temperature-moves', 0))
    .option('--dirichlet-alpha <x>', 'root noise concentration (default 0.3 chess, 0.15 shogi)', real('--dirichlet-alpha', 0.001, 100))
    .option('--dirichlet-frac <x>', 'root noise weight (default 0.25)', real('--dirichlet-frac', 0, 1))
    .option('--gumbel <m>', 'Gumbel AlphaZero: m root moves by Sequential Halving, improved-policy targets (default 0: PUCT, Dirichlet noise)', int('--gumbel', 0))
    .option('--resign <v>', 'resign when both sides agree the value is beyond v (0 < v < 1; default: never)', real('--resign', 0.001, 0.999))
    .option('--resign-check <x>', 'share of would-resign games played out as false-positive checks (default 0.1)', real('--resign-check', 0, 1))
    .option('--max-plies <n>', 'plies after which a game is a draw (default 400 chess, 320 shogi)', int('--max-plies', 1))
    .option('--games-per-chunk <n>', 'games per chunk file', int('--games-per-chunk', 1), 50)
    .option('--seed <n>', 'random seed', int('--seed', 0), 1)
    .option('--phase <name>', 'phase written into the chunk meta', 'selfplay')
    .option('--search-batch <n>', 'leaves one search sends per net call (default 8)', int('--search-batch', 1))
    .option('--no-progress', 'no progress display')
    .option('--json', 'print the report as JSON', false)
    .action(async (opts: SelfplayCliOptions) => {
      process.exitCode = await runSelfplayCli(opts);
    });

  program
    .command('log-records')
    .description('training chunks (phase "online") from the logs of finished online games')
    .addOption(new Option('-g, --game <game>', 'which game').choices(['chess', 'shogi']).makeOptionMandatory())
    .requiredOption('--logs <dir>', 'directory of game logs (searched recursively)')
    .requiredOption('-o, --out <dir>', 'directory of the chunk files (one per game)')
    .addOption(new Option('--sides <sides>', 'whose moves become policy targets').choices([...ONLINE_SIDES]).default('both'))
    .option('--phase <name>', 'phase written into the chunk meta', 'online')
    .action((opts: { game: GameKind; logs: string; out: string; sides: OnlineSides; phase: string }) => {
      if (!existsSync(opts.logs) || !statSync(opts.logs).isDirectory()) {
        console.error(`kishi log-records: --logs ${opts.logs}: no such directory`);
        process.exit(2);
      }
      const r = convertGameLogs({ game: opts.game, logs: opts.logs, outDir: opts.out, sides: opts.sides, phase: opts.phase });
      if (r.isErr) {
        process.stderr.write(`kishi log-records: ${r.error.message}\n`);
        process.exitCode = r.error.code === 'ERR_USAGE' ? 2 : 1;
        return;
      }
      for (const p of r.value.problems) process.stderr.write(`warning: ${p}\n`);
      const skipped = Object.entries(r.value.skipped).map(([k, v]) => `${k} ${v}`).join(', ');
      process.stdout.write(
        `${r.value.games} game(s), ${r.value.positions} positions written; ${r.value.alreadyConverted} already converted; skipped: ${skipped === '' ? 'none' : skipped}\n`,
      );
    });
}
