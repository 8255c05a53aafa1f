/**
 * `kishi queue status`: the queue's job counts by state and kind, the live workers (from their
 * heartbeats) and the Redis settings the queue relies on (AOF persistence, memory).
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
  readonly aof: boolean;
  readonly usedMemory: string;
}

export async function readQueueStatus(q: ProducerQueue): Promise<QueueStatus> {
  const counts = await q.counts();
  const kinds: Record<string, number> = {};
  const jobs = await q.bull.getJobs(['waiting', 'active', 'delayed', 'prioritized'], 0, 999);
  for (const j of jobs) if (j !== undefined) kinds[j.name] = (kinds[j.name] ?? 0) + 1;
  const persistence = await q.info('persistence');
  const memory = await q.info('memory');
  return {
    queue: q.name,
    server: q.connection.display,
    counts,
    kinds,
    workers: await q.workers(),
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
  lines.push(`workers: ${s.workers.length} (${s.workers.reduce((a, w) => a + w.concurrency, 0)} slots)`);
  for (const w of s.workers) {
    const age = Math.round((now - Date.parse(w.at)) / 1000);
    lines.push(
      `  ${w.id}  kishi ${w.version}, ${w.concurrency} slot(s), ${w.active.length} busy, ${w.jobsDone} done, ${w.jobsFailed} failed, ${w.positions} positions, ${w.games} games, seen ${age} s ago` +
        (w.refused > 0 ? `, refused ${w.refused} (last: ${w.lastRefusal ?? '?'})` : ''),
    );
  }
  return lines.join('\n');
}
