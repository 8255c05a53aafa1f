/**
 * `kishi train alphazero`: the AlphaZero loop (src/learning/alphazero/loop.ts): bootstrap, then
 * generations of self-play -> training (trainer/train.py, PyTorch) -> gate (`kishi match`) ->
 * promotion, resumable from its state directory (run the same command again after any stop).
 *
 *   kishi train alphazero --game chess --state runs/az-chess --init models/chess.onnx \
 *     --generations 5 --games-per-gen 200 --playouts 100 --steps 500 --gate sprt --gate-games 200
 *   kishi train alphazero --game shogi --state runs/az-shogi --bootstrap-games 500 --bootstrap-nodes 4000 \
 *     --bootstrap-steps 3000 --generations 10
 *
 * Needs a Python with torch and onnx (KISHI_PYTHON, /usr/bin/python3, or python3) and the compiled
 * code (`npx tsc -p .`: self-play workers run from dist/). Exit codes: 0 done or interrupted
 * (resumable), 1 a step failed (the state stays at that step), 2 bad usage.
 */
import { resolve } from 'node:path';
import { InvalidArgumentError, Option } from 'commander';
import type { Command } from 'commander';
import type { GameKind } from '../core/game.js';
import { GAME_KINDS } from '../core/game.js';
import { GATE_MODES, runInProcessGate, type GateMode } from '../learning/alphazero/gate.js';
import { runLoop } from '../learning/alphazero/loop.js';
import { runAlphaBetaBootstrap } from '../learning/alphazero/loop-bootstrap.js';
import { runSelfplay } from '../learning/alphazero/selfplay.js';
import { parseQueueUrl } from '../queue/connection.js';
import { redact } from '../log/redact.js';
import { ProducerQueue } from '../queue/producer-queue.js';
import { queuedSelfplay } from '../queue/selfplay-producer.js';
import type { LoopSettings } from '../learning/alphazero/state.js';
import { pythonTrainRunner, resolvePython } from '../learning/alphazero/train-process.js';

