/**
 * `kishi worker`: takes jobs of every kind from the queue and runs them with this machine's cores.
 *
 * 1. Before a job runs, its stamp (stamp.ts) is checked: another project version, queue protocol
 *    or a differing file (weights, network, book) means this worker refuses it: the job goes back
 *    to the queue (delayed a few seconds, attempts not counted, BullMQ's `DelayedError` pattern),
 *    the refusal is logged with its reason and published in the heartbeat, so `kishi queue status`
 *    and the producer show it.
 * 2. Datagen chunks run on threads (thread-pool.ts) so that the event loop stays free to renew the
 *    job locks; self-play runs its own threads (runSelfplay); match games run engine processes.
 *    Chunk bytes go to a payload key (jobs.ts), everything else is the job's value.
 * 3. A finished job (completed, or failed) is announced on its producer's list (done-list.ts):
 *    the producer blocks on that list instead of polling its jobs.
 * 4. A heartbeat key per worker (id, host, version, slots, jobs done, refusals) expires 30 s after
 *    the worker stops refreshing it, and its id sits in a sorted set scored by that expiry: the
 *    list of live workers in one range query, without CLIENT LIST rights or a keyspace scan.
 * 5. Nothing in a job is executed as given: a match job names engines by id, resolved with this
 *    worker's own allow-list (match-engines.ts); a job whose data is not JSON, not the shape of
 *    its kind, or does not match its digest fails at once and for good (`CORRUPT_JOB`), and its
 *    producer adds it again. Every result carries the digest of the job data it answers and this
 *    worker's build hash, so a producer can refuse a result for a job edited in Redis.
 * 6. Stopping: the first SIGINT/SIGTERM lets the jobs in progress finish and takes no new ones (a
 *    datagen chunk may take minutes); the second exits at once, and BullMQ's stalled-job check on
 *    the other workers hands the abandoned jobs out again after the lock expires.
 */
import { hostname } from 'node:os';
import { DelayedError, UnrecoverableError, Worker, type ConnectionOptions, type Job, type JobJson } from 'bullmq';
import { Redis } from 'ioredis';
import type winston from 'winston';
import type { EngineSpec } from '../engines/engine-spec.js';
import { redact } from '../log/redact.js';
import { playRemoteGames } from '../match/remote-play.js';
import { permanentConnectionError, type QueueConnection } from './connection.js';
import {
  CORRUPT_JOB,
  discardKey,
  jobDigest,
  packBytes,
  payloadKey,
  PAYLOAD_TTL_S,
  sha256Hex,
  workerKeyPrefix,
  workerSetKey,
  type DatagenJob,
  type DatagenJobResult,
  type MatchJob,
  type MatchJobResult,
  type QueueJob,
  type QueueJobResult,
} from './jobs.js';
import { announceFinished } from './done-list.js';
import { resolveMatchSettings } from './match-engines.js';
import { buildHash, projectVersion, stampMismatch } from './stamp.js';
import { jobShapeProblem } from './job-shape.js';
import { DatagenThreadPool } from './thread-pool.js';
import type { WorkerHeartbeat } from './worker-heartbeat.js';
import { QUEUE_KEY_PREFIX } from './queue-names.js';
import { runSelfplayJob } from './selfplay-job.js';

export interface WorkerOptions {
  readonly connection: QueueConnection;
  readonly queueName: string;
  /** Jobs at once (datagen threads). */
  readonly concurrency: number;
  /** BullMQ lock of a job, ms: a dead worker's job is handed out again after about this long (default 30000). */
  readonly lockDurationMs?: number;
  /** How often this worker looks for stalled jobs, ms (default 15000). */
  readonly stalledIntervalMs?: number;
  readonly log: winston.Logger;
  /** Worker id in logs and status (default host-pid). */
  readonly id?: string;
  /** For tests: the project version this worker claims. */
  readonly version?: string;
  /** For tests: the build hash this worker claims (default: stamp.ts `buildHash`). */
  readonly build?: string;
  /** Engines match jobs may name besides Kishi itself (config `queue.engines`, by id). */
  readonly engines?: ReadonlyMap<string, EngineSpec>;
}

/** The data BullMQ hands the processor for a job whose stored data is not JSON. */
interface UnreadableJob {
  readonly kind: '__unreadable';
  readonly reason: string;
}

