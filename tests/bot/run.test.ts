import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import winston from 'winston';
import { Dispatcher } from '../../src/bot/dispatcher.js';
import { gracefulStopNotice, runServers, SERVER_FACTORIES } from '../../src/cli/run.js';
import type { GameServer, GracefulStop } from '../../src/bot/server.js';
import { rootLogger } from '../../src/log/logger.js';
import { Signals } from './signals.js';
import { parseConfig } from '../../src/config/load.js';
import { LichessTestServer } from '../../src/protocols/lichess/fake/server.js';
import { FirstLegalPlayer } from '../fakes/player.js';

const TOKEN = ['lip', 'RunTestToken0123456789'].join('_');

describe('kishi run', () => {
  it('has a server factory per config section, lichess, lishogi, csa and web', () => {
    expect(SERVER_FACTORIES.map((f) => f.section)).toEqual(['lichess', 'lishogi', 'csa', 'web']);
  });

  it('finds the CSA server through its factory seam (src/protocols/csa/server-factory.ts)', async () => {
    const csa = SERVER_FACTORIES.find((f) => f.section === 'csa');
    const config = parseConfig('csa: {enabled: true}\nlog: {transcripts: false}\n').unwrap();
    expect(csa?.enabled(config)).toBe(true);
    expect(csa?.games).toEqual(['shogi']);
    const created = await csa!.create({ config, secrets: { csaPassword: 'pw-for-test' }, dispatcher: new Dispatcher(async () => new FirstLegalPlayer()) });
    expect(created.isOk).toBe(true);
    expect(created.isOk && created.value.activeGames()).toBe(0);
  });

  it('exits 2 when no server is enabled', async () => {
    const lines: string[] = [];
    const config = parseConfig('web: {enabled: never}').unwrap();
    const code = await runServers({ config, secrets: {}, playerFactory: async () => new FirstLegalPlayer(), say: (l) => lines.push(l) });
    expect([code, lines]).toEqual([2, ['kishi run: no server is enabled in the config (set lichess.enabled, lishogi.enabled or csa.enabled, or web.enabled)']]);
  });

  it('fails at start-up, exit 1, when no engine can be made', async () => {
    const lines: string[] = [];
    const config = parseConfig('lichess: {enabled: true}\nlog: {transcripts: false}\n').unwrap();
    const code = await runServers({
      config,
      secrets: { lichessToken: TOKEN },
      playerFactory: async () => {
        throw new Error('ERR_WEIGHTS models/chess-linear.json: file not found');
      },
      say: (l) => lines.push(l),
    });
    expect([code, lines]).toEqual([1, ['kishi run: no engine available for chess: ERR_WEIGHTS models/chess-linear.json: file not found']]);
  });

  it('plays on lichess, then stops gracefully on the first signal after finishing the game', async () => {
    const server = new LichessTestServer({ bot: { username: 'RunBot', token: TOKEN }, keepAliveMs: 100 });
    await server.start();
    try {
      const config = parseConfig(`lichess: {enabled: true, url: "${server.url}"}\nlog: {transcripts: false}\nrecords: {dir: "${mkdtempSync(join(tmpdir(), 'kishi-run-'))}"}\n`).unwrap();
      const signals = new Signals();
      const lines: string[] = [];
      const run = runServers({
        config,
        secrets: { lichessToken: TOKEN },
        playerFactory: async () => new FirstLegalPlayer({ script: ['e2e4', 'f1c4', 'd1h5', 'h5f7'] }),
        signals,
        say: (l) => lines.push(l),
      });
      await server.waitFor(() => server.stats.eventStreamOpens === 1);
      const id = server.challenge({ from: 'Victim', color: 'black', opponent: { script: ['e7e5', { type: 'pause', ms: 300 }, 'b8c6', 'g8f6'] } });
      await server.waitFor(() => (server.game(id)?.plies() ?? 0) >= 2);
      signals.send(true);
      expect(await run).toBe(0);
      expect(server.game(id)?.status).toBe('mate');
      expect(lines).toEqual(['kishi run: stopping; 1 game(s) in progress will be finished (send the signal again to leave at once)']);
    } finally {
      await server.stop();
    }
  });

  it('with web.enabled: always, the watch view shows the lichess challenge queue of the bot it runs beside', async () => {
    const server = new LichessTestServer({ bot: { username: 'RunBot', token: TOKEN }, keepAliveMs: 100, challengeExpiryMs: 20_000 });
    await server.start();
    const free = createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
    const port = (free.address() as { port: number }).port;
    await new Promise((r) => free.close(r));
    const ready = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const config = parseConfig(
        `lichess: {enabled: true, url: "${server.url}", concurrency: 1, challenge: {queueTimeS: 10}}\nweb: {enabled: always, port: ${port}}\n` +
          `log: {transcripts: false}\nrecords: {dir: "${mkdtempSync(join(tmpdir(), 'kishi-run-'))}"}\n`,
      ).unwrap();
      const signals = new Signals();
      const run = runServers({ config, secrets: { lichessToken: TOKEN }, playerFactory: async () => new FirstLegalPlayer(), signals, say: () => {} });
      await server.waitFor(() => server.stats.eventStreamOpens === 1);
      // The page is bundled before the web server listens; it says so once ready.
      await server.waitFor(() => ready.mock.calls.some((c) => String(c[0]).startsWith('Kishi is ready')), 10_000);
      const busy = server.challenge({ from: 'Slow', color: 'white', opponent: { script: [{ type: 'pause', ms: 2000 }, { type: 'resign' }] } });
      await server.waitFor(() => server.challengeStatus(busy)?.status === 'accepted');
      server.challenge({ from: 'Waiter', rating: 1700, color: 'white', opponent: { script: [{ type: 'resign' }] } });
      type Watch = { servers: { kind: string; account?: string; gamesInProgress?: number; queue?: { challenger: string }[] }[] };
      let watch: Watch = { servers: [] };
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        watch = (await (await fetch(`http://127.0.0.1:${port}/api/watch`)).json()) as Watch;
        if (watch.servers[0]?.queue?.length === 1) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(watch.servers).toMatchObject([{ kind: 'lichess', account: 'RunBot', gamesInProgress: 1, queue: [{ challenger: 'Waiter' }] }]);
      signals.send(false);
      await run;
    } finally {
      ready.mockRestore();
      await server.stop();
    }
  });

  it('says on the first signal what each server does with its games: finish, resign or abandon', () => {
    const fake = (active: number, fate?: GracefulStop): GameServer => ({
      name: 'fake',
      start: async () => {},
      stop: async () => {},
      activeGames: () => active,
      ...(fate !== undefined ? { gracefulStop: () => fate } : {}),
    });
    expect(gracefulStopNotice([])).toBe('no game in progress');
    expect(gracefulStopNotice([fake(0), fake(0, 'abandon')])).toBe('no game in progress');
    expect(gracefulStopNotice([fake(2)])).toBe('2 game(s) in progress will be finished (send the signal again to leave at once)');
    expect(gracefulStopNotice([fake(1, 'resign'), fake(1, 'abandon')])).toBe(
      '1 game(s) in progress will be resigned; 1 game(s) on the local page end now as abandoned (send the signal again to leave at once)',
    );
    expect(gracefulStopNotice([fake(1, 'abandon')])).toBe('1 game(s) on the local page end now as abandoned');
  });

  it('a signal while connecting to lichess stops cleanly: exit 0, one line, no error logged', async () => {
    // A port nobody listens on: every connection is refused and retried with backoff.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    const logged: string[] = [];
    const capture = new winston.transports.Stream({ stream: new Writable({ write: (c: Buffer, _e, cb) => (logged.push(c.toString()), cb()) }) });
    rootLogger.add(capture);
    const level = rootLogger.level;
    rootLogger.level = 'info';
    try {
      const config = parseConfig(`lichess: {enabled: true, url: "http://127.0.0.1:${port}"}\nlog: {transcripts: false}\n`).unwrap();
      const signals = new Signals();
      const lines: string[] = [];
      const run = runServers({ config, secrets: { lichessToken: TOKEN }, playerFactory: async () => new FirstLegalPlayer(), signals, say: (l) => lines.push(l) });
      const until = Date.now() + 20_000;
      while (!logged.some((l) => l.includes('retrying in')) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      signals.send(true);
      expect(await run).toBe(0);
      expect(lines).toEqual(['kishi run: stopping; no game in progress']);
      expect(logged.filter((l) => / error /.test(l))).toEqual([]);
      expect(logged.join('')).not.toContain('no longer wanted');
    } finally {
      rootLogger.remove(capture);
      rootLogger.level = level;
    }
  });

  it('exits 1 with one line when lichess refuses the account', async () => {
    const server = new LichessTestServer({ bot: { username: 'Human', token: TOKEN, title: null } });
    await server.start();
    try {
      const config = parseConfig(`lichess: {enabled: true, url: "${server.url}"}\nlog: {transcripts: false}\n`).unwrap();
      const lines: string[] = [];
      const code = await runServers({ config, secrets: { lichessToken: TOKEN }, playerFactory: async () => new FirstLegalPlayer(), say: (l) => lines.push(l) });
      expect(code).toBe(1);
      expect(lines).toEqual(['kishi run: lichess: the lichess account Human is not a BOT account; run `kishi lichess upgrade` to upgrade it (irreversible)']);
    } finally {
      await server.stop();
    }
  });
});
