/**
 * `kishi datagen --queue`: the producer of one shard. Workers play chunks (any worker, any order);
 * the producer keeps the shard's files exactly as a local `kishi datagen` would write them.
 *
 * 1. As in the local run (learning/datagen/shard.ts `openShard`): the shard's settings file must
 *    match, the chunks on disk (0..k-1) are checked and fill the deduplication set.
 * 2. Results received but not yet applied wait in `<out>/.queue/` (one JSON file per chunk,
 *    written atomically), so a producer killed between receiving and applying loses nothing;
 *    results for chunks already applied are dropped there.
 * 3. A window of chunks k.. is kept on the queue as jobs whose ids derive from the run (seed,
 *    shard, settings, files) and the chunk index: re-adding one that exists is a no-op, so a
 *    restarted producer finds the jobs (and results) of its previous life. A job that vanished
 *    (Redis restarted without persistence, or a result expired) is added again: chunks are
 *    deterministic, so computing one twice costs time, never correctness.
 * 4. The producer waits for its workers' announcements (done-list.ts: one blocking call, no
 *    polling) and looks at the jobs announced; it looks at all its outstanding jobs when it starts
 *    and then once a sweep period (a minute), which finds what no announcement told (a job
 *    vanished with a Redis restart, a worker killed between finishing and announcing). A finished
 *    job's records (a separate Redis key, jobs.ts `payloadKey`) are written to `.queue/`, then the
 *    key and the job are deleted: chunk records live in Redis only between a worker finishing and
 *    its announcement reaching the producer (at most a day when the producer is away).
 *    A result is taken only when it answers the job as this producer built it (the digest of the
 *    job's data and the build, jobs.ts `resultMismatch`) and its payload has the digest the result
 *    names and decompresses; otherwise it is dropped with a warning and the job queued again. A
 *    job whose data was damaged in Redis (it failed as `CORRUPT_JOB`) is queued again too.
 * 5. Results are applied in chunk order: deduplicated against the shard so far (chunk-play.ts),
 *    written as the chunk file (atomic rename), the waiting file removed. A waiting file that
 *    cannot be read is moved aside (`<name>.bad-<time>`, which no run reads) and its chunk queued
 *    again: never fatal, now or in a rerun. Stop at the target positions or chunk count; the jobs
 *    still queued beyond it are deleted, or marked discarded while a worker holds them (a marker
 *    the next `ensure` of the same job deletes, so a longer rerun gets the chunk after all).
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { KishiError, Result } from '../core/result.js';
import { removeFilesWhere, writeFileAtomic } from '../core/atomic-write.js';
import { dedupChunk } from '../learning/datagen/chunk-play.js';
import { openShard, ShardTally, writeShardChunk, type DatagenShardOptions } from '../learning/datagen/shard.js';
import { RECORD_BYTES } from '../learning/datagen/position-record.js';
import type { DatagenChoices } from '../learning/datagen/datagen-setup.js';
import { jobGroup } from './done-list.js';
import { datagenJobId, resultMismatch, runKey, sha256Hex, tryUnpackBytes, withDigest, type DatagenJob, type DatagenJobResult } from './jobs.js';
import type { JobLook, JobStore } from './job-store.js';
import type { JobStamp } from './stamp.js';

/** The shard and the datagen files its games play with (the options `kishi datagen --queue` parses). */
export interface QueuedDatagenShard extends DatagenShardOptions {
  readonly choices: DatagenChoices;
}

export interface QueuedDatagenOptions extends QueuedDatagenShard {
  readonly stamp: JobStamp;
  readonly queue: JobStore;
  /** Jobs kept queued ahead of the next chunk to apply (default: twice the live workers' slots, at least 4). */
  readonly window?: number;
  /** How often every outstanding job is looked at besides the announced ones, ms (default 60000). */
  readonly sweepMs?: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: QueuedDatagenProgress) => void;
  /** One line per collected job: which worker played which chunk, how fast. */
  readonly onResult?: (r: DatagenJobResult) => void;
  readonly onWarning?: (m: string) => void;
}

