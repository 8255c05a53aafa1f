/**
 * The local web server over its WebSocket and HTTP, without a browser: bad input from a page
 * (malformed or forged messages, illegal and stale moves, a second tab) gets a clear error and the
 * game goes on; Kishi moves first when the person takes the second side; the flag falls; the records
 * are served; `kishi run` with nothing configured starts the server and prints its address.
 * Real Players at 100 nodes (their workers run from dist/, built by the tests' global setup).
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { Dispatcher } from '../../src/bot/dispatcher.js';
import { enginePlayerFactory, gracefulStopNotice, runServers } from '../../src/cli/run.js';
import { parseConfig } from '../../src/config/load.js';
import { createPlayer } from '../../src/player/factory.js';
import { createWebServer, localOnlyConfig, webWanted } from '../../src/web/server-factory.js';
import { WebServer } from '../../src/web/web-server.js';
import { Signals } from '../bot/signals.js';

type Msg = { t: string; text?: string; state?: { id: string; moves: string[]; turn: string; clock: { running?: string }; result?: { winner?: string; reason: string } } };

/** A page's socket: sends JSON, collects what the server says. */
class Tab {
  readonly got: Msg[] = [];
  private readonly ws: WebSocket;
  private waiters: (() => void)[] = [];
  readonly open: Promise<void>;

  constructor(url: string) {
    this.ws = new WebSocket(url.replace('http', 'ws') + 'ws');
    this.ws.on('message', (d) => {
      this.got.push(JSON.parse(String(d)) as Msg);
      for (const w of this.waiters.splice(0)) w();
    });
    this.open = new Promise((r) => this.ws.once('open', () => r()));
  }

  send(m: unknown): void {
    this.ws.send(typeof m === 'string' ? m : JSON.stringify(m));
  }

