/**
 * The fake lichess server behaves as lichess does for any client, not only Kishi's (checked against the
 * OpenAPI spec): JSON challenge bodies, GET /api/user/{username}, a public /game/export with its
 * parameters, perf and variant names, /api/account/playing's `nb`, a realistic keep-alive idle timeout, and
 * 429 bodies as lila writes them (a `ratelimit` object only with a named limit).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LichessTestServer } from '../../../src/protocols/lichess/fake/server.js';
import { TOKEN } from './helpers/harness.js';

let server: LichessTestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const auth = { Authorization: `Bearer ${TOKEN}` };

async function serve(): Promise<LichessTestServer> {
  server = new LichessTestServer({ bot: { username: 'KishiBot', token: TOKEN }, keepAliveMs: 100 });
  await server.start();
  return server;
}

/** A started game against `from` in which the bot (white) played e2e4 and the opponent answered e7e5. */
async function playedGame(s: LichessTestServer, from: string, extra: Record<string, unknown> = {}): Promise<string> {
  const id = s.challenge({ from, color: 'black', clock: { limit: 180, increment: 2 }, opponent: { script: ['e7e5'] }, ...extra });
  expect((await fetch(`${s.url}/api/challenge/${id}/accept`, { method: 'POST', headers: auth })).status).toBe(200);
  await s.waitFor(() => s.stats.requests.length > 0);
  const move = await fetch(`${s.url}/api/bot/game/${id}/move/e2e4`, { method: 'POST', headers: auth });
  expect(move.status).toBe(200);
  const deadline = Date.now() + 5000;
  for (;;) {
    const pgn = await (await fetch(`${s.url}/game/export/${id}`)).text();
    if (pgn.includes('e5') || Date.now() > deadline) return id;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('fake lichess server, as lichess answers any client', () => {
  it('creates a challenge from a JSON body as from form data, honouring clock, rated and variant', async () => {
    const s = await serve();
    s.challenge({ from: 'Target', clock: { limit: 60, increment: 0 } });
    const json = await fetch(`${s.url}/api/challenge/Target`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ clock: { limit: 300, increment: 3 }, rated: true, variant: 'chess960' }),
    });
    expect(json.status).toBe(200);
    const c = (await json.json()) as Record<string, any>;
    expect([c.timeControl.limit, c.timeControl.increment, c.rated, c.variant, c.speed, c.perf.name]).toEqual([
      300,
      3,
      true,
      { key: 'chess960', name: 'Chess960', short: '960' },
      'blitz',
      'Chess960',
    ]);
    const flat = await fetch(`${s.url}/api/challenge/Target`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: '{"days": 3}' });
    const d = (await flat.json()) as Record<string, any>;
    expect([d.timeControl, d.speed, d.perf.name, d.variant.short]).toEqual([{ type: 'correspondence', daysPerTurn: 3 }, 'correspondence', 'Correspondence', 'Std']);
    const form = await fetch(`${s.url}/api/challenge/Target`, { method: 'POST', headers: auth, body: new URLSearchParams({ 'clock.limit': '180', 'clock.increment': '0' }) });
    expect(((await form.json()) as Record<string, any>).perf.name).toBe('Blitz');
    const broken = await fetch(`${s.url}/api/challenge/Target`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: '{nope' });
    expect(broken.status).toBe(400);
  });

  it('serves GET /api/user/{username} without a token', async () => {
    const s = await serve();
    s.challenge({ from: 'SomeBot', title: 'BOT', rating: 2100 });
    const r = await fetch(`${s.url}/api/user/somebot`);
    expect(r.status).toBe(200);
    const u = (await r.json()) as Record<string, any>;
    expect([u.id, u.username, u.title, u.perfs.blitz.rating]).toEqual(['somebot', 'SomeBot', 'BOT', 2100]);
    expect((await fetch(`${s.url}/api/user/nobody-here`)).status).toBe(404);
  });

  it('exports a game without a token, with real tags, honouring clocks, opening and Accept: application/json', async () => {
    const s = await serve();
    const id = await playedGame(s, 'Exporter');
    const pgn = await (await fetch(`${s.url}/game/export/${id}`)).text();
    const created = new Date(s.gameOf(id)!.init.createdAt).toISOString();
    expect(pgn).toContain('[Event "Casual blitz game"]');
    expect(pgn).toContain(`[UTCDate "${created.slice(0, 10).replace(/-/g, '.')}"]`);
    expect(pgn).toContain(`[UTCTime "${created.slice(11, 19)}"]`);
    expect(pgn).toContain('[ECO "?"]');
    expect(pgn).toMatch(/1\. e4 \{ \[%clk 0:03:00\] \} e5 \{ \[%clk 0:03:00\] \}/);
    const bare = await (await fetch(`${s.url}/game/export/${id}?clocks=false&opening=false`)).text();
    expect(bare).not.toContain('%clk');
    expect(bare).not.toContain('[ECO');
    const asJson = await fetch(`${s.url}/game/export/${id}`, { headers: { Accept: 'application/json' } });
    expect(asJson.headers.get('content-type')).toContain('application/json');
    const g = (await asJson.json()) as Record<string, any>;
    expect([g.id, g.moves, g.speed, g.clock.initial, g.clocks]).toEqual([id, 'e4 e5', 'blitz', 180, [18000, 18000, 18000, 18000]]);
  });

  it('answers /api/account/playing with at most nb games', async () => {
    const s = await serve();
    await playedGame(s, 'One');
    await playedGame(s, 'Two');
    const all = (await (await fetch(`${s.url}/api/account/playing`, { headers: auth })).json()) as { nowPlaying: unknown[] };
    expect(all.nowPlaying).toHaveLength(2);
    const one = (await (await fetch(`${s.url}/api/account/playing?nb=1`, { headers: auth })).json()) as { nowPlaying: unknown[] };
    expect(one.nowPlaying).toHaveLength(1);
  });

  it('checks the bot-vs-bot daily cap on accepting a challenge, as on creating one', async () => {
    server = new LichessTestServer({ bot: { username: 'KishiBot', token: TOKEN }, keepAliveMs: 100, botDailyCapReached: true });
    await server.start();
    const fromBot = server.challenge({ from: 'OtherBot', title: 'BOT' });
    const r = await fetch(`${server.url}/api/challenge/${fromBot}/accept`, { method: 'POST', headers: auth });
    expect(r.status).toBe(429);
    expect(((await r.json()) as { ratelimit: { key: string } }).ratelimit.key).toBe('bot.vsBot.day');
    const fromHuman = server.challenge({ from: 'Human' });
    expect((await fetch(`${server.url}/api/challenge/${fromHuman}/accept`, { method: 'POST', headers: auth })).status).toBe(200);
  });

  it('answers an injected JSON 429 with the body lichess sends there: ratelimit only with a named limit', async () => {
    const s = await serve();
    const id = s.challenge({ from: 'Human', color: 'black' });
    s.failRequests({ method: 'POST', path: /\/move\/e2e4$/ }, '429json', 1);
    const move = await fetch(`${s.url}/api/bot/game/${id}/move/e2e4`, { method: 'POST', headers: auth });
    expect(move.status).toBe(429);
    expect(move.headers.get('content-type')).toBe('application/json');
    // lila's generic rateLimitedJson: an error and nothing else (no `ratelimit` object)
    expect(await move.json()).toEqual({ error: 'Too many requests. Try again later.' });
    // the one 429 body the API spec documents: GET /api/stream/game/{id}, its concurrency limit
    s.failRequests({ method: 'GET', path: /^\/api\/stream\/game\// }, '429json', 1);
    const stream = await fetch(`${s.url}/api/stream/game/${id}`);
    expect(stream.status).toBe(429);
    expect(await stream.json()).toEqual({ error: 'Please only run 8 request(s) at a time' });
  });

  it('keeps idle HTTP connections as long as lichess does (75 s), not 1 s', async () => {
    const s = await serve();
    expect((s as unknown as { server: { keepAliveTimeout: number } }).server.keepAliveTimeout).toBe(75_000);
  });
});