export interface QueuedDatagenProgress {
  readonly positions: number;
  readonly target: number;
  readonly resumedPositions: number;
  /** Chunks in the shard. */
  readonly chunks: number;
  /** Chunks applied by this run. */
  readonly chunksDone: number;
  readonly games: number;
  readonly positionsPerSecond: number;
  readonly etaSeconds: number;
  readonly duplicates: number;
  /** Jobs queued or in progress. */
  readonly outstanding: number;
  readonly workers: number;
  /** Jobs that had vanished from Redis and were added again. */
  readonly readded: number;
}

/** Default sweep period, ms: the slow path, for results no announcement told of. */
const SWEEP_MS = 60_000;
/** How often live workers are counted (the window follows their slots), ms. */
const WORKER_CHECK_MS = 15_000;

/** The run key: everything that determines the chunks' bytes. */
export const datagenRunKey = (o: Pick<QueuedDatagenOptions, 'seed' | 'shardIndex' | 'shardCount' | 'gamesPerChunk' | 'settings' | 'stamp'>): string =>
  runKey('datagen', o.seed >>> 0, o.shardIndex, o.shardCount, o.gamesPerChunk, o.settings, o.stamp);

/** A collected result as it waits in `.queue/`: the result and its records, base64. */
type WaitingResult = DatagenJobResult & { records: string };

/** A step of a round of the loop: whether it moved the shard on (a result taken or applied), or the failure that ends the run. */
type Step = Result<boolean, KishiError>;

const fail = (code: string, m: string): Result<never, KishiError> => Result.err(new KishiError(code, m));

/** The producer's state between rounds: the shard, the waiting results and the jobs out. */
class QueuedShard {
  /** The run key (`datagenRunKey`): the jobs' ids and the waiting files' names derive from it. */
  private readonly run: string;
  private readonly prefix: string;
  /** Chunks whose result waits in `.queue/`. */
  private readonly pending = new Set<number>();
  /** Chunks queued or in progress on the workers. */
  private readonly outstanding = new Set<number>();
  private readonly limit: number;
  private readded = 0;
  private workers = 0;
  private window: number;
  private lastWorkerCheck = -Infinity;
  private readonly refusalsSeen = new Set<string>();
  /** The list the workers announce this run's finished jobs on (done-list.ts). */
  private readonly group: string;
  /** Job id -> chunk of the outstanding jobs (announcements name ids). */
  private readonly chunkOf = new Map<string, number>();
  /** Chunks whose jobs were announced finished and not looked at yet. */
  private readonly announced = new Set<number>();
  private readonly sweepMs: number;
  private lastSweep = -Infinity;

  private constructor(
    private readonly o: QueuedDatagenOptions,
    private readonly tally: ShardTally,
    private readonly pendingDir: string,
  ) {
    this.run = datagenRunKey(o);
    this.prefix = `${o.settings.game}-s${o.shardIndex}of${o.shardCount}-${this.run}-c`;
    this.limit = o.maxChunks !== undefined ? tally.existing.chunks + o.maxChunks : Infinity;
    this.window = o.window ?? 4;
    this.group = jobGroup(datagenJobId(this.run, 0));
    this.sweepMs = o.sweepMs ?? SWEEP_MS;
  }

  /** Steps 1 and 2: the shard opened, and the results waiting from a previous life found (those of chunks already applied removed). */
  static open(o: QueuedDatagenOptions): Result<QueuedShard, KishiError> {
    const existing = openShard(o);
    if (existing.isErr) return Result.err(existing.error);
    const pendingDir = join(o.out, '.queue');
    try {
      mkdirSync(pendingDir, { recursive: true });
    } catch (e) {
      return fail('ERR_OUTPUT', `cannot create ${pendingDir}: ${(e as Error).message}`);
    }
    removeFilesWhere(pendingDir, (n) => n.startsWith('.') && n.includes('.tmp-'));
    const shard = new QueuedShard(o, new ShardTally(existing.value, o.targetPositions), pendingDir);
    shard.findWaiting();
    return Result.ok(shard);
  }

