import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import winston from 'winston';
import { Dispatcher } from '../../../src/bot/dispatcher.js';
import { parseConfig } from '../../../src/config/load.js';
import { LichessBot } from '../../../src/protocols/lichess/game-server.js';
import { upgradeAccount } from '../../../src/protocols/lichess/upgrade.js';
import type { LichessTestServerOptions } from '../../../src/protocols/lichess/fake/server.js';
import { LichessTestServer } from '../../../src/protocols/lichess/fake/server.js';
import { FAST_TIMINGS, TOKEN } from './helpers/harness.js';
import { FirstLegalPlayer } from '../../fakes/player.js';

let server: LichessTestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function serve(bot: Partial<LichessTestServerOptions['bot']> = {}): Promise<LichessTestServer> {
  server = new LichessTestServer({ bot: { username: 'Newbie', token: TOKEN, ...bot }, keepAliveMs: 100 });
  await server.start();
  return server;
}

const makeBot = (url: string, token = TOKEN): LichessBot =>
  new LichessBot({
    config: { ...parseConfig('').unwrap().lichess, enabled: true, url },
    token,
    moveOverheadMs: 50,
    dispatcher: new Dispatcher(async () => new FirstLegalPlayer()),
    timings: FAST_TIMINGS,
  });

describe('start-up checks', () => {
  it('says it is connecting, and shows every retry and its wait while lichess cannot be reached', async () => {
    // Not a BOT account: start() ends right after the checks.
    const s = await serve({ title: null });
    s.failRequests({ method: 'POST', path: /\/api\/token\/test$/ }, '502', 3);
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(String(chunk).trim());
        done();
      },
    });
    const log = winston.createLogger({ level: 'info', format: winston.format.printf((i) => `${i.level} ${String(i.message)}`), transports: [new winston.transports.Stream({ stream: sink })] });
    const bot = new LichessBot({
      config: { ...parseConfig('').unwrap().lichess, enabled: true, url: s.url },
      token: TOKEN,
      moveOverheadMs: 50,
      dispatcher: new Dispatcher(async () => new FirstLegalPlayer()),
      timings: FAST_TIMINGS,
      log,
    });
    await expect(bot.start()).rejects.toThrow('is not a BOT account');
    expect(lines[0]).toBe(`info connecting to ${s.url}...`);
    const retries = lines.filter((l) => l.startsWith('warn POST /api/token/test'));
    expect(retries).toHaveLength(3);
    for (const r of retries) expect(r).toMatch(/^warn POST \/api\/token\/test: .*502.*; retrying in \d+\.\d s \(giving up in \d+ s\)$/);
  });

  it('refuses a token without the bot:play scope, naming LICHESS_TOKEN', async () => {
    const s = await serve({ scopes: 'board:play,challenge:read' });
    await expect(makeBot(s.url).start()).rejects.toThrow(
      'LICHESS_TOKEN lacks the bot:play scope (it has: board:play,challenge:read); create a token with "Play games with the bot API"',
    );
  });

  it('refuses a token lichess does not know', async () => {
    const s = await serve();
    await expect(makeBot(s.url, ['lip', 'SomeOtherToken999'].join('_')).start()).rejects.toThrow('LICHESS_TOKEN is not a valid lichess token (lichess does not recognise it)');
  });

  it('refuses an account that is not a BOT and says how to upgrade it', async () => {
    const s = await serve({ title: null });
    await expect(makeBot(s.url).start()).rejects.toThrow(
      'the lichess account Newbie is not a BOT account; run `kishi lichess upgrade` to upgrade it (irreversible)',
    );
  });

  it('sends the User-Agent kishi/<version> user:<name> once it knows the account', async () => {
    const s = await serve();
    const bot = makeBot(s.url);
    const running = bot.start();
    await s.waitFor(() => s.stats.eventStreamOpens === 1);
    const agents = s.stats.requests.map((r) => r.userAgent);
    expect(agents[0]).toMatch(/^kishi\/\d+\.\d+\.\d+ user:\?$/);
    expect(agents[agents.length - 1]).toMatch(/^kishi\/\d+\.\d+\.\d+ user:Newbie$/);
    await bot.stop(false);
    await running;
  });
});

describe('kishi lichess upgrade', () => {
  it('asks, then upgrades an account with no games', async () => {
    const s = await serve({ title: null });
    const lines: string[] = [];
    const questions: string[] = [];
    const code = await upgradeAccount({
      baseUrl: s.url,
      token: TOKEN,
      confirm: async (q) => {
        questions.push(q);
        return true;
      },
      say: (l) => lines.push(l),
    });
    expect(code).toBe(0);
    expect(questions[0]).toContain('Upgrade the lichess account Newbie to a BOT account? This cannot be undone');
    expect(lines).toEqual(['Newbie is now a BOT account.']);
    expect(s.stats.requests.filter((r) => r.path === '/api/bot/account/upgrade').length).toBe(1);
  });

  it('does nothing without confirmation, and reports lichess refusing an account with games', async () => {
    const s = await serve({ title: null, gamesPlayed: 3 });
    const lines: string[] = [];
    expect(await upgradeAccount({ baseUrl: s.url, token: TOKEN, confirm: async () => false, say: (l) => lines.push(l) })).toBe(1);
    expect(s.stats.requests.filter((r) => r.path === '/api/bot/account/upgrade').length).toBe(0);
    expect(await upgradeAccount({ baseUrl: s.url, token: TOKEN, confirm: async () => true, say: (l) => lines.push(l) })).toBe(1);
    expect(lines).toEqual([
      'Not upgraded.',
      'lichess refused the upgrade: POST /api/bot/account/upgrade: HTTP 400 This account has played games and cannot become a bot account',
    ]);
  });

  it('says so when the account is already a bot', async () => {
    const s = await serve();
    const lines: string[] = [];
    expect(await upgradeAccount({ baseUrl: s.url, token: TOKEN, confirm: async () => true, say: (l) => lines.push(l) })).toBe(0);
    expect(lines).toEqual(['Newbie is already a BOT account.']);
  });
});
