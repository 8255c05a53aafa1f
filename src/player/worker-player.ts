/**
 * The base of the Players whose search runs in a worker thread (`AlphaBetaPlayer`, `MctsPlayer`), so the
 * thread that reads network streams keeps serving keep-alives and clocks while the engine thinks. The
 * worker is loaded as compiled JavaScript from dist/ and speaks worker-protocol.ts (its entry serves it
 * with worker-entry.ts).
 *
 * Requests are served one at a time in call order: a `go` issued while another runs waits for it (call
 * `stop` first to end it). `stop` and `ponderhit` write shared memory ([stop, ponderhit] Int32 words) that
 * the search polls, so a stop is honoured within milliseconds; one that arrives while a `go` still waits
 * in the queue is kept for it (clearing the words when the `go` starts would otherwise erase it: UCI
 * `setoption Hash`, `go infinite`, `stop` in quick succession). A crashed worker fails the pending
 * requests and is replaced on the next call. The worker does not keep the process alive while idle.
 */
import type { Worker } from 'node:worker_threads';
import type { GameKind } from '../core/game.js';
import { KishiError } from '../core/result.js';
import { SIGNAL_PONDERHIT as PONDERHIT, SIGNAL_STOP as STOP, SIGNAL_WORDS } from './control-words.js';
import type { GoRequest, GoResult, Player, SearchInfo } from './player.js';
import type { WorkerReply, WorkerRequest } from './worker-protocol.js';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onInfo?: ((info: SearchInfo) => void) | undefined;
}

/** The compiled worker `file` (in src/player/): next to the caller in dist/, or in dist/ when it runs from sources (tests). */
export const workerUrl = (callerUrl: string, file: string): URL => {
  const here = new URL(callerUrl);
  if (here.pathname.endsWith('.ts')) return new URL(`../../dist/src/player/${file}`, here);
  return new URL(`./${file}`, here);
};

export abstract class WorkerPlayer implements Player {
  abstract readonly name: string;
  /** The shared control words the worker's search polls. */
  protected readonly signal = new Int32Array(new SharedArrayBuffer(4 * SIGNAL_WORDS));
  /** The running worker, if any. */
  protected worker: Worker | undefined;
  protected closed = false;
  protected moveOverheadMs: number;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Serialises requests. */
  private queue: Promise<unknown> = Promise.resolve();
  /** `go` requests waiting behind another request of the queue, not started yet. */
  private queuedGoes = 0;
  /** A stop or ponderhit that arrived while a `go` was still queued. */
  private stopPending = false;
  private ponderhitPending = false;

  constructor(
    /** The game this Player plays. */
    protected readonly game: GameKind,
    moveOverheadMs: number,
    /** Names the worker in errors (`search worker`, `MCTS worker`). */
    private readonly workerLabel: string,
  ) {
    this.moveOverheadMs = moveOverheadMs;
  }

  /**
   * The worker to post the next request to: the running one, or a fresh one started (and, for a worker
   * that loads a model first, ready). Rejects or throws when none can be had.
   */
  protected abstract acquireWorker(): Worker | Promise<Worker>;

  supports(game: GameKind, variant: string): boolean {
    if (game !== this.game) return false;
    return game === 'chess' ? ['standard', 'chess960', 'fromPosition'].includes(variant) : variant === 'standard';
  }

  go(request: GoRequest, onInfo?: (info: SearchInfo) => void): Promise<GoResult> {
    const sentAt = Date.now();
    this.queuedGoes++;
    let started = false;
    const start = (): void => {
      if (started) return;
      started = true;
      this.queuedGoes--;
    };
    const p = this.enqueue<GoResult>(
      () => {
        start();
        Atomics.store(this.signal, STOP, this.stopPending ? 1 : 0);
        Atomics.store(this.signal, PONDERHIT, this.ponderhitPending ? 1 : 0);
        this.stopPending = false;
        this.ponderhitPending = false;
      },
      (id) => ({ type: 'go', id, request: request.sentAt !== undefined ? request : { ...request, sentAt } }),
      onInfo,
    );
    // A `go` that never reached the worker (closed, no worker) is no longer queued either.
    p.catch(start);
    return p;
  }

  stop(): void {
    if (this.queuedGoes > 0) this.stopPending = true;
    Atomics.store(this.signal, STOP, 1);
    Atomics.notify(this.signal, STOP);
  }

  ponderhit(): void {
    if (this.queuedGoes > 0) this.ponderhitPending = true;
    Atomics.store(this.signal, PONDERHIT, 1);
    Atomics.notify(this.signal, STOP);
  }

  async newGame(): Promise<void> {
    await this.enqueue<void>(undefined, (id) => ({ type: 'newGame', id }));
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

  /** Queues a request: `before` runs just before it is posted. */
  protected enqueue<T>(before: (() => void) | undefined, make: (id: number) => WorkerRequest, onInfo?: (info: SearchInfo) => void): Promise<T> {
    const run = async (): Promise<T> => {
      if (this.closed) throw new KishiError('ERR_CLOSED', 'player closed');
      const worker = await this.acquireWorker();
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

  /** Wires a fresh worker: replies to the pending requests, a crash or exit fails them. */
  protected attach(worker: Worker): void {
    worker.on('message', (msg: WorkerReply) => this.onWorkerMessage(worker, msg));
    worker.on('error', (e) => {
      if (this.worker === worker) this.worker = undefined;
      const error = new KishiError('ERR_ENGINE', `${this.workerLabel} failed: ${e.message}`);
      this.onWorkerGone(worker, error);
      this.failAll(error);
    });
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = undefined;
      const error = new KishiError('ERR_ENGINE', `${this.workerLabel} exited with code ${code}`);
      this.onWorkerGone(worker, error);
      if (code !== 0 && !this.closed) this.failAll(error);
    });
    worker.unref();
    this.worker = worker;
  }

  /**
   * Keeps the process alive while `work` (a worker's start-up) is awaited, as a request does: a
   * caller with nothing else running (an in-process `kishi tune` pair) awaits only it, and an
   * unreferenced worker would let the process end under that await.
   */
  protected holdDuring(worker: Worker, work: Promise<unknown>): void {
    worker.ref();
    void work.finally(() => {
      if (this.pending.size === 0) worker.unref();
    });
  }

  /** A worker ended (crashed or exited); subclasses forget what they held about it. */
  protected onWorkerGone(_worker: Worker, _error: KishiError): void {}

  /** A reply of `worker`; start-up replies (id 0, `ready`) are the subclass's to read first. */
  protected onWorkerMessage(_worker: Worker, msg: WorkerReply): void {
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
