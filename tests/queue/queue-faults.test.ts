/**
 * The queue under fault and attack, against a real redis-server (issue 47): each case is one an
 * operator hit with the earlier code.
 * - Discard markers left by a finished run made a rerun (longer, or in an empty --out) loop forever.
 * - A job edited in Redis (another seed) was played silently into a chunk that differs.
 * - A garbage file in `out/.queue/` crashed the producer and every rerun.
 * - A job whose data is not JSON bounced between workers and broke `kishi queue status`.
 * - A match job carrying a command line ran it on the worker.
 * - A server that accepts TCP but never answers hung `queue status` and the producer.
 * - A producer waiting for a Redis that is down ignored SIGTERM; a wrong password printed it.
 * - A worker of another build kept taking and putting back every job (now it steps aside).
 * Also: the first SIGINT/SIGTERM stops the datagen and match producers, Redis up or down.
 * Each queue case uses its own queue name and its own one-slot worker; everything is bounded in
 * time and killed in afterAll.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import winston from 'winston';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobDigest, withDigest, type MatchJob } from '../../src/queue/jobs.js';
import { parseQueueUrl } from '../../src/queue/connection.js';
import { ProducerQueue } from '../../src/queue/producer-queue.js';
import { startWorker } from '../../src/queue/worker.js';
import { makeStamp } from '../../src/queue/stamp.js';
import { freePort } from '../fakes/free-port.js';
import { kishi, killAll, type Child } from './processes.js';
import { haveRedis, NO_REDIS, startRedis, type TestRedis } from './redis-server.js';

const BASE = ['datagen', '-g', 'chess', '--nodes', '200', '--games-per-chunk', '2', '--seed', '7', '--hash', '2'];
const chunkFiles = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.kdg')).sort() : []);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Every chunk in `out` is byte-identical to the reference's chunk of that name; there is at least one. */
function expectPrefixOf(out: string, ref: string, all = false): void {
  const got = chunkFiles(out);
  expect(got.length).toBeGreaterThan(0);
  if (all) expect(got).toEqual(chunkFiles(ref));
  else expect(chunkFiles(ref).slice(0, got.length)).toEqual(got);
  for (const n of got) expect(Buffer.compare(readFileSync(join(out, n)), readFileSync(join(ref, n))), n).toBe(0);
}

/** Waits until the queue's wait list holds at least `n` job ids; returns them. */
async function waitingIds(r: Redis, queue: string, n: number, ms = 60_000): Promise<string[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const ids = await r.lrange(`kishi:${queue}:wait`, 0, -1);
    if (ids.length >= n) return ids;
    if (Date.now() > deadline) throw new Error(`only ${ids.length} jobs waiting on ${queue}`);
    await sleep(200);
  }
}

/** The id of chunk `c` given any job id of the same run. */
const chunkId = (anyId: string, c: number): string => anyId.replace(/-c\d+$/, `-c${c}`);

