/**
 * A producer's view of the queue: add a job under its derived id (a no-op while a job of that id
 * exists), look at one job, take a finished job's result and delete the job. Results are read by
 * polling the producer's own job ids rather than from the event stream, so that nothing is missed
 * while the producer is down or Redis restarts: the jobs themselves are the record.
 */
import { Job, Queue, type ConnectionOptions } from 'bullmq';
import { Redis } from 'ioredis';
import type { QueueConnection } from './connection.js';
import { discardKey, PAYLOAD_TTL_S, workerKeyPrefix, type JobKind, type QueueJob, type QueueJobResult } from './jobs.js';
import { QUEUE_KEY_PREFIX } from './queue-names.js';
import type { JobLook, JobStore } from './job-store.js';
import type { WorkerHeartbeat } from './worker-heartbeat.js';


/** Attempts of a job that throws (a crash of the job, not of the worker: those are stalls). */
const ATTEMPTS = 3;
/** A finished job not collected for this long is deleted by BullMQ (its producer re-adds it if it still wants it). */
const KEEP_FINISHED_S = 24 * 3600;

export class ProducerQueue implements JobStore {
  private readonly queue: Queue;
  private readonly redis: Redis;

  /**
   * `onConnectionError` hears about a lost or refused connection (at most once per message every
   * 30 s): commands wait for the reconnection rather than fail, so without it a producer whose Redis
   * is down would wait silently.
   */
  constructor(
    readonly connection: QueueConnection,
    readonly name: string,
    onConnectionError?: (message: string) => void,
  ) {
    const said = new Map<string, number>();
    const onError = (e: Error): void => {
      const last = said.get(e.message) ?? -Infinity;
      if (Date.now() - last < 30_000) return;
      said.set(e.message, Date.now());
      onConnectionError?.(`Redis at ${connection.display}: ${e.message} (retrying)`);
    };
    // Job events are not used (results are polled): keep BullMQ's event stream short.
    this.queue = new Queue(name, { connection: connection.options as ConnectionOptions, prefix: QUEUE_KEY_PREFIX, streams: { events: { maxLen: 1000 } } });
    this.queue.on('error', onError);
    this.redis = new Redis(connection.options);
    this.redis.on('error', onError);
  }

  /** Adds the job unless one with this id exists. */
  async ensure(kind: JobKind, id: string, data: QueueJob): Promise<void> {
    await this.queue.add(kind, data, {
      jobId: id,
      attempts: ATTEMPTS,
      backoff: { type: 'fixed', delay: 2000 },
      removeOnComplete: { age: KEEP_FINISHED_S },
      removeOnFail: { age: KEEP_FINISHED_S },
    });
  }

  /**
   * Where the job stands. Polled often, so the state alone is asked for first (a short reply); the
   * job's hash (its data and result) is read only once it has finished.
   */
  async look(id: string): Promise<JobLook> {
    const state = await this.queue.getJobState(id);
    if (state === 'unknown') return { state: 'missing' };
    if (state !== 'completed' && state !== 'failed') return { state: 'pending' };
    const job = (await Job.fromId(this.queue, id)) as Job<QueueJob, QueueJobResult> | undefined;
    if (job === undefined) return { state: 'missing' };
    if (state === 'completed') return { state: 'done', result: job.returnvalue };
    return { state: 'failed', reason: job.failedReason };
  }

  /** Redis's own byte counters (INFO stats): traffic measurements. */
  async netBytes(): Promise<{ input: number; output: number }> {
    const s = await this.info('stats');
    return { input: Number(s['total_net_input_bytes'] ?? 0), output: Number(s['total_net_output_bytes'] ?? 0) };
  }

  /** Deletes a job (collected, or no longer wanted); false when a worker holds it (locked). */
  async remove(id: string): Promise<boolean> {
    return (await this.queue.remove(id)) === 1 || (await Job.fromId(this.queue, id)) === undefined;
  }

  /** Marks a job a worker holds as unwanted: the worker stores no payload for it. */
  async discard(id: string): Promise<void> {
    await this.redis.set(discardKey(QUEUE_KEY_PREFIX, this.name, id), '1', 'EX', PAYLOAD_TTL_S);
  }

  /** A payload a worker stored (jobs.ts `payloadKey`); undefined when it is gone. */
  async payload(key: string): Promise<Buffer | undefined> {
    return (await this.redis.getBuffer(key)) ?? undefined;
  }

  /** Stores a blob (a network file) unless it is there; refreshes its expiry either way. */
  async putBlob(key: string, bytes: Uint8Array, ttlSeconds: number): Promise<void> {
    const added = await this.redis.set(key, Buffer.from(bytes), 'EX', ttlSeconds, 'NX');
    if (added === null) await this.redis.expire(key, ttlSeconds);
  }

  async deletePayload(key: string): Promise<void> {
    await this.redis.del(key);
  }

  /** The live workers' heartbeats. */
  async workers(): Promise<WorkerHeartbeat[]> {
    const prefix = workerKeyPrefix(QUEUE_KEY_PREFIX, this.name);
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await this.redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 200);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== '0');
    if (keys.length === 0) return [];
    const values = await this.redis.mget(...keys);
    return values.filter((v): v is string => v !== null).map((v) => JSON.parse(v) as WorkerHeartbeat).sort((a, b) => a.id.localeCompare(b.id));
  }

  /** Job counts by state. */
  async counts(): Promise<Record<string, number>> {
    return this.queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized');
  }

  /** The underlying BullMQ queue (status listings). */
  get bull(): Queue {
    return this.queue;
  }

  /** Redis INFO fields (persistence, memory) for status. */
  async info(section: string): Promise<Record<string, string>> {
    const text = await this.redis.info(section);
    return Object.fromEntries(text.split(/\r?\n/).filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1)]));
  }

  async close(): Promise<void> {
    await this.queue.close();
    this.redis.disconnect();
  }
}
