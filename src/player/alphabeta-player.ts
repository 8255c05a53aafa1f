/**
 * The alpha-beta Player: searches run in a worker thread (search-worker.ts, loaded as compiled
 * JavaScript from dist/), so the thread that reads network streams keeps serving keep-alives and
 * clocks while the engine thinks. `stop` and `ponderhit` write shared memory that the search polls
 * every few hundred nodes, so a stop is honoured within milliseconds.
 *
 * Requests are served one at a time in call order: a `go` issued while another runs waits for it
 * (call `stop` first to end it). A crashed worker fails the pending requests and is replaced on
 * the next call. The worker does not keep the process alive while idle.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { GameKind } from '../core/game.js';
import { KishiError } from '../core/result.js';
import { SIGNAL_PONDERHIT, SIGNAL_STOP, SIGNAL_WORDS } from './alphabeta-engine.js';
import type { GoRequest, GoResult, Player, SearchInfo } from './player.js';
import type { WorkerInit, WorkerReply, WorkerRequest } from './worker-protocol.js';
import { thetaGrain } from '../eval/linear/grain.js';

export interface AlphaBetaPlayerSettings {
  readonly game: GameKind;
  readonly theta: Float64Array;
  /** The network evaluation's file bytes, validated (nnue-file.ts); absent: the linear evaluation. */
  readonly nnue?: Uint8Array;
  readonly hashMb: number;
  readonly moveOverheadMs: number;
  /** Search threads (Lazy SMP, see search-worker.ts); 1 when absent. */
  readonly threads?: number;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onInfo?: ((info: SearchInfo) => void) | undefined;
}

/** The compiled worker: next to this file in dist/, or in dist/ when this file runs from sources (tests). */
export const searchWorkerUrl = (): URL => {
  const here = new URL(import.meta.url);
  if (here.pathname.endsWith('.ts')) return new URL('../../dist/src/player/search-worker.js', here);
  return new URL('./search-worker.js', here);
};

export class AlphaBetaPlayer implements Player {
  readonly name = 'Kishi alpha-beta 0.1';
  private readonly settings: AlphaBetaPlayerSettings;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4 * SIGNAL_WORDS));
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Serialises requests. */
  private queue: Promise<unknown> = Promise.resolve();
  private hashMb: number;
  private moveOverheadMs: number;
  private closed = false;
  /** `go` requests waiting behind another request of the queue, not started yet. */
  private queuedGoes = 0;
  /**
   * A stop or ponderhit that arrived while a `go` was still queued. Clearing the signal words when a
   * `go` starts would otherwise erase it (UCI: `setoption Hash`, `go infinite`, `stop` in quick succession).
   */
  private stopPending = false;
  private ponderhitPending = false;

  constructor(settings: AlphaBetaPlayerSettings) {
    this.settings = settings;
    this.hashMb = settings.hashMb;
    this.moveOverheadMs = settings.moveOverheadMs;
  }

  supports(game: GameKind, variant: string): boolean {
    if (game !== this.settings.game) return false;
    return game === 'chess' ? ['standard', 'chess960', 'fromPosition'].includes(variant) : variant === 'standard';
  }

  go(request: GoRequest, onInfo?: (info: SearchInfo) => void): Promise<GoResult> {
    this.queuedGoes++;
    return this.enqueue<GoResult>(
      () => {
        this.queuedGoes--;
        Atomics.store(this.signal, SIGNAL_STOP, this.stopPending ? 1 : 0);
        Atomics.store(this.signal, SIGNAL_PONDERHIT, this.ponderhitPending ? 1 : 0);
        this.stopPending = false;
        this.ponderhitPending = false;
      },
      (id) => ({ type: 'go', id, request }),
      onInfo,
    );
  }

  stop(): void {
    if (this.queuedGoes > 0) this.stopPending = true;
    Atomics.store(this.signal, SIGNAL_STOP, 1);
    Atomics.notify(this.signal, SIGNAL_STOP);
  }

  ponderhit(): void {
    if (this.queuedGoes > 0) this.ponderhitPending = true;
    Atomics.store(this.signal, SIGNAL_PONDERHIT, 1);
    Atomics.notify(this.signal, SIGNAL_STOP);
  }

  async newGame(): Promise<void> {
    await this.enqueue<void>(undefined, (id) => ({ type: 'newGame', id }));
  }

  /** Resizes the transposition table (UCI/USI `Hash` option); clears it. */
  async setHashMb(mb: number): Promise<void> {
    this.hashMb = mb;
    await this.enqueue<void>(undefined, (id) => ({ type: 'setHash', id, mb }));
  }

  /** Changes the time kept back per move for lag. */
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
    const run = (): Promise<T> => {
      if (this.closed) return Promise.reject(new KishiError('ERR_CLOSED', 'player closed'));
      const worker = this.ensureWorker();
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

  private ensureWorker(): Worker {
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
    };
    const url = searchWorkerUrl();
    if (!existsSync(fileURLToPath(url))) {
      throw new KishiError('ERR_ENGINE', `the search worker is not built: ${fileURLToPath(url)} is missing (run \`npx tsc -p .\`)`);
    }
    const worker = new Worker(url, { workerData: init });
    worker.on('message', (msg: WorkerReply) => this.onMessage(msg));
    worker.on('error', (e) => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(new KishiError('ERR_ENGINE', `search worker failed: ${e.message}`));
    });
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = undefined;
      if (code !== 0 && !this.closed) this.failAll(new KishiError('ERR_ENGINE', `search worker exited with code ${code}`));
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private onMessage(msg: WorkerReply): void {
    if (msg.type === 'ready') return;
    const p = this.pending.get(msg.id);
    if (p === undefined) return;
    switch (msg.type) {
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
