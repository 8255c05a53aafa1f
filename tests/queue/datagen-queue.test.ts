/**
 * `kishi datagen --queue` against a real redis-server: the chunks collected from workers are the
 * chunks a local run writes, byte for byte (datagen is reproducible by seed, and the producer
 * deduplicates in chunk order like the local loop), however the run is disturbed: a worker killed
 * mid-job (its job is handed out again after the lock expires), a producer killed and restarted
 * (it finds its jobs and its waiting results again), Redis killed and restarted (AOF).
 * Every process is bounded in time and killed in afterAll, the server stopped.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChunk } from '../../src/learning/datagen/chunk.js';
import { positionKey } from '../../src/learning/datagen/position-record.js';
import { kishi, killAll, type Child } from './processes.js';
import { haveRedis, NO_REDIS, startRedis, type TestRedis } from './redis-server.js';

const DATAGEN = ['datagen', '-g', 'chess', '--nodes', '200', '--games-per-chunk', '2', '--positions', '800', '--seed', '7', '--hash', '2'];

const chunkFiles = (dir: string): string[] => readdirSync(dir).filter((n) => n.endsWith('.kdg')).sort();

/** The out directory equals the local reference: same chunk files, same bytes, same settings file. */
function expectSameAsLocal(out: string, ref: string): void {
  expect(chunkFiles(out)).toEqual(chunkFiles(ref));
  for (const n of [...chunkFiles(ref), 'chess-s0of1.settings.json']) expect(Buffer.compare(readFileSync(join(out, n)), readFileSync(join(ref, n))), n).toBe(0);
  // Nothing left waiting.
  expect(readdirSync(join(out, '.queue'))).toEqual([]);
}

describe.skipIf(!haveRedis())('datagen over the job queue', () => {
  let redis: TestRedis;
  let tmp: string;
  let ref: string;
  let config: string;
  const workers: Child[] = [];

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'kishi-queue-dg-'));
    redis = await startRedis();
    // A short lock: a killed worker's job is handed out again after ~5 s (checked every 5 s).
    config = join(tmp, 'kishi.yaml');
    writeFileSync(config, 'queue:\n  lockDurationSec: 5\n');
    ref = join(tmp, 'ref');
    const local = kishi([...DATAGEN, '--out', ref]);
    expect(await local.exited).toBe(0);
    expect(chunkFiles(ref).length).toBeGreaterThanOrEqual(4);
    for (let k = 0; k < 3; k++) {
      const w = kishi(['worker', '--queue', redis.url, '--concurrency', '1', '--config', config]);
      workers.push(w);
      await w.waitFor(/takes jobs from/, 90_000);
    }
  }, 180_000);

  afterAll(async () => {
    await killAll();
    await redis?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('three workers, one killed mid-job: the complete data set, deduplicated, byte-identical to the local run', async () => {
    const out = join(tmp, 'killed-worker');
    const producer = kishi([...DATAGEN, '--out', out, '--queue', redis.url]);
    // Kill a worker while its heartbeat says it is inside a job.
    const r = new Redis(redis.port, '127.0.0.1');
    let victim: Child | undefined;
    const deadline = Date.now() + 120_000;
    while (victim === undefined && Date.now() < deadline) {
      for (const key of await r.keys('kishi:kishi:worker:*')) {
        const h = JSON.parse((await r.get(key)) ?? '{}') as { pid?: number; active?: string[] };
        const w = workers.find((c) => c.proc.pid === h.pid && c.proc.exitCode === null);
        if (w !== undefined && (h.active?.length ?? 0) > 0) {
          victim = w;
          break;
        }
      }
      if (victim === undefined) await new Promise((res) => setTimeout(res, 200));
    }
    expect(victim).toBeDefined();
    victim!.proc.kill('SIGKILL');
    await victim!.exited;
    expect(await producer.exited).toBe(0);
    expectSameAsLocal(out, ref);
    // Deduplicated over the whole shard: no position key twice.
    const keys = new Set<number>();
    let n = 0;
    for (const f of chunkFiles(out)) {
      const c = parseChunk(new Uint8Array(readFileSync(join(out, f))), f).unwrap();
      for (let i = 0; i < c.header.count; i++) keys.add(positionKey(c.records, i * c.header.recordBytes, 'chess'));
      n += c.header.count;
    }
    expect(keys.size).toBe(n);
    // The chunk records do not stay in Redis once collected.
    expect(await r.keys('kishi:kishi:payload:*')).toEqual([]);
    r.disconnect();
  }, 360_000);

  it('a producer killed mid-run and started again resumes and ends with the same data set', async () => {
    const out = join(tmp, 'killed-producer');
    const first = kishi([...DATAGEN, '--out', out, '--queue', redis.url]);
    // Killed after its first chunk: on a loaded machine the workers can finish several more before
    // the kill lands, and the run must still be mid-way (waiting for 2 of 6 once saw all 6 done).
    await first.waitFor(/\[#*\.*\] .* 1 chunks/, 120_000);
    first.proc.kill('SIGKILL');
    await first.exited;
    expect(chunkFiles(out).length).toBeGreaterThanOrEqual(1);
    expect(chunkFiles(out).length).toBeLessThan(chunkFiles(ref).length);
    const second = kishi([...DATAGEN, '--out', out, '--queue', redis.url]);
    expect(await second.exited).toBe(0);
    expectSameAsLocal(out, ref);
  }, 360_000);

  it('Redis killed and restarted mid-run (AOF on) does not change the data set', async () => {
    const out = join(tmp, 'killed-redis');
    const producer = kishi([...DATAGEN, '--out', out, '--queue', redis.url]);
    await producer.waitFor(/\[#*\.*\] .* 1 chunks/, 120_000);
    await redis.restart();
    expect(await producer.exited).toBe(0);
    expectSameAsLocal(out, ref);
    expect(existsSync(join(redis.dir, 'appendonlydir'))).toBe(true);
  }, 360_000);
});

// Without the server, one visible skipped line says why.
if (!haveRedis()) describe('datagen over the job queue', () => it.skip(NO_REDIS, () => {}));
