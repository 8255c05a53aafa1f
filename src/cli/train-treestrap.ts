/**
 * `kishi train treestrap`: learn linear evaluation weights, or the network evaluation's
 * (`--model nnue`), from self-play with TreeStrap (src/learning/treestrap; Veness et al. 2009), for
 * chess or shogi.
 *
 *   kishi train treestrap --game chess --model nnue --network models/chess-nnue.bin --nodes 2000 --eta 1e-9 --out runs/ts-nnue
 *   kishi train treestrap --game chess --method treestrap-ab --init random --games 200 --nodes 20000 --out runs/ts-ab
 *   kishi train treestrap --game shogi --init material --games 100 --tc 6+0.1 --out runs/ts-shogi
 *   kishi train treestrap --out runs/ts-ab --games 400          continue the run in runs/ts-ab up to 400 games
 *
 * Writes into --out: checkpoint.json (resume state), weights.json (the current weights, a weights
 * file with provenance that `EvalFile` / the engine config accept), games.jsonl, curve.json (Elo
 * against the fixed references; `kishi plot <out>/curve.json`), curve.vl.json (+ curve.svg when
 * vega is installed) and snapshots/ (the weights at each evaluation point). With `--model nnue` the
 * weights are weights.bin + weights.manifest.json (what `engine.chessNnue` accepts) and the float
 * master copy weights.bin.master; the evaluation reference `material` is then the start network.
 * Ctrl-C stops after the current game (checkpointed); a second Ctrl-C quits at once (the last
 * checkpoint stays valid). Exit codes: 0 done or stopped, 1 runtime failure, 2 bad usage or an
 * unusable/mismatching checkpoint.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import cliProgress from 'cli-progress';
import { Option } from 'commander';
import type { Command } from 'commander';
import { GAME_KINDS, type GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import type { TrainSettings } from '../learning/treestrap/checkpoint.js';
import { fitSnapshots } from '../learning/treestrap/ratings.js';
import { DEFAULT_FROZEN, INIT_KINDS, NNUE_DEFAULT_FROZEN, PAPER_MIN_DEPTH, PAPER_STEP_SIZES, TREESTRAP_METHODS, type InitKind, type TreestrapMethod } from '../learning/treestrap/methods.js';
import { TABLE_WALKS, UPDATE_SETS, type TableWalk, type UpdateSet } from '../learning/treestrap/table-delta.js';
import { REFERENCES, runTraining, type Reference, type TrainerProgress } from '../learning/treestrap/trainer.js';
import { parseNumber } from '../core/key-values.js';
import { renderSvg } from '../plot/render.js';
import { parseResultFile } from '../plot/series.js';
import type { CurveChart, CurveLike } from '../plot/series.js';
import { runCurveSpec } from '../plot/specs.js';
import { parseClockText } from '../match/time-control.js';
import { packageRoot } from '../core/package-path.js';

export interface TreestrapCliOptions {
  game: GameKind;
  method: TreestrapMethod;
  init: InitKind;
  games: string;
  tc?: string;
  depth?: string;
  nodes?: string;
  eta?: string;
  minDepth: string;
  walk: TableWalk;
  update: UpdateSet;
  hash: string;
  maxPlies?: string;
  seed: string;
  book?: string;
  bookSize: string;
  bookPlies?: string;
  eval: string;
  evalGames: string;
  evalNodes: string;
  evalAgainst: string;
  evalMaxMoves: string;
  checkpointEvery: string;
  freeze: string;
  errorClip?: string;
  timeLimit?: string;
  out: string;
  progress: boolean;
  model?: 'linear' | 'nnue';
  network?: string;
}

/** The default clock when no limit is given: the paper's 1 min + 1 s, scaled down ten times. */
export const DEFAULT_TC = '6+0.1';

const usage = (m: string): KishiError => new KishiError('ERR_USAGE', m);
const int = (t: string, what: string, min = 1): Result<number, KishiError> => parseNumber(t, what, (x) => Number.isInteger(x) && x >= min);

