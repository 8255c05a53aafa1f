/**
 * The shared wait of a queued match's game pairs (announcements.ts) against a scripted store: a
 * waiter wakes when its job is announced (not at its sweep), an id announced before anyone waits
 * for it is kept for its waiter, only one blocking wait runs at a time however many wait, and the
 * stop signal ends every wait at once.
 */
import { describe, expect, it } from 'vitest';
import { Announcements } from '../../src/queue/announcements.js';
import type { JobStore } from '../../src/queue/job-store.js';

/** A store whose `finished` hands out what `announce` queued, waiting like BLPOP; counts concurrent waits. */
function scripted(): { store: JobStore; announce: (id: string) => void; maxConcurrent: () => number } {
  const queued: string[] = [];
  let wake: (() => void) | undefined;
  let now = 0;
  let max = 0;
  const store = {
    async finished(_group: string, ms: number): Promise<string[]> {
      now++;
      max = Math.max(max, now);
      try {
        if (queued.length === 0) await new Promise<void>((r) => ((wake = r), setTimeout(r, ms)));
        return queued.splice(0);
      } finally {
        now--;
      }
    },
  } as unknown as JobStore;
  return {
    store,
    announce: (id) => {
      queued.push(id);
      wake?.();
    },
    maxConcurrent: () => max,
  };
}

describe('announcements shared by concurrent waiters', () => {
  it('wakes each waiter on its own announcement, long before its sweep, with one wait at a time', async () => {
    const s = scripted();
    const a = new Announcements(s.store, 'mt-run');
    const woke: string[] = [];
    const t0 = Date.now();
    const waits = ['mt-run-g1', 'mt-run-g3', 'mt-run-g5'].map((id) => a.wait(id, 60_000).then(() => woke.push(id)));
    setTimeout(() => s.announce('mt-run-g3'), 50);
    setTimeout(() => s.announce('mt-run-g1'), 100);
    setTimeout(() => s.announce('mt-run-g5'), 150);
    await Promise.all(waits);
    expect(woke).toEqual(['mt-run-g3', 'mt-run-g1', 'mt-run-g5']);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(s.maxConcurrent()).toBe(1);
  });

  it('keeps an id announced while nobody waits for it; the sweep period bounds a wait; the stop signal ends it', async () => {
    const s = scripted();
    const stop = new AbortController();
    const a = new Announcements(s.store, 'mt-run', stop.signal);
    // g7 is announced while only g9 waits: g7's later wait returns at once.
    const g9 = a.wait('mt-run-g9', 60_000);
    s.announce('mt-run-g7');
    await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    await a.wait('mt-run-g7', 60_000);
    expect(Date.now() - t0).toBeLessThan(1000);
    // Nothing announced: the wait ends after its sweep period.
    const t1 = Date.now();
    await a.wait('mt-run-g11', 200);
    expect(Date.now() - t1).toBeGreaterThanOrEqual(150);
    stop.abort();
    await g9;
  });
});
