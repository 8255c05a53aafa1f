/**
 * A simulated fleet against a real redis-server: N light fake workers (N heartbeats of one slot
 * each, and one BullMQ worker with N slots whose jobs sleep, return an empty chunk with a valid
 * tie to their job, and announce it as `kishi worker` does, done-list.ts) serve a real datagen
 * producer. The producer's Redis commands (all three of its connections, counted as they are sent)
 * per completed job must stay flat in N (its looks are at the announced jobs, live workers one range
 * query, not a keyspace scan), and must not grow with the jobs' length: a producer that polled its
 * outstanding jobs (the earlier code: every 500 ms) pays per poll, i.e. per second of work.
 * docs/queue.md quotes the figures this test prints.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker, type ConnectionOptions, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatagenGameSettings } from '../../src/learning/datagen/datagen-game.js';
import { parseQueueUrl } from '../../src/queue/connection.js';
import { runQueuedDatagen } from '../../src/queue/datagen-producer.js';
import { announceFinished } from '../../src/queue/done-list.js';
import { jobDigest, packBytes, payloadKey, sha256Hex, workerKeyPrefix, workerSetKey, type DatagenJob, type DatagenJobResult } from '../../src/queue/jobs.js';
import { ProducerQueue } from '../../src/queue/producer-queue.js';
import { QUEUE_KEY_PREFIX } from '../../src/queue/queue-names.js';
import { makeStamp } from '../../src/queue/stamp.js';
import { haveRedis, NO_REDIS, startRedis, type TestRedis } from './redis-server.js';

/** How long a fake job takes, ms: short (the fleet sizes) and long (no cost per second of work). */
const JOB_MS = 1000;
const LONG_JOB_MS = 5000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!haveRedis())('a simulated fleet (real redis-server)', () => {
  let redis: TestRedis;
  let tmp: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'kishi-queue-fleet-'));
    redis = await startRedis();
  });

  afterAll(async () => {
    await redis?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** Producer commands per completed job with `n` one-slot workers, jobs of `jobMs`, `jobs` chunks. */
  async function run(n: number, jobMs = JOB_MS, jobs = 3 * n): Promise<{ perJob: number; jobs: number; seconds: number }> {
    const queue = `fleet${n}-${jobMs}`;
    const conn = parseQueueUrl(redis.url).unwrap();
    const side = new Redis(redis.port, '127.0.0.1');
    // N heartbeats, as N one-slot workers publish them.
    const beat = async (): Promise<void> => {
      const m = side.multi();
      for (let k = 0; k < n; k++) {
        const id = `fake-${k}`;
        m.set(`${workerKeyPrefix(QUEUE_KEY_PREFIX, queue)}${id}`, JSON.stringify({ id, host: 'sim', pid: k, version: 'sim', concurrency: 1, startedAt: '', jobsDone: 0, jobsFailed: 0, active: [], positions: 0, games: 0, refused: 0, at: new Date().toISOString() }), 'EX', 30);
        m.zadd(workerSetKey(QUEUE_KEY_PREFIX, queue), Date.now() + 30_000, id);
      }
      await m.exec();
    };
    await beat();
    const beating = setInterval(() => void beat(), 5000);
    const worker = new Worker<DatagenJob, DatagenJobResult>(
      queue,
      async (job: Job<DatagenJob, DatagenJobResult>) => {
        await sleep(jobMs);
        const packed = packBytes(new Uint8Array(0));
        const key = payloadKey(QUEUE_KEY_PREFIX, queue, String(job.id));
        await side.set(key, packed, 'EX', 3600);
        const d = job.data;
        return { kind: 'datagen', worker: 'sim', chunk: d.chunk, games: 0, nodes: 0, count: 0, payloadKey: key, payloadBytes: packed.length, payloadSha: sha256Hex(packed), ms: jobMs, jobDigest: jobDigest(d), build: d.stamp.build };
      },
      { connection: conn.options as ConnectionOptions, prefix: QUEUE_KEY_PREFIX, concurrency: n },
    );
    worker.on('completed', (job) => void announceFinished(side, QUEUE_KEY_PREFIX, queue, String(job.id)));
    const q = new ProducerQueue(conn, queue);
    const commands = await q.commandCounter();
    const made = makeStamp([]);
    if (!('stamp' in made)) throw new Error('no stamp');
    const t0 = performance.now();
    const r = await runQueuedDatagen({
      out: join(tmp, queue),
      seed: 1,
      shardIndex: 0,
      shardCount: 1,
      gamesPerChunk: 1,
      targetPositions: Number.MAX_SAFE_INTEGER,
      maxChunks: jobs,
      choices: { game: 'chess', nodes: 1, hash: 1 },
      settings: { game: 'chess', nodes: 1 } as unknown as DatagenGameSettings,
      stamp: made.stamp,
      queue: q,
    });
    const seconds = (performance.now() - t0) / 1000;
    const sent = commands();
    clearInterval(beating);
    await worker.close();
    await q.close();
    side.disconnect();
    expect(r.isOk && r.value.chunksDone).toBe(jobs);
    // Leftovers: every collected job and payload is gone from Redis at once.
    const check = new Redis(redis.port, '127.0.0.1');
    expect(await check.zcard(`${QUEUE_KEY_PREFIX}:${queue}:completed`)).toBe(0);
    expect(await check.keys(`${QUEUE_KEY_PREFIX}:${queue}:payload:*`)).toEqual([]);
    check.disconnect();
    return { perJob: sent / jobs, jobs, seconds };
  }

  const line = (f: Record<string, { perJob: number; jobs: number; seconds: number }>, ms: number): string =>
    `fleet (jobs of ${ms} ms): ${Object.entries(f).map(([n, x]) => `${n} workers: ${x.perJob.toFixed(1)} producer commands per job (${x.jobs} jobs, ${x.seconds.toFixed(1)} s)`).join('; ')}`;

  it('the producer\'s Redis commands per completed job stay flat from 10 to 500 workers', async () => {
    const figures: Record<number, { perJob: number; jobs: number; seconds: number }> = {};
    for (const n of [10, 100, 500]) figures[n] = await run(n);
    console.log(line(figures, JOB_MS));
    // Flat: 50 times the workers may not cost even 1.5 times the commands per job (a per-worker or
    // per-slot cost would be 50x). A job costs a fixed handful: add, look, payload read and delete,
    // removal, and its share of the blocking waits.
    for (const n of [100, 500]) expect(figures[n]!.perJob).toBeLessThan(1.5 * figures[10]!.perJob);
    for (const n of [10, 100, 500]) expect(figures[n]!.perJob).toBeLessThan(14);
  }, 400_000);

  it('longer jobs cost the producer no more commands per job (no polling while they run)', async () => {
    const f = await run(10, LONG_JOB_MS, 30);
    console.log(line({ 10: f }, LONG_JOB_MS));
    // Polling every 500 ms its 20 outstanding jobs (3 commands each) cost the earlier code about
    // 60 x 10 polls per 10 jobs of 5 s: some 60 commands per job.
    expect(f.perJob).toBeLessThan(14);
  }, 120_000);
});

// Without the server, one visible skipped line says why.
if (!haveRedis()) describe('a simulated fleet (real redis-server)', () => it.skip(NO_REDIS, () => {}));
