/**
 * The producers' progress lines: a bar over the whole run (all workers together), the rate and the
 * ETA; and one line per collected job naming the worker that ran it.
 */
import type { QueuedDatagenProgress } from './datagen-producer.js';
import type { DatagenJobResult } from './jobs.js';

/** `1h05m`, `3m07s`, `?`. */
export const formatDuration = (s: number): string => {
  if (!Number.isFinite(s)) return '?';
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(Math.floor(s % 60)).padStart(2, '0')}s`;
};

/** A 30-character bar for a share in [0, 1]. */
export const bar = (share: number): string => '#'.repeat(Math.round(Math.min(1, Math.max(0, share)) * 30)).padEnd(30, '.');

export const formatQueuedDatagenProgress = (p: QueuedDatagenProgress): string => {
  const share = Math.min(1, p.positions / Math.max(1, p.target));
  return (
    `[${bar(share)}] ${(share * 100).toFixed(1)}% ${p.positions}/${p.target} positions, ${p.chunks} chunks (${p.chunksDone} this run), ` +
    `${p.positionsPerSecond.toFixed(1)} pos/s over ${p.workers} worker(s), ${p.outstanding} jobs queued, ${p.duplicates} duplicates, ETA ${formatDuration(p.etaSeconds)}`
  );
};

export const formatDatagenResult = (r: DatagenJobResult): string =>
  `worker ${r.worker}: chunk ${r.chunk}, ${r.games} games, ${r.count} positions before dedup, ${(r.ms / 1000).toFixed(1)} s (${((r.count * 1000) / Math.max(1, r.ms)).toFixed(1)} pos/s)`;
