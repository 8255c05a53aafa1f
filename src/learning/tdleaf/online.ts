/**
 * Online TD-Leaf(λ), as KnightCap learnt on FICS: after each finished game on any server, the live
 * weights move by that game's TD-Leaf update, and the next game plays with them: the network
 * (`engine.chessNnue` / `engine.shogiNnue`, its float master copy beside it) when the game plays with
 * the network evaluation (`engine.<game>Eval: nnue`), else the linear weights (`engine.chessWeights` /
 * `engine.shogiWeights`).
 *
 * The hook: a server calls `onGameFinished(logFile, config)` once the game's log has its result line
 * (the `.jsonl` file exists). It never throws; it answers what it did. Safeguards:
 * - only with `learning.online: true`; never from aborted games, games lost on time because of the
 *   network, unfinished or damaged logs, or games already learnt from (a history file per weights
 *   file, `<weights>.tdleaf-history.jsonl`, names every game learnt);
 * - `learning.ratingFloor`: no learning while our rating at the start of the game is below it;
 * - `learning.maxChangePerGameCp`: no weight moves more than this per game;
 * - the weights file is replaced atomically (temporary file, fsync, rename; the previous version kept
 *   as `<weights>.prev`), so a bot started at any moment reads a complete file;
 * - updates are serialised per weights file (games on several servers may end at once).
 *
 * Players read their weights when they are created, and the dispatcher pools them: wrap the player
 * factory with `reloadingPlayerFactory` (reloading-player.ts) and `weightsStamp` so that a pooled
 * Player reloads at its next `newGame()` after an update.
 */
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import type { KishiConfig } from '../../config/schema.js';
import type { GameKind } from '../../core/game.js';
import { serializeWeights, type WeightsProvenance } from '../../eval/linear/weights.js';
import { featureSetOf } from '../../eval/linear/game-features.js';
import { loadWeightsFile } from '../../player/weights-file.js';
import { resolveModelPath } from '../../core/package-path.js';
import type { GameLogProblem, ReadGameLog } from '../../records/game-log-reader.js';
import { loadTrainableNetwork, startedFrom, writeLearntNetwork, type LearningRecord } from '../nnue/network-files.js';
import { formatGameLogProblem, readGameLogFile } from '../../records/game-log-reader.js';
import { writeFileAtomic } from '../../core/atomic-write.js';
import type { SkipReason } from './game-filter.js';
import { gameKey, topChanges, trainTdLeaf, type GameReport } from './trainer.js';

export type OnlineConfig = Pick<KishiConfig, 'engine' | 'learning'>;

export interface OnlineOutcome {
  /** `off`: online learning disabled; `skipped`: not learnt from (see `reason`); `error`: could not learn. */
  readonly status: 'off' | 'updated' | 'skipped' | 'error';
  readonly reason?: SkipReason | string;
  readonly game?: GameKind;
  readonly gameId?: string;
  readonly weightsFile?: string;
  /** Largest change of one weight, centipawns. */
  readonly largestChange?: number;
  readonly changedWeights?: number;
  readonly problems: readonly string[];
}

/** Whether `game` plays with (and so learns into) the network evaluation: `engine.<game>Eval: nnue`. */
export const learnsNetwork = (config: Pick<KishiConfig, 'engine'>, game: GameKind): boolean => (game === 'chess' ? config.engine.chessEval : config.engine.shogiEval) === 'nnue';

/** The network file of a game (`engine.chessNnue` / `engine.shogiNnue`). */
export const liveNetworkPath = (config: Pick<KishiConfig, 'engine'>, game: GameKind): string =>
  resolveModelPath(game === 'chess' ? config.engine.chessNnue : config.engine.shogiNnue);

/** The live model file of a game, the one online learning changes: the network when the game plays with it, else the linear weights. */
export const liveWeightsPath = (config: Pick<KishiConfig, 'engine'>, game: GameKind): string =>
  learnsNetwork(config, game) ? liveNetworkPath(config, game) : resolveModelPath(game === 'chess' ? config.engine.chessWeights : config.engine.shogiWeights);

