/**
 * `kishi learn --queue` against a real redis-server and one `kishi worker`: the datagen step's
 * chunks, played by the worker and collected by the producer `kishi datagen --queue` uses, are the
 * bytes the local step writes (tests/queue/ covers the queue itself under disturbance).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkFileName } from '../../../src/learning/datagen/chunk.js';
import { kishi, killAll } from '../../queue/processes.js';
import { haveRedis, startRedis, type TestRedis } from '../../queue/redis-server.js';
import { runFiles } from './learn-fakes.js';

const LEARN = ['learn', '-g', 'chess', '--seed', '9', '--nodes', '60', '--positions-per-gen', '200', '--games-per-chunk', '2', '--hash', '1', '--initial-net', 'models/chess-nnue.bin', '--python', 'python3', '--stop-after', 'datagen'];

describe.skipIf(!haveRedis())('kishi learn --queue', () => {
  let redis: TestRedis;
  let tmp: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'kishi-learn-queue-'));
    redis = await startRedis();
  }, 60_000);

  afterAll(async () => {
    await killAll();
    await redis?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('collects the same chunks from a worker as the local datagen step writes', async () => {
    const local = kishi([...LEARN, '-d', join(tmp, 'local'), '--models', join(tmp, 'm1')]);
    expect(await local.exited).toBe(0);
    const worker = kishi(['worker', '--queue', redis.url, '--concurrency', '1']);
    await worker.waitFor(/takes jobs from/, 60_000);
    const queued = kishi([...LEARN, '-d', join(tmp, 'queued'), '--models', join(tmp, 'm2'), '--queue', redis.url]);
    expect(await queued.exited).toBe(0);
    const files = runFiles(join(tmp, 'queued'));
    expect(files.has(join('gen1', 'data', chunkFileName('chess', 0, 1, 1)))).toBe(true);
    // The producer's bookkeeping folder aside, the same files.
    const withoutQueue = new Map([...files].filter(([k]) => !k.includes('.queue')));
    expect(withoutQueue).toEqual(runFiles(join(tmp, 'local')));
  }, 300_000);
});
