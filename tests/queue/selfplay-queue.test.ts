/**
 * The AlphaZero loop's self-play step over the queue (`kishi train alphazero --queue`): the queued
 * runner writes the same chunk files (names, games, positions) into the self-play directory as the
 * local `runSelfplay`, in game order, with nothing left in Redis or in `.queue/`. The producer's
 * sweep is longer than the test: results arrive by the workers' announcements only. Scripted net
 * (`mock:uniform`), so no ONNX runtime and no network file is involved.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoopSelfplayOptions } from '../../src/learning/alphazero/loop.js';
import { runSelfplay } from '../../src/learning/alphazero/selfplay.js';
import { scanSelfplayChunks } from '../../src/learning/alphazero/selfplay-chunks.js';
import { parseQueueUrl } from '../../src/queue/connection.js';
import { ProducerQueue } from '../../src/queue/producer-queue.js';
import { queuedSelfplay } from '../../src/queue/selfplay-producer.js';
import { kishi, killAll } from './processes.js';
import { haveRedis, NO_REDIS, startRedis, type TestRedis } from './redis-server.js';

describe.skipIf(!haveRedis())('AlphaZero self-play over the job queue', () => {
  let redis: TestRedis;
  let tmp: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'kishi-queue-sp-'));
    redis = await startRedis();
  });

  afterAll(async () => {
    await killAll();
    await redis?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('writes the chunk files the local run writes, in order, and leaves nothing behind', async () => {
    const options = (outDir: string): LoopSelfplayOptions => ({
      game: 'chess',
      model: 'mock:uniform',
      outDir,
      games: 5,
      firstGameIndex: 3,
      workers: 1,
      concurrentGames: 1,
      playouts: 8,
      temperatureMoves: 4,
      maxPlies: 16,
      gamesPerChunk: 2,
      seed: 5,
      phase: 'selfplay',
    });
    const local = await runSelfplay(options(join(tmp, 'local')));
    expect(local.isOk).toBe(true);
    await kishi(['worker', '--queue', redis.url, '--concurrency', '1']).waitFor(/takes jobs from/, 90_000);
    const queue = new ProducerQueue(parseQueueUrl(redis.url).unwrap(), 'kishi');
    const results: string[] = [];
    const r = await queuedSelfplay({ queue, sweepMs: 600_000, onResult: (x) => results.push(x.file) })(options(join(tmp, 'queued')));
    await queue.close();
    expect(r.isOk && r.value.games).toBe(5);
    expect(r.isOk && r.value.positions).toBe(local.unwrap().positions);
    const names = (d: string): string[] => readdirSync(join(tmp, d)).filter((n) => n.endsWith('.knr')).sort();
    expect(names('queued')).toEqual(names('local'));
    expect(names('queued')).toEqual(['sp-000000003-000000004.knr', 'sp-000000005-000000006.knr', 'sp-000000007-000000007.knr']);
    // The same games in the same files: every header field but the creation time.
    const scan = (d: string): unknown => JSON.parse(JSON.stringify(scanSelfplayChunks(join(tmp, d)), (k, v: unknown) => (k === 'createdAt' || k === 'file' ? undefined : v)));
    expect(scan('queued')).toEqual(scan('local'));
    expect(readdirSync(join(tmp, 'queued', '.queue'))).toEqual([]);
    const client = new Redis(redis.port, '127.0.0.1');
    expect(await client.keys('kishi:kishi:payload:*')).toEqual([]);
    expect(await client.zcard('kishi:kishi:completed')).toBe(0);
    client.disconnect();
  }, 180_000);
});

// Without the server, one visible skipped line says why.
if (!haveRedis()) describe('AlphaZero self-play over the job queue', () => it.skip(NO_REDIS, () => {}));
