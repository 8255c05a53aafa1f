/**
 * `kishi learn`: the network evaluation's generation cycle for one game in one resumable command
 * (src/learning/learn/learn-loop.ts): datagen with the current teacher net, training with
 * trainer/nnue_train.py, an SPRT gate of the new net against the teacher at fixed nodes, promotion
 * into models/ when it passes. Killed at any step, the same command line resumes at that step.
 *
 *   kishi learn --game chess --dir /data/learn/chess --seed 101 --nodes 1000 --positions-per-gen 30000000 \
 *     --generations 3 --hidden 256 --epochs 10 --threads 2 --gate-nodes 5000
 *   kishi learn ... --queue redis://host:6379      the datagen chunks played by `kishi worker`s
 *   kishi learn --status /data/learn/chess          where the run stands
 *
 * Exit codes: 0 done (or stopped by --stop-after), 1 a step failed, 2 bad usage, 130 interrupted.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Option } from 'commander';
import type { Command } from 'commander';
import { GAME_KINDS, type GameKind } from '../core/game.js';
import { parseNumber } from '../core/key-values.js';
import { KishiError, Result } from '../core/result.js';
import { seededRng } from '../core/rng.js';
import { datagenSettings } from '../learning/datagen/datagen-setup.js';
import { runLearn, type DatagenRunner, type LearnSettings } from '../learning/learn/learn-loop.js';
import { datagenChoicesOf, localDatagenRunner } from '../learning/learn/local-datagen.js';
import { runNetGate } from '../learning/learn/net-gate.js';
import { LEARN_STEPS, type LearnStep } from '../learning/learn/state.js';
import { learnStatus } from '../learning/learn/status.js';
import { pythonTrainerRunner, TRAIN_DEVICES, type TrainDevice } from '../learning/learn/trainer-run.js';
import { defaultGateOpenings } from '../learning/alphazero/gate.js';
import { resolvePython } from '../learning/alphazero/train-process.js';
import { defaultOpenings, loadOpenings, type Opening } from '../books/openings.js';
import { formatDatagenProgress } from './datagen.js';
import { parseResignRule, parseSprtParams } from '../match/rule-text.js';
import { runQueuedDatagenCli } from './queued-datagen.js';

/** The raw options as commander hands them over (all text: validated by `learnSettings`). */
export interface LearnCliOptions {
  status?: string;
  game?: string;
  dir?: string;
  seed: string;
  nodes: string;
  positionsPerGen?: string;
  generations: string;
  trainGens?: string;
  gamesPerChunk: string;
  hash: string;
  book?: string;
  randomPlies?: string;
  weights?: string;
  queue?: string;
  queueName: string;
  python?: string;
  hidden: string;
  features?: string;
  activation?: string;
  epochs: string;
  batch: string;
  device: string;
  threads: string;
  trainSeed: string;
  trainArgs?: string;
  gateNodes: string;
  gateGames: string;
  sprt: string;
  gateConcurrency?: string;
  gateOpenings?: string;
  gateHash: string;
  gateResign: string;
  gateMaxmoves: string;
  models: string;
  initialNet?: string;
  stopAfter?: string;
}

/** What the command does: print a status, or run a cycle. */
export type LearnCommand =
  | { readonly kind: 'status'; readonly dir: string }
  | { readonly kind: 'run'; readonly settings: LearnSettings; readonly queue?: { readonly url: string; readonly name: string }; readonly stopAfter?: LearnStep };

const usage = (m: string): KishiError => new KishiError('ERR_USAGE', m);
const whole = (text: string, what: string, min: number): Result<number, KishiError> =>
  parseNumber(text, what, (x) => Number.isInteger(x) && x >= min).isOk ? Result.ok(Number(text)) : Result.err(usage(`${what} must be a whole number >= ${min}, got "${text}"`));

/**
 * Checks and converts the options (reads the gate's opening file; starts nothing). `python` is the
 * interpreter used when `--python` is not given (the CLI finds one with torch: resolvePython).
 */
