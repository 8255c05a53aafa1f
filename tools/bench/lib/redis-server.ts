/**
 * A throwaway redis-server for a benchmark: loopback, a free port, a temporary directory, AOF with
 * fsync once a second (the deployment page's setting). Undefined when the Debian package's binary
 * is missing.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../tests/fakes/free-port.js';

const REDIS_SERVER = '/usr/bin/redis-server';

export interface BenchRedis {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

export async function startBenchRedis(): Promise<BenchRedis | undefined> {
  if (!existsSync(REDIS_SERVER)) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'kishi-bench-redis-'));
  const port = await freePort();
  const p = spawn(REDIS_SERVER, ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'everysec', '--save', '', '--maxmemory-policy', 'noeviction'], { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
    p.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(t);
        resolve();
      }
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: p.pid!,
    stop: async () => {
      if (p.exitCode === null) await new Promise<void>((r) => (p.once('exit', () => r()), p.kill('SIGKILL')));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
