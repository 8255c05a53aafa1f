/**
 * The local server's lishogi profile on its own, driven over HTTP with two tokens: lishogi's shapes (every
 * message against tests/fixtures/lishogi/schemas), its rules (illegal and out-of-turn moves refused,
 * fourfold repetition a draw, perpetual check lost by the checker), its clock (a flag in byoyomi), the
 * challenge flow (no decline reason), a stream reader reading its lines split across chunks, and a game
 * stream stalled at a ply for one player only (the ply hooks of the shared Bot API server core).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SchemaChecker } from '../lichess/helpers/schemas.js';
import type { SentMessage } from '../../../src/protocols/lichess/fake/server.js';
import { LishogiTestServer } from '../../../src/protocols/lishogi/fake/lishogi-server.js';
import { normaliseGameStreamLine } from '../../../src/protocols/lishogi/wire.js';
import { LISHOGI_SCHEMAS } from './helpers/harness.js';

let server: LishogiTestServer | undefined;
let schemas: SchemaChecker;
let url = '';
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function start(opts: { botMoveDelayMs?: number } = {}): Promise<LishogiTestServer> {
  schemas = new SchemaChecker(LISHOGI_SCHEMAS);
  server = new LishogiTestServer({
    accounts: [
      { username: 'Sen', token: 'tok_s' },
      { username: 'Go', token: 'tok_g' },
    ],
    keepAliveMs: 50,
    botMoveDelayMs: opts.botMoveDelayMs ?? 0,
    onSend: (s) => schemas.check(s as unknown as SentMessage),
  });
  url = await server.start();
  return server;
}

const post = async (token: string, path: string, body = ''): Promise<{ status: number; json: unknown }> => {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body,
  });
  return { status: res.status, json: await res.json() };
};

/**
 * Reads a game stream until `n` JSON lines have come (keep-alives skipped), or the stream ends, or, with
 * `withinMs`, that time is up (the stream is then cut).
 */