export function learnCommandOf(o: LearnCliOptions, python = 'python3'): Result<LearnCommand, KishiError> {
  if (o.status !== undefined) return Result.ok({ kind: 'status', dir: o.status });
  if (o.game === undefined || !(GAME_KINDS as readonly string[]).includes(o.game)) return Result.err(usage(`--game must be one of ${GAME_KINDS.join(', ')}`));
  const game = o.game as GameKind;
  if (o.dir === undefined) return Result.err(usage('--dir is required (the run directory: DIR/gen<k>/...)'));
  if (o.positionsPerGen === undefined) return Result.err(usage('--positions-per-gen is required (positions of one generation\'s data)'));
  const n = {
    seed: whole(o.seed, '--seed', 0),
    nodes: whole(o.nodes, '--nodes', 1),
    positions: whole(o.positionsPerGen, '--positions-per-gen', 1),
    generations: whole(o.generations, '--generations', 1),
    trainGens: o.trainGens !== undefined ? whole(o.trainGens, '--train-gens', 1) : Result.ok<number, KishiError>(0),
    gamesPerChunk: whole(o.gamesPerChunk, '--games-per-chunk', 1),
    hash: whole(o.hash, '--hash', 1),
    hidden: whole(o.hidden, '--hidden', 1),
    epochs: whole(o.epochs, '--epochs', 1),
    batch: whole(o.batch, '--batch', 1),
    threads: whole(o.threads, '--threads', 1),
    trainSeed: whole(o.trainSeed, '--train-seed', 0),
    gateNodes: whole(o.gateNodes, '--gate-nodes', 1),
    gateGames: whole(o.gateGames, '--gate-games', 2),
    gateConcurrency: o.gateConcurrency !== undefined ? whole(o.gateConcurrency, '--gate-concurrency', 1) : Result.ok<number, KishiError>(availableParallelism()),
    gateHash: whole(o.gateHash, '--gate-hash', 1),
    gateMaxmoves: whole(o.gateMaxmoves, '--gate-maxmoves', 0),
  };
  for (const r of Object.values(n)) if (r.isErr) return Result.err(r.error);
  if (!(TRAIN_DEVICES as readonly string[]).includes(o.device)) return Result.err(usage(`--device must be one of ${TRAIN_DEVICES.join(', ')}, got "${o.device}"`));
  if (o.stopAfter !== undefined && !(LEARN_STEPS as readonly string[]).includes(o.stopAfter)) return Result.err(usage(`--stop-after must be one of ${LEARN_STEPS.join(', ')}`));
  const sprt = parseSprtParams(o.sprt);
  if (sprt.isErr) return Result.err(sprt.error);
  const resign = parseResignRule(o.gateResign);
  if (resign.isErr) return Result.err(resign.error);
  // The datagen options are checked now (a bad --random-plies is a usage error before hours of work).
  const checked = datagenSettings(datagenChoicesOf({ generation: 1, game, out: '', seed: 0, nodes: n.nodes.unwrap(), targetPositions: 1, gamesPerChunk: 1, nnue: '', hash: 1, ...(o.randomPlies !== undefined ? { randomPlies: o.randomPlies } : {}) }));
  if (checked.isErr) return Result.err(checked.error);
  const openingsFile = o.gateOpenings ?? defaultGateOpenings(game);
  let openings: Opening[];
  if (openingsFile !== undefined) {
    const loaded = loadOpenings(game, 'standard', openingsFile);
    if (loaded.isErr) return Result.err(loaded.error);
    openings = loaded.value;
  } else openings = defaultOpenings(game, 'standard', Math.ceil(n.gateGames.unwrap() / 2), seededRng(n.seed.unwrap() ^ 0x5eed));
  const extra = (o.trainArgs ?? '').split(/\s+/).filter((a) => a !== '');
  const settings: LearnSettings = {
    game,
    dir: o.dir,
    seed: n.seed.unwrap(),
    nodes: n.nodes.unwrap(),
    positionsPerGen: n.positions.unwrap(),
    generations: n.generations.unwrap(),
    ...(o.trainGens !== undefined ? { trainGens: n.trainGens.unwrap() } : {}),
    datagen: {
      gamesPerChunk: n.gamesPerChunk.unwrap(),
      hash: n.hash.unwrap(),
      ...(o.book !== undefined ? { book: o.book } : {}),
      ...(o.randomPlies !== undefined ? { randomPlies: o.randomPlies } : {}),
      ...(o.weights !== undefined ? { weights: o.weights } : {}),
    },
    trainer: {
      python: o.python ?? python,
      hidden: n.hidden.unwrap(),
      ...(o.features !== undefined ? { features: o.features } : {}),
      ...(o.activation !== undefined ? { activation: o.activation } : {}),
      epochs: n.epochs.unwrap(),
      batch: n.batch.unwrap(),
      device: o.device as TrainDevice,
      threads: n.threads.unwrap(),
      seed: n.trainSeed.unwrap(),
      extra,
    },
    gate: {
      nodes: n.gateNodes.unwrap(),
      games: n.gateGames.unwrap(),
      sprt: sprt.value,
      sprtText: o.sprt,
      concurrency: n.gateConcurrency.unwrap(),
      openings,
      ...(openingsFile !== undefined ? { openingsFile } : {}),
      hashMb: n.gateHash.unwrap(),
      adjudication: { resign: resign.value, ...(n.gateMaxmoves.unwrap() > 0 ? { maxMoves: n.gateMaxmoves.unwrap() } : {}) },
    },
    models: o.models,
    initialNet: o.initialNet ?? join(o.models, `${game}-nnue.bin`),
    weights: o.weights ?? `models/${game}-linear.json`,
  };
  return Result.ok({
    kind: 'run',
    settings,
    ...(o.queue !== undefined ? { queue: { url: o.queue, name: o.queueName } } : {}),
    ...(o.stopAfter !== undefined ? { stopAfter: o.stopAfter as LearnStep } : {}),
  });
}

