/**
 * `kishi tune`: SPSA tuning of the alpha-beta search's margins (src/search/alphabeta/tuning.ts)
 * by self-play, fishtest style (src/match/spsa.ts): every iteration is one game pair between this
 * build's alpha-beta players with theta + c_k delta and theta - c_k delta, in this process (no
 * child process per pair, so short games pay no start-up).
 *
 *   kishi tune -g chess -o tune/chess-1 --params rfpMargin,futilityBase:15,lmrDivisor:0.2 \
 *     --iterations 4000 --nodes 8000 --openings data/openings/chess-balanced.epd --seed 1
 *
 * Run again with the same output directory to resume. The tuned values print as a
 * `searchTuning` value (the engine config key and UCI/USI option `SearchTuning`); a match against
 * the defaults decides whether they are kept.
 *
 * `--search mcts` tunes the MCTS players on the CPU networks instead (issue 42: c_puct, its
 * growth, first-play urgency, the policy temperature, the time shares; the keys of
 * src/player/mcts-cpu-tuning.ts), started at the game's defaults, and prints an `mctsTuning`
 * value (UCI/USI `MctsTuning`); `--nodes` counts playouts then.
 * Exit codes: 0 done (or interrupted with the state saved), 1 failure, 2 bad usage.
 */
import { Option } from 'commander';
import type { Command } from 'commander';
import type { GameKind } from '../core/game.js';
import { GAME_KINDS } from '../core/game.js';
import { parseNumber } from '../core/key-values.js';
import { KishiError, Result } from '../core/result.js';
import { seededRng } from '../core/rng.js';
import type { AdjudicationRules } from '../match/adjudication.js';
import { defaultOpenings, loadOpenings } from '../books/openings.js';
import type { Opening } from '../books/openings.js';
import { PlayerEngine } from '../match/player-engine.js';
import type { SpsaParam, SpsaState } from '../match/spsa.js';
import { spsaSchedule } from '../match/spsa.js';
import { runSpsa } from '../match/spsa-runner.js';
import type { TimeControl } from '../match/time-control.js';
import { NO_TIME_CONTROL, parseClockText } from '../match/time-control.js';
import { createAlphaBetaPlayer, createPlayer } from '../player/factory.js';
import type { Player } from '../player/player.js';
import { engineConfig } from '../protocols/uci/run-engine.js';
import { DEFAULT_TUNING, formatTuning, isTuningName, tuningRange } from '../search/alphabeta/tuning.js';
import type { TuningName } from '../search/alphabeta/tuning.js';
import { mctsTunableDefaults } from '../player/mcts-cpu-nets.js';
import { MCTS_TUNABLES, isMctsTunable } from '../player/mcts-cpu-tuning.js';
import { parseDrawRule, parseResignRule } from '../match/rule-text.js';

/** Which engine `kishi tune` tunes. */
export type TuneSearch = 'alphabeta' | 'mcts';

export interface TuneCliOptions {
  game: GameKind;
  search: TuneSearch;
  out: string;
  params?: string;
  rEnd: string;
  iterations: string;
  nodes?: string;
  tc?: string;
  margin: string;
  openings?: string;
  seed: string;
  concurrency: string;
  config?: string;
  eval?: 'linear' | 'nnue';
  hash: string;
  resign: string;
  draw: string;
  maxmoves: string;
  hangTimeout: string;
  quiet?: boolean;
}

/** The margins tuned when `--params` is not given: the pruning, reduction and null-move entries. */
export const DEFAULT_SPSA_PARAMS: readonly TuningName[] = [
  'lmrBase',
  'lmrDivisor',
  'lmrHistoryDivisor',
  'lmpBase',
  'rfpMargin',
  'rfpMarginImproving',
  'razorBase',
  'razorDepth2',
  'futilityBase',
  'futilityPerDepth',
  'historyPruning',
  'seeQuiet',
  'seeCapture',
  'nullEvalDivisor',
  'aspirationDelta',
  'deltaMargin',
];

/** The MCTS keys tuned when `--params` is not given: the PUCT constants, first-play urgency and the policy temperature. */
export const DEFAULT_MCTS_SPSA_PARAMS = ['cpuct', 'cpuctFactor', 'fpu', 'ptau'] as const;

const usage = (message: string): KishiError => new KishiError('ERR_USAGE', message);

/** A parameter's range and starting value in a game, or undefined for an unknown name. */
const paramSpec = (search: TuneSearch, game: GameKind, name: string): { min: number; max: number; integer: boolean; start: number } | undefined => {
  if (search === 'mcts') return isMctsTunable(name) ? { ...MCTS_TUNABLES[name], integer: false, start: mctsTunableDefaults(game)[name] } : undefined;
  return isTuningName(name) ? { ...tuningRange(name), start: DEFAULT_TUNING[game][name] } : undefined;
};

/**
 * `name` or `name:cEnd` entries, comma-separated, started at the game's defaults (of the alpha-beta
 * margins, or with `search` mcts of the `mctsTuning` keys). The default step is a tenth of the value
 * (at least 1 for whole-number entries, at least 0.05 otherwise).
 */