  /** Waits for the first message after index `from` that passes `test`. */
  async next(test: (m: Msg) => boolean, from = 0, timeoutMs = 15_000): Promise<Msg> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.got.slice(from).find(test);
      if (found) return found;
      if (Date.now() > until) throw new Error(`timed out; got ${JSON.stringify(this.got.slice(from)).slice(0, 500)}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 100);
      });
    }
  }

  /** Sends `m` and waits for the error it draws. */
  async error(m: unknown): Promise<string> {
    const from = this.got.length;
    this.send(m);
    return (await this.next((x) => x.t === 'error', from)).text!;
  }

  close(): Promise<void> {
    return new Promise((r) => {
      this.ws.once('close', () => r());
      this.ws.close();
    });
  }
}

const NEW = { t: 'new', game: 'chess', side: 'first', engine: 'alphabeta', level: 1, control: { initialMs: 120_000, incrementMs: 0, byoyomiMs: 0 } };
const isState = (m: Msg): boolean => m.t === 'state';

describe('web server', () => {
  let server: WebServer;
  let url: string;
  const records = mkdtempSync(join(tmpdir(), 'kishi-web-'));
  const dispatcher = new Dispatcher(async (game) => createPlayer({ ...parseConfig('').unwrap().engine, hashMb: 8 }, game).unwrap());

  beforeAll(async () => {
    const config = parseConfig('web: {port: 0, maxGames: 2}').unwrap();
    server = new WebServer({
      config: config.web,
      recordsDir: records,
      policy: config.lichess.drawOrResign,
      lease: (_e, game) => dispatcher.acquire(game, 'standard'),
      say: () => {},
    });
    void server.start();
    while (server.url() === undefined) await new Promise((r) => setTimeout(r, 20));
    url = server.url()!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  afterAll(async () => {
    await server.stop(false);
    await dispatcher.close();
  });

  it('refuses bad input with a clear error, and the game goes on', async () => {
    const tab = new Tab(url);
    await tab.open;
    expect(await tab.error('{oops')).toBe('message is not JSON');
    expect(await tab.error({ t: 'move', ply: 0, move: 'e2e4' })).toBe('no game: start one first');
    tab.send(NEW);
    const start = await tab.next(isState);
    const id = start.state!.id;
    expect(await tab.error({ t: 'move', ply: 0, move: 'e2e5' })).toMatch(/^illegal move "e2e5" in position .*: /);
    expect(await tab.error({ t: 'move', ply: 3, move: 'e2e4' })).toBe('the move was made on ply 3, the game is at ply 0');
    expect(await tab.error({ t: 'takeback' })).toBe('nothing to take back');
    expect(await tab.error({ t: 'hack', move: 'e2e4' })).toBe('unknown message type "hack"');
    expect(await tab.error(NEW)).toBe('finish or resign the game in progress first');
    // A second tab on the same game is refused while the first is connected.
    const other = new Tab(url);
    await other.open;
    expect(await other.error({ t: 'join', id })).toBe('this game is open in another tab; play it there');
    expect(await other.error({ t: 'move', ply: 0, move: 'e2e4' })).toBe('no game: start one first');
    // The game goes on: a legal move is played and Kishi answers.
    const from = tab.got.length;
    tab.send({ t: 'move', ply: 0, move: 'e2e4' });
    const answered = await tab.next((m) => isState(m) && m.state!.moves.length === 2, from);
    expect(answered.state!.moves[0]).toBe('e2e4');
    expect(tab.got.slice(from).some((m) => m.t === 'info')).toBe(true);
    // The first tab goes away (a reload): the game can be taken back by a new socket.
    await tab.close();
    const again = new Tab(url);
    await again.open;
    again.send({ t: 'join', id });
    const joined = await again.next(isState);
    expect(joined.state!.moves).toEqual(answered.state!.moves);
    const before = again.got.length;
    again.send({ t: 'resign' });
    const over = await again.next((m) => isState(m) && m.state!.result !== undefined, before);
    expect(over.state!.result).toEqual({ winner: 'second', reason: 'resign' });
    expect(await again.error({ t: 'move', ply: 2, move: 'd2d4' })).toBe('the game is over');
    // The records of a finished game are served; other paths are not.
    const pgn = await fetch(`${url}games/${id}.pgn`);
    expect(pgn.status).toBe(200);
    expect(pgn.headers.get('content-disposition')).toBe(`attachment; filename="kishi-${id}.pgn"`);
    expect(await pgn.text()).toMatch(/\[Result "0-1"\][\s\S]*1\. e4 \w+ 0-1/);
    expect((await fetch(`${url}games/${id}.kif`)).status).toBe(404);
    expect((await fetch(`${url}games/nosuchgame.pgn`)).status).toBe(404);
    expect((await fetch(`${url}..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(url, { method: 'POST' })).status).toBe(405);
    const page = await fetch(url);
    expect(await page.text()).toContain('<script type="module" src="/app.js">');
    expect((await fetch(`${url}app.js`)).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    await Promise.all([other.close(), again.close()]);
    // Logged like an online game, and the PGN kept beside the log.
    const files = readdirSync(join(records, 'web')).filter((f) => f.includes(id));
    expect(files.sort().map((f) => f.replace(/^.*-[0-9a-f]{12}/, ''))).toEqual(['.jsonl', '.pgn']);
    const log = readFileSync(join(records, 'web', files.find((f) => f.endsWith('.jsonl'))!), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(log[1]).toMatchObject({ type: 'move', ply: 0, move: 'e2e4', ours: false });
    expect(log[2]).toMatchObject({ type: 'move', ply: 1, ours: true, search: { nodes: expect.any(Number), pv: expect.any(Array) } });
    expect(log.at(-1)).toMatchObject({ type: 'result', winner: 'second', status: 'resign', plies: 2 });
  });

  it('lets Kishi move first, plays shogi, and ends the game when the flag falls', async () => {
    const tab = new Tab(url);
    await tab.open;
    tab.send({ ...NEW, game: 'shogi', side: 'second', control: { initialMs: 1_000, incrementMs: 0, byoyomiMs: 0 } });
    const first = await tab.next((m) => isState(m) && m.state!.moves.length === 1);
    expect(first.state!.turn).toBe('second');
    // Each side's first move is untimed (as on lichess): our clock runs only from our second move on.
    expect(first.state!.clock.running).toBeUndefined();
    tab.send({ t: 'move', ply: 1, move: '3c3d' });
    const over = await tab.next((m) => isState(m) && m.state!.result !== undefined);
    expect(over.state!.result).toEqual({ winner: 'first', reason: 'timeout' });
    const csa = await (await fetch(`${url}games/${first.state!.id}.csa`)).text();
    expect(csa.trim().split('\n').at(-1)).toBe('%TIME_UP');
    await tab.close();
  });

  it('answers only requests for this machine, and sockets from its own pages', async () => {
    const get = (host: string): Promise<[number, string]> =>
      new Promise((resolve, reject) => {
        const req = request(url, { headers: { host } }, (res) => {
          let body = '';
          res.on('data', (d) => (body += String(d)));
          res.on('end', () => resolve([res.statusCode ?? 0, body]));
        });
        req.on('error', reject);
        req.end();
      });
    const port = new URL(url).port;
    expect((await get(`localhost:${port}`))[0]).toBe(200);
    expect(await get(`evil.example:${port}`)).toEqual([403, 'this server answers only on this machine (host "evil.example:' + port + '")']);
    const refused = await new Promise<string>((resolve) => {
      const ws = new WebSocket(url.replace('http', 'ws') + 'ws', { origin: 'https://evil.example' });
      ws.on('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
      ws.on('open', () => resolve('open'));
      ws.on('error', () => resolve('error'));
    });
    expect(refused).toBe('403');
    const own = new Tab(url);
    await own.open; // no Origin header (not a browser) or our own origin: accepted
    await own.close();
  });

  it('says which setting to change when its port is taken', async () => {
    const config = parseConfig(`web: {port: ${new URL(url).port}}`).unwrap();
    const second = new WebServer({ config: config.web, recordsDir: records, policy: config.lichess.drawOrResign, lease: (_e, game) => dispatcher.acquire(game, 'standard'), say: () => {} });
    await expect(second.start()).rejects.toThrow(`port ${new URL(url).port} on 127.0.0.1 is in use (another Kishi?); set web.port in the config`);
  });

  it('the first Ctrl-C says the games on the page end at once, as they do (not "will be finished")', async () => {
    const tab = new Tab(url);
    await tab.open;
    tab.send(NEW);
    await tab.next(isState);
    expect(server.activeGames()).toBe(1);
    expect(gracefulStopNotice([server])).toBe('1 game(s) on the local page end now as abandoned');
    tab.send({ t: 'resign' });
    await tab.next((m) => isState(m) && m.state!.result !== undefined);
    expect(gracefulStopNotice([server])).toBe('no game in progress');
    await tab.close();
  });

  it('refuses a game beyond web.maxGames', async () => {
    const tabs = [new Tab(url), new Tab(url), new Tab(url)];
    await Promise.all(tabs.map((t) => t.open));
    tabs[0]!.send(NEW);
    tabs[1]!.send(NEW);
    await Promise.all([tabs[0]!.next(isState), tabs[1]!.next(isState)]);
    expect(await tabs[2]!.error(NEW)).toBe('2 games are being played already (web.maxGames); try again later');
    for (const t of tabs.slice(0, 2)) t.send({ t: 'resign' });
    await Promise.all(tabs.slice(0, 2).map((t) => t.next((m) => isState(m) && m.state!.result !== undefined)));
    tabs[2]!.send(NEW);
    await tabs[2]!.next(isState);
    tabs[2]!.send({ t: 'resign' });
    await Promise.all(tabs.map((t) => t.close()));
  });
});

