/**
 * The alpha-beta engine of a worker thread (the search worker and its Lazy SMP helpers) from the
 * plain data the thread was started with: the weights with their grain, and the network file bytes,
 * which the main thread validated before it started the worker.
 */
import type { GameKind } from '../core/game.js';
import { setThetaGrain } from '../eval/linear/grain.js';
import { parseNetwork } from '../eval/nnue/format.js';
import { searchOptions } from '../search/alphabeta/options.js';
import type { SearchTuning } from '../search/alphabeta/tuning.js';
import { AlphaBetaEngine } from './alphabeta-engine.js';
import type { EngineSettings } from './alphabeta-engine.js';

/** What a worker's `workerData` holds of the evaluation. */
export interface WorkerEvaluation {
  readonly game: GameKind;
  readonly theta: ArrayBuffer;
  readonly grain?: number;
  readonly nnue?: ArrayBuffer;
  /** Search margins (tuning.ts); absent: the defaults. */
  readonly tuning?: SearchTuning;
  /** false: the network evaluation without the SIMD kernels; absent: where the runtime supports them. */
  readonly nnueSimd?: boolean;
}

/** The engine of a worker: its evaluation from `data`, its table and clock settings from `settings`. */
export function workerEngine(
  data: WorkerEvaluation,
  settings: Pick<EngineSettings, 'hashMb' | 'moveOverheadMs' | 'sharedTable' | 'tableMemory' | 'dyna2'>,
  source: string,
): { engine: AlphaBetaEngine; theta: Float64Array } {
  const theta = new Float64Array(data.theta);
  setThetaGrain(theta, data.grain ?? 1);
  const engine = new AlphaBetaEngine({
    game: data.game,
    theta,
    ...(data.nnue !== undefined ? { nnue: parseNetwork(new Uint8Array(data.nnue), source).unwrap() } : {}),
    ...(data.nnueSimd !== undefined ? { nnueSimd: data.nnueSimd } : {}),
    ...settings,
    ...(data.tuning !== undefined ? { options: searchOptions('tournament', { tuning: data.tuning }) } : {}),
  });
  return { engine, theta };
}
