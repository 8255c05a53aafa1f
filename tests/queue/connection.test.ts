/**
 * The queue's connection and its safety: URL parsing (password, TLS, database), the password never
 * printed (worker log, `kishi queue status`, errors), and a worker refusing a job stamped by another
 * project version, saying why and leaving the job for a matching worker. The integration part runs
 * a real redis-server speaking TLS only, with a password.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { clearSecrets, redact } from '../../src/log/redact.js';
import { parseQueueUrl, QUEUE_PASSWORD_ENV, QUEUE_TLS_CA_ENV } from '../../src/queue/connection.js';
import { withDigest, type DatagenJob } from '../../src/queue/jobs.js';
import { ProducerQueue } from '../../src/queue/producer-queue.js';
import { makeStamp, projectVersion, stampMismatch } from '../../src/queue/stamp.js';
import { kishi, killAll } from './processes.js';
import { haveRedis, NO_REDIS, startRedis, type TestRedis } from './redis-server.js';

const SECRET = 'q7-Very$ecret/pass';

describe('queue URL', () => {
  it('reads host, port, database, password and TLS; the display form hides the password', () => {
    clearSecrets();
    const c = parseQueueUrl(`rediss://:${encodeURIComponent(SECRET)}@queue.example.org:6380/2`, {}).unwrap();
    expect(c.options).toMatchObject({ host: 'queue.example.org', port: 6380, db: 2, password: SECRET, maxRetriesPerRequest: null });
    expect(c.options.tls).toEqual({ servername: 'queue.example.org' });
    expect(c.display).toBe('rediss://:***@queue.example.org:6380/2');
    expect(c.display).not.toContain(SECRET);
    // Registered with the log redaction.
    expect(redact(`connecting with ${SECRET}`)).toBe('connecting with ***');
  });

  it('takes the password from the environment and defaults the port', () => {
    const c = parseQueueUrl('redis://10.0.0.5', { [QUEUE_PASSWORD_ENV]: SECRET }).unwrap();
    expect(c.options).toMatchObject({ host: '10.0.0.5', port: 6379, db: 0, password: SECRET });
    expect(c.options.tls).toBeUndefined();
    expect(c.display).toBe('redis://:***@10.0.0.5');
  });

  it('refuses other schemes, short passwords and garbage without echoing a password', () => {
    expect(parseQueueUrl('http://host:1', {}).isErr).toBe(true);
    const short = parseQueueUrl('redis://:abc@host:1', {});
    expect(short.isErr && short.error.message).toMatch(/shorter than 4/);
    const garbage = parseQueueUrl(`not a url ${SECRET}`, {});
    expect(garbage.isErr && garbage.error.message).not.toContain(SECRET);
    const ca = parseQueueUrl('rediss://host:1', { [QUEUE_TLS_CA_ENV]: '/nonexistent/ca.pem' });
    expect(ca.isErr && ca.error.message).toMatch(/KISHI_QUEUE_TLS_CA=\/nonexistent\/ca.pem: cannot read/);
  });

  it('the config file may name the queue but not hold its password', () => {
    expect(parseConfig('queue:\n  url: rediss://queue.example.org:6380\n').unwrap().queue.url).toBe('rediss://queue.example.org:6380');
    expect(parseConfig(`queue:\n  url: redis://:${SECRET}@queue.example.org:6379\n`).isErr).toBe(true);
    expect(parseConfig('').unwrap().queue).toEqual({ url: '', name: 'kishi', concurrency: 0, lockDurationSec: 30, engines: [] });
  });

  it('a stamp from another version or with another file is refused with the reason', () => {
    const made = makeStamp(['models/chess-linear.json']);
    if (!('stamp' in made)) throw new Error(`missing ${made.missing}`);
    expect(stampMismatch(made.stamp)).toBeUndefined();
    expect(stampMismatch({ ...made.stamp, project: '0.0.0-other' })).toBe(`project version 0.0.0-other in the job, ${projectVersion()} on this worker`);
    expect(stampMismatch({ ...made.stamp, files: { 'models/chess-linear.json': '0'.repeat(64) } })).toMatch(/models\/chess-linear.json differs/);
    expect(stampMismatch({ ...made.stamp, files: { 'models/none.json': '0'.repeat(64) } })).toBe('models/none.json is missing on this worker');
  });
});

describe.skipIf(!haveRedis())('queue over TLS with a password (real redis-server)', () => {
  let redis: TestRedis;
  let tmp: string;
  let ca: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'kishi-queue-tls-'));
    ca = join(tmp, 'cert.pem');
    const key = join(tmp, 'key.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', ca, '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    redis = await startRedis({ password: SECRET, tls: { cert: ca, key } });
  });

  afterAll(async () => {
    await killAll();
    await redis?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('a worker connects with rediss:// and a password, refuses a job of another version and says so; no output shows the password', async () => {
    const env = { [QUEUE_TLS_CA_ENV]: ca };
    const url = `rediss://:${encodeURIComponent(SECRET)}@127.0.0.1:${redis.port}`;
    const worker = kishi(['worker', '--queue', url, '--concurrency', '1'], env);
    await worker.waitFor(/takes jobs from rediss:\/\/:\*\*\*@127\.0\.0\.1/, 30_000);

    // A job stamped by another project version.
    const conn = parseQueueUrl(url, env).unwrap();
    const q = new ProducerQueue(conn, 'kishi');
    const made = makeStamp(['models/chess-linear.json']);
    if (!('stamp' in made)) throw new Error(`missing ${made.missing}`);
    const job = withDigest<DatagenJob>({
      kind: 'datagen',
      stamp: { ...made.stamp, project: '0.0.0-other' },
      choices: { game: 'chess', nodes: 100, hash: 1 },
      settings: { game: 'chess', nodes: 100 } as DatagenJob['settings'],
      seed: 1,
      shardIndex: 0,
      shardCount: 1,
      gamesPerChunk: 1,
      chunk: 0,
    });
    await q.ensure('datagen', 'dg-refusetest-c0', job);
    await worker.waitFor(/refusing datagen job dg-refusetest-c0: project version 0\.0\.0-other in the job, \S+ on this worker/, 30_000);
    expect((await q.look('dg-refusetest-c0')).state).toBe('pending');

    // The status, with the password from the environment, lists the worker and its refusal.
    const status = kishi(['queue', 'status', '--queue', `rediss://127.0.0.1:${redis.port}`], { ...env, [QUEUE_PASSWORD_ENV]: SECRET });
    expect(await status.exited).toBe(0);
    expect(status.output()).toMatch(/queue kishi at rediss:\/\/:\*\*\*@127\.0\.0\.1:\d+ \(Redis AOF on/);
    expect(status.output()).toMatch(/workers: 1 \(1 slots\)/);
    expect(status.output()).toMatch(/refused \d+ \(last: dg-refusetest-c0: project version 0\.0\.0-other/);

    // A wrong password fails with a message that shows neither password.
    const wrong = kishi(['queue', 'status', '--queue', `rediss://:wrong-password-1@127.0.0.1:${redis.port}`], env);
    expect(await wrong.exited).toBe(1);
    expect(wrong.output()).not.toContain('wrong-password-1');

    await q.close();
    worker.proc.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    for (const out of [worker.output(), status.output(), wrong.output()]) {
      expect(out).not.toContain(SECRET);
      expect(out).not.toContain(encodeURIComponent(SECRET));
    }
  }, 120_000);
});

// Without the server, one visible skipped line says why.
if (!haveRedis()) describe('queue over TLS with a password (real redis-server)', () => it.skip(NO_REDIS, () => {}));
