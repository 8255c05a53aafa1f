/**
 * The MCTS Player: the search and its onnxruntime session run in a worker thread (mcts-worker.ts,
 * loaded as compiled JavaScript from dist/), because `session.run` blocks the thread that calls
 * it. The pattern is the alpha-beta player's: requests are served one at a time in call order,
 * `stop`/`ponderhit` write shared memory that the search polls between batches (a batch takes a
 * few milliseconds), a crashed worker fails the pending requests and is replaced on the next call.
 *
 * Model loading happens when the worker starts; `ready()` says whether it worked. A model that
 * fails to load (`ERR_MODEL`) makes every later request fail with the same error until `close`.
 */
import { Worker } from 'node:worker_threads';
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import type { MctsOptions } from '../search/mcts/options.js';
import { MCTS_SIGNAL_PONDERHIT, MCTS_SIGNAL_STOP } from './mcts-engine.js';
import type { MctsWorkerInit } from './mcts-worker.js';
import type { GoRequest, GoResult, Player, SearchInfo } from './player.js';
import type { WorkerReply, WorkerRequest } from './worker-protocol.js';

export interface MctsPlayerSettings {
  readonly game: GameKind;
  /** Resolved path of the ONNX model; its manifest lies next to it. */
  readonly modelPath: string;
  readonly moveOverheadMs: number;
  readonly options?: Partial<MctsOptions>;
  readonly cacheEntries?: number;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onInfo?: ((info: SearchInfo) => void) | undefined;
}

/** The compiled worker: next to this file in dist/, or in dist/ when this file runs from sources (tests). */
export const mctsWorkerUrl = (): URL => {
  const here = new URL(import.meta.url);
  if (here.pathname.endsWith('.ts')) return new URL('../../dist/src/player/mcts-worker.js', here);
  return new URL('./mcts-worker.js', here);
};

export class MctsPlayer implements Player {
  readonly name = 'Kishi MCTS 0.1';
  readonly settings: MctsPlayerSettings;
  private readonly signal = new Int32Array(new SharedArrayBuffer(8));
  private worker: Worker | undefined;
  private loading: Promise<Result<void, KishiError>> | undefined;
  private loadError: KishiError | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();
  private moveOverheadMs: number;
  private closed = false;

  constructor(settings: MctsPlayerSettings) {
    this.settings = settings;
    this.moveOverheadMs = settings.moveOverheadMs;
  }

  supports(game: GameKind, variant: string): boolean {
    if (game !== this.settings.game) return false;
    return game === 'chess' ? ['standard', 'chess960', 'fromPosition'].includes(variant) : variant === 'standard';
  }

  /** Starts the worker if needed and resolves once the model is loaded, or with the `ERR_MODEL` that stopped it. */
  ready(): Promise<Result<void, KishiError>> {
    if (this.loadError !== undefined) return Promise.resolve(Result.err(this.loadError));
    if (this.closed) return Promise.resolve(Result.err(new KishiError('ERR_CLOSED', 'player closed')));
    if (this.worker === undefined || this.loading === undefined) this.startWorker();
    return this.loading!;
  }

  go(request: GoRequest, onInfo?: (info: SearchInfo) => void): Promise<GoResult> {
    return this.enqueue<GoResult>(
      () => {
        Atomics.store(this.signal, MCTS_SIGNAL_STOP, 0);
        Atomics.store(this.signal, MCTS_SIGNAL_PONDERHIT, 0);
      },
      (id) => ({ type: 'go', id, request }),
      onInfo,
    );
  }

  stop(): void {
    Atomics.store(this.signal, MCTS_SIGNAL_STOP, 1);
    Atomics.notify(this.signal, MCTS_SIGNAL_STOP);
  }

  ponderhit(): void {
    Atomics.store(this.signal, MCTS_SIGNAL_PONDERHIT, 1);
    Atomics.notify(this.signal, MCTS_SIGNAL_STOP);
  }

  async newGame(): Promise<void> {
    await this.enqueue<void>(undefined, (id) => ({ type: 'newGame', id }));
  }

  async setMoveOverheadMs(ms: number): Promise<void> {
    this.moveOverheadMs = ms;
    await this.enqueue<void>(undefined, (id) => ({ type: 'setMoveOverhead', id, ms }));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stop();
    const w = this.worker;
    this.worker = undefined;
    if (w !== undefined) await w.terminate();
    this.failAll(new KishiError('ERR_CLOSED', 'player closed'));
  }

  private enqueue<T>(before: (() => void) | undefined, make: (id: number) => WorkerRequest, onInfo?: (info: SearchInfo) => void): Promise<T> {
    const run = async (): Promise<T> => {
      if (this.closed) throw new KishiError('ERR_CLOSED', 'player closed');
      const ok = await this.ready();
      if (ok.isErr) throw ok.error;
      const worker = this.worker!;
      const id = this.nextId++;
      return new Promise<T>((resolve, reject) => {
        this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onInfo });
        before?.();
        worker.ref();
        worker.postMessage(make(id));
      });
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => undefined);
    return p;
  }

  private startWorker(): void {
    const init: MctsWorkerInit = {
      game: this.settings.game,
      modelPath: this.settings.modelPath,
      moveOverheadMs: this.moveOverheadMs,
      signal: this.signal.buffer as SharedArrayBuffer,
      ...(this.settings.options !== undefined ? { options: this.settings.options } : {}),
      ...(this.settings.cacheEntries !== undefined ? { cacheEntries: this.settings.cacheEntries } : {}),
    };
    const worker = new Worker(mctsWorkerUrl(), { workerData: init });
    this.worker = worker;
    let settle: (r: Result<void, KishiError>) => void = () => undefined;
    this.loading = new Promise((resolve) => (settle = resolve));
    worker.on('message', (msg: WorkerReply) => {
      if (msg.id === 0) {
        if (msg.type === 'ready') settle(Result.ok(undefined));
        else if (msg.type === 'error') {
          this.loadError = new KishiError(msg.code, msg.message);
          settle(Result.err(this.loadError));
          if (this.worker === worker) this.worker = undefined;
          void worker.terminate();
        }
        return;
      }
      this.onMessage(msg);
    });
    worker.on('error', (e) => {
      if (this.worker === worker) {
        this.worker = undefined;
        this.loading = undefined;
      }
      settle(Result.err(new KishiError('ERR_ENGINE', `MCTS worker failed: ${e.message}`)));
      this.failAll(new KishiError('ERR_ENGINE', `MCTS worker failed: ${e.message}`));
    });
    worker.on('exit', (code) => {
      if (this.worker === worker) {
        this.worker = undefined;
        this.loading = undefined;
      }
      settle(Result.err(new KishiError('ERR_ENGINE', `MCTS worker exited with code ${code}`)));
      if (code !== 0 && !this.closed) this.failAll(new KishiError('ERR_ENGINE', `MCTS worker exited with code ${code}`));
    });
    worker.unref();
  }

  private onMessage(msg: WorkerReply): void {
    const p = this.pending.get(msg.id);
    if (p === undefined) return;
    switch (msg.type) {
      case 'ready':
        return;
      case 'info':
        p.onInfo?.(msg.info);
        return;
      case 'result':
        this.finish(msg.id);
        p.resolve(msg.result);
        return;
      case 'done':
        this.finish(msg.id);
        p.resolve(undefined);
        return;
      case 'error':
        this.finish(msg.id);
        p.reject(new KishiError(msg.code, msg.message));
        return;
    }
  }

  private finish(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
  }

  private failAll(error: Error): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(error);
  }
}
