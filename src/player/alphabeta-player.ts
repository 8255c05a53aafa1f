/**
 * The alpha-beta Player: its searches run in a worker thread (search-worker.ts) under the worker-player
 * rules (worker-player.ts: one request at a time, stop and ponderhit through shared memory that the
 * search polls every few hundred nodes, a crashed worker replaced on the next call).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { GameKind } from '../core/game.js';
import { KishiError } from '../core/result.js';
import { thetaGrain } from '../eval/linear/grain.js';
import type { SearchTuning } from '../search/alphabeta/tuning.js';
import type { TdSearchParams } from '../search/td/td-search.js';
import type { WorkerInit } from './worker-protocol.js';
import { WorkerPlayer, workerUrl } from './worker-player.js';

export interface AlphaBetaPlayerSettings {
  readonly game: GameKind;
  readonly theta: Float64Array;
  /** The network evaluation's file bytes, validated (nnue-file.ts); absent: the linear evaluation. */
  readonly nnue?: Uint8Array;
  readonly hashMb: number;
  readonly moveOverheadMs: number;
  /** Search threads (Lazy SMP, see search-worker.ts); 1 when absent. */
  readonly threads?: number;
  /** Search margins (tuning.ts, from the config's `searchTuning`); absent: the defaults. */
  readonly tuning?: SearchTuning;
  /** `search: dyna2`: TD search before every alpha-beta search (src/search/td/); absent: plain alpha-beta. */
  readonly dyna2?: TdSearchParams;
  /** false: the network evaluation without the SIMD kernels (config `nnueSimd`); absent: where supported. */
  readonly nnueSimd?: boolean;
}

/** The compiled worker: next to this file in dist/, or in dist/ when this file runs from sources (tests). */
export const searchWorkerUrl = (): URL => workerUrl(import.meta.url, 'search-worker.js');

export class AlphaBetaPlayer extends WorkerPlayer {
  readonly name = 'Kishi alpha-beta 0.1';
  private readonly settings: AlphaBetaPlayerSettings;
  private hashMb: number;

  constructor(settings: AlphaBetaPlayerSettings) {
    super(settings.game, settings.moveOverheadMs, 'search worker');
    this.settings = settings;
    this.hashMb = settings.hashMb;
  }

  /** Resizes the transposition table (UCI/USI `Hash` option); clears it. */
  async setHashMb(mb: number): Promise<void> {
    this.hashMb = mb;
    await this.enqueue<void>(undefined, (id) => ({ type: 'setHash', id, mb }));
  }

  protected acquireWorker(): Worker {
    if (this.worker !== undefined) return this.worker;
    const init: WorkerInit = {
      game: this.settings.game,
      theta: this.settings.theta.slice().buffer,
      grain: thetaGrain(this.settings.theta),
      ...(this.settings.nnue !== undefined ? { nnue: this.settings.nnue.slice().buffer } : {}),
      hashMb: this.hashMb,
      moveOverheadMs: this.moveOverheadMs,
      signal: this.signal.buffer as SharedArrayBuffer,
      threads: this.settings.threads ?? 1,
      ...(this.settings.tuning !== undefined ? { tuning: this.settings.tuning } : {}),
      ...(this.settings.dyna2 !== undefined ? { dyna2: this.settings.dyna2 } : {}),
      ...(this.settings.nnueSimd !== undefined ? { nnueSimd: this.settings.nnueSimd } : {}),
    };
    const url = searchWorkerUrl();
    if (!existsSync(fileURLToPath(url))) {
      throw new KishiError('ERR_ENGINE', `the search worker is not built: ${fileURLToPath(url)} is missing (run \`npx tsc -p .\`)`);
    }
    const worker = new Worker(url, { workerData: init });
    this.attach(worker);
    return worker;
  }
}