async function readLines(token: string, path: string, n: number, withinMs?: number): Promise<unknown[]> {
  const signal = withinMs !== undefined ? { signal: AbortSignal.timeout(withinMs) } : {};
  const res = await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${token}` }, ...signal });
  const reader = res.body!.getReader();
  const out: unknown[] = [];
  let buf = '';
  try {
    while (out.length < n) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += new TextDecoder().decode(value);
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i).trim();
        buf = buf.slice(i + 1);
        if (line !== '') out.push(JSON.parse(line));
      }
    }
    await reader.cancel();
  } catch (e) {
    if (!(e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError'))) throw e;
  }
  return out;
}

const game = async (s: LishogiTestServer, clock = { limitS: 60, incrementS: 0, byoyomiS: 10, periods: 1 }): Promise<string> => {
  const id = s.challenge({ from: 'Sen', to: 'Go', color: 'sente', clock });
  expect((await post('tok_g', `/api/challenge/${id}/accept`)).status).toBe(200);
  return id;
};

describe('lishogi profile of the local server', () => {
  it('refuses illegal, malformed and out-of-turn moves; fourfold repetition is a draw', async () => {
    const s = await start();
    const id = await game(s);
    expect((await post('tok_g', `/api/bot/game/${id}/move/3c3d`)).status).toBe(400);
    expect((await post('tok_s', `/api/bot/game/${id}/move/7g7e`)).json).toEqual({ error: 'Invalid USI: 7g7e' });
    expect((await post('tok_s', `/api/bot/game/${id}/move/e2e4`)).status).toBe(400);
    const cycle = ['2h3h', '8b7b', '3h2h', '7b8b'];
    for (let i = 0; i < 12; i++) {
      const token = i % 2 === 0 ? 'tok_s' : 'tok_g';
      expect((await post(token, `/api/bot/game/${id}/move/${cycle[i % 4]}`)).status).toBe(200);
    }
    const g = s.game(id)!;
    expect([g.status, g.winner]).toEqual(['repetition', undefined]);
    expect(g.refused.length).toBe(3);
    expect(schemas.failures).toEqual([]);
  });

  it('perpetual check loses for the checking side', async () => {
    const s = await start();
    const id = s.challenge({ from: 'Sen', to: 'Go', color: 'sente', clock: { limitS: 60, incrementS: 0, byoyomiS: 10, periods: 1 }, sfen: '4k4/9/R8/9/9/9/9/9/4K4 b - 1' });
    await post('tok_g', `/api/challenge/${id}/accept`);
    // The rook checks along the a and b ranks in turn; the king steps between 5a and 4b.
    const moves = ['9c9a', ...Array.from({ length: 3 }, () => ['5a4b', '9a9b', '4b5a', '9b9a']).flat()];
    for (let i = 0; i < moves.length && !s.isOver(s.game(id)!); i++) await post(i % 2 === 0 ? 'tok_s' : 'tok_g', `/api/bot/game/${id}/move/${moves[i]}`);
    const g = s.game(id)!;
    expect([g.status, g.winner]).toEqual(['perpetualCheck', 'gote']);
  });

  it('flags a side that overruns its last byoyomi period; the game stream reads in lishogi\'s shapes', async () => {
    const s = await start();
    const id = await game(s, { limitS: 0, incrementS: 0, byoyomiS: 1, periods: 1 });
    await post('tok_s', `/api/bot/game/${id}/move/7g7f`);
    await post('tok_g', `/api/bot/game/${id}/move/3c3d`);
    const g = await s.waitForEnd(id, 10_000);
    expect([g.status, g.winner]).toEqual(['outoftime', 'gote']);
    const lines = await readLines('tok_s', `/api/bot/game/stream/${id}`, 1);
    const full = normaliseGameStreamLine(lines[0]);
    expect(full).toMatchObject({ type: 'gameFull', clock: { initial: 0, increment: 0, byoyomi: 1000, periods: 1 }, state: { status: 'outoftime', winner: 'black' } });
    expect(schemas.failures).toEqual([]);
    expect(schemas.checked.get('GameFullEvent')).toBeGreaterThan(0);
  });

  it('holds a move 750 ms when both players are bots, as lishogi does', async () => {
    const s = await start({ botMoveDelayMs: 750 });
    const id = await game(s);
    const t0 = Date.now();
    await post('tok_s', `/api/bot/game/${id}/move/7g7f`);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(700);
  });

  it("stalls only the named player's game stream at a ply; the other player's stream goes on", async () => {
    const s = await start();
    const id = await game(s);
    s.stallGameStreamAt(id, 1, 'Sen');
    const sen = readLines('tok_s', `/api/bot/game/stream/${id}`, 3, 3000);
    const go = readLines('tok_g', `/api/bot/game/stream/${id}`, 3, 3000);
    await s.waitFor(() => s.stats.gameStreamsOpened === 2, 2500);
    expect((await post('tok_s', `/api/bot/game/${id}/move/7g7f`)).status).toBe(200);
    expect((await post('tok_g', `/api/bot/game/${id}/move/3c3d`)).status).toBe(200);
    const types = (lines: unknown[]): unknown[] => lines.map((l) => (l as { type?: unknown }).type);
    expect(types(await sen)).toEqual(['gameFull']);
    expect(types(await go)).toEqual(['gameFull', 'gameState', 'gameState']);
    expect(s.stats.stalls).toBe(1);
  });

  it('declines without a reason; the challenger hears challengeDeclined', async () => {
    const s = await start();
    const id = s.challenge({ from: 'Sen', to: 'Go' });
    expect((await post('tok_g', `/api/challenge/${id}/decline`, 'reason=tooFast')).status).toBe(200);
    expect(s.challengeStatus(id)).toBe('declined');
    expect((await post('tok_s', `/api/challenge/${id}/accept`)).status).toBe(404);
  });

  it("sends today's shapes: challenges and ongoing games without speed, perf keys, one chat room, paused games", async () => {
    const s = await start();
    // The challenge as the challenger's POST answers it (challenge/JsonView @1ae6af1f).
    const created = await post('tok_s', '/api/challenge/Go', 'clock.limit=300&clock.increment=0&clock.byoyomi=10&clock.periods=1&color=sente');
    const cj = created.json as Record<string, unknown>;
    expect('speed' in cj).toBe(false);
    expect(cj['perf']).toEqual({ icon: '+', name: 'realTime' });
    const id = cj['id'] as string;
    expect((await post('tok_g', `/api/challenge/${id}/accept`)).status).toBe(200);
    // /api/account/playing: ownerPreview, no speed, perf key.
    const playing = (await (await fetch(`${url}/api/account/playing`, { headers: { Authorization: 'Bearer tok_s' } })).json()) as { nowPlaying: Record<string, unknown>[] };
    expect(playing.nowPlaying[0]).toMatchObject({ gameId: id, perf: 'realTime', isMyTurn: true, color: 'sente' });
    expect('speed' in playing.nowPlaying[0]!).toBe(false);
    // One chat: a spectator-room post comes back labelled player, in the opponent's stream too.
    const go = readLines('tok_g', `/api/bot/game/stream/${id}`, 2, 3000);
    await s.waitFor(() => s.stats.gameStreamsOpened === 1, 2500);
    expect((await post('tok_s', `/api/bot/game/${id}/chat`, 'room=spectator&text=hello%20watchers')).status).toBe(200);
    expect((await go)[1]).toEqual({ type: 'chatLine', room: 'player', username: 'Sen', text: 'hello watchers' });
    // Adjourned: moves refused, gameFull says paused, the game is not over and it is nobody's turn.
    s.pauseGame(id);
    expect((await post('tok_s', `/api/bot/game/${id}/move/7g7f`)).status).toBe(400);
    const full = (await readLines('tok_s', `/api/bot/game/stream/${id}`, 1, 3000))[0] as { state: { status: string } };
    expect(full.state.status).toBe('paused');
    const paused = (await (await fetch(`${url}/api/account/playing`, { headers: { Authorization: 'Bearer tok_s' } })).json()) as { nowPlaying: Record<string, unknown>[] };
    expect(paused.nowPlaying[0]).toMatchObject({ gameId: id, isMyTurn: false, status: { id: 21, name: 'paused' } });
    s.resumeGame(id);
    expect((await post('tok_s', `/api/bot/game/${id}/move/7g7f`)).status).toBe(200);
    expect(schemas.failures).toEqual([]);
    expect(schemas.checked.get('ChallengeJson')).toBe(1);
    expect(schemas.checked.get('ChatLineEvent')).toBe(1);
  });
});
