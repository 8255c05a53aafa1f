/**
 * TD-Leaf(λ) over a set of game logs: the games are taken in the order they were played, and after
 * each one theta moves by its TD-Leaf update (optionally capped per weight), as KnightCap learnt
 * after every game. The same function serves the batch command (`kishi train tdleaf`) and online
 * learning (one game at a time). Pure apart from the logs it is given: it reads and writes nothing.
 */
import type { FeatureSet } from '../../eval/linear/feature-registry.js';
import type { TrainableNetwork } from '../../eval/nnue/trainable.js';
import type { ReadGameLog } from '../../records/game-log-reader.js';
import type { GameFilter, SkipReason } from './game-filter.js';
import { skipReason } from './game-filter.js';
import { gameSamples, isReplayProblem, leafEvaluator, resultForUs } from './leaf.js';
import type { TdLeafParams } from './td-lambda.js';
import { applyDelta, tdLeafUpdate } from './td-lambda.js';

export interface TdLeafTrainOptions extends TdLeafParams {
  readonly filter: GameFilter;
  /** Largest change of one weight per game, centipawns; 0: no cap. */
  readonly maxChangePerGameCp: number;
  /** Games with fewer of our searched moves are skipped. */
  readonly minMoves: number;
  /**
   * Learn a network evaluation instead of the linear one: theta is then its float master copy
   * (`network.theta`), re-quantised after every game. The cap `maxChangePerGameCp` then bounds each
   * parameter's change times the network's SCALE (the most a change of one output weight or bias
   * can move the output, in centipawns), and `largestChange` is reported on that scale.
   */
  readonly network?: TrainableNetwork;
}

/** What happened to one game. */
export interface GameReport {
  readonly file: string;
  readonly gameId: string;
  readonly used: boolean;
  readonly skipped?: SkipReason;
  /** For a bad log: where and why. */
  readonly problem?: { readonly line: number; readonly message: string };
  readonly samples?: number;
  readonly result?: number;
  readonly pruned?: number;
  /** Largest change of one weight applied after this game, centipawns. */
  readonly largestChange?: number;
  /** Mean |leaf evaluation - logged score| over the game's searched moves, centipawns. */
  readonly meanScoreGap?: number;
}

export interface TrainSummary {
  readonly games: readonly GameReport[];
  readonly used: number;
  readonly skipped: Readonly<Partial<Record<SkipReason, number>>>;
  readonly samples: number;
  readonly pruned: number;
}

/** Chronological order: start time, then file name. */
export const chronological = (logs: readonly ReadGameLog[]): ReadGameLog[] =>
  [...logs].sort((a, b) => Date.parse(a.header.startedAt) - Date.parse(b.header.startedAt) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));

/** Learns from `logs` in order, changing `theta` in place. `alreadyLearnt` names games to skip (`server/gameId`). */
export function trainTdLeaf(
  logs: readonly ReadGameLog[],
  theta: Float64Array,
  opts: TdLeafTrainOptions,
  alreadyLearnt: ReadonlySet<string> = new Set(),
): TrainSummary {
  const ev = leafEvaluator(opts.filter.game, theta, opts.network);
  const unit = opts.network !== undefined ? opts.network.net.scale : 1;
  const games: GameReport[] = [];
  const skipped: Partial<Record<SkipReason, number>> = {};
  let samplesTotal = 0;
  let prunedTotal = 0;
  const skip = (log: ReadGameLog, reason: SkipReason, problem?: GameReport['problem']): void => {
    skipped[reason] = (skipped[reason] ?? 0) + 1;
    games.push({ file: log.file, gameId: log.header.gameId, used: false, skipped: reason, ...(problem ? { problem } : {}) });
  };
  for (const log of chronological(logs)) {
    const reason = alreadyLearnt.has(gameKey(log)) ? 'already-learnt' : skipReason(log, opts.filter);
    if (reason !== undefined) {
      skip(log, reason);
      continue;
    }
    const replay = gameSamples(log, ev);
    if (isReplayProblem(replay)) {
      skip(log, 'bad-log', replay);
      continue;
    }
    if (replay.samples.length < Math.max(1, opts.minMoves)) {
      skip(log, 'too-short');
      continue;
    }
    const result = resultForUs(log)!;
    const update = tdLeafUpdate(replay.samples, result, opts);
    const largestChange = applyDelta(theta, update.delta, opts.maxChangePerGameCp / unit) * unit;
    ev.refresh();
    const pruned = update.steps.filter((s) => s.pruned).length;
    samplesTotal += replay.samples.length;
    prunedTotal += pruned;
    const gaps = replay.scoreGaps;
    games.push({
      file: log.file,
      gameId: log.header.gameId,
      used: true,
      samples: replay.samples.length,
      result,
      pruned,
      largestChange,
      meanScoreGap: gaps.length > 0 ? gaps.reduce((a, g) => a + Math.abs(g), 0) / gaps.length : 0,
    });
  }
  return { games, used: games.filter((g) => g.used).length, skipped, samples: samplesTotal, pruned: prunedTotal };
}

/** A game's identity across runs: `server/gameId`. */
export const gameKey = (log: ReadGameLog): string => `${log.header.server}/${log.header.gameId}`;

/** One weight's change. */
export interface WeightChange {
  readonly name: string;
  readonly before: number;
  readonly after: number;
  readonly delta: number;
}

/** The `top` largest changes between two weight vectors, largest first (ties by name). */
export function topChanges<B>(featureSet: Pick<FeatureSet<B>, 'names' | 'size'>, before: Float64Array, after: Float64Array, top: number): WeightChange[] {
  const out: WeightChange[] = [];
  for (let i = 0; i < featureSet.size; i++) {
    const d = after[i]! - before[i]!;
    if (d !== 0) out.push({ name: featureSet.names[i]!, before: before[i]!, after: after[i]!, delta: d });
  }
  out.sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta) || (a.name < b.name ? -1 : 1));
  return out.slice(0, top);
}
