/**
 * Announcements of finished jobs (done-list.ts) for many waiters at once: the concurrent game
 * pairs of a queued match each wait for their own job, and one loop, running while anyone waits,
 * pops the run's list and wakes the waiter of each id (one blocking connection, one wait at a time).
 */
import type { JobStore } from './job-store.js';

/** Longest single wait for announcements, ms (a waiter that comes later is served by the next one). */
const LISTEN_MS = 5_000;

/**
 * The announcements of one run, shared by its concurrent waiters: one loop, running while anyone
 * waits, pops the run's list (JobStore `finished`) and wakes the waiter of each id. An id announced
 * while nobody waits for it is kept, and the next wait for it returns at once.
 */
export class Announcements {
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly heard = new Set<string>();
  private listening = false;

  constructor(
    private readonly queue: JobStore,
    private readonly group: string,
    private readonly signal?: AbortSignal,
  ) {}

  /** Resolves when job `id` is announced, after `ms`, or on the stop signal, whichever comes first. */
  wait(id: string, ms: number): Promise<void> {
    if (this.heard.delete(id) || this.signal?.aborted === true) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const set = this.waiters.get(id) ?? new Set<() => void>();
      this.waiters.set(id, set);
      const done = (): void => {
        clearTimeout(timer);
        this.signal?.removeEventListener('abort', done);
        set.delete(done);
        if (set.size === 0 && this.waiters.get(id) === set) this.waiters.delete(id);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.signal?.addEventListener('abort', done, { once: true });
      set.add(done);
      void this.listen();
    });
  }

  private async listen(): Promise<void> {
    if (this.listening) return;
    this.listening = true;
    try {
      while (this.waiters.size > 0 && this.signal?.aborted !== true) {
        let ids: string[];
        try {
          ids = await this.queue.finished(this.group, LISTEN_MS);
        } catch {
          // The waiters' own looks meet the error (and report it); this loop only backs off.
          await new Promise((r) => setTimeout(r, 1000));
          continue;
        }
        for (const id of ids) {
          const set = this.waiters.get(id);
          if (set === undefined) this.heard.add(id);
          else for (const wake of [...set]) wake();
        }
      }
    } finally {
      this.listening = false;
    }
  }
}
