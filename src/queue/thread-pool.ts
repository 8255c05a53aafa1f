/**
 * A fixed set of datagen threads (datagen-thread.ts), one job each at a time. A thread that dies
 * (an out-of-memory kill of the thread, a bug) is replaced for the next job; its job fails and the
 * queue retries it.
 */
import { Worker } from 'node:worker_threads';
import type { DatagenThreadReply } from './datagen-thread-protocol.js';
import type { DatagenJob } from './jobs.js';

/** The compiled thread: next to this file in dist/, or in dist/ when this file runs from sources (tests). */
export const datagenThreadUrl = (): URL => {
  const here = new URL(import.meta.url);
  if (here.pathname.endsWith('.ts')) return new URL('../../dist/src/queue/datagen-thread.js', here);
  return new URL('./datagen-thread.js', here);
};

export class DatagenThreadPool {
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();
  private readonly waiting: ((w: Worker) => void)[] = [];
  private closed = false;

  constructor(private readonly size: number) {}

  /** Plays the chunk of `job` on a free thread. */
  async play(job: DatagenJob): Promise<DatagenThreadReply> {
    const w = await this.acquire();
    try {
      return await new Promise<DatagenThreadReply>((resolve, reject) => {
        const onMessage = (r: DatagenThreadReply): void => {
          cleanup();
          resolve(r);
        };
        const onExit = (code: number): void => {
          cleanup();
          this.all.delete(w);
          reject(new Error(`datagen thread exited (code ${code}) during chunk ${job.chunk}`));
        };
        const onError = (e: Error): void => {
          cleanup();
          this.all.delete(w);
          void w.terminate();
          reject(e);
        };
        const cleanup = (): void => {
          w.off('message', onMessage);
          w.off('exit', onExit);
          w.off('error', onError);
        };
        w.on('message', onMessage);
        w.on('exit', onExit);
        w.on('error', onError);
        w.postMessage({ type: 'play', job });
      });
    } finally {
      if (this.all.has(w)) this.release(w);
      else if (!this.closed && this.waiting.length > 0) {
        const fresh = new Worker(datagenThreadUrl());
        this.all.add(fresh);
        this.waiting.shift()!(fresh);
      }
    }
  }

  private acquire(): Promise<Worker> {
    const w = this.idle.pop();
    if (w !== undefined) return Promise.resolve(w);
    if (this.all.size < this.size) {
      const fresh = new Worker(datagenThreadUrl());
      this.all.add(fresh);
      return Promise.resolve(fresh);
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(w: Worker): void {
    if (this.closed) {
      void w.terminate();
      return;
    }
    const next = this.waiting.shift();
    if (next !== undefined) next(w);
    else this.idle.push(w);
  }

  /** Ends every thread (a job in progress is abandoned). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.all].map((w) => w.terminate()));
    this.all.clear();
    this.idle.length = 0;
  }
}
