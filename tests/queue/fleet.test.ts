/**
 * A simulated fleet against a real redis-server: N light fake workers (N heartbeats of one slot
 * each, and one BullMQ worker with N slots whose jobs sleep and return an empty chunk with a valid
 * tie to their job) serve a real datagen producer for 3N chunks. The producer's Redis commands
 * (both its connections, counted as they are sent) per completed job must stay flat in N: its polls
 * are one pipelined round trip for its window (which grows with N, as do the jobs finished per
 * poll) and live workers are one range query, not a keyspace scan. docs/queue.md quotes the figures
 * this test prints.
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
import { jobDigest, packBytes, payloadKey, sha256Hex, workerKeyPrefix, workerSetKey, type DatagenJob, type DatagenJobResult } from '../../src/queue/jobs.js';
import { ProducerQueue } from '../../src/queue/producer-queue.js';
import { QUEUE_KEY_PREFIX } from '../../src/queue/queue-names.js';
import { makeStamp } from '../../src/queue/stamp.js';
import { haveRedis, NO_REDIS, startRedis, type TestRedis } from './redis-server.js';

/** How long a fake job takes, ms. */
const JOB_MS = 1000;
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

  /** Producer commands per completed job with `n` one-slot workers. */
  async function run(n: number): Promise<{ perJob: number; jobs: number; seconds: number }> {
    const queue = `fleet${n}`;
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
        await sleep(JOB_MS);
        const packed = packBytes(new Uint8Array(0));
        const key = payloadKey(QUEUE_KEY_PREFIX, queue, String(job.id));
        await side.set(key, packed, 'EX', 3600);
        const d = job.data;
        return { kind: 'datagen', worker: 'sim', chunk: d.chunk, games: 0, nodes: 0, count: 0, payloadKey: key, payloadBytes: packed.length, payloadSha: sha256Hex(packed), ms: JOB_MS, jobDigest: jobDigest(d), build: d.stamp.build };
      },
      { connection: conn.options as ConnectionOptions, prefix: QUEUE_KEY_PREFIX, concurrency: n },
    );
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
      maxChunks: 3 * n,
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
    expect(r.isOk && r.value.chunksDone).toBe(3 * n);
    return { perJob: sent / (3 * n), jobs: 3 * n, seconds };
  }

  it('the producer\'s Redis commands per completed job stay flat from 10 to 500 workers', async () => {
    const figures: Record<number, { perJob: number; jobs: number; seconds: number }> = {};
    for (const n of [10, 100, 500]) figures[n] = await run(n);
    console.log(`fleet (jobs of ${JOB_MS} ms): ${Object.entries(figures).map(([n, f]) => `${n} workers: ${f.perJob.toFixed(1)} producer commands per job (${f.jobs} jobs, ${f.seconds.toFixed(1)} s)`).join('; ')}`);
    // Flat: 50 times the workers may not cost even twice the commands per job (a busy machine slows
    // the fake jobs and adds polls, hence the margin; a per-worker or per-slot cost would be 50x).
    expect(figures[500]!.perJob).toBeLessThan(2 * figures[10]!.perJob);
    expect(figures[100]!.perJob).toBeLessThan(2 * figures[10]!.perJob);
  }, 300_000);
});

// Without the server, one visible skipped line says why.
if (!haveRedis()) describe('a simulated fleet (real redis-server)', () => it.skip(NO_REDIS, () => {}));
