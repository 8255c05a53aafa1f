/**
 * `kishi train alphazero --queue`: the loop's self-play step (a `SelfplayRunner`, loop.ts) played by
 * queue workers. The generation's network (ONNX + manifest) is stored in Redis once under its
 * SHA-256 (a day's expiry, refreshed at every call); the games are cut into jobs of `gamesPerChunk`
 * games whose ids derive from the settings, the net's hash and the first game index; each job's
 * chunk file comes back as a payload and is written into the self-play directory in game order
 * (atomic rename), so the directory never has a gap and the loop's resume (`scanSelfplayChunks`)
 * works as for a local run. Collected results wait in `<outDir>/.queue/` until their turn. The
 * producer waits for its workers' announcements (done-list.ts) and looks at the jobs announced,
 * and at all its outstanding jobs when it starts and once a sweep period (a minute).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { KishiError, Result } from '../core/result.js';
import { writeFileAtomic } from '../core/atomic-write.js';
import type { LoopSelfplayOptions, LoopSelfplayReport, SelfplayRunner } from '../learning/alphazero/loop.js';
import type { SelfplayGameSummary } from '../learning/alphazero/selfplay-game.js';
import { manifestPathOf } from '../nn/manifest.js';
import { resolveModelPath } from '../core/package-path.js';
import { jobGroup } from './done-list.js';
import { blobKey, PAYLOAD_TTL_S, resultMismatch, runKey, selfplayJobId, sha256Hex, tryUnpackBytes, withDigest, type SelfplayJob, type SelfplayJobResult } from './jobs.js';
import type { JobStore } from './job-store.js';
import { QUEUE_KEY_PREFIX } from './queue-names.js';
import { makeStamp } from './stamp.js';

export interface QueuedSelfplayOptions {
  readonly queue: JobStore;
  /** Jobs in flight at once (default: twice the live workers' slots, at least 2). */
  readonly parallel?: number;
  /** How often every outstanding job is looked at besides the announced ones, ms (default 60000). */
  readonly sweepMs?: number;
  readonly onResult?: (r: SelfplayJobResult) => void;
  readonly onWarning?: (m: string) => void;
}

/** Default sweep period, ms. */
const SWEEP_MS = 60_000;