describe('kishi run with nothing configured', () => {
  it('starts the local web server on localhost and prints its address', async () => {
    const records = mkdtempSync(join(tmpdir(), 'kishi-run-web-'));
    const config = parseConfig(`web: {port: 0}\nlog: {transcripts: false}\nrecords: {dir: "${records}"}\n`).unwrap();
    const printed: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
    const signals = new Signals();
    try {
      const run = runServers({ config, secrets: {}, playerFactory: enginePlayerFactory(config), signals, say: () => {} });
      const until = Date.now() + 20_000;
      while (!printed.some((l) => l.startsWith('Kishi is ready')) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      const line = printed.find((l) => l.startsWith('Kishi is ready'))!;
      const address = /http:\/\/127\.0\.0\.1:\d+\//.exec(line)![0];
      expect((await fetch(address)).status).toBe(200);
      signals.send(true);
      expect(await run).toBe(0);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('when kishi run serves the page', () => {
  it('serves it with no account, beside accounts only when asked, never when told not to', () => {
    const c = (yaml: string) => parseConfig(yaml).unwrap();
    expect(webWanted(c('lichess: {enabled: false}'))).toBe(true);
    expect(webWanted(c('lichess: {enabled: true}'))).toBe(false);
    expect(webWanted(c('lichess: {enabled: true}\nweb: {enabled: always}'))).toBe(true);
    expect(webWanted(c('lichess: {enabled: false}\nweb: {enabled: never}'))).toBe(false);
    // Every enabled account lacks its secret: the accounts are turned off and only the page is served.
    const local = localOnlyConfig(c('lichess: {enabled: true}'), ['lichess.enabled'])!;
    expect([local.lichess.enabled, local.csa.enabled, webWanted(local)]).toEqual([false, false, true]);
    // One account still usable, or the page not automatic: no fallback (a missing secret stops the run).
    expect(localOnlyConfig(c('lichess: {enabled: true}\ncsa: {enabled: true}'), ['lichess.enabled'])).toBeUndefined();
    expect(localOnlyConfig(c('lichess: {enabled: true}\nweb: {enabled: never}'), ['lichess.enabled'])).toBeUndefined();
  });

  it('`kishi run` without LICHESS_TOKEN serves the page, prints its address, and stops on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-start-'));
    const file = join(dir, 'kishi.yaml');
    writeFileSync(file, `lichess: {enabled: true}\nweb: {port: 0}\nlog: {dir: "${join(dir, 'logs')}", transcripts: false}\nrecords: {dir: "${join(dir, 'records')}"}\n`);
    const env = { ...process.env };
    delete env.LICHESS_TOKEN;
    const child = spawn(process.execPath, ['bin/kishi.js', 'run', '--config', file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const until = Date.now() + 30_000;
    while (!/Kishi is ready: open (http:\/\/127\.0\.0\.1:\d+\/)/.test(out) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const address = /Kishi is ready: open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1];
    expect(out).toContain('kishi run: lichess is enabled but LICHESS_TOKEN is not set in the environment: serving the local page only');
    expect(address, out).toBeDefined();
    expect((await fetch(address!)).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('the engine the page picks', () => {
  it('plays with MCTS from its own pool when the config names alpha-beta', async () => {
    const records = mkdtempSync(join(tmpdir(), 'kishi-web-mcts-'));
    const config = parseConfig(`web: {port: 0}\nrecords: {dir: "${records}"}\n`).unwrap();
    const shared = new Dispatcher(enginePlayerFactory(config));
    const server = createWebServer({ config, secrets: {}, dispatcher: shared }).unwrap();
    server.start().catch(() => {});
    while (server.url() === undefined) await new Promise((r) => setTimeout(r, 20));
    try {
      const tab = new Tab(server.url()!);
      await tab.open;
      tab.send({ ...NEW, side: 'second', engine: 'mcts' });
      const moved = await tab.next((m) => isState(m) && m.state!.moves.length === 1, 0, 60_000);
      expect((moved.state as unknown as { engine: string }).engine).toBe('Kishi MCTS 0.1');
      // The shared (alpha-beta) pool lent nothing: MCTS came from the server's own pool.
      expect(shared.activeLeases()).toBe(0);
      tab.send({ t: 'resign' });
      await tab.next((m) => isState(m) && m.state!.result !== undefined);
      await tab.close();
    } finally {
      await server.stop(false);
      await shared.close();
    }
  });
});
