/**
 * `kishi datagen --queue`: the producer of one shard. Workers play chunks (any worker, any order);
 * the producer keeps the shard's files exactly as a local `kishi datagen` would write them.
 *
 * 1. As in the local run: the shard's settings file must match, the chunks on disk (0..k-1) are
 *    checked and fill the deduplication set.
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
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { KishiError, Result } from '../core/result.js';
import { removeFilesWhere, writeFileAtomic } from '../core/atomic-write.js';
import { chunkBytes, chunkFileName } from '../learning/datagen/chunk.js';
import { dedupChunk, shardSettingsFileName, shardSettingsText } from '../learning/datagen/chunk-play.js';
import { scanShard, type DatagenShardOptions } from '../learning/datagen/datagen-run.js';
import { RECORD_BYTES } from '../learning/datagen/position-record.js';
import type { DatagenChoices } from '../learning/datagen/datagen-setup.js';
import { jobGroup } from './done-list.js';
import { datagenJobId, resultMismatch, runKey, sha256Hex, tryUnpackBytes, withDigest, type DatagenJob, type DatagenJobResult } from './jobs.js';
import type { JobStore } from './job-store.js';
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

export async function runQueuedDatagen(o: QueuedDatagenOptions): Promise<Result<QueuedDatagenProgress, KishiError>> {
  const game = o.settings.game;
  const fail = (code: string, m: string): Result<never, KishiError> => Result.err(new KishiError(code, m));
  // Step 1.
  const pendingDir = join(o.out, '.queue');
  try {
    mkdirSync(pendingDir, { recursive: true });
  } catch (e) {
    return fail('ERR_OUTPUT', `cannot create ${pendingDir}: ${(e as Error).message}`);
  }
  removeFilesWhere(o.out, (n) => n.startsWith('.') && n.includes('.kdg.tmp-'));
  removeFilesWhere(pendingDir, (n) => n.startsWith('.') && n.includes('.tmp-'));
  const settingsFile = join(o.out, shardSettingsFileName(game, o.shardIndex, o.shardCount));
  const settingsText = shardSettingsText(o.seed, o.gamesPerChunk, o.settings);
  if (existsSync(settingsFile)) {
    const old = readFileSync(settingsFile, 'utf8');
    if (old !== settingsText) return fail('ERR_CHUNK', `${settingsFile} was written by a run with other settings:\n${old}this run:\n${settingsText}use another --out (or the same settings) so the shard stays uniform`);
  } else {
    try {
      writeFileAtomic(settingsFile, settingsText, { keepPrevious: false });
    } catch (e) {
      return fail('ERR_OUTPUT', `cannot write ${settingsFile}: ${(e as Error).message}`);
    }
  }
  const existing = scanShard(o.out, game, o.shardIndex, o.shardCount, o.seed);
  if (existing.isErr) return Result.err(existing.error);
  const keys = existing.value.keys;
  let next = existing.value.chunks;
  const firstChunk = next;
  let positions = existing.value.positions;

  // Step 2.
  const run = datagenRunKey(o);
  const prefix = `${game}-s${o.shardIndex}of${o.shardCount}-${run}-c`;
  const pendingName = (c: number): string => `${prefix}${String(c).padStart(7, '0')}.json`;
  const pending = new Set<number>();
  for (const n of readdirSync(pendingDir)) {
    if (!n.startsWith(prefix) || !n.endsWith('.json')) continue;
    const c = Number(n.slice(prefix.length, -5));
    if (!Number.isInteger(c)) continue;
    if (c < next) unlinkSync(join(pendingDir, n));
    else pending.add(c);
  }

  const t0 = performance.now();
  let made = 0;
  let games = 0;
  let duplicates = 0;
  let readded = 0;
  let workers = 0;
  const outstanding = new Set<number>();
  const limit = o.maxChunks !== undefined ? firstChunk + o.maxChunks : Infinity;
  const finished = (): boolean => positions >= o.targetPositions || next >= limit;
  const progress = (): QueuedDatagenProgress => {
    const s = Math.max(1e-3, (performance.now() - t0) / 1000);
    const rate = made / s;
    return {
      positions,
      target: o.targetPositions,
      resumedPositions: existing.value.positions,
      chunks: next,
      chunksDone: next - firstChunk,
      games,
      positionsPerSecond: rate,
      etaSeconds: rate > 0 ? Math.max(0, o.targetPositions - positions) / rate : Infinity,
      duplicates,
      outstanding: outstanding.size,
      workers,
      readded,
    };
  };
  const job = (chunk: number): DatagenJob =>
    withDigest<DatagenJob>({
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
  /** Drops a result (a warning says why) and queues its job again. */
  const requeue = async (c: number, why: string, payloadKey?: string): Promise<void> => {
    const id = datagenJobId(run, c);
    readded++;
    o.onWarning?.(`chunk ${c} (job ${id}): ${why}; queueing the chunk again`);
    if (payloadKey !== undefined && payloadKey !== '') await o.queue.deletePayload(payloadKey);
    await o.queue.remove(id);
    await o.queue.ensure('datagen', id, job(c));
  };

  let lastWorkerCheck = -Infinity;
  let window = o.window ?? 4;
  const refusalsSeen = new Set<string>();
  const sweepMs = o.sweepMs ?? SWEEP_MS;
  const group = jobGroup(datagenJobId(run, 0));
  /** Job id -> chunk of the outstanding jobs (announcements name ids). */
  const chunkOf = new Map<string, number>();
  /** Chunks whose jobs were announced finished and not looked at yet. */
  const announced = new Set<number>();
  let lastSweep = -Infinity;
  while (!finished()) {
    if (o.signal?.aborted === true) return fail('ERR_ABORTED', `stopped at chunk ${next}; the queued jobs stay in Redis and a rerun with the same options collects them`);
    if (performance.now() - lastWorkerCheck > WORKER_CHECK_MS) {
      lastWorkerCheck = performance.now();
      const live = await o.queue.workers();
      workers = live.length;
      if (o.window === undefined) window = Math.max(4, 2 * live.reduce((a, w) => a + w.concurrency, 0));
      for (const w of live) {
        if (w.lastRefusal !== undefined && w.lastRefusal.startsWith('dg-') && !refusalsSeen.has(`${w.id}|${w.lastRefusal}`)) {
          refusalsSeen.add(`${w.id}|${w.lastRefusal}`);
          o.onWarning?.(`worker ${w.id} refuses jobs: ${w.lastRefusal}`);
        }
      }
    }
    // Step 3: keep the window queued.
    for (let c = next; c < Math.min(next + window, limit); c++) {
      if (pending.has(c) || outstanding.has(c)) continue;
      await o.queue.ensure('datagen', datagenJobId(run, c), job(c));
      outstanding.add(c);
      chunkOf.set(datagenJobId(run, c), c);
    }
    // Step 4: collect the announced jobs, or all outstanding ones at a sweep (one round trip).
    let progressed = false;
    const sweep = performance.now() - lastSweep >= sweepMs;
    if (sweep) lastSweep = performance.now();
    const ids = (sweep ? [...outstanding] : [...announced].filter((c) => outstanding.has(c))).sort((a, b) => a - b);
    announced.clear();
    const looks = await o.queue.lookMany(ids.map((c) => datagenJobId(run, c)));
    for (const [k, c] of ids.entries()) {
      const id = datagenJobId(run, c);
      const look = looks[k]!;
      if (look.state === 'pending') continue;
      if (look.state === 'missing') {
        readded++;
        o.onWarning?.(`job ${id} (chunk ${c}) is gone from Redis; adding it again`);
        await o.queue.ensure('datagen', id, job(c));
        continue;
      }
      if (look.state === 'failed') {
        if (look.corrupt === true) {
          await requeue(c, `the job was damaged in Redis (${look.reason})`);
          continue;
        }
        return fail('ERR_QUEUE_JOB', `chunk ${c} failed on the workers: ${look.reason}`);
      }
      const r = look.result as DatagenJobResult;
      const why = resultMismatch(job(c), r) ?? (r.chunk !== c ? `the result is for chunk ${String(r.chunk)}` : undefined);
      if (why !== undefined) {
        await requeue(c, `the result is refused: ${why}`, typeof r.payloadKey === 'string' ? r.payloadKey : undefined);
        continue;
      }
      const payload = await o.queue.payload(r.payloadKey);
      if (payload === undefined) {
        // Expired, lost with a Redis restart, or dropped by a worker told the chunk was not wanted.
        await requeue(c, r.payloadKey === '' ? 'its worker dropped the records (discarded by an earlier run)' : 'the records are gone from Redis');
        continue;
      }
      const problem = sha256Hex(payload) !== r.payloadSha ? 'the records do not match the digest in the result' : 'error' in tryUnpackBytes(payload) ? 'the records are not valid compressed data' : undefined;
      if (problem !== undefined) {
        await requeue(c, problem, r.payloadKey);
        continue;
      }
      writeFileAtomic(join(pendingDir, pendingName(c)), JSON.stringify({ ...r, records: payload.toString('base64') }), { keepPrevious: false });
      pending.add(c);
      outstanding.delete(c);
      chunkOf.delete(id);
      await o.queue.deletePayload(r.payloadKey);
      await o.queue.remove(id);
      o.onResult?.(r);
      progressed = true;
    }
    // Step 5: apply in order.
    while (pending.has(next) && !finished()) {
      const file = join(pendingDir, pendingName(next));
      let r: DatagenJobResult & { records: string };
      let kept: ReturnType<typeof dedupChunk>;
      let bytes: Uint8Array;
      try {
        r = JSON.parse(readFileSync(file, 'utf8')) as DatagenJobResult & { records: string };
        const unpacked = tryUnpackBytes(Buffer.from(String(r.records), 'base64'));
        if ('error' in unpacked) throw new Error(unpacked.error);
        if (!Number.isInteger(r.count) || !Number.isInteger(r.games)) throw new Error('its counts are not whole numbers');
        // Checked before deduplication, which adds the chunk's keys to the shard's set.
        if (unpacked.bytes.length !== r.count * RECORD_BYTES[game]) throw new Error(`${unpacked.bytes.length} bytes of records for ${r.count} positions`);
        kept = dedupChunk({ game, records: unpacked.bytes, count: r.count }, keys);
        bytes = chunkBytes({ game, chunkIndex: next, shardIndex: o.shardIndex, shardCount: o.shardCount, games: r.games, seed: o.seed >>> 0 }, kept.records);
      } catch (e) {
        // A damaged waiting file (disk trouble, a bad payload): set aside, never read again, and the chunk is queued again.
        const bad = `${file}.bad-${Date.now()}`;
        try {
          renameSync(file, bad);
        } catch {
          // gone already
        }
        o.onWarning?.(`${file}: unreadable (${(e as Error).message}); moved to ${bad}, the chunk is queued again`);
        pending.delete(next);
        // Queued again at once (step 3), not after the next announcement.
        progressed = true;
        break;
      }
      try {
        writeFileAtomic(join(o.out, chunkFileName(game, o.shardIndex, o.shardCount, next)), bytes, { keepPrevious: false });
      } catch (e) {
        return fail('ERR_OUTPUT', `cannot write chunk ${next} to ${o.out}: ${(e as Error).message}`);
      }
      unlinkSync(file);
      pending.delete(next);
      next++;
      positions += kept.count;
      made += kept.count;
      games += r.games;
      duplicates += kept.duplicates;
      progressed = true;
      o.onProgress?.(progress());
    }
    if (!progressed && !finished()) {
      // Until a worker announces a job of this run, or the next sweep is due.
      const wait = Math.max(0, lastSweep + sweepMs - performance.now());
      for (const id of await o.queue.finished(group, wait)) {
        const c = chunkOf.get(id);
        if (c !== undefined) announced.add(c);
      }
    }
  }
  // Done: jobs beyond the end are not wanted any more. One a worker holds cannot be deleted now:
  // it is marked, and the worker drops its records instead of storing them.
  const left = [...outstanding];
  const leftLooks = await o.queue.lookMany(left.map((c) => datagenJobId(run, c)));
  for (const [k, c] of left.entries()) {
    const id = datagenJobId(run, c);
    const look = leftLooks[k]!;
    if (look.state === 'done' && look.result.kind === 'datagen' && typeof look.result.payloadKey === 'string') await o.queue.deletePayload(look.result.payloadKey);
    if (!(await o.queue.remove(id))) await o.queue.discard(id);
  }
  for (const c of pending) {
    try {
      unlinkSync(join(pendingDir, pendingName(c)));
    } catch {
      // already gone
    }
  }
  return Result.ok(progress());
}
