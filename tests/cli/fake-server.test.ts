/**
 * `kishi fake-server lichess|lishogi` (issue 48, item 10): started as a user would (bin/kishi.js), it
 * prints its URL and tokens, answers the Bot API with them, and stops cleanly on SIGINT. The fake servers
 * live in src/ for this command only: no other product module imports them.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

interface Running {
  readonly child: ChildProcessWithoutNullStreams;
  stdout: string;
  stderr: string;
  readonly closed: Promise<number | null>;
}

let running: Running | undefined;
afterEach(() => {
  if (running !== undefined && running.child.exitCode === null) running.child.kill('SIGKILL');
  running = undefined;
});

/** Spawns `kishi fake-server ...` and waits for its `Ctrl-C stops it.` line. */
async function start(args: readonly string[]): Promise<Running> {
  const child = spawn(process.execPath, ['bin/kishi.js', 'fake-server', ...args]);
  const r: Running = {
    child,
    stdout: '',
    stderr: '',
    closed: new Promise((resolve) => child.on('close', (code) => resolve(code))),
  };
  child.stdout.on('data', (d: Buffer) => (r.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (r.stderr += d.toString()));
  running = r;
  const t0 = Date.now();
  while (!r.stdout.includes('Ctrl-C stops it.')) {
    if (child.exitCode !== null || Date.now() - t0 > 30_000) throw new Error(`fake-server did not start: ${r.stdout} ${r.stderr}`);
    await new Promise((res) => setTimeout(res, 20));
  }
  return r;
}

const urlOf = (r: Running): string => /at (http:\/\/127\.0\.0\.1:\d+)/.exec(r.stdout)![1]!;
const get = (url: string, token: string): Promise<Response> => fetch(url, { headers: { Authorization: `Bearer ${token}` } });

/** Reads an ndjson stream until a line satisfies `want`, or gives up after `ms`. */
async function readUntil(url: string, token: string, want: (line: Record<string, unknown>) => boolean, ms: number): Promise<Record<string, unknown> | undefined> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` }, signal: controller.signal });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return undefined;
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const l of lines) {
        if (l.trim() === '') continue;
        const line = JSON.parse(l) as Record<string, unknown>;
        if (want(line)) return line;
      }
    }
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

describe('kishi fake-server', () => {
  it('lichess: prints the URL and token, serves the Bot API with them, challenges the idle bot, stops on SIGINT', async () => {
    const r = await start(['lichess', '--port', '0', '--token', 'lip_cliTestToken', '--challenge-every', '1', '--keep-alive-ms', '500']);
    expect(r.stdout).toContain('BOT account KishiBot, token lip_cliTestToken');
    const url = urlOf(r);
    const account = (await (await get(`${url}/api/account`, 'lip_cliTestToken')).json()) as { username: string; title: string };
    expect([account.username, account.title]).toEqual(['KishiBot', 'BOT']);
    expect((await get(`${url}/api/account`, 'lip_wrong')).status).toBe(401);
    const online = await (await get(`${url}/api/bot/online`, 'lip_cliTestToken')).text();
    expect(online).toContain('FakeGreedyBot');
    // --challenge-every 1: a challenge from FakeChallenger reaches the event stream within a few seconds.
    const challenge = await readUntil(`${url}/api/stream/event`, 'lip_cliTestToken', (l) => l.type === 'challenge', 10_000);
    expect((challenge?.challenge as { challenger: { name: string } } | undefined)?.challenger.name).toBe('FakeChallenger');
    r.child.kill('SIGINT');
    expect(await r.closed).toBe(0);
    expect(r.stdout).toContain('fake lichess stopped');
    expect(r.stderr).toBe('');
  }, 60_000);

  it('lishogi: one token per account, each answering as its account; stops on SIGINT', async () => {
    const r = await start(['lishogi', '--port', '0', '--accounts', '2', '--token', 'lish_t']);
    const url = urlOf(r);
    expect(r.stdout).toContain('WandererXII/lishogi@acb3b122');
    for (const [token, name] of [
      ['lish_t1', 'KishiBot1'],
      ['lish_t2', 'KishiBot2'],
    ] as const) {
      expect(r.stdout).toContain(`BOT account ${name}, token ${token}`);
      const account = (await (await get(`${url}/api/account`, token)).json()) as { username: string };
      expect(account.username).toBe(name);
    }
    r.child.kill('SIGINT');
    expect(await r.closed).toBe(0);
    expect(r.stdout).toContain('fake lishogi stopped');
  }, 60_000);

  it('a port in use: one line and exit 1', async () => {
    const blocker = createServer();
    await new Promise<void>((res) => blocker.listen(0, '127.0.0.1', res));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const child = spawn(process.execPath, ['bin/kishi.js', 'fake-server', 'lichess', '--port', String(port)]);
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(1);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toContain(`kishi fake-server: cannot listen on port ${port}`);
    } finally {
      blocker.close();
    }
  }, 60_000);

  it('the fake servers are imported by the command and by each other only', () => {
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, e.name);
        if (e.isDirectory()) walk(path);
        else if (path.endsWith('.ts') && !/\/fake\//.test(path) && path !== join('src', 'cli', 'fake-server.ts')) {
          if (/from '[^']*\/fake\/[^']*'|import\('[^']*\/fake\//.test(readFileSync(path, 'utf8'))) offenders.push(path);
        }
      }
    };
    walk('src');
    expect(offenders).toEqual([]);
  });
});
