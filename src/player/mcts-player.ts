/**
 * The MCTS Player: the search and its onnxruntime session run in a worker thread (mcts-worker.ts),
 * because `session.run` blocks the thread that calls it. The worker-player rules hold
 * (worker-player.ts: one request at a time, stop and ponderhit through shared memory that the search
 * polls between batches of a few milliseconds, a stop kept for a queued `go`, a crashed worker replaced
 * on the next call).
 *
 * Model loading happens when the worker starts; `ready()` says whether it worked. A model that
 * fails to load (`ERR_MODEL`) makes every later request fail with the same error until `close`.
 */
import { Worker } from 'node:worker_threads';
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import type { MctsOptions } from '../search/mcts/options.js';
import type { CpuNetSettings } from './mcts-cpu-nets.js';
import type { MctsWorkerInit } from './mcts-worker.js';
import type { WorkerReply } from './worker-protocol.js';
import { WorkerPlayer, workerUrl } from './worker-player.js';

export interface MctsPlayerSettings {
  readonly game: GameKind;
  /** Resolved path of the ONNX model; its manifest lies next to it. */
  readonly modelPath: string;
  readonly moveOverheadMs: number;
  readonly options?: Partial<MctsOptions>;
  readonly cacheEntries?: number;
  /** The CPU networks' settings from the config (mcts-worker.ts `MctsWorkerInit.cpuNets`). */
  readonly cpuNets?: CpuNetSettings;
}

/** The compiled worker: next to this file in dist/, or in dist/ when this file runs from sources (tests). */
export const mctsWorkerUrl = (): URL => workerUrl(import.meta.url, 'mcts-worker.js');

export class MctsPlayer extends WorkerPlayer {
  readonly name = 'Kishi MCTS 0.1';
  readonly settings: MctsPlayerSettings;
  private loading: Promise<Result<void, KishiError>> | undefined;
  /** Settles the loading promise of each worker started (a stale worker's end must not settle a newer one's). */
  private readonly settleLoading = new WeakMap<Worker, (r: Result<void, KishiError>) => void>();
  private loadError: KishiError | undefined;

  constructor(settings: MctsPlayerSettings) {
    super(settings.game, settings.moveOverheadMs, 'MCTS worker');
    this.settings = settings;
  }

  /** Starts the worker if needed and resolves once the model is loaded, or with the `ERR_MODEL` that stopped it. */
  ready(): Promise<Result<void, KishiError>> {
    if (this.loadError !== undefined) return Promise.resolve(Result.err(this.loadError));
    if (this.closed) return Promise.resolve(Result.err(new KishiError('ERR_CLOSED', 'player closed')));
    if (this.worker === undefined || this.loading === undefined) this.startWorker();
    return this.loading!;
  }

  protected async acquireWorker(): Promise<Worker> {
    const ok = await this.ready();
    if (ok.isErr) throw ok.error;
    return this.worker!;
  }

  private startWorker(): void {
    const init: MctsWorkerInit = {
      game: this.settings.game,
      modelPath: this.settings.modelPath,
      moveOverheadMs: this.moveOverheadMs,
      signal: this.signal.buffer as SharedArrayBuffer,
      ...(this.settings.options !== undefined ? { options: this.settings.options } : {}),
      ...(this.settings.cacheEntries !== undefined ? { cacheEntries: this.settings.cacheEntries } : {}),
      ...(this.settings.cpuNets !== undefined ? { cpuNets: this.settings.cpuNets } : {}),
    };
    const worker = new Worker(mctsWorkerUrl(), { workerData: init });
    this.loading = new Promise((resolve) => this.settleLoading.set(worker, resolve));
    this.attach(worker);
    this.holdDuring(worker, this.loading);
  }

  /** The start-up replies (id 0): the model loaded (`ready`), or it did not (`error`, ERR_MODEL). */
  protected override onWorkerMessage(worker: Worker, msg: WorkerReply): void {
    if (msg.id !== 0) return super.onWorkerMessage(worker, msg);
    const settle = this.settleLoading.get(worker);
    if (msg.type === 'ready') settle?.(Result.ok(undefined));
    else if (msg.type === 'error') {
      this.loadError = new KishiError(msg.code, msg.message);
      settle?.(Result.err(this.loadError));
      if (this.worker === worker) this.worker = undefined;
      void worker.terminate();
    }
  }

  protected override onWorkerGone(worker: Worker, error: KishiError): void {
    // The base has forgotten `worker` if it was the running one: then its loading goes too.
    if (this.worker === undefined) this.loading = undefined;
    this.settleLoading.get(worker)?.(Result.err(error));
  }
}