describe.skipIf(!haveRedis())('the job queue under fault and attack (real redis-server)', () => {
  let redis: TestRedis;
  let r: Redis;
  let tmp: string;
  let ref: string;
  const worker = async (queue: string, extra: readonly string[] = []): Promise<Child> => {
    const w = kishi(['worker', '--queue', redis.url, '--queue-name', queue, '--concurrency', '1', ...extra]);
    await w.waitFor(/takes jobs from/, 60_000);
    return w;
  };

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'kishi-queue-faults-'));
    redis = await startRedis();
    r = new Redis(redis.port, '127.0.0.1');
    ref = join(tmp, 'ref');
    const local = kishi([...BASE, '--positions', '800', '--out', ref]);
    expect(await local.exited).toBe(0);
    expect(chunkFiles(ref).length).toBeGreaterThanOrEqual(4);
  }, 240_000);

  afterAll(async () => {
    await killAll();
    r?.disconnect();
    await redis?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('discard markers of an earlier run neither livelock a run in an empty --out nor the extension of a finished run', async () => {
    const queue = 'livelock';
    const out = join(tmp, 'livelock');
    const args = [...BASE, '--queue', redis.url, '--queue-name', queue, '--out', out];
    // No worker yet: the first producer queues its window; its ids name the run's chunks.
    const first = kishi([...args, '--positions', '400']);
    const ids = await waitingIds(r, queue, 4);
    first.proc.kill('SIGKILL');
    await first.exited;
    // What a run that finished while workers still held these chunks leaves behind.
    const markAll = async (): Promise<void> => {
      for (let c = 0; c < 30; c++) await r.set(`kishi:${queue}:discard:${chunkId(ids[0]!, c)}`, '1', 'EX', 86_400);
    };
    await markAll();
    await worker(queue);
    const second = kishi([...args, '--positions', '400']);
    expect(await Promise.race([second.exited, sleep(150_000).then(() => 'livelock')])).toBe(0);
    expectPrefixOf(out, ref);
    // The run is extended (a larger --positions) after another run left its markers.
    await markAll();
    const third = kishi([...args, '--positions', '800']);
    expect(await Promise.race([third.exited, sleep(200_000).then(() => 'livelock')])).toBe(0);
    expectPrefixOf(out, ref, true);
    expect(readdirSync(join(out, '.queue'))).toEqual([]);
  }, 420_000);

  it('a job edited in Redis (another seed, with or without a matching digest) never reaches the data set', async () => {
    const queue = 'tamper';
    const out = join(tmp, 'tamper');
    const producer = kishi([...BASE, '--queue', redis.url, '--queue-name', queue, '--out', out, '--positions', '400']);
    const ids = await waitingIds(r, queue, 2);
    for (const [k, id] of [chunkId(ids[0]!, 0), chunkId(ids[0]!, 1)].entries()) {
      const key = `kishi:${queue}:${id}`;
      const data = JSON.parse((await r.hget(key, 'data'))!) as Record<string, unknown>;
      data['seed'] = (data['seed'] as number) + 1000;
      // Chunk 0: the digest left as it was; chunk 1: the digest recomputed, as a careful attacker would.
      if (k === 1) data['digest'] = jobDigest(data);
      await r.hset(key, 'data', JSON.stringify(data));
    }
    await worker(queue);
    expect(await Promise.race([producer.exited, sleep(200_000).then(() => 'hung')])).toBe(0);
    expect(producer.output()).toMatch(/chunk 0 .*damaged in Redis.*digest does not match/);
    expect(producer.output()).toMatch(/chunk 1 .*result is refused: it answers another job/);
    expectPrefixOf(out, ref);
  }, 300_000);

  it('a garbage file waiting in out/.queue/ is set aside, and the run and its reruns end with the local bytes', async () => {
    const queue = 'garbage';
    const out = join(tmp, 'garbage');
    const args = [...BASE, '--queue', redis.url, '--queue-name', queue, '--out', out, '--positions', '400'];
    const first = kishi(args);
    const ids = await waitingIds(r, queue, 1);
    first.proc.kill('SIGKILL');
    await first.exited;
    // A waiting result for chunk 0 whose records are not deflate data (the name the producer gives it).
    const run = /^dg-([0-9a-f]+)-c\d+$/.exec(ids[0]!)![1]!;
    const name = `chess-s0of1-${run}-c0000000.json`;
    mkdirSync(join(out, '.queue'), { recursive: true });
    writeFileSync(join(out, '.queue', name), JSON.stringify({ kind: 'datagen', chunk: 0, games: 2, count: 50, records: Buffer.from('garbage, not deflate data at all').toString('base64') }));
    await worker(queue);
    const second = kishi(args);
    expect(await Promise.race([second.exited, sleep(200_000).then(() => 'hung')])).toBe(0);
    expect(second.output()).toMatch(/unreadable .*moved to .*\.bad-\d+, the chunk is queued again/);
    expectPrefixOf(out, ref);
    // The file set aside is kept for inspection and never read again: a rerun is a no-op success.
    expect(readdirSync(join(out, '.queue')).some((n) => n.startsWith(`${name}.bad-`))).toBe(true);
    const third = kishi(args);
    expect(await third.exited).toBe(0);
  }, 300_000);

  it('a job whose data is not JSON fails for good with its reason, and `kishi queue status` lists it', async () => {
    const queue = 'poison';
    const conn = parseQueueUrl(redis.url).unwrap();
    const q = new ProducerQueue(conn, queue);
    const made = makeStamp([]);
    if (!('stamp' in made)) throw new Error('no stamp');
    const job = withDigest<MatchJob>({ kind: 'match', stamp: made.stamp, settings: {} as MatchJob['settings'], games: [] });
    await q.ensure('match', 'mt-poison-g1', job);
    await r.hset(`kishi:${queue}:mt-poison-g1`, 'data', '{"kind": "match", oops');
    await worker(queue);
    const deadline = Date.now() + 60_000;
    while ((await q.look('mt-poison-g1')).state !== 'failed' && Date.now() < deadline) await sleep(300);
    const look = await q.look('mt-poison-g1');
    expect(look.state === 'failed' && look.reason).toMatch(/^damaged job data: its data is not JSON/);
    const status = kishi(['queue', 'status', '--queue', redis.url, '--queue-name', queue]);
    expect(await status.exited).toBe(0);
    expect(status.output()).toMatch(/1 failed/);
    expect(status.output()).toMatch(/failed match job mt-poison-g1: damaged job data: its data is not JSON/);
    await q.close();
  }, 120_000);

  it('a match job carrying a command line does not run it; engines not in the worker\'s allow-list are refused', async () => {
    const queue = 'exec';
    const marker = join(tmp, 'pwned');
    const conn = parseQueueUrl(redis.url).unwrap();
    const q = new ProducerQueue(conn, queue);
    const made = makeStamp([]);
    if (!('stamp' in made)) throw new Error('no stamp');
    const tc = { kind: 'nodes', nodes: 100 };
    const shell = { command: '/bin/sh', args: ['-c', `touch ${marker}`], options: {}, time: {}, kishi: false };
    // The earlier job format: engines as command lines.
    const old = { kind: 'match', stamp: made.stamp, settings: { game: 'chess', variant: 'standard', engines: [{ spec: shell, tc }, { spec: shell, tc }], adjudication: {}, hangTimeoutMs: 10_000, graceMs: 1000, startTimeoutMs: 5000, logLines: 10 }, games: [{ id: 1, pair: 1, round: '1', opening: { moves: [] }, aSide: 'first' }] };
    await q.ensure('match', 'mt-exec-g1', withDigest(old as unknown as Omit<MatchJob, 'digest'>));
    // The new format naming an engine this worker does not list.
    const unknown = { ...old, settings: { ...old.settings, engines: [{ ref: { engine: 'sh', options: {}, time: {} }, tc }, { ref: { engine: 'kishi', options: {}, time: {} }, tc }] } };
    await q.ensure('match', 'mt-exec-g3', withDigest(unknown as unknown as Omit<MatchJob, 'digest'>));
    const w = await worker(queue);
    await w.waitFor(/refusing match job mt-exec-g1: an engine reference is not an object/, 60_000);
    await w.waitFor(/refusing match job mt-exec-g3: engine sh is not in this worker's queue.engines \(it runs kishi\)/, 60_000);
    await sleep(3000);
    expect(existsSync(marker)).toBe(false);
    await q.close();
  }, 120_000);

  it('the first SIGINT or SIGTERM stops a producer waiting for its workers within seconds', async () => {
    const cases: { name: string; args: string[]; signal: NodeJS.Signals }[] = [
      { name: 'datagen', args: [...BASE, '--positions', '400', '--out', join(tmp, 'sig-dg-int')], signal: 'SIGINT' },
      { name: 'datagen', args: [...BASE, '--positions', '400', '--out', join(tmp, 'sig-dg-term')], signal: 'SIGTERM' },
      { name: 'match', args: ['match', '-e', 'cmd=kishi,name=A', '-e', 'cmd=kishi,name=B', '--nodes', '100', '-n', '4', '--seed', '3', '--out', join(tmp, 'sig-mt-int'), '-q'], signal: 'SIGINT' },
      { name: 'match', args: ['match', '-e', 'cmd=kishi,name=A', '-e', 'cmd=kishi,name=B', '--nodes', '100', '-n', '4', '--seed', '4', '--out', join(tmp, 'sig-mt-term'), '-q'], signal: 'SIGTERM' },
    ];
    for (const [k, c] of cases.entries()) {
      // No worker on this queue: the producer has queued its jobs and waits for announcements.
      const queue = `signal${k}`;
      const p = kishi([...c.args, '--queue', redis.url, '--queue-name', queue]);
      await waitingIds(r, queue, 1, 90_000);
      await sleep(1000);
      const t0 = Date.now();
      p.proc.kill(c.signal);
      expect(await Promise.race([p.exited.then(() => 'stopped'), sleep(20_000).then(() => 'ignored')]), `${c.name} ${c.signal}`).toBe('stopped');
      expect(Date.now() - t0, `${c.name} ${c.signal}`).toBeLessThan(10_000);
      if (c.name === 'datagen') expect(p.proc.exitCode).toBe(130);
    }
  }, 300_000);

  it('a worker of another build steps aside instead of taking and putting back every job, and a matching worker runs them', async () => {
    const queue = 'stale';
    const conn = parseQueueUrl(redis.url).unwrap();
    let logged = '';
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb): void {
        logged += chunk.toString();
        cb();
      },
    });
    const log = winston.createLogger({ level: 'info', format: winston.format.printf((i) => `${i.level} ${String(i.message)}\n`), transports: [new winston.transports.Stream({ stream: sink })] });
    const stale = startWorker({ connection: conn, queueName: queue, concurrency: 1, log, id: 'stale-1', build: 'f'.repeat(64) });
    const out = join(tmp, 'stale');
    const producer = kishi([...BASE, '--positions', '400', '--out', out, '--queue', redis.url, '--queue-name', queue]);
    const deadline = Date.now() + 90_000;
    while (!/taking no jobs for 15 s/.test(logged) && Date.now() < deadline) await sleep(200);
    expect(logged).toMatch(/refusing datagen job dg-\S+: .*build/);
    expect(logged).toMatch(/taking no jobs for 15 s/);
    // While it steps aside it takes nothing: its refusals stay at what they were, though jobs wait.
    const refusals = async (): Promise<number> => (JSON.parse((await r.get('kishi:stale:worker:stale-1')) ?? '{}') as { refused?: number; pausedUntil?: string }).refused ?? -1;
    await sleep(1000);
    const before = await refusals();
    expect(before).toBeGreaterThan(0);
    expect(JSON.parse((await r.get('kishi:stale:worker:stale-1')) ?? '{}')).toHaveProperty('pausedUntil');
    await sleep(6000);
    expect(await refusals()).toBe(before);
    expect((await r.lrange('kishi:stale:wait', 0, -1)).length + (await r.zcard('kishi:stale:delayed'))).toBeGreaterThan(0);
    // A worker of this build finishes the run.
    await worker(queue);
    expect(await Promise.race([producer.exited, sleep(150_000).then(() => 'stuck')])).toBe(0);
    expectPrefixOf(out, ref);
    await stale.stop(true);
  }, 300_000);
});

