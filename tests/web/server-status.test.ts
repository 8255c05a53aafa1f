/**
 * The servers' own state in the watch view: the lichess bot's challenge queue (against the fake
 * lichess server, challenges waiting while the only slot is busy) and the CSA client's phase (against
 * the local CSA server: waiting alone, in a game, gone after its last game), read through the narrow
 * `status()` accessors and served by `/api/watch` as `kishi run` wires them.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CsaStatus, ServerStatus } from '../../src/bot/server-status.js';
import { parseConfig } from '../../src/config/load.js';
import { csaPhase } from '../../src/protocols/csa/game-server.js';
import { CsaTestServer } from '../fakes/csa-server/server.js';
import { WebServer } from '../../src/web/web-server.js';
import { RandomMover } from '../fakes/player.js';
import { testBot } from '../protocols/csa/harness.js';
import type { Harness } from '../protocols/lichess/helpers/harness.js';
import { startHarness } from '../protocols/lichess/helpers/harness.js';

let h: Harness | undefined;
let csa: CsaTestServer | undefined;
let web: WebServer | undefined;
afterEach(async () => {
  await web?.stop(false);
  await h?.close();
  await csa?.stop();
  h = csa = web = undefined;
});

async function watchServer(serverStatus: () => readonly ServerStatus[]): Promise<string> {
  const config = parseConfig('web: {port: 0}').unwrap();
  const recordsDir = mkdtempSync(join(tmpdir(), 'kishi-watch-status-'));
  web = new WebServer({ config: config.web, recordsDir, policy: config.lichess.drawOrResign, lease: async () => { throw new Error('no games here'); }, say: () => {}, serverStatus });
  void web.start();
  while (web.url() === undefined) await new Promise((r) => setTimeout(r, 20));
  return web.url()!;
}

const until = async (cond: () => boolean, ms = 10_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('lichess challenge queue', () => {
  it('shows the waiting challenges in the order they will get the slot, the games in progress and the bot games today', async () => {
    h = await startHarness({ config: { concurrency: 1, challenge: { queueTimeS: 10, sortBy: 'best', preference: 'human', botGamesPerDay: 50 } }, server: { challengeExpiryMs: 20_000 } });
    const url = await watchServer(() => [h!.bot.status()]);
    const idle = h.bot.status();
    expect(idle).toMatchObject({ kind: 'lichess', name: 'lichess', account: 'KishiBot', queue: [], gamesInProgress: 0, concurrency: 1, botGamesToday: 0, botGamesPerDay: 50 });
    const first = h.server.challenge({ from: 'First', color: 'white', opponent: { script: [{ type: 'pause', ms: 3000 }, { type: 'resign' }] } });
    await h.server.waitFor(() => h!.server.challengeStatus(first)?.status === 'accepted');
    const quick = { script: [{ type: 'resign' as const }] };
    // The bot's game is counted when its gameFull is read; an opponent that resigned at once could end the
    // game (gameFinish on the event stream) before that on a loaded machine, so this one waits a second.
    h.server.challenge({ from: 'BotHigh', title: 'BOT', rating: 2500, color: 'white', opponent: { script: [{ type: 'pause', ms: 1000 }, { type: 'resign' }] } });
    h.server.challenge({ from: 'HumanLow', rating: 1200, color: 'white', opponent: quick });
    h.server.challenge({ from: 'HumanHigh', rating: 1800, color: 'white', opponent: quick });
    await until(() => h!.bot.status().queue.length === 3 && h!.bot.status().gamesInProgress === 1);
    const busy = (await (await fetch(`${url}api/watch`)).json()) as { servers: ServerStatus[] };
    expect(busy.servers).toHaveLength(1);
    const s = busy.servers[0]!;
    if (s.kind !== 'lichess') throw new Error('not the lichess status');
    // Humans first (preference), then by rating (sortBy: best).
    expect(s.queue.map((c) => [c.challenger, c.rating])).toEqual([
      ['HumanHigh', 1800],
      ['HumanLow', 1200],
      ['BotHigh', 2500],
    ]);
    expect(s.queue[0]).toMatchObject({ variant: 'standard', rated: false });
    expect(s.queue.every((c) => c.waitedS >= 0 && c.waitedS < 10)).toBe(true);
    expect(s).toMatchObject({ gamesInProgress: 1, concurrency: 1, botGamesToday: 0 });
    // Once every queued game is played: the queue is empty and the bot game counted.
    await until(() => h!.bot.finished.length === 4, 20_000);
    expect(h.bot.status()).toMatchObject({ queue: [], gamesInProgress: 0, botGamesToday: 1 });
  }, 30_000);
});

describe('CSA client state', () => {
  it('groups the client states as the view shows them', () => {
    expect(csaPhase('idle')).toBe('disconnected');
    expect(csaPhase('closed')).toBe('disconnected');
    expect(csaPhase('logging-in')).toBe('connecting');
    expect(csaPhase('waiting')).toBe('waiting');
    expect(csaPhase('agreeing')).toBe('waiting');
    expect(csaPhase('playing')).toBe('in-game');
  });

  it('is waiting for a game alone, in a game once an opponent logs in, not connected after its last game', async () => {
    csa = new CsaTestServer({ unitMs: 10, maxMoves: 30, closeAfterGameMs: 50 });
    const port = await csa.start();
    const timing = { gameName: 'csatest-300-10F', keepAliveMs: 2000, minBlankGapMs: 1000, replyTimeoutMs: 5000 };
    const kishi = testBot(port, 'kishi', async () => new RandomMover(3, 20), timing);
    const url = await watchServer(() => [kishi.bot.status()]);
    const phase = async (): Promise<CsaStatus> => ((await (await fetch(`${url}api/watch`)).json()) as { servers: CsaStatus[] }).servers[0]!;
    expect(await phase()).toMatchObject({ kind: 'csa', name: 'csatest', phase: 'disconnected', gamesPlayed: 0 });
    const run = kishi.bot.start();
    await until(() => kishi.bot.status().phase === 'waiting');
    expect(await phase()).toMatchObject({ phase: 'waiting', state: 'waiting' });
    const other = testBot(port, 'other', async () => new RandomMover(4, 20), timing);
    const otherRun = other.bot.start();
    await until(() => kishi.bot.status().phase === 'in-game');
    expect(await phase()).toMatchObject({ phase: 'in-game', state: 'playing' });
    await Promise.all([run, otherRun]);
    expect(await phase()).toMatchObject({ phase: 'disconnected', gamesPlayed: 1 });
  }, 30_000);
});