/** The datagen step over the job queue: `kishi datagen --queue`'s producer on the same shard. */
const queuedDatagenRunner =
  (url: string, name: string): DatagenRunner =>
  async (job) => {
    const choices = datagenChoicesOf(job);
    const settings = datagenSettings(choices);
    if (settings.isErr) return Result.err(settings.error);
    const code = await runQueuedDatagenCli(url, name, {
      out: job.out,
      seed: job.seed,
      shardIndex: 0,
      shardCount: 1,
      gamesPerChunk: job.gamesPerChunk,
      targetPositions: job.targetPositions,
      choices,
      settings: settings.value,
    });
    if (code === 0) return Result.ok(undefined);
    return Result.err(new KishiError(code === 130 ? 'ERR_ABORTED' : 'ERR_DATAGEN', `queued datagen into ${job.out} ended with exit code ${code}`));
  };

/** Runs the command; resolves the exit code. */
export async function learnCommand(o: LearnCliOptions, argv: readonly string[] = process.argv): Promise<number> {
  let python = o.python;
  if (python === undefined && o.status === undefined) {
    const found = resolvePython(process.env, ['torch', 'numpy']);
    if (found.isErr) process.stderr.write(`warning: ${found.error.message}; the train step needs one (--python)\n`);
    python = found.isOk ? found.value : 'python3';
  }
  const cmd = learnCommandOf(o, python);
  if (cmd.isErr) {
    console.error(`kishi learn: ${cmd.error.message}`);
    return 2;
  }
  if (cmd.value.kind === 'status') {
    const s = learnStatus(cmd.value.dir);
    if (s.isErr) {
      console.error(`kishi learn: ${s.error.message}`);
      return 1;
    }
    console.log(s.value);
    return 0;
  }
  const { settings, queue, stopAfter } = cmd.value;
  const log = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  const abort = new AbortController();
  const onSignal = (): void => {
    if (abort.signal.aborted) process.exit(130);
    log('interrupted: stopping the step in progress (the same command resumes it)');
    abort.abort();
  };
  const listen = (on: boolean): void => {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) {
      if (on) process.on(sig, onSignal);
      else process.off(sig, onSignal);
    }
  };
  const local = localDatagenRunner((p, job) => log(`gen ${job.generation} datagen: ${formatDatagenProgress(p, job.targetPositions)}`));
  const queued = queue !== undefined ? queuedDatagenRunner(queue.url, queue.name) : undefined;
  // Local datagen is one synchronous loop: a handler would never run during it, and would keep the
  // signal from ending the process; without one, Ctrl-C or a kill ends it at once, losing only the
  // chunk in progress, which the next run replays identically. The queued producer has its own.
  const datagen: DatagenRunner = async (job) => {
    listen(false);
    try {
      return await (queued ?? local)(job);
    } finally {
      listen(true);
    }
  };
  listen(true);
  try {
    const r = await runLearn(
      { settings, ...(stopAfter !== undefined ? { stopAfter } : {}), signal: abort.signal, command: ['kishi', ...argv.slice(2)].join(' ') },
      {
        datagen,
        train: pythonTrainerRunner,
        gate: runNetGate,
        log,
      },
    );
    if (r.isErr) {
      console.error(`kishi learn: ${r.error.message}`);
      return r.error.code === 'ERR_ABORTED' ? 130 : 1;
    }
    log(`${r.value.stopped === 'done' ? 'done' : 'stopped'}: kishi learn --status ${settings.dir} prints where the run stands`);
    return 0;
  } finally {
    listen(false);
  }
}