/** The history of games learnt into a weights file. */
export const historyPath = (weightsFile: string): string => `${weightsFile}.tdleaf-history.jsonl`;

/** Identity of the current version of a file (changes with every atomic replacement); '' when missing. */
export const fileStamp = (file: string): string => {
  try {
    const s = statSync(file);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return '';
  }
};

/** Identity of the live weights of `game` (for `reloadingPlayerFactory`). */
export const weightsStamp = (config: Pick<KishiConfig, 'engine'>, game: GameKind): string => fileStamp(liveWeightsPath(config, game));

/** Games already learnt into `weightsFile` (`server/gameId`). */
export const learntGames = (weightsFile: string): Set<string> => {
  const out = new Set<string>();
  let text = '';
  try {
    text = readFileSync(historyPath(weightsFile), 'utf8');
  } catch {
    return out;
  }
  for (const line of text.split('\n')) {
    try {
      const j = JSON.parse(line) as { game?: unknown };
      if (typeof j.game === 'string') out.add(j.game);
    } catch {
      // A torn last line: that game was not recorded and may be learnt again once.
    }
  }
  return out;
};

const queues = new Map<string, Promise<unknown>>();

/** Runs `task` after every earlier task on the same key. */
const serialised = <T>(key: string, task: () => T): Promise<T> => {
  const prev = queues.get(key) ?? Promise.resolve();
  const next = prev.then(task, task);
  queues.set(
    key,
    next.catch(() => undefined),
  );
  return next;
};

/** Learns from one finished game's log into the live weights; see the module comment. */
export async function onGameFinished(logFile: string, config: OnlineConfig): Promise<OnlineOutcome> {
  const L = config.learning;
  if (!L.online) return { status: 'off', problems: [] };
  const read = readGameLogFile(logFile);
  const problems = read.problems.map(formatGameLogProblem);
  if (read.log === undefined) return { status: 'error', reason: 'unreadable log', problems };
  const log = read.log;
  const game = log.header.game;
  const weightsFile = liveWeightsPath(config, game);
  const base = { game, gameId: log.header.gameId, weightsFile };
  if (learnsNetwork(config, game)) return serialised(weightsFile, () => learnIntoNetwork(log, logFile, config, base, problems));
  return serialised(weightsFile, (): OnlineOutcome => {
    const loaded = loadWeightsFile(weightsFile, game);
    if (loaded.isErr) return { ...base, status: 'error', reason: loaded.error.message, problems };
    const before = loaded.value.theta;
    const theta = before.slice();
    const summary = trainTdLeaf(
      [log],
      theta,
      {
        lambda: L.lambda,
        alpha: L.alpha,
        beta: L.beta,
        pruneBlundersCp: L.pruneBlundersCp,
        maxChangePerGameCp: L.maxChangePerGameCp,
        minMoves: L.minMoves,
        filter: { game, ratingFloor: L.ratingFloor, networkTimeLossMs: L.networkTimeLossMs },
      },
      learntGames(weightsFile),
    );
    const report = summary.games[0];
    if (report === undefined || !report.used) return skippedOutcome(report, logFile, base, problems);
    const fs = featureSetOf(game);
    const changed = topChanges(fs, before, theta, fs.size).length;
    const prev = loaded.value.manifest.provenance;
    const games = (prev.method === 'tdleaf-online' ? (prev.games ?? 0) : 0) + 1;
    const provenance: WeightsProvenance = {
      method: 'tdleaf-online',
      games,
      date: new Date().toISOString(),
      notes:
        `TD-Leaf(lambda=${L.lambda}) online, alpha=${L.alpha}, beta=${L.beta}/cp, prune=${L.pruneBlundersCp}cp, cap=${L.maxChangePerGameCp}cp/game; ` +
        `last game ${gameKey(log)}; started from ${prev.method === 'tdleaf-online' ? (prev.notes?.split('started from ')[1] ?? 'unknown') : `${prev.method}${prev.date ? ` (${prev.date})` : ''}`}`,
    };
    try {
      writeFileAtomic(weightsFile, serializeWeights(fs, theta, provenance, loaded.value.manifest.evalGrain));
      appendFileSync(
        historyPath(weightsFile),
        `${JSON.stringify({ game: gameKey(log), file: logFile, at: provenance.date, samples: report.samples, result: report.result, largestChange: report.largestChange, changed })}\n`,
      );
    } catch (e) {
      return { ...base, status: 'error', reason: `cannot write ${weightsFile}: ${(e as Error).message}`, problems };
    }
    return { ...base, status: 'updated', largestChange: report.largestChange ?? 0, changedWeights: changed, problems };
  });
}