describe('the job queue against servers that fail', () => {
  let tmp: string;
  let silent: Server;
  let silentPort: number;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'kishi-queue-dead-'));
    // Accepts every connection and never answers (a hung server, a wrong service on the port).
    silent = createServer((s) => {
      sockets.add(s);
      s.on('error', () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as { port: number }).port;
  });

  afterAll(async () => {
    await killAll();
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
    rmSync(tmp, { recursive: true, force: true });
  });

  it('a server that never answers: `queue status` and the producer stop with a clear timeout error', async () => {
    const url = `redis://127.0.0.1:${silentPort}`;
    const status = kishi(['queue', 'status', '--queue', url]);
    expect(await Promise.race([status.exited, sleep(60_000).then(() => 'hung')])).toBe(1);
    expect(status.output()).toMatch(/accepted the connection but did not answer/);
    const producer = kishi([...BASE, '--positions', '100', '--out', join(tmp, 'silent'), '--queue', url]);
    expect(await Promise.race([producer.exited, sleep(90_000).then(() => 'hung')])).toBe(1);
    expect(producer.output()).toMatch(/accepted the connection but did not answer/);
  }, 180_000);

  it('a producer waiting for a Redis that is down stops on the first SIGTERM or SIGINT', async () => {
    const port = await freePort();
    const url = `redis://127.0.0.1:${port}`;
    const cases: { args: string[]; signal: NodeJS.Signals; code: number | null }[] = [
      { args: [...BASE, '--positions', '100', '--out', join(tmp, 'down')], signal: 'SIGTERM', code: 130 },
      { args: [...BASE, '--positions', '100', '--out', join(tmp, 'down-int')], signal: 'SIGINT', code: 130 },
      { args: ['match', '-e', 'cmd=kishi,name=A', '-e', 'cmd=kishi,name=B', '--nodes', '100', '-n', '2', '--seed', '1', '--out', join(tmp, 'down-mt'), '-q'], signal: 'SIGINT', code: null },
    ];
    for (const c of cases) {
      const producer = kishi([...c.args, '--queue', url]);
      await producer.waitFor(/ECONNREFUSED/, 60_000);
      const t0 = Date.now();
      producer.proc.kill(c.signal);
      expect(await Promise.race([producer.exited.then(() => 'stopped'), sleep(20_000).then(() => 'ignored')]), c.args[0]).toBe('stopped');
      if (c.code !== null) expect(producer.proc.exitCode).toBe(c.code);
      expect(Date.now() - t0).toBeLessThan(15_000);
    }
  }, 180_000);
});

