/**
 * A producer's view of the queue: add a job under its derived id (a no-op while a job of that id
 * exists), hear which jobs finished, look at jobs, take a finished job's result and delete the job.
 *
 * Finished jobs are announced by their workers on a list per run (done-list.ts), which the
 * producer pops with one blocking call on a third connection of its own: no polling, and per
 * finished job one look at that job only. The jobs themselves stay the record (a producer sweeps
 * all of its jobs now and then, and when it starts), so nothing is missed while the producer is
 * down, an announcement is lost, or Redis restarts.
 *
 * Looking is cheap and flat in the queue's size: one pipelined round trip for any number of jobs,
 * each a hash read and two sorted-set scores (O(log n)), where BullMQ's `getJobState` scans the
 * wait and active lists (O(n) each, per job). Live workers come from a sorted set of heartbeats
 * (one range query) instead of a keyspace scan.
 *
 * Every call runs under a deadline ({@link ProducerQueueOptions.timeoutMs}): a server that accepts
 * the connection but never answers is a clear error, not a hang; a server that is down (connection
 * refused, reconnecting) is waited for with a warning, and the producer's abort signal ends the
 * wait at once, Redis up or down. A permanent error (wrong password, a certificate that does not
 * verify) fails the call at once; messages never hold the password (Redis's own texts and the
 * display URL only, passed through the log redaction).
 */
import { Queue, type ConnectionOptions } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import { KishiError } from '../core/result.js';
import { redact } from '../log/redact.js';
import { permanentConnectionError, type QueueConnection } from './connection.js';
import { doneListKey } from './done-list.js';
import { CORRUPT_JOB, discardKey, PAYLOAD_TTL_S, workerSetKey, workerKeyPrefix, type JobKind, type QueueJob, type QueueJobResult } from './jobs.js';
import { QUEUE_KEY_PREFIX } from './queue-names.js';
import type { JobLook, JobStore } from './job-store.js';
import type { WorkerHeartbeat } from './worker-heartbeat.js';

/** Attempts of a job that throws (a crash of the job, not of the worker: those are stalls). */
const ATTEMPTS = 3;
/** A finished job not collected for this long is deleted by BullMQ (its producer re-adds it if it still wants it). */
const KEEP_FINISHED_S = 24 * 3600;
/** Default deadline of one call, ms. */
const DEFAULT_TIMEOUT_MS = 15_000;

export interface ProducerQueueOptions {
  /** Hears about a lost or refused connection (at most once per message every 30 s). */
  readonly onConnectionError?: (message: string) => void;
  /** Ends any call in progress (ERR_ABORTED), Redis up or down. */
  readonly signal?: AbortSignal;
  /** A call not answered within this long while connected is an error (ERR_QUEUE_TIMEOUT), ms. */
  readonly timeoutMs?: number;
  /** Fail instead of waiting while Redis is unreachable (`kishi queue status`). */
  readonly failWhenDown?: boolean;
}

/** Raw BullMQ hash fields read by `look`. */
const LOOK_FIELDS = ['name', 'returnvalue', 'failedReason'] as const;

export class ProducerQueue implements JobStore {
  private readonly queue: Queue;
  private readonly redis: Redis;
  /** The connection that blocks waiting for announcements (made on first use). */
  private blocking: Redis | undefined;
  private readonly redisOptions: RedisOptions;
  private readonly onError: (e: Error & { code?: string }) => void;
  private readonly timeoutMs: number;
  private readonly failWhenDown: boolean;
  private readonly signal: AbortSignal | undefined;
  private readonly onConnectionError: ((message: string) => void) | undefined;
  /** Set on a permanent connection error: every call fails with it. */
  private fatal: KishiError | undefined;
  private readonly fatalListeners = new Set<(e: KishiError) => void>();
  private lastError: string | undefined;