interface AlphaZeroCliOptions {
  game: GameKind;
  state: string;
  generations: string;
  gamesPerGen: string;
  playouts: string;
  fastPlayouts?: string;
  fullSearchShare: string;
  temperatureMoves: string;
  resignValue?: string;
  maxPlies?: string;
  workers: string;
  concurrentGames: string;
  gamesPerChunk: string;
  steps: string;
  batch: string;
  lr: string;
  lrFinal?: string;
  weightDecay: string;
  windowGames: string;
  phaseWeights: string;
  valueLoss: 'mse' | 'wdl';
  valueMix: string;
  mirror?: boolean;
  threads: string;
  int8: boolean;
  gate: GateMode;
  gateGames: string;
  gatePlayouts?: string;
  sprt: string;
  gateThreshold: string;
  gateConcurrency: string;
  gateOpenings?: string;
  drawScore: string;
  selfplayDrawScore: string;
  selfplayGumbel: string;
  bootstrapGames: string;
  bootstrapNodes: string;
  bootstrapSteps: string;
  bootstrapData: string[];
  online: string[];
  init?: string;
  initCheckpoint?: string;
  blocks: string;
  filters: string;
  seed: string;
  nice: string;
  queue?: string;
  queueName: string;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

const int = (text: string, what: string, min = 0): number => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${what}: expected a whole number >= ${min}, got ${JSON.stringify(text)}`);
  return n;
};
const real = (text: string, what: string, ok: (x: number) => boolean = () => true): number => {
  const n = Number(text);
  if (!Number.isFinite(n) || !ok(n)) throw new InvalidArgumentError(`${what}: bad value ${JSON.stringify(text)}`);
  return n;
};

/** The loop settings from the options (throws InvalidArgumentError on bad values). */
export function settingsFromOptions(o: AlphaZeroCliOptions): LoopSettings {
  const playouts = int(o.playouts, '--playouts', 1);
  const init = o.init !== undefined ? { model: o.init, checkpoint: o.initCheckpoint ?? defaultCheckpointOf(o.init) } : undefined;
  return {
    game: o.game,
    gamesPerGeneration: int(o.gamesPerGen, '--games-per-gen', 1),
    playouts,
    ...(o.fastPlayouts !== undefined ? { fastPlayouts: int(o.fastPlayouts, '--fast-playouts', 1), fullSearchShare: real(o.fullSearchShare, '--full-search-share', (x) => x > 0 && x <= 1) } : {}),
    temperatureMoves: int(o.temperatureMoves, '--temperature-moves'),
    ...(o.resignValue !== undefined ? { resignValue: real(o.resignValue, '--resign-value', (x) => x > 0 && x < 1) } : {}),
    ...(o.maxPlies !== undefined ? { maxPlies: int(o.maxPlies, '--max-plies', 1) } : {}),
    workers: int(o.workers, '--workers'),
    concurrentGames: int(o.concurrentGames, '--concurrent-games', 1),
    gamesPerChunk: int(o.gamesPerChunk, '--games-per-chunk', 1),
    stepsPerGeneration: int(o.steps, '--steps', 1),
    batch: int(o.batch, '--batch', 1),
    lr: real(o.lr, '--lr', (x) => x > 0),
    ...(o.lrFinal !== undefined ? { lrFinal: real(o.lrFinal, '--lr-final', (x) => x > 0) } : {}),
    weightDecay: real(o.weightDecay, '--weight-decay', (x) => x >= 0),
    windowGames: int(o.windowGames, '--window-games'),
    phaseWeights: o.phaseWeights,
    valueLoss: o.valueLoss,
    valueMix: real(o.valueMix, '--value-mix', (x) => x >= 0 && x <= 1),
    mirror: o.mirror ?? o.game === 'shogi',
    threads: int(o.threads, '--threads', 1),
    int8: o.int8,
    gate: {
      mode: o.gate,
      games: int(o.gateGames, '--gate-games', 1),
      playouts: o.gatePlayouts !== undefined ? int(o.gatePlayouts, '--gate-playouts', 1) : playouts,
      sprt: o.sprt,
      threshold: real(o.gateThreshold, '--gate-threshold', (x) => x > 0 && x <= 1),
      concurrency: int(o.gateConcurrency, '--gate-concurrency', 1),
      ...(o.gateOpenings !== undefined ? { openings: resolve(o.gateOpenings) } : {}),
      drawScore: real(o.drawScore, '--draw-score', (x) => x >= -1 && x <= 1),
    },
    bootstrapGames: int(o.bootstrapGames, '--bootstrap-games'),
    bootstrapNodes: int(o.bootstrapNodes, '--bootstrap-nodes', 1),
    bootstrapSteps: int(o.bootstrapSteps, '--bootstrap-steps', 1),
    blocks: int(o.blocks, '--blocks', 1),
    filters: int(o.filters, '--filters', 1),
    ...(init !== undefined ? { init } : {}),
    extraData: [...o.bootstrapData, ...o.online].map((d) => resolve(d)),
    seed: int(o.seed, '--seed'),
  };
}

/** `models/chess.onnx` -> `records/nn/chess.pt` (where trainer/train_supervised.py keeps it). */
export const defaultCheckpointOf = (model: string): string => {
  const name = model.split('/').pop()!.replace(/(-int8)?\.onnx$/, '');
  return `records/nn/${name}.pt`;
};

export function register(train: Command): void {
  train
    .command('alphazero')
    .description('the AlphaZero loop: self-play, training (PyTorch), gating by a match, promotion; resumable from --state')
    .addOption(new Option('-g, --game <game>', 'game').choices([...GAME_KINDS]).makeOptionMandatory())
    .requiredOption('--state <dir>', 'state directory (state.json, chunks, nets, gates, curves); an existing run there is resumed')
    .option('--generations <n>', 'run until this many self-play generations are complete (a total: the same command resumes)', '1')
    .option('--games-per-gen <n>', 'self-play games per generation', '100')
    .option('--playouts <n>', 'MCTS playouts per self-play move (full searches)', '100')
    .option('--fast-playouts <n>', 'playout-cap randomisation: playouts of the fast searches (only full searches become policy targets)')
    .option('--full-search-share <x>', 'share of full searches with --fast-playouts', '0.25')
    .option('--temperature-moves <n>', 'plies at the start of each game whose move is drawn by visit count', '30')
    .option('--resign-value <q>', 'resign below -q (with a false-positive check on a share of games); default never')
    .option('--max-plies <n>', 'plies after which a game is a draw (default chess 400, shogi 320)')
    .option('--workers <n>', 'self-play worker threads', '1')
    .option('--concurrent-games <n>', 'games per worker at once (their leaves share each net call)', '16')
    .option('--games-per-chunk <n>', 'games per chunk file', '10')
    .option('--steps <n>', 'training steps per generation', '500')
    .option('--batch <n>', 'training batch', '256')
    .option('--lr <x>', 'SGD learning rate (constant unless --lr-final)', '0.02')
    .option('--lr-final <x>', 'cosine decay of the learning rate to this within each training call (a short bootstrap or generation converges further)')
    .option('--weight-decay <x>', 'L2 (SGD weight decay)', '0.0001')
    .option('--window-games <n>', 'sliding window: train on the newest chunks holding at most this many games (0: all)', '20000')
    .option('--phase-weights <list>', 'sampling weight per phase, phase=weight,... (0 drops a phase)', 'bootstrap-alphabeta=0.5,selfplay=1,online=1')
    .addOption(new Option('--value-loss <kind>', 'value loss: MSE of the tanh head, or WDL cross-entropy (a WDL head)').choices(['mse', 'wdl']).default('mse'))
    .option('--value-mix <x>', 'value target: x * search value + (1 - x) * game result', '0.3')
    .option('--mirror', 'shogi: mirror half of each batch (default for shogi)')
    .option('--threads <n>', 'PyTorch CPU threads', '2')
    .option('--no-int8', 'self-play and gates with the fp32 nets (default: the INT8 variants train.py makes)')
    .addOption(new Option('--gate <mode>', 'promotion rule').choices([...GATE_MODES]).default('sprt'))
    .option('--gate-games <n>', 'gate games (at most for sprt, exactly for fixed)', '100')
    .option('--gate-playouts <n>', 'playouts per move in gate games (default --playouts)')
    .option('--sprt <params>', 'gate SPRT (kishi match --sprt)', 'elo0=0,elo1=30,alpha=0.05,beta=0.1')
    .option('--gate-threshold <score>', 'fixed gate: score needed', '0.55')
    .option('--gate-concurrency <n>', 'gate games at once', '1')
    // -0.5: at the gates' few playouts the priors dominate, and -0.1 / -0.3 still left 40 / 37 of 40
    // chess gate games repetitions (docs/experiments/2026-11-21-resnet-nets-and-alphazero-loop.md, issue 10; `training.loop.drawScoreGates` in the manifests).
    .option('--draw-score <x>', 'MCTS draw score of both gate engines in [-1, 1] (Lc0 DrawScore: negative avoids repetition draws; 0 plain)', '-0.5')
    .option('--selfplay-draw-score <x>', 'MCTS draw score in self-play, in [-1, 1] (0: plain; the recorded root values stay raw)', '0')
    .option('--selfplay-gumbel <m>', 'Gumbel AlphaZero self-play: m root moves by Sequential Halving, improved-policy targets (0: PUCT)', '0')
    .option('--gate-openings <file>', 'gate opening file (default chess data/openings/chess-balanced.epd, shogi data/openings/taya36.sfen)')
    .option('--bootstrap-games <n>', 'bootstrap phase: alpha-beta self-play games (Giraffe-style labels) before training the first net', '0')
    .option('--bootstrap-nodes <n>', 'alpha-beta nodes per bootstrap move', '4000')
    .option('--bootstrap-steps <n>', 'training steps of the bootstrap net', '2000')
    .addOption(new Option('--bootstrap-data <dir>', 'existing bootstrap chunks to train on (e.g. records/nn/chess-bootstrap; repeat)').argParser(collect).default([], 'none'))
    .addOption(new Option('--online <dir>', 'chunks of online-game records (phase online) mixed into training (repeat)').argParser(collect).default([], 'none'))
    .option('--init <model.onnx>', 'start from this net (e.g. models/chess.onnx) instead of a bootstrap phase of our own')
    .option('--init-checkpoint <file.pt>', 'its PyTorch checkpoint (default records/nn/<name>.pt)')
    .option('--blocks <n>', 'residual blocks of a new net', '4')
    .option('--filters <n>', 'filters of a new net', '48')
    .option('--seed <n>', 'seed', '1')
    .option('--nice <n>', 'run train.py under nice -n N (0: not)', '0')
    .option('--queue <url>', 'play the self-play games on `kishi worker`s through this Redis (redis://host:port, rediss:// for TLS; password also from KISHI_QUEUE_PASSWORD)')
    .option('--queue-name <name>', 'BullMQ queue name', 'kishi')
    .action(async (opts: AlphaZeroCliOptions) => {
      let settings: LoopSettings;
      try {
        settings = settingsFromOptions(opts);
      } catch (e) {
        console.error(`kishi train alphazero: ${(e as Error).message}`);
        process.exitCode = 2;
        return;
      }
      const python = resolvePython(process.env);
      if (python.isErr) {
        console.error(`kishi train alphazero: ${python.error.message}`);
        process.exitCode = 2;
        return;
      }
      const abort = new AbortController();
      const onSigint = (): void => {
        if (abort.signal.aborted) process.exit(130);
        process.stderr.write('\ninterrupted: stopping after the current step part (Ctrl-C again to quit at once; the state stays resumable)\n');
        abort.abort();
      };
      process.on('SIGINT', onSigint);
      process.on('SIGTERM', onSigint);
      let queue: ProducerQueue | undefined;
      if (opts.queue !== undefined) {
        const conn = parseQueueUrl(opts.queue);
        if (conn.isErr) {
          console.error(`kishi train alphazero: ${conn.error.message}`);
          process.exitCode = 2;
          return;
        }
        queue = new ProducerQueue(conn.value, opts.queueName, { onConnectionError: (m) => process.stderr.write(`warning: ${m}\n`), signal: abort.signal });
        process.stderr.write(`self-play over queue ${opts.queueName} at ${conn.value.display}\n`);
      }
      const started = Date.now();
      const stamp = (): string => {
        const s = Math.round((Date.now() - started) / 1000);
        return `[${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}]`;
      };
      try {
        const r = await runLoop(
          {
            dir: opts.state,
            settings,
            generations: int(opts.generations, '--generations'),
            signal: abort.signal,
            selfplayDrawScore: real(opts.selfplayDrawScore, '--selfplay-draw-score', (x) => x >= -1 && x <= 1),
            selfplayGumbel: int(opts.selfplayGumbel, '--selfplay-gumbel'),
            // Redacted: the --queue URL may carry the Redis password, and state.json is no place for it.
            command: redact(['kishi', ...process.argv.slice(2)].map((a) => (/[\s,]/.test(a) ? JSON.stringify(a) : a)).join(' ')),
          },
          {
            selfplay:
              queue === undefined
                ? runSelfplay
                : queuedSelfplay({
                    queue,
                    onResult: (r) => process.stderr.write(`${stamp()} worker ${r.worker}: self-play ${r.file}, ${r.games} games, ${r.positions} positions, ${(r.ms / 1000).toFixed(1)} s\n`),
                    onWarning: (m) => process.stderr.write(`${stamp()} warning: ${m}\n`),
                  }),
            bootstrap: runAlphaBetaBootstrap,
            train: pythonTrainRunner(python.value, int(opts.nice, '--nice')),
            gate: runInProcessGate,
            log: (line) => process.stderr.write(`${stamp()} ${line}\n`),
          },
        );
        if (r.isErr) {
          console.error(`kishi train alphazero: ${r.error.message}`);
          process.exitCode = r.error.code === 'ERR_USAGE' ? 2 : 1;
          return;
        }
        const st = r.value.state;
        console.log(
          `${r.value.stopped === 'done' ? 'done' : 'interrupted (resumable)'}: generation ${st.generation}, step ${st.step}; ` +
            `${st.games.selfplay} self-play games, trainer at ${st.trainer?.steps ?? 0} steps; best net generation ${st.best?.generation ?? '-'} ` +
            `(Elo ${st.best?.elo.toFixed(0) ?? '-'} vs generation 0); state in ${opts.state}/state.json, curves in ${opts.state}/curve-*.json`,
        );
      } catch (e) {
        if (queue === undefined) throw e;
        // A queue error (timeout, refused credentials): its message only, redacted.
        console.error(`kishi train alphazero: ${redact((e as Error).message)}`);
        process.exitCode = 1;
      } finally {
        process.off('SIGINT', onSigint);
        process.off('SIGTERM', onSigint);
        await queue?.close();
      }
    });
}
