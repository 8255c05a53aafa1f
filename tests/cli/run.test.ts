/** `kishi run` and `kishi csa` start-up errors: one line and exit 2 for bad config, never a stack trace. */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const kishi = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, ['bin/kishi.js', ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 30_000 });

/** As `kishi`, without blocking this process's event loop (a test's own server must keep answering). */
const kishiAsync = (
  args: string[],
  env: NodeJS.ProcessEnv = {},
  /** `exactEnv`: the child's whole environment (to leave a variable out), instead of this one's plus `env`. */
  opts: { readonly cwd?: string; readonly until?: RegExp; readonly exactEnv?: NodeJS.ProcessEnv } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve, reject) => {
    // A first argument that is a path to bin/kishi.js replaces the relative one (another working directory).
    const argv = args[0]?.endsWith('bin/kishi.js') ? args : ['bin/kishi.js', ...args];
    const child = spawn(process.execPath, argv, { env: opts.exactEnv ?? { ...process.env, ...env }, ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      // Stopped (SIGTERM: a graceful stop) once it said what the test waits for.
      if (opts.until?.test(stderr) === true) child.kill('SIGTERM');
    });
    const timer = setTimeout(() => child.kill(), 60_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });

describe('an unwritable log.dir', () => {
  // A regular file in the way of the directory: no user, root included, can create it.
  const dir = mkdtempSync(join(tmpdir(), 'kishi-logdir-'));
  const blocker = join(dir, 'not-a-dir');
  writeFileSync(blocker, '');
  const config = join(dir, 'kishi.yaml');
  writeFileSync(config, ['lichess:', '  enabled: true', '  url: http://127.0.0.1:9', 'log:', `  dir: ${join(blocker, 'logs')}`, ''].join('\n'));

  it('kishi run: one line and exit 2', () => {
    const r = kishi(['run', '--config', config], { LICHESS_TOKEN: 'lip_test' });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([`kishi run: log.dir ${join(blocker, 'logs')}: cannot write log files there (ENOTDIR)`]);
  });

  it('kishi csa: one line and exit 2', () => {
    const r = kishi(['csa', '--config', config, '--games', '1'], { CSA_PASSWORD: 'trip' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`kishi csa: log.dir ${join(blocker, 'logs')}: cannot write log files there (ENOTDIR)`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  for (const command of ['uci', 'usi']) {
    it(`kishi ${command} -c: the same line and exit 2, not a stack trace`, () => {
      const r = spawnSync(process.execPath, ['bin/kishi.js', command, '-c', config], { encoding: 'utf8', input: 'quit\n', timeout: 30_000 });
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([`kishi ${command}: log.dir ${join(blocker, 'logs')}: cannot write log files there (ENOTDIR)`]);
      expect(r.stdout).toBe('');
    });
  }
});

describe('a server that cannot start', () => {
  it('kishi run with the web port in use: the reason once on stderr (and once in the log file), exit 1', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = (blocker.address() as AddressInfo).port;
      const dir = mkdtempSync(join(tmpdir(), 'kishi-port-'));
      const config = join(dir, 'kishi.yaml');
      writeFileSync(config, ['lichess:', '  enabled: false', 'web:', `  port: ${port}`, 'log:', `  dir: ${join(dir, 'logs')}`, ''].join('\n'));
      const r = await kishiAsync(['run', '--config', config]);
      expect(r.status).toBe(1);
      const said = `port ${port} on 127.0.0.1 is in use (another Kishi?); set web.port in the config`;
      expect(r.stderr.trim().split('\n')).toEqual([`kishi run: web: ${said}`]);
      expect(readFileSync(join(dir, 'logs', 'kishi.log'), 'utf8').split(said).length - 1).toBe(1);
    } finally {
      blocker.close();
    }
  }, 60_000);
});

describe('new-user paths', () => {
  it("printf 'uci\\nisready\\nquit\\n' | kishi uci answers readyok before it exits", () => {
    const r = spawnSync(process.execPath, ['bin/kishi.js', 'uci'], { encoding: 'utf8', input: 'uci\nisready\nquit\n', timeout: 30_000 });
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n').slice(-2)).toEqual(['uciok', 'readyok']);
  });

  it('kishi log-records with a missing --logs directory: one line and exit 2', () => {
    const r = kishi(['log-records', '--game', 'chess', '--logs', '/nonexistent-logs', '--out', join(tmpdir(), 'kishi-lr-out')]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('kishi log-records: --logs /nonexistent-logs: no such directory');
  });

  it('kishi --help names the learners there are, with examples', () => {
    const r = kishi(['--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain('to come');
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('npx kishi run');
  });

  it('kishi run from another directory finds the shipped config (the missing token is then the first problem)', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'kishi-cwd-'));
    const env = { ...process.env };
    delete env['LICHESS_TOKEN'];
    // The shipped config enables lichess and `web.enabled: auto`: without the token the run says so
    // and serves the local page instead (it keeps running: stopped once it said so, or after 60 s on a
    // busy machine, never after a fixed short time).
    const r = await kishiAsync([join(process.cwd(), 'bin/kishi.js'), 'run'], {}, { cwd: elsewhere, until: /serving the local page only/, exactEnv: env });
    expect(r.stderr).not.toContain('file not found');
    expect(r.stderr).toContain('LICHESS_TOKEN');
    expect(r.stderr).toContain('serving the local page only');
  });
});