  constructor(
    readonly connection: QueueConnection,
    readonly name: string,
    options: ProducerQueueOptions | ((message: string) => void) = {},
  ) {
    const o: ProducerQueueOptions = typeof options === 'function' ? { onConnectionError: options } : options;
    this.timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.failWhenDown = o.failWhenDown === true;
    this.signal = o.signal;
    this.onConnectionError = o.onConnectionError;
    const said = new Map<string, number>();
    const onError = (e: Error & { code?: string }): void => {
      const permanent = permanentConnectionError(e);
      if (permanent !== undefined && this.fatal === undefined) {
        this.fatal = new KishiError('ERR_QUEUE_CONNECTION', redact(`Redis at ${connection.display}: ${permanent}`));
        for (const l of this.fatalListeners) l(this.fatal);
        // Stop reconnecting: the same credentials would be refused forever.
        this.redis.disconnect();
        this.blocking?.disconnect();
        void this.queue.close().catch(() => {});
        return;
      }
      this.lastError = redact(e.message);
      const last = said.get(e.message) ?? -Infinity;
      if (Date.now() - last < 30_000) return;
      said.set(e.message, Date.now());
      this.onConnectionError?.(redact(`Redis at ${connection.display}: ${e.message} (retrying)`));
    };
    const retryStrategy = (times: number): number | null => (this.failWhenDown && times > 3 ? null : Math.min(200 * times, 5000));
    const opts = { ...connection.options, retryStrategy };
    // Job events are not used (results are looked up): keep BullMQ's event stream short.
    this.queue = new Queue(name, { connection: opts as ConnectionOptions, prefix: QUEUE_KEY_PREFIX, streams: { events: { maxLen: 1000 } } });
    this.queue.on('error', onError);
    this.redis = new Redis(opts);
    this.redis.on('error', onError);
    this.redisOptions = opts;
    this.onError = onError;
  }

  private blockingClient(): Redis {
    if (this.blocking === undefined) {
      this.blocking = new Redis(this.redisOptions);
      this.blocking.on('error', this.onError);
    }
    return this.blocking;
  }

  /**
   * `p` under the deadline: resolves with it; rejects with ERR_ABORTED on the signal, with the
   * permanent error when one comes, with ERR_QUEUE_TIMEOUT when the server is connected but does
   * not answer within the deadline, and keeps waiting (with a warning) while it is unreachable.
   */
  private async call<T>(what: string, p: Promise<T>, blockMs = 0): Promise<T> {
    // The promise may settle after we gave up on it: never an unhandled rejection (whose text
    // would be printed with the command's arguments).
    p.catch(() => {});
    if (this.fatal !== undefined) throw this.fatal;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    let onFatal: ((e: KishiError) => void) | undefined;
    const started = Date.now();
    try {
      for (;;) {
        // A blocking command (BLPOP) is given its own blocking time on top of the deadline.
        const tick = new Promise<'tick'>((resolve) => (timer = setTimeout(() => resolve('tick'), this.timeoutMs + blockMs)));
        const stop = new Promise<never>((_, reject) => {
          onAbort = () => reject(new KishiError('ERR_ABORTED', `stopped while waiting for Redis (${what})`));
          if (this.signal?.aborted === true) onAbort();
          this.signal?.addEventListener('abort', onAbort, { once: true });
          onFatal = (e) => reject(e);
          this.fatalListeners.add(onFatal);
        });
        const r = await Promise.race([p.then((v) => ({ v })), tick, stop]);
        clearTimeout(timer);
        if (r !== 'tick') return r.v;
        if (this.fatal !== undefined) throw this.fatal;
        const status = this.redis.status;
        const seconds = Math.round((Date.now() - started) / 1000);
        if (status === 'ready' || status === 'connect') {
          throw new KishiError(
            'ERR_QUEUE_TIMEOUT',
            `Redis at ${this.connection.display} accepted the connection but did not answer ${what} within ${seconds} s (is it a Redis server, and not stopped or overloaded?)`,
          );
        }
        if (this.failWhenDown || status === 'end' || status === 'close') {
          throw new KishiError('ERR_QUEUE_TIMEOUT', `Redis at ${this.connection.display} is unreachable (${this.lastError ?? status}); ${what} not done`);
        }
        this.onConnectionError?.(`Redis at ${this.connection.display} unreachable for ${seconds} s (${this.lastError ?? status}); waiting (Ctrl-C stops)`);
      }
    } finally {
      clearTimeout(timer);
      if (onAbort !== undefined) this.signal?.removeEventListener('abort', onAbort);
      if (onFatal !== undefined) this.fatalListeners.delete(onFatal);
    }
  }

  /**
   * Adds the job unless one with this id exists. A discard marker a finished run left on this id
   * is deleted first: the producer wants the job, so its worker must store the records.
   */
  async ensure(kind: JobKind, id: string, data: QueueJob): Promise<void> {
    await this.call('a discard marker delete', this.redis.del(discardKey(QUEUE_KEY_PREFIX, this.name, id)));
    await this.call(
      `adding job ${id}`,
      this.queue.add(kind, data, {
        jobId: id,
        attempts: ATTEMPTS,
        backoff: { type: 'fixed', delay: 2000 },
        removeOnComplete: { age: KEEP_FINISHED_S },
        removeOnFail: { age: KEEP_FINISHED_S },
      }),
    );
  }

