/**
 * `kishi datagen`: training positions for the network evaluation from the alpha-beta engine's own
 * games (src/learning/datagen/; format in its README.md).
 *
 *   kishi datagen --game chess --out data/nnue/chess --positions 20000000 --nodes 5000 [--shard 0/4] [--seed 1]
 *   kishi datagen ... --queue redis://host:6379     the same chunks, played by `kishi worker`s (src/queue/)
 *
 * Resumes from the chunks already in `--out` (same seed and shard); Ctrl-C or a kill loses only the
 * chunk in progress, which the next run replays identically. Exit codes: 0 done, 1 failure, 2 bad usage.
 */
import { InvalidArgumentError, Option } from 'commander';
import type { Command } from 'commander';
import type { GameKind } from '../core/game.js';
import { runDatagen, type DatagenProgress } from '../learning/datagen/datagen-run.js';
import { datagenSettings, prepareDatagen, type DatagenChoices } from '../learning/datagen/datagen-setup.js';
import { runQueuedDatagenCli } from './queued-datagen.js';

interface DatagenCliOptions {
  game: GameKind;
  out: string;
  positions: number;
  chunks?: number;
  nodes?: number;
  depth?: number;
  seed: number;
  shard: { index: number; count: number };
  gamesPerChunk: number;
  book?: string;
  weights?: string;
  nnue?: string;
  hash: number;
  randomPlies?: string;
  queue?: string;
  queueName: string;
}

const int =
  (name: string, min: number) =>
  (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be a whole number >= ${min}, got "${v}"`);
    return n;
  };

/** `i/n` with 0 <= i < n. */
export const parseShard = (v: string): { index: number; count: number } => {
  const m = /^(\d+)\/(\d+)$/.exec(v.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index >= count || count > 65535) throw new InvalidArgumentError(`--shard must be i/n with 0 <= i < n <= 65535, got "${v}"`);
  return { index, count };
};

const duration = (s: number): string => {
  if (!Number.isFinite(s)) return '?';
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(Math.floor(s % 60)).padStart(2, '0')}s`;
};

/** The progress line: a bar, positions, rate and ETA. */
export const formatDatagenProgress = (p: DatagenProgress, target: number): string => {
  const share = Math.min(1, p.positions / Math.max(1, target));
  const bar = '#'.repeat(Math.round(share * 30)).padEnd(30, '.');
  return `[${bar}] ${(share * 100).toFixed(1)}% ${p.positions}/${target} positions, chunk ${p.chunks}, ${p.games} games this run, ` +
    `${p.positionsPerSecond.toFixed(1)} pos/s, ${Math.round(p.nodesPerSecond)} nodes/s, ${p.duplicates} duplicates, ETA ${duration(p.etaSeconds)}`;
};

export function register(program: Command): void {
  program
    .command('datagen')
    .description('self-play positions labelled with search score and game result, for training the network evaluation')
    .addOption(new Option('-g, --game <game>', 'chess or shogi').choices(['chess', 'shogi']).makeOptionMandatory())
    .requiredOption('-o, --out <dir>', 'directory of the chunk files (resumed when it holds chunks of this shard and seed)')
    .option('--positions <n>', 'stop when the shard holds this many positions', int('--positions', 1), 1_000_000)
    .option('--chunks <n>', 'stop after writing this many chunks in this run', int('--chunks', 1))
    .option('--nodes <n>', 'node budget per move (default 5000; deterministic)', int('--nodes', 1))
    .option('--depth <n>', 'depth limit per move (instead of or with --nodes)', int('--depth', 1))
    .option('--seed <n>', 'random seed (openings and random plies of every game)', int('--seed', 0), 1)
    .addOption(new Option('--shard <i/n>', 'this process plays games i, i+n, i+2n, ...').argParser(parseShard).default({ index: 0, count: 1 }, '0/1'))
    .option('--games-per-chunk <n>', 'games per chunk file', int('--games-per-chunk', 1), 50)
    .option('--book <file>', 'opening book (chess default data/openings/chess-balanced.epd; shogi default startpos)')
    .option('--random-plies <min-max>', 'uniformly random plies after the book position (default chess 2-8, shogi 4-14)')
    .option('--weights <file>', 'linear evaluation weights (default models/<game>-linear.json)')
    .option('--nnue <file>', 'search with this network evaluation instead of the linear one (models/<game>-nnue.bin and its manifest)')
    .option('--hash <mb>', 'transposition table size, MiB', int('--hash', 1), 16)
    .option('--queue <url>', 'distribute the chunks as jobs on this Redis (redis://[:password@]host:port, rediss:// for TLS; password also from KISHI_QUEUE_PASSWORD) to `kishi worker`s')
    .option('--queue-name <name>', 'BullMQ queue name', 'kishi')
    .action(async (o: DatagenCliOptions) => {
      const game = o.game;
      const choices: DatagenChoices = {
        game,
        hash: o.hash,
        ...(o.nodes !== undefined ? { nodes: o.nodes } : {}),
        ...(o.depth !== undefined ? { depth: o.depth } : {}),
        ...(o.randomPlies !== undefined ? { randomPlies: o.randomPlies } : {}),
        ...(o.book !== undefined ? { book: o.book } : {}),
        ...(o.weights !== undefined ? { weights: o.weights } : {}),
        ...(o.nnue !== undefined ? { nnue: o.nnue } : {}),
      };
      const shard = {
        out: o.out,
        seed: o.seed,
        shardIndex: o.shard.index,
        shardCount: o.shard.count,
        gamesPerChunk: o.gamesPerChunk,
        targetPositions: o.positions,
        ...(o.chunks !== undefined ? { maxChunks: o.chunks } : {}),
      };
      if (o.queue !== undefined) {
        // The producer plays nothing: it needs the settings, not the book or the evaluation.
        const settings = datagenSettings(choices);
        if (settings.isErr) {
          console.error(settings.error.message);
          process.exit(2);
        }
        process.exitCode = await runQueuedDatagenCli(o.queue, o.queueName, {
          ...shard,
          choices,
          settings: settings.value,
        });
        return;
      }
      const setup = prepareDatagen(choices);
      if (setup.isErr) {
        console.error(setup.error.message);
        process.exit(setup.error.code === 'ERR_USAGE' ? 2 : 1);
      }
      const { settings, openings, makeBoard, search } = setup.value;
      // No SIGINT handler: the loop is synchronous, so a handler would never run; the default
      // (exit at once) loses only the chunk in progress, which the next run replays identically.
      console.error(`datagen ${game}: ${JSON.stringify(settings)}, shard ${o.shard.index}/${o.shard.count}, seed ${o.seed}, ${openings.length} openings, out ${o.out}`);
      const r = runDatagen({
        ...shard,
        settings,
        openings,
        makeBoard,
        search,
        onProgress: (p) => console.error(formatDatagenProgress(p, o.positions)),
      });
      if (r.isErr) {
        console.error(r.error.message);
        process.exit(1);
      }
      console.error(`done: ${formatDatagenProgress(r.value, o.positions)}`);
    });
}