/**
 * BullMQ's worker, except that a job whose stored data is not JSON becomes a job the processor
 * fails for good. BullMQ parses the data before the processor runs and throws outside any job
 * (the job then stalls, and bounces between workers).
 */
class GuardedWorker extends Worker<QueueJob, QueueJobResult> {
  protected override createJob(data: JobJson, jobId: string): Job<QueueJob, QueueJobResult> {
    try {
      return super.createJob(data, jobId);
    } catch (e) {
      const unreadable: UnreadableJob = { kind: '__unreadable', reason: `its data is not JSON (${(e as Error).message.slice(0, 120)})` };
      return super.createJob({ ...data, data: JSON.stringify(unreadable) }, jobId);
    }
  }
}

/** Delay before a refused job is offered again, ms. */
const REFUSE_DELAY_MS = 5000;
const HEARTBEAT_MS = 5000;
const HEARTBEAT_TTL_S = 30;
/** Deadline of a command on the worker's own connection (payloads, heartbeat), ms. */
const COMMAND_TIMEOUT_MS = 30_000;

export interface RunningWorker {
  readonly id: string;
  /** Resolves when the worker has stopped. */
  readonly done: Promise<void>;
  /** Graceful stop (`force`: abandon the jobs in progress). */
  stop(force?: boolean): Promise<void>;
  /** Why the worker stopped on its own (a permanent connection error), once `done`. */
  failure(): string | undefined;
}