export function queuedSelfplay(q: QueuedSelfplayOptions): SelfplayRunner {
  return async (o: LoopSelfplayOptions): Promise<Result<LoopSelfplayReport, KishiError>> => {
    const t0 = performance.now();
    const made = makeStamp([]);
    if ('missing' in made) return Result.err(new KishiError('ERR_QUEUE', `cannot read ${made.missing}`));
    // 1. The net, by hash.
    let model = o.model;
    if (!o.model.startsWith('mock:')) {
      const path = resolveModelPath(o.model);
      let onnx: Buffer;
      let manifest: Buffer;
      try {
        onnx = readFileSync(path);
        manifest = readFileSync(manifestPathOf(path));
      } catch (e) {
        return Result.err(new KishiError('ERR_MODEL', `cannot read the network ${path} or its manifest: ${(e as Error).message}`));
      }
      model = createHash('sha256').update(onnx).update(manifest).digest('hex');
      await q.queue.putBlob(blobKey(QUEUE_KEY_PREFIX, q.queue.name, model), onnx, PAYLOAD_TTL_S);
      await q.queue.putBlob(blobKey(QUEUE_KEY_PREFIX, q.queue.name, `${model}.manifest`), manifest, PAYLOAD_TTL_S);
    }
    const options: SelfplayJob['options'] = {
      game: o.game,
      concurrentGames: o.concurrentGames,
      playouts: o.playouts,
      ...(o.fastPlayouts !== undefined ? { fastPlayouts: o.fastPlayouts } : {}),
      ...(o.fullSearchShare !== undefined ? { fullSearchShare: o.fullSearchShare } : {}),
      temperatureMoves: o.temperatureMoves,
      ...(o.resignValue !== undefined ? { resignValue: o.resignValue } : {}),
      ...(o.maxPlies !== undefined ? { maxPlies: o.maxPlies } : {}),
      seed: o.seed,
      phase: o.phase,
      ...(o.meta !== undefined ? { meta: o.meta } : {}),
    };
    const run = runKey('selfplay', options, model, o.gamesPerChunk, made.stamp);
    // 2. The batches.
    const batches: { first: number; games: number }[] = [];
    for (let first = o.firstGameIndex; first < o.firstGameIndex + o.games; first += o.gamesPerChunk) {
      batches.push({ first, games: Math.min(o.gamesPerChunk, o.firstGameIndex + o.games - first) });
    }
    const pendingDir = join(o.outDir, '.queue');
    mkdirSync(pendingDir, { recursive: true });
    const pendingName = (first: number): string => `${selfplayJobId(run, first)}.json`;
    const live = await q.queue.workers();
    const parallel = q.parallel ?? Math.max(2, 2 * live.reduce((a, w) => a + w.concurrency, 0));
    const job = (b: { first: number; games: number }): SelfplayJob => withDigest<SelfplayJob>({ kind: 'selfplay', stamp: made.stamp, options, model, firstGameIndex: b.first, games: b.games });
    let next = 0;
    const outstanding = new Set<number>();
    const waiting = new Set<number>(readdirSync(pendingDir).flatMap((n) => batches.findIndex((b) => pendingName(b.first) === n)).filter((k) => k >= 0));
    const report = { games: 0, positions: 0, nnEvals: 0, nnMs: 0, checked: 0, wrong: 0 };
    const stop = async (): Promise<void> => {
      for (const k of outstanding) if (!(await q.queue.remove(selfplayJobId(run, batches[k]!.first)))) await q.queue.discard(selfplayJobId(run, batches[k]!.first));
    };
    const sweepMs = q.sweepMs ?? SWEEP_MS;
    const group = jobGroup(selfplayJobId(run, batches[0]?.first ?? 0));
    const batchOf = new Map(batches.map((b, k) => [selfplayJobId(run, b.first), k]));
    const announced = new Set<number>();
    let lastSweep = -Infinity;
    while (next < batches.length) {
      if (o.signal?.aborted === true) {
        await stop();
        break;
      }
      for (let k = next; k < Math.min(batches.length, next + parallel); k++) {
        if (outstanding.has(k) || waiting.has(k)) continue;
        await q.queue.ensure('selfplay', selfplayJobId(run, batches[k]!.first), job(batches[k]!));
        outstanding.add(k);
      }
      let progressed = false;
      // The announced jobs, or all outstanding ones at a sweep (one round trip).
      const sweep = performance.now() - lastSweep >= sweepMs;
      if (sweep) lastSweep = performance.now();
      const ks = (sweep ? [...outstanding] : [...announced].filter((k) => outstanding.has(k))).sort((a, b) => a - b);
      announced.clear();
      const looks = await q.queue.lookMany(ks.map((k) => selfplayJobId(run, batches[k]!.first)));
      for (const [i, k] of ks.entries()) {
        const id = selfplayJobId(run, batches[k]!.first);
        const look = looks[i]!;
        if (look.state === 'pending') continue;
        if (look.state === 'failed' && look.corrupt !== true) return Result.err(new KishiError('ERR_QUEUE_JOB', `self-play games ${batches[k]!.first}.. failed on the workers: ${look.reason}`));
        const asked = job(batches[k]!);
        const done = look.state === 'done' ? (look.result as SelfplayJobResult) : undefined;
        const refused = done !== undefined ? resultMismatch(asked, done) : look.state === 'failed' ? look.reason : undefined;
        const payload = done !== undefined && refused === undefined ? await q.queue.payload(done.payloadKey) : undefined;
        const payloadProblem =
          payload === undefined ? undefined : sha256Hex(payload) !== done!.payloadSha ? 'its payload does not match the digest in the result' : 'error' in tryUnpackBytes(payload) ? 'its payload is not valid compressed data' : undefined;
        if (done === undefined || refused !== undefined || payload === undefined || payloadProblem !== undefined) {
          q.onWarning?.(refused !== undefined || payloadProblem !== undefined ? `the result of job ${id} is refused: ${refused ?? payloadProblem}; queueing the job again` : `job ${id} or its chunk is gone from Redis; adding it again`);
          if (done !== undefined && typeof done.payloadKey === 'string') await q.queue.deletePayload(done.payloadKey);
          await q.queue.remove(id);
          await q.queue.ensure('selfplay', id, asked);
          continue;
        }
        const r = done;
        writeFileAtomic(join(pendingDir, pendingName(batches[k]!.first)), JSON.stringify({ ...r, bytes: payload.toString('base64') }), { keepPrevious: false });
        await q.queue.deletePayload(r.payloadKey);
        await q.queue.remove(id);
        outstanding.delete(k);
        waiting.add(k);
        q.onResult?.(r);
        progressed = true;
      }
      // 3. In game order into the self-play directory.
      while (waiting.has(next)) {
        const file = join(pendingDir, pendingName(batches[next]!.first));
        let r: SelfplayJobResult & { bytes: string };
        let bytes: Uint8Array;
        try {
          r = JSON.parse(readFileSync(file, 'utf8')) as SelfplayJobResult & { bytes: string };
          const unpacked = tryUnpackBytes(Buffer.from(r.bytes, 'base64'));
          if ('error' in unpacked) throw new Error(unpacked.error);
          if (typeof r.file !== 'string' || !/^[A-Za-z0-9_.-]+\.knr$/.test(r.file)) throw new Error('it names no chunk file');
          bytes = unpacked.bytes;
        } catch (e) {
          // A damaged waiting file: set aside (a rerun ignores it), the batch is played again.
          const bad = `${file}.bad-${Date.now()}`;
          renameSync(file, bad);
          q.onWarning?.(`${file}: unreadable (${(e as Error).message}); moved to ${bad}, the games are played again`);
          waiting.delete(next);
          // Queued again at once, not after the next announcement.
          progressed = true;
          break;
        }
        writeFileAtomic(join(o.outDir, r.file), bytes, { keepPrevious: false });
        unlinkSync(file);
        waiting.delete(next);
        for (const s of r.summaries) o.onGame?.(s as SelfplayGameSummary);
        report.games += r.games;
        report.positions += r.positions;
        report.nnEvals += r.nnEvals;
        report.nnMs += r.nnMs;
        report.checked += r.resignFalsePositives.checked;
        report.wrong += r.resignFalsePositives.wrong;
        next++;
        progressed = true;
      }
      if (!progressed && next < batches.length) {
        // Until a worker announces a job of this run, or the next sweep is due.
        for (const id of await q.queue.finished(group, Math.max(0, lastSweep + sweepMs - performance.now()))) {
          const k = batchOf.get(id);
          if (k !== undefined) announced.add(k);
        }
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    if (existsSync(pendingDir) && next >= batches.length) for (const n of readdirSync(pendingDir)) if (n.startsWith(`sp-${run}-`) && n.endsWith('.json')) unlinkSync(join(pendingDir, n));
    return Result.ok({
      games: report.games,
      positions: report.positions,
      seconds,
      gamesPerHour: (report.games * 3600) / Math.max(1e-3, seconds),
      nnEvals: report.nnEvals,
      nnMs: report.nnMs,
      resignFalsePositives: { checked: report.checked, wrong: report.wrong },
      aborted: next < batches.length,
    });
  };
}