  /**
   * Ids announced on `group`'s list (done-list.ts): one BLPOP of up to `ms` on the blocking
   * connection, then the rest of the list in one LPOP. The stop signal ends the wait at once
   * (empty), Redis up or down.
   */
  async finished(group: string, ms: number): Promise<string[]> {
    if (this.signal?.aborted === true) return [];
    const key = doneListKey(QUEUE_KEY_PREFIX, this.name, group);
    // BLPOP's timeout is in seconds, decimals allowed (Redis 6+); 0 would block forever.
    const seconds = Math.max(0.05, ms / 1000);
    try {
      const first = await this.call('waiting for finished jobs', this.blockingClient().blpop(key, seconds), seconds * 1000);
      if (first === null) return [];
      const rest = await this.call('reading finished jobs', this.redis.lpop(key, 1000));
      return [first[1], ...(rest ?? [])];
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_ABORTED') return [];
      throw e;
    }
  }

  /** Where one job stands (see {@link lookMany}). */
  async look(id: string): Promise<JobLook> {
    return (await this.lookMany([id]))[0]!;
  }

  /**
   * Where each job stands, in one round trip: the job hash's name (present while the job exists),
   * its result and failure reason, and whether it is in the completed or failed set. A result that
   * is not JSON (a job edited in Redis) is a failure marked `corrupt`: its producer queues it again.
   */
  async lookMany(ids: readonly string[]): Promise<JobLook[]> {
    if (ids.length === 0) return [];
    const base = `${QUEUE_KEY_PREFIX}:${this.name}`;
    const pipe = this.redis.pipeline();
    for (const id of ids) {
      pipe.hmget(`${base}:${id}`, ...LOOK_FIELDS);
      pipe.zscore(`${base}:completed`, id);
      pipe.zscore(`${base}:failed`, id);
    }
    const replies = (await this.call(`looking at ${ids.length} job(s)`, pipe.exec())) ?? [];
    return ids.map((_, k): JobLook => {
      const [e1, fields] = replies[3 * k] ?? [];
      const [e2, completed] = replies[3 * k + 1] ?? [];
      const [e3, failed] = replies[3 * k + 2] ?? [];
      const err = e1 ?? e2 ?? e3;
      if (err) throw new KishiError('ERR_QUEUE', redact(`Redis at ${this.connection.display}: ${err.message}`));
      const [name, returnvalue, failedReason] = fields as (string | null)[];
      if (name === null || name === undefined) return { state: 'missing' };
      if (completed !== null) {
        try {
          const result = JSON.parse(returnvalue ?? 'null') as QueueJobResult | null;
          if (result === null || typeof result !== 'object') return { state: 'failed', reason: 'the job completed without a result', corrupt: true };
          return { state: 'done', result };
        } catch {
          return { state: 'failed', reason: 'the job\'s result is not JSON', corrupt: true };
        }
      }
      if (failed !== null) {
        const reason = failedReason ?? 'unknown';
        return { state: 'failed', reason, corrupt: reason.startsWith(CORRUPT_JOB) };
      }
      return { state: 'pending' };
    });
  }

  /**
   * Counts the Redis commands this producer sends from now on, on both its connections (pipelined
   * and script calls included, as ioredis sends each through `sendCommand`): a measurement of what
   * a producer costs the server (the simulated-fleet test). Returns the counter's reader.
   */
  async commandCounter(): Promise<() => number> {
    let n = 0;
    const count = (client: Redis): void => {
      const send = client.sendCommand.bind(client);
      client.sendCommand = ((...args: Parameters<Redis['sendCommand']>) => {
        n++;
        return send(...args);
      }) as Redis['sendCommand'];
    };
    count(this.redis);
    count(this.blockingClient());
    count((await this.call('connecting', this.queue.getBackend().client)) as unknown as Redis);
    return () => n;
  }

  /** Redis's own byte counters (INFO stats): traffic measurements. */
  async netBytes(): Promise<{ input: number; output: number }> {
    const s = await this.info('stats');
    return { input: Number(s['total_net_input_bytes'] ?? 0), output: Number(s['total_net_output_bytes'] ?? 0) };
  }

  /** Deletes a job (collected, or no longer wanted); false when a worker holds it (locked). */
  async remove(id: string): Promise<boolean> {
    if ((await this.call(`removing job ${id}`, this.queue.remove(id))) === 1) return true;
    return (await this.call(`looking at job ${id}`, this.redis.exists(`${QUEUE_KEY_PREFIX}:${this.name}:${id}`))) === 0;
  }

  /** Marks a job a worker holds as unwanted: the worker stores no payload for it. */
  async discard(id: string): Promise<void> {
    await this.call('setting a discard marker', this.redis.set(discardKey(QUEUE_KEY_PREFIX, this.name, id), '1', 'EX', PAYLOAD_TTL_S));
  }

