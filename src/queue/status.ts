/**
 * `kishi queue status`: the queue's job counts by state and kind, the failed jobs with their
 * reasons (a damaged job shows here, and does not break the listing: jobs are read as raw hash
 * fields, never parsed), the live workers (from their heartbeats) and the Redis settings the queue
 * relies on (AOF persistence, memory).
 */
import type { ProducerQueue } from './producer-queue.js';
import type { WorkerHeartbeat } from './worker-heartbeat.js';

export interface QueueStatus {
  readonly queue: string;
  readonly server: string;
  readonly counts: Readonly<Record<string, number>>;
  /** Waiting + active + delayed jobs by kind. */
  readonly kinds: Readonly<Record<string, number>>;
  readonly workers: readonly WorkerHeartbeat[];
  /** The first failed jobs (up to 20) with their reasons. */
  readonly failed: readonly { readonly id: string; readonly kind: string; readonly reason: string }[];
  readonly aof: boolean;
  readonly usedMemory: string;
}

export async function readQueueStatus(q: ProducerQueue): Promise<QueueStatus> {
  const counts = await q.counts();
  const kinds: Record<string, number> = {};
  const jobs = await q.listJobs(['waiting', 'active', 'delayed', 'prioritized'], 1000);
  for (const j of jobs) kinds[j.name] = (kinds[j.name] ?? 0) + 1;
  const failed = (await q.listJobs(['failed'], 20)).map((j) => ({ id: j.id, kind: j.name, reason: j.failedReason ?? '?' }));
  const persistence = await q.info('persistence');
  const memory = await q.info('memory');
  return {
    queue: q.name,
    server: q.connection.display,
    counts,
    kinds,
    workers: await q.workers(),
    failed,
    aof: persistence['aof_enabled'] === '1',
    usedMemory: memory['used_memory_human'] ?? '?',
  };
}

export function formatQueueStatus(s: QueueStatus, now: number = Date.now()): string {
  const c = s.counts;
  const lines = [
    `queue ${s.queue} at ${s.server} (Redis AOF ${s.aof ? 'on' : 'OFF: a Redis restart loses the queued jobs (producers re-add them)'}, ${s.usedMemory} used)`,
    `jobs: ${c['waiting'] ?? 0} waiting, ${c['active'] ?? 0} active, ${c['delayed'] ?? 0} delayed, ${c['completed'] ?? 0} completed (not yet collected), ${c['failed'] ?? 0} failed`,
  ];
  const kinds = Object.entries(s.kinds);
  if (kinds.length > 0) lines.push(`open jobs by kind: ${kinds.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  for (const f of s.failed) lines.push(`  failed ${f.kind} job ${f.id}: ${f.reason.split('\n')[0]!.slice(0, 300)}`);
  lines.push(`workers: ${s.workers.length} (${s.workers.reduce((a, w) => a + w.concurrency, 0)} slots)`);
  for (const w of s.workers) {
    const age = Math.round((now - Date.parse(w.at)) / 1000);
    lines.push(
      `  ${w.id}  kishi ${w.version}${w.build !== undefined ? ` build ${w.build.slice(0, 12)}` : ''}, ${w.concurrency} slot(s), ${w.active.length} busy, ${w.jobsDone} done, ${w.jobsFailed} failed, ${w.positions} positions, ${w.games} games, seen ${age} s ago` +
        (w.refused > 0 ? `, refused ${w.refused} (last: ${w.lastRefusal ?? '?'})` : '') +
        (w.pausedUntil !== undefined ? `, taking no jobs until ${w.pausedUntil}` : ''),
    );
  }
  return lines.join('\n');
}