export function startWorker(o: WorkerOptions): RunningWorker {
  const id = o.id ?? `${hostname()}-${process.pid}`;
  const version = o.version ?? projectVersion();
  const build = o.build ?? buildHash();
  const engines = o.engines ?? new Map<string, EngineSpec>();
  const pool = new DatagenThreadPool(o.concurrency);
  const active = new Set<string>();
  const stats = { jobsDone: 0, jobsFailed: 0, positions: 0, games: 0, refused: 0, lastRefusal: undefined as string | undefined };
  const startedAt = new Date().toISOString();
  const refusedLogged = new Set<string>();
  // A plain connection for payloads and the heartbeat (BullMQ's own connections block on job fetches).
  const beat = new Redis({ ...o.connection.options, commandTimeout: COMMAND_TIMEOUT_MS });
  /** Jobs whose producer no longer wants them: removed from Redis as soon as they complete. */
  const discarded = new Set<string>();
  let failure: string | undefined;

  /**
   * A worker of another build or version refuses every job of its producers: it steps aside for a
   * while (15 s, doubling up to 5 min while it keeps refusing stamps) instead of taking and putting
   * back each job ahead of the workers that can run it. A job it runs resets the pause.
   */
  let stampRefusals = 0;
  let pausedUntil: number | undefined;
  const stepAside = (): void => {
    if (pausedUntil !== undefined) return;
    const seconds = Math.min(300, 15 * 2 ** Math.min(stampRefusals - 1, 5));
    pausedUntil = Date.now() + seconds * 1000;
    o.log.warn(`taking no jobs for ${seconds} s: this worker's build cannot run the jobs queued now (update its checkout and rebuild)`);
    void worker.pause(true).catch(() => {});
    setTimeout(() => {
      pausedUntil = undefined;
      if (stopping === undefined) worker.resume();
    }, seconds * 1000).unref();
  };

  const refuse = async (job: Job, token: string | undefined, why: string, stamp = false): Promise<never> => {
    stats.refused++;
    if (stamp) {
      stampRefusals++;
      stepAside();
    }
    stats.lastRefusal = `${job.id}: ${why}`;
    const key = `${job.name}|${why}`;
    if (!refusedLogged.has(key)) {
      refusedLogged.add(key);
      o.log.warn(`refusing ${job.name} job ${job.id}: ${why}; it goes back to the queue for a matching worker (update this worker's checkout)`);
    }
    void heartbeat();
    await job.moveToDelayed(Date.now() + REFUSE_DELAY_MS, token);
    throw new DelayedError();
  };

  const runDatagen = async (job: Job, d: DatagenJob, token: string | undefined, jobDigestRan: string): Promise<DatagenJobResult> => {
    const r = await pool.play(d);
    if (r.type === 'refuse') return refuse(job, token, r.message);
    if (r.type === 'error') throw new Error(r.message);
    stats.positions += r.count;
    stats.games += r.games;
    const packed = packBytes(r.records);
    const pk = payloadKey(QUEUE_KEY_PREFIX, o.queueName, String(job.id));
    const tie = { jobDigest: jobDigestRan, build };
    // Its producer finished without it: store nothing (and the job is removed once complete).
    if ((await beat.exists(discardKey(QUEUE_KEY_PREFIX, o.queueName, String(job.id)))) === 1) {
      o.log.info(`datagen chunk ${r.chunk}: no longer wanted by its producer, records dropped`);
      discarded.add(String(job.id));
      return { kind: 'datagen', worker: id, chunk: r.chunk, games: r.games, nodes: r.nodes, count: r.count, payloadKey: '', payloadBytes: 0, payloadSha: '', ms: Math.round(r.ms), ...tie };
    }
    await beat.set(pk, packed, 'EX', PAYLOAD_TTL_S);
    o.log.info(`datagen chunk ${r.chunk} (shard ${d.shardIndex}/${d.shardCount}): ${r.games} games, ${r.count} positions before dedup, ${packed.length} bytes, ${(r.ms / 1000).toFixed(1)} s`);
    return { kind: 'datagen', worker: id, chunk: r.chunk, games: r.games, nodes: r.nodes, count: r.count, payloadKey: pk, payloadBytes: packed.length, payloadSha: sha256Hex(packed), ms: Math.round(r.ms), ...tie };
  };

  const runMatch = async (job: Job, d: MatchJob, token: string | undefined, jobDigestRan: string): Promise<MatchJobResult> => {
    const settings = resolveMatchSettings(d.settings, engines);
    if (settings.isErr) return refuse(job, token, settings.error.message);
    const t0 = performance.now();
    const records = await playRemoteGames(settings.value, d.games, (m) => o.log.warn(m));
    stats.games += records.length;
    const ms = performance.now() - t0;
    o.log.info(`match games ${d.games.map((g) => g.id).join(', ')}: ${records.map((r) => `${r.players.first}-${r.players.second} ${r.end.winner ?? 'draw'} (${r.end.reason})`).join('; ')}, ${(ms / 1000).toFixed(1)} s`);
    return { kind: 'match', worker: id, records, ms: Math.round(ms), jobDigest: jobDigestRan, build };
  };

  const processor = async (job: Job<QueueJob, QueueJobResult>, token?: string): Promise<QueueJobResult> => {
    const raw = job.data as QueueJob | UnreadableJob;
    // A damaged job fails at once and for good, with the reason (`kishi queue status` lists it).
    if (raw !== null && typeof raw === 'object' && raw.kind === '__unreadable') throw new UnrecoverableError(`${CORRUPT_JOB} ${raw.reason}`);
    const shape = jobShapeProblem(raw);
    if (shape !== undefined) throw new UnrecoverableError(`${CORRUPT_JOB} ${shape}`);
    const d = raw as QueueJob;
    const digest = jobDigest(d);
    if (d.digest !== digest) throw new UnrecoverableError(`${CORRUPT_JOB} its digest does not match its data (edited in Redis?)`);
    const why = stampMismatch(d.stamp, version, build);
    if (why !== undefined) return refuse(job, token, why, true);
    stampRefusals = 0;
    active.add(String(job.id));
    // Published at once, not at the next beat: `kishi queue status` shows the job while it runs, however short.
    void heartbeat();
    try {
      switch (d.kind) {
        case 'datagen':
          return await runDatagen(job, d, token, digest);
        case 'match':
          return await runMatch(job, d, token, digest);
        case 'selfplay': {
          const r = await runSelfplayJob(beat, o.queueName, String(job.id), id, d, { jobDigest: digest, build });
          stats.games += r.games;
          stats.positions += r.positions;
          o.log.info(`self-play games ${d.firstGameIndex}..${d.firstGameIndex + d.games - 1}: ${r.positions} positions, ${r.payloadBytes} bytes, ${(r.ms / 1000).toFixed(1)} s`);
          return r;
        }
        default:
          throw new UnrecoverableError(`unknown job kind ${JSON.stringify((d as { kind?: unknown }).kind)}`);
      }
    } finally {
      active.delete(String(job.id));
    }
  };

  const worker = new GuardedWorker(o.queueName, processor, {
    connection: o.connection.options as ConnectionOptions,
    prefix: QUEUE_KEY_PREFIX,
    concurrency: o.concurrency,
    lockDuration: o.lockDurationMs ?? 30_000,
    stalledInterval: o.stalledIntervalMs ?? 15_000,
    // A job whose worker died is handed out again this often before it fails for good.
    maxStalledCount: 5,
    name: id,
  });
  // Emitted once BullMQ has moved the job to its final set: the producer that hears of it finds it there.
  const announce = (jobId: string): void => void announceFinished(beat, QUEUE_KEY_PREFIX, o.queueName, jobId).catch(() => {});
  worker.on('completed', (job) => {
    stats.jobsDone++;
    // A leftover nobody collects: removed now, not a day later.
    if (discarded.delete(String(job.id))) void job.remove().catch(() => {});
    else announce(String(job.id));
  });
  worker.on('failed', (job, err) => {
    if (err instanceof DelayedError || err.name === 'DelayedError') return;
    stats.jobsFailed++;
    o.log.warn(redact(`job ${job?.id ?? '?'} failed: ${err.message}`));
    // A failed attempt that will be retried is looked at for nothing (still pending): harmless.
    if (job?.id !== undefined) announce(String(job.id));
  });
  // Reconnection never gives up on a lost connection: say so once per message every 30 s, not at
  // every retry. A permanent error (credentials, certificate) ends the worker with the reason.
  const said = new Map<string, number>();
  const onConnectionError = (err: Error & { code?: string }): void => {
    const permanent = permanentConnectionError(err);
    if (permanent !== undefined) {
      if (failure === undefined) {
        failure = redact(`Redis at ${o.connection.display}: ${permanent}`);
        o.log.error(`${failure}; stopping`);
        void stop(true);
      }
      return;
    }
    if (Date.now() - (said.get(err.message) ?? -Infinity) < 30_000) return;
    said.set(err.message, Date.now());
    o.log.warn(redact(`queue connection: ${err.message} (retrying)`));
  };
  worker.on('error', onConnectionError);
  beat.on('error', onConnectionError);

  const key = `${workerKeyPrefix(QUEUE_KEY_PREFIX, o.queueName)}${id}`;
  const setKey = workerSetKey(QUEUE_KEY_PREFIX, o.queueName);
  async function heartbeat(): Promise<void> {
    const h: WorkerHeartbeat = {
      id,
      host: hostname(),
      pid: process.pid,
      version,
      build,
      concurrency: o.concurrency,
      startedAt,
      ...stats,
      active: [...active],
      ...(pausedUntil !== undefined ? { pausedUntil: new Date(pausedUntil).toISOString() } : {}),
      at: new Date().toISOString(),
    };
    await beat
      .multi()
      .set(key, JSON.stringify(h), 'EX', HEARTBEAT_TTL_S)
      .zadd(setKey, Date.now() + HEARTBEAT_TTL_S * 1000, id)
      .exec()
      .catch(() => {});
  }
  void heartbeat();
  const timer = setInterval(() => void heartbeat(), HEARTBEAT_MS);
  o.log.info(`worker ${id} (kishi ${version}, build ${build.slice(0, 12)}) takes jobs from ${o.connection.display} queue ${o.queueName} with ${o.concurrency} slot(s)`);

  let resolveDone: () => void = () => {};
  const done = new Promise<void>((r) => (resolveDone = r));
  let stopping: Promise<void> | undefined;
  const stop = (force = false): Promise<void> => {
    if (stopping !== undefined && !force) return stopping;
    stopping = (async () => {
      clearInterval(timer);
      // With no job in progress there is nothing to wait for (and Redis may be the reason we stop);
      // a close that cannot reach Redis gives up after a few seconds.
      const closing = worker.close(force || active.size === 0).catch(() => {});
      if (force || active.size === 0) await Promise.race([closing, new Promise((r) => setTimeout(r, 5000))]);
      else await closing;
      await pool.close();
      await Promise.race([beat.multi().del(key).zrem(setKey, id).exec().catch(() => {}), new Promise((r) => setTimeout(r, 2000))]);
      beat.disconnect();
      o.log.info(`worker ${id} stopped: ${stats.jobsDone} jobs done, ${stats.refused} refused`);
      resolveDone();
    })();
    return stopping;
  };
  return { id, done, stop, failure: () => failure };
}