  /** Step 2: the waiting results of this run in `.queue/`; those of chunks already applied are removed. */
  private findWaiting(): void {
    for (const n of readdirSync(this.pendingDir)) {
      if (!n.startsWith(this.prefix) || !n.endsWith('.json')) continue;
      const c = Number(n.slice(this.prefix.length, -5));
      if (!Number.isInteger(c)) continue;
      if (c < this.tally.chunks) unlinkSync(join(this.pendingDir, n));
      else this.pending.add(c);
    }
  }

  /** The waiting file of chunk `c`. */
  private pendingFile(c: number): string {
    return join(this.pendingDir, `${this.prefix}${String(c).padStart(7, '0')}.json`);
  }

  /** The shard holds its target, or this run applied its chunks. */
  finished(): boolean {
    return this.tally.positions >= this.o.targetPositions || this.tally.chunks >= this.limit;
  }

  /** The next chunk to apply. */
  next(): number {
    return this.tally.chunks;
  }

  /** The progress report: the shard's counts, this run's rate, the jobs out and the workers. */
  progress(): QueuedDatagenProgress {
    const t = this.tally.timing();
    return {
      positions: this.tally.positions,
      target: this.o.targetPositions,
      resumedPositions: this.tally.existing.positions,
      chunks: this.tally.chunks,
      chunksDone: this.tally.chunks - this.tally.existing.chunks,
      games: this.tally.games,
      positionsPerSecond: t.positionsPerSecond,
      etaSeconds: t.etaSeconds,
      duplicates: this.tally.duplicates,
      outstanding: this.outstanding.size,
      workers: this.workers,
      readded: this.readded,
    };
  }

  /** The job of chunk `chunk`, as every life of this producer builds it. */
  private job(chunk: number): DatagenJob {
    const o = this.o;
    return withDigest<DatagenJob>({
      kind: 'datagen',
      stamp: o.stamp,
      choices: o.choices,
      settings: o.settings,
      seed: o.seed >>> 0,
      shardIndex: o.shardIndex,
      shardCount: o.shardCount,
      gamesPerChunk: o.gamesPerChunk,
      chunk,
    });
  }

  /** Drops a result (a warning says why) and queues its job again. */
  private async requeue(c: number, why: string, payloadKey?: string): Promise<void> {
    const id = datagenJobId(this.run, c);
    this.readded++;
    this.o.onWarning?.(`chunk ${c} (job ${id}): ${why}; queueing the chunk again`);
    if (payloadKey !== undefined && payloadKey !== '') await this.o.queue.deletePayload(payloadKey);
    await this.o.queue.remove(id);
    await this.o.queue.ensure('datagen', id, this.job(c));
  }

  /** Every 15 s: the live workers, the window they call for, and a warning per new refusal of a datagen job. */
  async checkWorkers(): Promise<void> {
    if (performance.now() - this.lastWorkerCheck <= WORKER_CHECK_MS) return;
    this.lastWorkerCheck = performance.now();
    const live = await this.o.queue.workers();
    this.workers = live.length;
    if (this.o.window === undefined) this.window = Math.max(4, 2 * live.reduce((a, w) => a + w.concurrency, 0));
    for (const w of live) {
      if (w.lastRefusal !== undefined && w.lastRefusal.startsWith('dg-') && !this.refusalsSeen.has(`${w.id}|${w.lastRefusal}`)) {
        this.refusalsSeen.add(`${w.id}|${w.lastRefusal}`);
        this.o.onWarning?.(`worker ${w.id} refuses jobs: ${w.lastRefusal}`);
      }
    }
  }

  /** Step 3: the window of chunks from the next one kept queued. */
  async fillWindow(): Promise<void> {
    const next = this.next();
    for (let c = next; c < Math.min(next + this.window, this.limit); c++) {
      if (this.pending.has(c) || this.outstanding.has(c)) continue;
      await this.o.queue.ensure('datagen', datagenJobId(this.run, c), this.job(c));
      this.outstanding.add(c);
      this.chunkOf.set(datagenJobId(this.run, c), c);
    }
  }