export function parseSpsaParams(text: string, game: GameKind, rEnd: number, search: TuneSearch = 'alphabeta'): Result<SpsaParam[], KishiError> {
  const out: SpsaParam[] = [];
  for (const part of text.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    const [name, step] = part.split(':') as [string, string | undefined];
    const range = paramSpec(search, game, name);
    if (range === undefined) return Result.err(usage(`--params: unknown ${search === 'mcts' ? 'MCTS' : 'search'} tuning parameter '${name}'`));
    if (out.some((p) => p.name === name)) return Result.err(usage(`--params: '${name}' is given twice`));
    const start = range.start;
    let cEnd = Math.max(range.integer ? 1 : 0.05, Math.abs(start) / 10);
    if (step !== undefined) {
      const c = parseNumber(step, `--params ${name} step`, (x) => x > 0);
      if (c.isErr) return Result.err(c.error);
      cEnd = c.value;
    }
    out.push({ name, start, min: range.min, max: range.max, integer: range.integer, cEnd, rEnd });
  }
  if (out.length === 0) return Result.err(usage('--params: no parameter given'));
  return Result.ok(out);
}

const fmt = (p: SpsaParam, x: number): string => (p.integer ? x.toFixed(1) : x.toFixed(3));

/** One line per parameter: start, now, and the change. */
export function formatTheta(params: readonly SpsaParam[], state: SpsaState): string {
  return params.map((p) => `${p.name.padEnd(20)} ${fmt(p, p.start).padStart(10)} -> ${fmt(p, state.theta[p.name]!).padStart(10)}`).join('\n');
}

/** theta rounded as the engine takes it, as an engine config `searchTuning` (or, for MCTS, `mctsTuning`) value. */
export function tunedString(params: readonly SpsaParam[], state: SpsaState): string {
  const values: Record<string, number> = {};
  for (const p of params) {
    const x = state.theta[p.name]!;
    values[p.name] = p.integer ? Math.round(x) : Math.round(x * 1000) / 1000;
  }
  return formatTuning(values);
}