describe.skipIf(!haveRedis())('a wrong password (real redis-server with requirepass)', () => {
  const PASSWORD = 'right-Pass-0427';
  const WRONG = 'wrong-Pass-9113';
  let redis: TestRedis;
  let tmp: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'kishi-queue-pass-'));
    redis = await startRedis({ password: PASSWORD });
  });

  afterAll(async () => {
    await killAll();
    await redis?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('each producer command and a worker fail fast with a clear message and shows the password nowhere, output or files', async () => {
    const url = `redis://:${WRONG}@127.0.0.1:${redis.port}`;
    const out = join(tmp, 'dg');
    const runs: Child[] = [
      kishi([...BASE, '--positions', '100', '--out', out, '--queue', url]),
      kishi(['queue', 'status', '--queue', url]),
      kishi(['match', '-e', 'cmd=kishi,name=A', '-e', 'cmd=kishi,name=B', '--nodes', '100', '-n', '2', '--seed', '1', '--out', join(tmp, 'm'), '--queue', url, '-q']),
      kishi(['worker', '--queue', url, '--concurrency', '1']),
    ];
    for (const c of runs) {
      expect(await Promise.race([c.exited, sleep(60_000).then(() => 'hung')])).not.toBe('hung');
      expect(c.output()).toMatch(/refused the credentials/);
      expect(c.output()).not.toContain(WRONG);
      expect(c.proc.exitCode).not.toBe(0);
    }
    const files = (d: string): string[] => (existsSync(d) ? readdirSync(d, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)) : []);
    for (const f of [...files(out), ...files(join(tmp, 'm'))]) expect(readFileSync(f, 'utf8'), f).not.toContain(WRONG);
  }, 180_000);
});

// Without the server, one visible skipped line says why.
if (!haveRedis()) describe('the job queue under fault and attack (real redis-server)', () => it.skip(NO_REDIS, () => {}));
