/**
 * Messages between `runSelfplay` (main thread) and its worker threads (selfplay-worker.ts).
 *
 * The worker answers `ready` (or `error`) once its net is loaded; then every `play` gets one
 * `game` reply (the record, or `aborted` after an `abort`). The main thread keeps at most
 * `concurrentGames` games in flight per worker, so the worker's games share every net call.
 * `close` releases the net and is answered by `closed`.
 */
import type { GameKind } from '../../core/game.js';
import type { SelfplayGameRecord, SelfplayGameSettings } from './selfplay-game.js';
import type { SelfplayNetStats } from './selfplay-evaluator.js';

/** `workerData` of a self-play worker. */
export interface SelfplayWorkerInit {
  readonly game: GameKind;
  /** Resolved ONNX path, or `mock:<name>`. */
  readonly model: string;
  readonly settings: SelfplayGameSettings;
  /** Largest net batch: concurrent games times leaves per search. */
  readonly maxBatch: number;
  readonly cacheEntries: number;
  /** With the CPU networks: the policy choice (the engine config's `mctsPolicy`: a path, `oneply`; absent: beside the value network). */
  readonly policy?: string;
}

export type SelfplayRequest = { readonly type: 'play'; readonly index: number } | { readonly type: 'abort' } | { readonly type: 'close' };

export type SelfplayReply =
  | { readonly type: 'ready' }
  | { readonly type: 'error'; readonly code: string; readonly message: string }
  | { readonly type: 'game'; readonly index: number; readonly record?: SelfplayGameRecord; readonly stats: SelfplayNetStats; readonly busyMs: number }
  | { readonly type: 'closed'; readonly stats: SelfplayNetStats; readonly busyMs: number };