  /**
   * Step 4: the announced jobs looked at, or every outstanding one when a sweep is due (one round
   * trip), the finished ones' records moved to `.queue/`; true when one was.
   */
  async collect(): Promise<Step> {
    let progressed = false;
    const sweep = performance.now() - this.lastSweep >= this.sweepMs;
    if (sweep) this.lastSweep = performance.now();
    const ids = (sweep ? [...this.outstanding] : [...this.announced].filter((c) => this.outstanding.has(c))).sort((a, b) => a - b);
    this.announced.clear();
    const looks = await this.o.queue.lookMany(ids.map((c) => datagenJobId(this.run, c)));
    for (const [k, c] of ids.entries()) {
      const r = await this.collectOne(c, looks[k]!);
      if (r.isErr) return r;
      progressed ||= r.value;
    }
    return Result.ok(progressed);
  }

  /** Step 4 for one job: true when its result was taken. */
  private async collectOne(c: number, look: JobLook): Promise<Step> {
    const id = datagenJobId(this.run, c);
    const queue = this.o.queue;
    if (look.state === 'pending') return Result.ok(false);
    if (look.state === 'missing') {
      this.readded++;
      this.o.onWarning?.(`job ${id} (chunk ${c}) is gone from Redis; adding it again`);
      await queue.ensure('datagen', id, this.job(c));
      return Result.ok(false);
    }
    if (look.state === 'failed') {
      if (look.corrupt === true) {
        await this.requeue(c, `the job was damaged in Redis (${look.reason})`);
        return Result.ok(false);
      }
      return fail('ERR_QUEUE_JOB', `chunk ${c} failed on the workers: ${look.reason}`);
    }
    const r = look.result as DatagenJobResult;
    const why = resultMismatch(this.job(c), r) ?? (r.chunk !== c ? `the result is for chunk ${String(r.chunk)}` : undefined);
    if (why !== undefined) {
      await this.requeue(c, `the result is refused: ${why}`, typeof r.payloadKey === 'string' ? r.payloadKey : undefined);
      return Result.ok(false);
    }
    const payload = await queue.payload(r.payloadKey);
    if (payload === undefined) {
      // Expired, lost with a Redis restart, or dropped by a worker told the chunk was not wanted.
      await this.requeue(c, r.payloadKey === '' ? 'its worker dropped the records (discarded by an earlier run)' : 'the records are gone from Redis');
      return Result.ok(false);
    }
    const problem = sha256Hex(payload) !== r.payloadSha ? 'the records do not match the digest in the result' : 'error' in tryUnpackBytes(payload) ? 'the records are not valid compressed data' : undefined;
    if (problem !== undefined) {
      await this.requeue(c, problem, r.payloadKey);
      return Result.ok(false);
    }
    writeFileAtomic(this.pendingFile(c), JSON.stringify({ ...r, records: payload.toString('base64') }), { keepPrevious: false });
    this.pending.add(c);
    this.outstanding.delete(c);
    this.chunkOf.delete(id);
    await queue.deletePayload(r.payloadKey);
    await queue.remove(id);
    this.o.onResult?.(r);
    return Result.ok(true);
  }

  /** Step 5: the waiting results applied in chunk order, as far as they go; true when one was. */
  applyInOrder(): Step {
    let progressed = false;
    while (this.pending.has(this.next()) && !this.finished()) {
      const r = this.applyNext();
      if (r.isErr) return r;
      // A damaged waiting file: its chunk is queued again by the next `fillWindow`, at once (not after the next announcement).
      if (!r.value) return Result.ok(true);
      progressed = true;
      this.o.onProgress?.(this.progress());
    }
    return Result.ok(progressed);
  }