/** Options -> trainer settings; `explicit` are those given on the command line. */
export function resolveTreestrapOptions(
  o: TreestrapCliOptions,
  given: (key: keyof TreestrapCliOptions) => boolean,
): Result<{ settings: TrainSettings; explicit: Partial<TrainSettings>; games: number }, KishiError> {
  const games = int(o.games, '--games');
  const minDepth = int(o.minDepth, '--min-depth');
  const hash = int(o.hash, '--hash');
  const seed = parseNumber(o.seed, '--seed', Number.isInteger);
  const bookSize = int(o.bookSize, '--book-size');
  for (const r of [games, minDepth, hash, seed, bookSize]) if (r.isErr) return Result.err(r.error);
  const eta: Result<number, KishiError> = o.eta !== undefined ? parseNumber(o.eta, '--eta', (x) => x > 0) : Result.ok(PAPER_STEP_SIZES[o.method]);
  if (eta.isErr) return Result.err(eta.error);
  const depth = o.depth !== undefined ? int(o.depth, '--depth') : undefined;
  const nodes = o.nodes !== undefined ? int(o.nodes, '--nodes') : undefined;
  const bookPlies = o.bookPlies !== undefined ? int(o.bookPlies, '--book-plies', 0) : undefined;
  const maxPlies: Result<number, KishiError> = o.maxPlies !== undefined ? int(o.maxPlies, '--max-plies') : Result.ok(o.game === 'chess' ? 300 : 320);
  const errorClip = o.errorClip !== undefined ? parseNumber(o.errorClip, '--error-clip', (x) => x > 0) : undefined;
  for (const r of [depth, nodes, bookPlies, maxPlies, errorClip]) if (r?.isErr) return Result.err(r.error);
  if (o.update !== 'all' && o.walk !== 'searched') return Result.err(usage(`--update ${o.update} needs --walk searched`));
  let clock: { baseMs: number; incMs: number } | undefined;
  const tcText = o.tc ?? (depth === undefined && nodes === undefined ? DEFAULT_TC : undefined);
  if (tcText !== undefined) {
    const c = parseClockText(tcText);
    if (c.isErr) return Result.err(c.error);
    if (c.value.baseMs === undefined || c.value.movesPerSession !== 0) return Result.err(usage(`--tc wants a Fischer clock base+increment in seconds, e.g. 60+1; got ${JSON.stringify(tcText)}`));
    clock = { baseMs: c.value.baseMs, incMs: c.value.incMs };
  }
  if (o.model !== 'nnue' && o.network !== undefined) return Result.err(usage('--network goes with --model nnue'));
  if (o.model === 'nnue' && given('init')) return Result.err(usage('--model nnue starts from the network (--network); --init is for the linear model'));
  const settings: TrainSettings = {
    game: o.game,
    method: o.method,
    init: o.model === 'nnue' ? 'network' : o.init,
    eta: eta.unwrap(),
    minDepth: minDepth.unwrap(),
    walk: o.walk,
    update: o.update,
    ...(depth !== undefined ? { depth: depth.unwrap() } : {}),
    ...(nodes !== undefined ? { nodes: nodes.unwrap() } : {}),
    ...(clock !== undefined ? { clock } : {}),
    maxPlies: maxPlies.unwrap(),
    hashMb: hash.unwrap(),
    seed: seed.unwrap(),
    book: o.book ?? 'default',
    bookSize: bookSize.unwrap(),
    ...(bookPlies !== undefined ? { bookPlies: bookPlies.unwrap() } : {}),
    ...(errorClip !== undefined ? { errorClip: errorClip.unwrap() } : {}),
    frozen: o.freeze === 'none' ? [] : o.model === 'nnue' && !given('freeze') ? [...NNUE_DEFAULT_FROZEN] : o.freeze.split(',').map((x) => x.trim()).filter((x) => x !== ''),
    ...(o.model === 'nnue' ? { model: 'nnue' as const, network: o.network ?? `models/${o.game}-nnue.bin` } : {}),
  };
  // The settings named on the command line must agree with a checkpoint being resumed.
  const explicit: Partial<Record<keyof TrainSettings, unknown>> = {};
  const map: [keyof TreestrapCliOptions, keyof TrainSettings][] = [
    ['game', 'game'], ['method', 'method'], ['init', 'init'], ['eta', 'eta'], ['minDepth', 'minDepth'], ['walk', 'walk'], ['update', 'update'],
    ['depth', 'depth'], ['nodes', 'nodes'], ['tc', 'clock'], ['maxPlies', 'maxPlies'], ['hash', 'hashMb'], ['seed', 'seed'],
    ['book', 'book'], ['bookSize', 'bookSize'], ['bookPlies', 'bookPlies'], ['freeze', 'frozen'], ['errorClip', 'errorClip'], ['model', 'model'], ['network', 'network'],
  ];
  for (const [cli, key] of map) if (given(cli)) explicit[key] = settings[key];
  return Result.ok({ settings, explicit: explicit as Partial<TrainSettings>, games: games.unwrap() });
}