export function register(program: Command): void {
  program
    .command('learn')
    .description('the network evaluation\'s generation cycle for one game: datagen with the current net, training (trainer/nnue_train.py), SPRT gate, promotion into models/ (resumable)')
    .option('--status <dir>', 'print where the run in <dir> stands and exit')
    .addOption(new Option('-g, --game <game>', 'chess or shogi').choices([...GAME_KINDS]))
    .option('-d, --dir <dir>', 'run directory: learn.json, gen<k>/teacher.bin, gen<k>/data, gen<k>/train, gen<k>/gate (an existing run is resumed)')
    .option('--seed <n>', 'base seed: generation k plays datagen seed base + 1000 (k - 1), and gates with it', '1')
    .option('--nodes <n>', 'datagen nodes per move', '5000')
    .option('--positions-per-gen <n>', 'positions of one generation\'s data (a datagen step stops there; more than on disk resumes it)')
    .option('--generations <n>', 'stop once this many generations are complete (a total: raise it to go on)', '3')
    .option('--train-gens <m>', 'train generation k on the data of the last m generations (default: all)')
    .option('--games-per-chunk <n>', 'datagen games per chunk file', '50')
    .option('--hash <mb>', 'datagen transposition table, MiB', '16')
    .option('--book <file>', 'datagen opening book (chess default data/openings/chess-balanced.epd; shogi default startpos)')
    .option('--random-plies <min-max>', 'datagen random plies after the book position (default chess 2-8, shogi 4-14)')
    .option('--weights <file>', 'linear evaluation weights loaded beside the nets (default models/<game>-linear.json)')
    .option('--queue <url>', 'play the datagen chunks on `kishi worker`s through this Redis, as `kishi datagen --queue` (password also from KISHI_QUEUE_PASSWORD)')
    .option('--queue-name <name>', 'BullMQ queue name', 'kishi')
    .option('--python <cmd>', 'Python interpreter with torch for trainer/nnue_train.py (default: $KISHI_PYTHON, /usr/bin/python3 or python3, the first that imports torch)')
    .option('--hidden <n>', 'trainer: hidden layer size H of the (F -> H) x 2 net', '256')
    .option('--features <set>', 'trainer: input feature set (base; chess also king-bucket-4; shogi also king-zone, king-bucket-9)')
    .addOption(new Option('--activation <kind>', 'trainer: activation').choices(['crelu', 'screlu']))
    .option('--epochs <n>', 'trainer: epochs per generation', '10')
    .option('--batch <n>', 'trainer: batch size', '4096')
    .addOption(new Option('--device <device>', 'trainer: device').choices([...TRAIN_DEVICES]).default('auto'))
    .option('--threads <n>', 'trainer: CPU threads', '1')
    .option('--train-seed <n>', 'trainer: seed', '1')
    .option('--train-args <args>', 'further nnue_train.py arguments, one string (e.g. --train-args="--lr 0.001 --lambda 0.9")')
    .option('--gate-nodes <n>', 'gate: nodes per move of both nets', '5000')
    .option('--gate-games <n>', 'gate: games at most (the SPRT usually stops earlier; undecided keeps the teacher)', '400')
    .option('--sprt <params>', 'gate: SPRT elo0=..,elo1=..[,alpha=..,beta=..,model=normalized|logistic]; H1 promotes', 'elo0=0,elo1=5')
    .option('--gate-concurrency <n>', 'gate: games at once (default: one per core)')
    .option('--gate-openings <file>', 'gate: opening file (default chess data/openings/chess-balanced.epd, shogi data/openings/taya36.sfen)')
    .option('--gate-hash <mb>', 'gate: transposition table per engine, MiB', '16')
    .option('--gate-resign <rule>', 'gate: resign adjudication', 'movecount=4,score=800')
    .option('--gate-maxmoves <n>', 'gate: draw after this many full moves (0: no cap)', '200')
    .option('--models <dir>', 'where a passing net is promoted (<game>-nnue.bin + manifest)', 'models')
    .option('--initial-net <file>', 'generation 1\'s teacher when DIR/gen1/teacher.bin does not exist (default <models>/<game>-nnue.bin)')
    .addOption(new Option('--stop-after <step>', 'return after this step (datagen, train, gate, promote), as a kill there would (tests)').choices([...LEARN_STEPS]).hideHelp())
    .addHelpText('after', [
      '',
      'Layout of --dir: gen<k>/teacher.bin (the net generation k searches with), gen<k>/data (its chunks, exactly as',
      '`kishi datagen --out DIR/gen<k>/data --nodes N --seed S --nnue DIR/gen<k>/teacher.bin` writes them, so such a run is',
      'adopted), gen<k>/train (net.bin, checkpoint.pt, report.json, train.log), gen<k>/gate (records, summary.json, gate.json).',
      'Killed at any step, the same command line resumes at that step.',
    ].join('\n'))
    .action(async (opts: LearnCliOptions) => {
      process.exitCode = await learnCommand(opts);
    });
}