  /**
   * Applies the next chunk's waiting result: deduplicated against the shard, written as the chunk
   * file, the waiting file removed. False when the waiting file was damaged (set aside, and the
   * chunk queued again by the next `fillWindow`).
   */
  private applyNext(): Step {
    const o = this.o;
    const game = o.settings.game;
    const next = this.next();
    const file = this.pendingFile(next);
    let r: WaitingResult;
    let kept: ReturnType<typeof dedupChunk>;
    try {
      r = JSON.parse(readFileSync(file, 'utf8')) as WaitingResult;
      const unpacked = tryUnpackBytes(Buffer.from(String(r.records), 'base64'));
      if ('error' in unpacked) throw new Error(unpacked.error);
      if (!Number.isInteger(r.count) || !Number.isInteger(r.games)) throw new Error('its counts are not whole numbers');
      // Checked before deduplication, which adds the chunk's keys to the shard's set.
      if (unpacked.bytes.length !== r.count * RECORD_BYTES[game]) throw new Error(`${unpacked.bytes.length} bytes of records for ${r.count} positions`);
      kept = dedupChunk({ game, records: unpacked.bytes, count: r.count }, this.tally.existing.keys);
    } catch (e) {
      // A damaged waiting file (disk trouble, a bad payload): set aside, never read again, and the chunk is queued again.
      const bad = `${file}.bad-${Date.now()}`;
      try {
        renameSync(file, bad);
      } catch {
        // gone already
      }
      o.onWarning?.(`${file}: unreadable (${(e as Error).message}); moved to ${bad}, the chunk is queued again`);
      this.pending.delete(next);
      return Result.ok(false);
    }
    const w = writeShardChunk(o, next, r.games, kept);
    if (w.isErr) return Result.err(w.error);
    unlinkSync(file);
    this.pending.delete(next);
    this.tally.add(kept, r.games);
    return Result.ok(true);
  }

  /** Until a worker announces a job of this run, or the next sweep is due: the chunks announced are looked at by the next `collect`. */
  async waitForAnnouncements(): Promise<void> {
    const wait = Math.max(0, this.lastSweep + this.sweepMs - performance.now());
    for (const id of await this.o.queue.finished(this.group, wait)) {
      const c = this.chunkOf.get(id);
      if (c !== undefined) this.announced.add(c);
    }
  }

  /**
   * Done: jobs beyond the end are not wanted any more. One a worker holds cannot be deleted now:
   * it is marked, and the worker drops its records instead of storing them. Waiting results beyond
   * the end are removed.
   */
  async finish(): Promise<void> {
    const queue = this.o.queue;
    const left = [...this.outstanding];
    const leftLooks = await queue.lookMany(left.map((c) => datagenJobId(this.run, c)));
    for (const [k, c] of left.entries()) {
      const id = datagenJobId(this.run, c);
      const look = leftLooks[k]!;
      if (look.state === 'done' && look.result.kind === 'datagen' && typeof look.result.payloadKey === 'string') await queue.deletePayload(look.result.payloadKey);
      if (!(await queue.remove(id))) await queue.discard(id);
    }
    for (const c of this.pending) {
      try {
        unlinkSync(this.pendingFile(c));
      } catch {
        // already gone
      }
    }
  }
}

/** Runs steps 1-5 (the header's) until the shard is done; the final progress. */
export async function runQueuedDatagen(o: QueuedDatagenOptions): Promise<Result<QueuedDatagenProgress, KishiError>> {
  const opened = QueuedShard.open(o);
  if (opened.isErr) return Result.err(opened.error);
  const shard = opened.value;
  while (!shard.finished()) {
    if (o.signal?.aborted === true) return fail('ERR_ABORTED', `stopped at chunk ${shard.next()}; the queued jobs stay in Redis and a rerun with the same options collects them`);
    await shard.checkWorkers();
    await shard.fillWindow();
    const collected = await shard.collect();
    if (collected.isErr) return Result.err(collected.error);
    const applied = shard.applyInOrder();
    if (applied.isErr) return Result.err(applied.error);
    if (!collected.value && !applied.value && !shard.finished()) await shard.waitForAnnouncements();
  }
  await shard.finish();
  return Result.ok(shard.progress());
}