const gitCommit = (): string | undefined => {
  for (const cwd of [packageRoot(), process.cwd()]) {
    try {
      const git = (args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      const head = git(['rev-parse', 'HEAD']);
      return git(['status', '--porcelain', '--untracked-files=no']) === '' ? head : `${head}+dirty`;
    } catch {
      // not a git checkout: try the next place
    }
  }
  return undefined;
};

const signed = (x: number): string => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(0)}` : x > 0 ? '+inf' : '-inf');
const eloNumbers = (p: { elo: number; low: number; high: number }): string => `${signed(p.elo)} [${signed(p.low)}, ${signed(p.high)}]`;
const eloText = (p: TrainerProgress['latest']): string => (p === undefined ? 'Elo n/a' : `${p.series} ${eloNumbers(p)} @${p.x} games`);

/**
 * Writes curve.vl.json and, when vega is installed, curve.svg of a run's curve file, with the chart
 * settings stored in it (x on a log scale, as the paper's Figure 2): the same chart `kishi plot` draws.
 */
export async function plotCurve(outDir: string, curve: CurveLike & { readonly chart: CurveChart }): Promise<string> {
  const spec = runCurveSpec(curve);
  writeFileSync(join(outDir, 'curve.vl.json'), `${JSON.stringify(spec, null, 2)}\n`);
  const svg = await renderSvg(spec);
  if (svg.isErr) return `curve.vl.json written; no SVG: ${svg.error.message}`;
  writeFileSync(join(outDir, 'curve.svg'), svg.value);
  return 'curve.svg and curve.vl.json written';
}

export async function treestrapCommand(o: TreestrapCliOptions, given: (key: keyof TreestrapCliOptions) => boolean, argv: readonly string[]): Promise<number> {
  const resolved = resolveTreestrapOptions(o, given);
  if (resolved.isErr) {
    console.error(`kishi train treestrap: ${resolved.error.message}`);
    return 2;
  }
  const evalGames = int(o.evalGames, '--eval-games', 0);
  const evalNodes = int(o.evalNodes, '--eval-nodes');
  const evalMaxMoves = int(o.evalMaxMoves, '--eval-max-moves');
  const checkpointEvery = int(o.checkpointEvery, '--checkpoint-every');
  const timeLimit = o.timeLimit !== undefined ? parseNumber(o.timeLimit, '--time-limit', (x) => x > 0) : undefined;
  const every: Result<'log' | number, KishiError> = o.eval === 'log' ? Result.ok('log') : int(o.eval, '--eval', 0);
  for (const r of [evalGames, evalNodes, evalMaxMoves, checkpointEvery, timeLimit, every]) {
    if (r?.isErr) {
      console.error(`kishi train treestrap: ${r.error.message}`);
      return 2;
    }
  }
  const refs = o.evalAgainst.split(',').map((x) => x.trim()).filter((x) => x !== '' && x !== 'none');
  const badRef = refs.find((r) => !(REFERENCES as readonly string[]).includes(r));
  if (badRef !== undefined) {
    console.error(`kishi train treestrap: --eval-against takes ${REFERENCES.join(', ')} (comma-separated) or none, not ${JSON.stringify(badRef)}`);
    return 2;
  }

  let stopRequested = false;
  const onSigint = (): void => {
    if (stopRequested) process.exit(130);
    stopRequested = true;
    process.stderr.write('\ninterrupted: stopping after the current game (Ctrl-C again to quit now; the last checkpoint stays valid)\n');
  };
  process.on('SIGINT', onSigint);
  const tty = o.progress && process.stderr.isTTY === true;
  const bar = tty
    ? new cliProgress.SingleBar(
        { format: '{bar} {value}/{total} games | {pps} pos/s updated ({vps} visited/s) | {elo} | {phase}', hideCursor: true, clearOnComplete: false, stream: process.stderr },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  let barStarted = false;
  const command = `kishi ${argv.slice(2).join(' ')}`;
  const commit = gitCommit();
  try {
    const r = await runTraining({
      settings: resolved.value.settings,
      explicit: resolved.value.explicit,
      games: resolved.value.games,
      outDir: o.out,
      command,
      ...(commit !== undefined ? { commit } : {}),
      checkpointEvery: checkpointEvery.unwrap(),
      evaluation: { every: every.unwrap(), games: evalGames.unwrap(), nodes: evalNodes.unwrap(), references: refs as Reference[], maxMoves: evalMaxMoves.unwrap() },
      ...(timeLimit !== undefined ? { timeLimitS: timeLimit.unwrap() } : {}),
      shouldStop: () => stopRequested,
      onLog: (line) => {
        if (bar !== undefined && barStarted) bar.stop();
        barStarted = false;
        process.stderr.write(`${line}\n`);
      },
      onProgress: (p) => {
        const payload = { pps: p.positionsPerSecond.toFixed(0), vps: p.visitedPerSecond.toFixed(0), elo: eloText(p.latest), phase: p.phase };
        if (bar !== undefined) {
          if (!barStarted) {
            bar.start(p.gamesTarget, p.gamesDone, payload);
            barStarted = true;
          } else bar.update(p.gamesDone, payload);
        } else if (o.progress && p.lastGame !== undefined) {
          const g = p.lastGame;
          process.stderr.write(
            `game ${p.gamesDone}/${p.gamesTarget}: ${g.result} (${g.reason}, ${g.plies} plies) ${g.stats.violated}/${g.stats.visited} updated, ` +
              `${payload.pps} pos/s, ${(g.searchMs / 1000).toFixed(1)}+${(g.updateMs / 1000).toFixed(1)} s | ${payload.elo}\n`,
          );
        }
      },
    });
    if (bar !== undefined && barStarted) bar.stop();
    if (r.isErr) {
      console.error(`kishi train treestrap: ${r.error.message}`);
      return r.error.code.startsWith('ERR_CHECKPOINT') || r.error.code === 'ERR_USAGE' || r.error.code === 'ERR_OPENING' ? 2 : 1;
    }
    const ck = r.value.checkpoint;
    const t = ck.totals;
    console.log(
      `${ck.settings.method} ${ck.settings.game}: ${ck.gamesDone} games (${t.firstWins}-${t.draws}-${t.secondWins}), ${t.searches} searches, ` +
        `${t.violated} of ${t.visited} visited entries updated, ${(t.trainingMs / 1000).toFixed(0)} s training + ${(t.evaluationMs / 1000).toFixed(0)} s evaluation${r.value.stoppedEarly ? ' (stopped early; run again to continue)' : ''}`,
    );
    for (const p of ck.curve) console.log(`  after ${p.x} games ${p.series}: +${p.wins} =${p.draws} -${p.losses}, Elo ${eloNumbers(p)}`);
    if (ck.pairings.length > 0) {
      const anchor = ck.settings.init === 'material' ? 'material' : 'untrained';
      for (const r of fitSnapshots([{ prefix: '', pairings: ck.pairings }], anchor, 0).snapshots) {
        console.log(`  rating after ${r.x} games (${anchor} = 0): ${eloNumbers({ elo: r.rating, low: r.low, high: r.high })}`);
      }
    }
    // the chart of curve.json itself (evaluation matches and ratings), as `kishi plot <out>/curve.json` draws it
    const curveFile = join(o.out, 'curve.json');
    const curve = parseResultFile(readFileSync(curveFile, 'utf8'), curveFile);
    if (curve.isOk && curve.value.kind === 'kishi-curve' && curve.value.data.chart !== undefined && curve.value.data.points.length > 0) {
      console.log(await plotCurve(o.out, { ...curve.value.data, chart: curve.value.data.chart }));
    }
    console.log(ck.settings.model === 'nnue' ? `network: ${join(o.out, 'weights.bin')} (manifest weights.manifest.json, float master copy weights.bin.master)` : `weights: ${join(o.out, 'weights.json')}`);
    return 0;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

export function register(train: Command): void {
  const cmd = train
    .command('treestrap')
    .description('TreeStrap (Veness et al. 2009): learn linear evaluation weights from self-play, towards the bounds of every node of each search')
    .addOption(new Option('-g, --game <game>', 'game').choices([...GAME_KINDS]).default('chess'))
    .addOption(new Option('--method <method>', 'learning method').choices([...TREESTRAP_METHODS]).default('treestrap-ab'))
    .addOption(new Option('--init <init>', 'initial weights: small random values or the shipped material weights').choices([...INIT_KINDS]).default('random'))
    .option('-n, --games <n>', 'total training games (a resumed run counts the games already played)', '100')
    .option('--tc <base+inc>', `Fischer clock per side in seconds (paper: 60+1); default ${DEFAULT_TC} when neither --depth nor --nodes is given`)
    .option('--depth <n>', 'search depth per move')
    .option('--nodes <n>', 'search nodes per move (reproducible: the run does not depend on the machine load)')
    .option('--eta <x>', 'step size (default: the paper\'s, 5e-7 treestrap-ab, 1e-6 treestrap-minimax, 1e-5 rootstrap-ab; centipawn scale)')
    .option('--min-depth <d>', 'the paper\'s d: table entries searched shallower are not updated', String(PAPER_MIN_DEPTH))
    .addOption(new Option('--walk <walk>', 'table walk: successors the search made, or every successor (Algorithm 2 verbatim; same entries, slower)').choices([...TABLE_WALKS]).default('searched'))
    .option('--freeze <features>', 'features whose weights are not learned, comma-separated names or prefixes ending in * (material.*), or none; tempo soaks up the side-to-move bias of the bounds (methods.ts); --model nnue: parameter names (w1.<feature>.<unit>, b1.*, w2.*, b2), default b2', DEFAULT_FROZEN.join(','))
    .addOption(new Option('--update <set>', 'table entries updated: all (the paper), quiet ones (not in check, not reached by a capture or promotion) or calm ones (quiet, and the best move is not a capture or promotion either); quiet and calm need --walk searched').choices([...UPDATE_SETS]).default('all'))
    .option('--error-clip <cp>', 'clip each node\'s error to +-cp in the update (Huber loss; mate bounds at +-9999 otherwise dominate); default: no clip, as the paper')
    .option('--hash <mb>', 'transposition table of the training search, MiB', '16')
    .option('--max-plies <n>', 'plies after which a training game is drawn (default chess 300, shogi 320)')
    .option('--seed <n>', 'seed of the initial weights and of the openings', '1')
    .option('--book <file>', 'opening book (default chess data/openings/chess-balanced.epd, shogi data/openings/taya36.sfen)')
    .option('--book-size <n>', 'openings taken from the book', '100')
    .option('--book-plies <n>', 'cut book lines to this many moves (default: shogi 8)')
    .option('--eval <when>', 'evaluation matches: "log" (after 1, 2, 4, 8, ... games), every N games, or 0 (only at the end)', 'log')
    .option('--eval-games <n>', 'games per reference and evaluation (0: none)', '20')
    .option('--eval-nodes <n>', 'nodes per move in evaluation matches', '5000')
    .option('--eval-against <refs>', `opponents, comma-separated: ${REFERENCES.join(', ')} (or none); previous = the last evaluated weights, so the snapshots form a rated chain`, 'previous,material')
    .option('--eval-max-moves <n>', 'full moves after which an evaluation game is drawn', '150')
    .option('--checkpoint-every <n>', 'games between checkpoints', '1')
    .option('--time-limit <s>', 'stop (checkpointed) after this many seconds; run again to continue')
    .requiredOption('-o, --out <dir>', 'run directory (checkpoint, weights, curve); an existing checkpoint there is resumed')
    .addOption(new Option('--model <model>', 'what is learned: the linear evaluation, or the network evaluation (float master copy, re-quantised after every update)').choices(['linear', 'nnue']).default('linear'))
    .option('--network <file>', '--model nnue: the network to start from (its float master copy .bin.master when one belongs to it); default models/<game>-nnue.bin')
    .option('--no-progress', 'no progress bar or per-game lines');
  cmd.action(async (opts: TreestrapCliOptions) => {
    process.exitCode = await treestrapCommand(opts, (key) => cmd.getOptionValueSource(key) === 'cli', process.argv);
  });
}