  /** A payload a worker stored (jobs.ts `payloadKey`); undefined when it is gone. */
  async payload(key: string): Promise<Buffer | undefined> {
    if (key === '') return undefined;
    return (await this.call('reading a payload', this.redis.getBuffer(key))) ?? undefined;
  }

  /** Stores a blob (a network file) unless it is there; refreshes its expiry either way. */
  async putBlob(key: string, bytes: Uint8Array, ttlSeconds: number): Promise<void> {
    const added = await this.call('storing a blob', this.redis.set(key, Buffer.from(bytes), 'EX', ttlSeconds, 'NX'));
    if (added === null) await this.call('refreshing a blob', this.redis.expire(key, ttlSeconds));
  }

  async deletePayload(key: string): Promise<void> {
    if (key === '') return;
    await this.call('deleting a payload', this.redis.del(key));
  }

  /**
   * The live workers' heartbeats: the members of the workers' sorted set whose expiry is still
   * ahead (one range query and one MGET, however large the keyspace). Expired members are trimmed.
   * A heartbeat that is not JSON is skipped, never fatal.
   */
  async workers(): Promise<WorkerHeartbeat[]> {
    const set = workerSetKey(QUEUE_KEY_PREFIX, this.name);
    const now = Date.now();
    await this.call('trimming the workers set', this.redis.zremrangebyscore(set, '-inf', now));
    const ids = await this.call('listing workers', this.redis.zrangebyscore(set, now, '+inf'));
    if (ids.length === 0) return [];
    const prefix = workerKeyPrefix(QUEUE_KEY_PREFIX, this.name);
    const values = await this.call('reading heartbeats', this.redis.mget(...ids.map((id) => `${prefix}${id}`)));
    const out: WorkerHeartbeat[] = [];
    for (const v of values) {
      if (v === null) continue;
      try {
        const h = JSON.parse(v) as WorkerHeartbeat;
        if (h !== null && typeof h === 'object' && typeof h.id === 'string' && typeof h.concurrency === 'number') out.push(h);
      } catch {
        // A damaged heartbeat: that worker is not counted until its next beat.
      }
    }
    return out.sort((a, b) => a.id.localeCompare(b.id));
  }

  /** Job counts by state. */
  async counts(): Promise<Record<string, number>> {
    return this.call('counting jobs', this.queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized'));
  }

  /**
   * Job ids in `states` with their name (kind) and failure reason, read as raw hash fields: a job
   * whose data is not JSON is listed like any other (BullMQ's `getJobs` would throw on it).
   */
  async listJobs(states: readonly ('waiting' | 'active' | 'delayed' | 'prioritized' | 'failed')[], max = 1000): Promise<{ id: string; state: string; name: string; failedReason?: string }[]> {
    const out: { id: string; state: string; name: string; failedReason?: string }[] = [];
    const base = `${QUEUE_KEY_PREFIX}:${this.name}`;
    for (const state of states) {
      const key = state === 'waiting' ? `${base}:wait` : `${base}:${state}`;
      const ids = state === 'waiting' || state === 'active'
        ? await this.call(`listing ${state} jobs`, this.redis.lrange(key, 0, max - 1))
        : await this.call(`listing ${state} jobs`, this.redis.zrange(key, '0', String(max - 1)));
      if (ids.length === 0) continue;
      const pipe = this.redis.pipeline();
      for (const id of ids) pipe.hmget(`${base}:${id}`, 'name', 'failedReason');
      const replies = (await this.call(`reading ${state} jobs`, pipe.exec())) ?? [];
      ids.forEach((id, k) => {
        const [name, failedReason] = (replies[k]?.[1] ?? [null, null]) as (string | null)[];
        out.push({ id, state, name: name ?? '?', ...(failedReason !== null && failedReason !== undefined ? { failedReason } : {}) });
      });
    }
    return out;
  }

  /** Redis INFO fields (persistence, memory) for status. */
  async info(section: string): Promise<Record<string, string>> {
    const text = await this.call(`INFO ${section}`, this.redis.info(section));
    return Object.fromEntries(text.split(/\r?\n/).filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1)]));
  }

  /** Closes both connections; gives up on a graceful close after 2 s (Redis down). */
  async close(): Promise<void> {
    await Promise.race([this.queue.close().catch(() => {}), new Promise<void>((r) => void setTimeout(() => r(), 2000).unref())]);
    this.redis.disconnect();
    this.blocking?.disconnect();
    // BullMQ's own connection when its close did not finish.
    void this.queue.disconnect().catch(() => {});
  }
}