export async function tuneCommand(o: TuneCliOptions): Promise<number> {
  const fail = (e: KishiError, code = 2): number => {
    process.stderr.write(`kishi tune: ${e.message}\n`);
    return code;
  };
  const nums = {
    rEnd: parseNumber(o.rEnd, '--r-end', (x) => x > 0),
    iterations: parseNumber(o.iterations, '--iterations', (x) => Number.isInteger(x) && x > 0),
    seed: parseNumber(o.seed, '--seed', Number.isInteger),
    concurrency: parseNumber(o.concurrency, '--concurrency', (x) => Number.isInteger(x) && x > 0),
    margin: parseNumber(o.margin, '--margin', (x) => x >= 0),
    hash: parseNumber(o.hash, '--hash', (x) => Number.isInteger(x) && x > 0),
    maxMoves: parseNumber(o.maxmoves, '--maxmoves', (x) => Number.isInteger(x) && x >= 0),
    hang: parseNumber(o.hangTimeout, '--hang-timeout', (x) => x > 0),
  };
  for (const r of Object.values(nums)) if (r.isErr) return fail(r.error);
  const params = parseSpsaParams(o.params ?? (o.search === 'mcts' ? DEFAULT_MCTS_SPSA_PARAMS : DEFAULT_SPSA_PARAMS).join(','), o.game, nums.rEnd.unwrap(), o.search);
  if (params.isErr) return fail(params.error);
  const tc = timeControl(o, nums.margin.unwrap());
  if (tc.isErr) return fail(tc.error);
  const resign = parseResignRule(o.resign);
  const draw = parseDrawRule(o.draw);
  if (resign.isErr) return fail(resign.error);
  if (draw.isErr) return fail(draw.error);
  const adjudication: AdjudicationRules = { resign: resign.value, draw: draw.value, ...(nums.maxMoves.unwrap() > 0 ? { maxMoves: nums.maxMoves.unwrap() } : {}) };
  let openings: Opening[];
  if (o.openings !== undefined) {
    const loaded = loadOpenings(o.game, 'standard', o.openings);
    if (loaded.isErr) return fail(loaded.error);
    openings = loaded.value;
  } else openings = defaultOpenings(o.game, 'standard', 1000, seededRng(nums.seed.unwrap() ^ 0x5eed));
  const config = await engineConfig(o.config);
  if (config.isErr) return fail(config.error);
  const e = config.value.engine;
  const evalKind = o.eval ?? (o.game === 'chess' ? e.chessEval : e.shogiEval);
  const playerConfig = { ...e, search: o.search, threads: 1, hashMb: nums.hash.unwrap(), ...(o.game === 'chess' ? { chessEval: evalKind } : { shogiEval: evalKind }) };
  // The tuned values over the config's own `mctsTuning` (a later key wins there).
  const mctsTuning = (values: Readonly<Record<string, number>>): string => [e.mctsTuning ?? '', formatTuning(values)].filter((t) => t.trim() !== '').join(';');
  const makePlayer = (values: Readonly<Record<string, number>>): Result<Player, KishiError> =>
    o.search === 'mcts' ? createPlayer({ ...playerConfig, mctsTuning: mctsTuning(values) }, o.game) : createAlphaBetaPlayer({ ...playerConfig, searchTuning: formatTuning(values) }, o.game);
  // Checked once before the games: a bad config or network fails here, not in the middle of a pair.
  const probePlayer = makePlayer({});
  if (probePlayer.isErr) return fail(probePlayer.error);
  await probePlayer.value.close();

  const abort = new AbortController();
  const onSigint = (): void => abort.abort();
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  const schedule = spsaSchedule(nums.iterations.unwrap());
  const t0 = Date.now();
  let pairsThisRun = 0;
  try {
    const r = await runSpsa({
      game: o.game,
      variant: 'standard',
      params: params.value,
      schedule,
      openings,
      seed: nums.seed.unwrap(),
      concurrency: nums.concurrency.unwrap(),
      tc: tc.value,
      adjudication,
      hangTimeoutMs: nums.hang.unwrap() * 1000,
      outDir: o.out,
      signal: abort.signal,
      makeEngine: async (values, name) => makePlayer(values).map((p) => new PlayerEngine(p, { game: o.game, variant: 'standard', name })),
      onPair: (state) => {
        pairsThisRun++;
        if (o.quiet === true) return;
        const perPair = (Date.now() - t0) / 1000 / pairsThisRun;
        const eta = Math.round((perPair * (schedule.iterations - state.iterations)) / 60);
        process.stderr.write(`pair ${state.iterations}/${schedule.iterations}  plus side +${state.wins} =${state.draws} -${state.losses}  ${perPair.toFixed(1)} s/pair  ETA ${eta} min\n`);
      },
    });
    if (r.isErr) return fail(r.error, 1);
    console.log(`${r.value.iterations}/${schedule.iterations} iterations; state in ${o.out}/state.json`);
    console.log(formatTheta(params.value, r.value));
    console.log(`${o.search === 'mcts' ? 'mctsTuning' : 'searchTuning'}="${tunedString(params.value, r.value)}"`);
    return 0;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}

function timeControl(o: TuneCliOptions, marginMs: number): Result<TimeControl, KishiError> {
  if ((o.nodes === undefined) === (o.tc === undefined)) return Result.err(usage('give exactly one of --nodes and --tc'));
  if (o.nodes !== undefined) {
    return parseNumber(o.nodes, '--nodes', (x) => Number.isInteger(x) && x > 0).map((nodes) => ({ ...NO_TIME_CONTROL, nodes, marginMs }));
  }
  return parseClockText(o.tc!).map((clock) => ({ ...NO_TIME_CONTROL, ...clock, marginMs }));
}

export function register(program: Command): void {
  program
    .command('tune')
    .description('SPSA tuning of the alpha-beta search margins (or the MCTS constants) by self-play game pairs (resumable)')
    .addOption(new Option('-g, --game <game>', 'game').choices([...GAME_KINDS]).default('chess'))
    .addOption(new Option('--search <kind>', 'the engine tuned: alpha-beta margins (searchTuning) or MCTS on the CPU networks (mctsTuning)').choices(['alphabeta', 'mcts']).default('alphabeta'))
    .requiredOption('-o, --out <dir>', 'state.json and history.jsonl; an existing state is resumed')
    .option('--params <list>', `parameters as name or name:step (the perturbation at the end), comma-separated (default: ${DEFAULT_SPSA_PARAMS.join(',')}; --search mcts: ${DEFAULT_MCTS_SPSA_PARAMS.join(',')})`)
    .option('--r-end <x>', 'learning rate at the last iteration (fishtest r_end)', '0.002')
    .option('--iterations <n>', 'game pairs in the schedule', '2000')
    .option('--nodes <n>', 'fixed nodes per move (MCTS: playouts)')
    .option('--tc <tc>', 'clock per side, cutechess style (10+0.1)')
    .option('--margin <ms>', 'time allowed past the clock before a loss on time, ms', '100')
    .option('--openings <file>', 'opening book (EPD/FEN or SFEN lines); default: random short openings')
    .option('--seed <n>', 'seed of the perturbations and the openings', '1')
    .option('--concurrency <n>', 'game pairs at once', '1')
    .option('-c, --config <file>', 'engine config (evaluation files)')
    .addOption(new Option('--eval <kind>', 'evaluation (default: the config\'s)').choices(['linear', 'nnue']))
    .option('--hash <mb>', 'hash per player, MB', '16')
    .option('--resign <rule>', 'resign adjudication', 'movecount=3,score=1000')
    .option('--draw <rule>', 'draw adjudication', 'movenumber=40,movecount=8,score=10')
    .option('--maxmoves <n>', 'draw after this many full moves (0: no cap)', '200')
    .option('--hang-timeout <s>', 'deadline of a move limited only by nodes, seconds', '60')
    .option('-q, --quiet', 'no line per pair')
    .action(async (opts: TuneCliOptions) => {
      process.exitCode = await tuneCommand(opts);
    });
}