/** A game's TD-Leaf report that says it was not learnt from, as an outcome. */
const skippedOutcome = (report: GameReport | undefined, logFile: string, base: Partial<OnlineOutcome>, problems: readonly string[]): OnlineOutcome => {
  const p = report?.problem;
  return {
    ...base,
    status: 'skipped',
    reason: report?.skipped ?? 'no game',
    problems: p ? [...problems, formatGameLogProblem({ file: logFile, line: p.line, message: p.message, fatal: false } satisfies GameLogProblem)] : problems,
  };
};

/**
 * The network variant of `onGameFinished` (the game plays with `engine.<game>Eval: nnue`): the live
 * network's float master copy (or its dequantised weights the first time) moves by the game's TD-Leaf
 * update (step size `learning.nnueAlpha`; the cap per parameter is `maxChangePerGameCp` / SCALE), and
 * the network, its manifest and master copy are replaced atomically (src/learning/nnue/network-files.ts).
 */
function learnIntoNetwork(log: ReadGameLog, logFile: string, config: OnlineConfig, base: { game: GameKind; gameId: string; weightsFile: string }, problems: readonly string[]): OnlineOutcome {
  const L = config.learning;
  const file = base.weightsFile;
  const loaded = loadTrainableNetwork(file, base.game);
  if (loaded.isErr) return { ...base, status: 'error', reason: loaded.error.message, problems };
  const t = loaded.value.trainable;
  const before = t.theta.slice();
  const summary = trainTdLeaf(
    [log],
    t.theta,
    {
      lambda: L.lambda,
      alpha: L.nnueAlpha,
      beta: L.beta,
      pruneBlundersCp: L.pruneBlundersCp,
      maxChangePerGameCp: L.maxChangePerGameCp,
      minMoves: L.minMoves,
      network: t,
      filter: { game: base.game, ratingFloor: L.ratingFloor, networkTimeLossMs: L.networkTimeLossMs },
    },
    learntGames(file),
  );
  const report = summary.games[0];
  if (report === undefined || !report.used) return skippedOutcome(report, logFile, base, problems);
  let changed = 0;
  for (let i = 0; i < before.length; i++) if (t.theta[i] !== before[i]) changed++;
  const manifest = loaded.value.loaded.manifest;
  const prev = (manifest as { learning?: LearningRecord }).learning;
  const date = new Date().toISOString();
  const learning: LearningRecord = {
    method: 'tdleaf-online',
    games: (prev?.method === 'tdleaf-online' ? (prev.games ?? 0) : 0) + 1,
    date,
    notes: `TD-Leaf(lambda=${L.lambda}) online into the network, alpha=${L.nnueAlpha}, beta=${L.beta}/cp, prune=${L.pruneBlundersCp}cp, cap=${L.maxChangePerGameCp}cp/game (per parameter x SCALE); last game ${gameKey(log)}`,
    startedFrom: startedFrom(manifest),
  };
  try {
    writeLearntNetwork(file, t, manifest, learning);
    appendFileSync(historyPath(file), `${JSON.stringify({ game: gameKey(log), file: logFile, at: date, samples: report.samples, result: report.result, largestChange: report.largestChange, changed })}\n`);
  } catch (e) {
    return { ...base, status: 'error', reason: `cannot write ${file}: ${(e as Error).message}`, problems };
  }
  return { ...base, status: 'updated', largestChange: report.largestChange ?? 0, changedWeights: changed, problems };
}
