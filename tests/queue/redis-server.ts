/**
 * A real `redis-server` (the Debian package) for the job-queue tests: loopback only, a random free
 * port, a temporary directory, AOF with fsync on every write (so a SIGKILL of the server loses
 * nothing, as the deployment page recommends `appendfsync everysec` or `always`), optionally a
 * password and TLS. `stop()` kills it and removes the directory; `restart()` kills it (SIGKILL, a
 * crash) and starts it again on the same port and directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../fakes/free-port.js';
import { REDIS_SERVER } from '../setup/prerequisites.js';

export const haveRedis = (): boolean => existsSync(REDIS_SERVER);
/** The line vitest shows for skipped queue tests. */
export const NO_REDIS = `${REDIS_SERVER} not found (Debian package redis-server; .ci/run installs it): the job-queue tests are skipped`;

export interface TestRedis {
  readonly port: number;
  readonly dir: string;
  /** redis://127.0.0.1:port, or rediss:// with TLS (no password in it). */
  readonly url: string;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const waitReady = (p: ChildProcess, port: number): Promise<void> =>
  new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server on ${port} did not start: ${out}`)), 10_000);
    const onData = (d: Buffer): void => {
      out += d.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        p.stdout?.off('data', onData);
        resolve();
      }
    };
    p.stdout?.on('data', onData);
    p.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}): ${out}`));
    });
  });

/** `tls`: PEM files of a certificate for 127.0.0.1 and its key; the server then speaks TLS only. */
export async function startRedis(o: { password?: string; tls?: { cert: string; key: string } } = {}): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'kishi-redis-'));
  const port = await freePort();
  const args = [
    '--bind', '127.0.0.1', '--dir', dir,
    ...(o.tls !== undefined
      ? ['--port', '0', '--tls-port', String(port), '--tls-cert-file', o.tls.cert, '--tls-key-file', o.tls.key, '--tls-auth-clients', 'no']
      : ['--port', String(port)]),
    '--appendonly', 'yes', '--appendfsync', 'always', '--save', '',
    '--maxmemory-policy', 'noeviction', '--protected-mode', 'yes',
    ...(o.password !== undefined ? ['--requirepass', o.password] : []),
  ];
  let proc: ChildProcess;
  const launch = async (): Promise<void> => {
    proc = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout?.on('data', () => {});
    await waitReady(proc, port);
    proc.stdout?.on('data', () => {});
  };
  const kill = async (): Promise<void> => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGKILL');
    });
  };
  await launch();
  return {
    port,
    dir,
    url: `${o.tls !== undefined ? 'rediss' : 'redis'}://127.0.0.1:${port}`,
    restart: async () => {
      await kill();
      await launch();
    },
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
