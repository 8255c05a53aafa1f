/**
 * lichess-bot features on top of the basics, against the local lichess server (and the online-services
 * fake): book and online moves in real games, PGN grouping and the merge with lichess's export, online
 * block lists, slots reserved for humans, the challenge queue order, the persistent bot-vs-bot daily count,
 * and the /api/users/status check.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodePolyglotBook, encodePolyglotMove } from '../../../src/books/polyglot-book.js';
import { BotState } from '../../../src/protocols/lichess/bot-state.js';
import { fakeThinkMs, staleGameMs } from '../../../src/protocols/lichess/move-timing.js';
import { OnlineMovesServer } from '../../fakes/online-moves-server.js';
import type { Harness } from './helpers/harness.js';
import { startBot, startHarness } from './helpers/harness.js';
import { FirstLegalPlayer } from '../../fakes/player.js';

let h: Harness | undefined;
let online: OnlineMovesServer | undefined;
afterEach(async () => {
  await h?.close();
  await online?.stop();
  h = undefined;
  online = undefined;
});

const START = 0x463b96181691fc9cn;
const AFTER_E4_E5 = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';

const acceptedOrder = (h: Harness): string[] =>
  h.server.stats.requests.filter((r) => /^\/api\/challenge\/\w+\/accept/.test(r.path)).map((r) => r.path.split('/')[3] ?? '');

describe('move sources in real games', () => {
  it('plays the book move, then the cloud eval move, then asks the engine; the PGN carries the cloud eval and the export tags', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-book-'));
    const book = join(dir, 'book.bin');
    writeFileSync(book, encodePolyglotBook([{ key: START, move: encodePolyglotMove('e2e4'), weight: 1, learn: 0 }]));
    h = await startHarness({
      config: {
        polyglot: { enabled: true, book: { standard: [book] } },
        onlineMoves: { lichessCloudAnalysis: { enabled: true, minTimeS: 0, minDepth: 10 } },
      },
      player: () => new FirstLegalPlayer({ script: ['a2a3', 'a2a3', 'd1h5', 'h5f7'], score: () => ({ cp: 77 }) }),
    });
    h.server.cloudEvals.set(AFTER_E4_E5, { depth: 33, knodes: 1200, pvs: [{ moves: 'f1c4 b8c6 d1h5', cp: 45 }] });
    const id = h.server.challenge({ from: 'Patzer', color: 'black', clock: { limit: 60, increment: 1 }, opponent: { script: ['e7e5', 'b8c6', 'g8f6'] } });
    const game = await h.server.waitForEnd(id);
    expect(game.moves.join(' ')).toBe('e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7');
    expect(game.status).toBe('mate');
    // The engine was asked only from our third move on.
    const player = h.players[0] as FirstLegalPlayer;
    expect(player.requests.map((r) => r.moves.length)).toEqual([4, 6]);
    const pgnPath = join(h.recordsDir, 'lichess', `${id}.pgn`);
    await h.server.waitFor(() => existsSync(pgnPath) && readFileSync(pgnPath, 'utf8').includes('[UTCDate'));
    const pgn = readFileSync(pgnPath, 'utf8');
    // The export's UTCDate/UTCTime are the game's creation time, as lichess writes them.
    const created = new Date(game.init.createdAt).toISOString();
    expect(pgn).toContain(`[UTCDate "${created.slice(0, 10).replace(/-/g, '.')}"]`);
    expect(pgn).toContain(`[UTCTime "${created.slice(11, 19)}"]`);
    expect(pgn).toContain('[ECO "?"]');
    expect(pgn).toContain('[Event "Casual bullet game"]');
    const text = pgn.replace(/\s+/g, ' ');
    expect(text).toContain('1. e4 { [%clk');
    expect(text).toContain('2. Bc4 { [%eval 0.45,33] [%clk 0:01:00] pv: Bc4 Nc6 Qh5 }');
    expect(text).toContain('3. Qh5 { [%eval 0.77,1]');
    expect(h.schemas.failures).toEqual([]);
  });

  it('plays the online tablebase move and offers a draw when the tablebase says drawn', async () => {
    online = new OnlineMovesServer();
    await online.start();
    const fen = '8/8/8/4k3/8/8/8/4K3 w - - 0 1';
    online.tablebase.set(`standard ${fen}`, { category: 'draw', moves: [{ uci: 'e1f1', san: 'Kf1', category: 'draw', dtz: 0, dtm: null }] });
    h = await startHarness({
      config: { onlineMoves: { onlineEgtb: { enabled: true, url: online.url, minTimeS: 0 } }, drawOrResign: { offerDrawEnabled: true } },
    });
    const id = h.server.challenge({ from: 'Endgamer', color: 'black', initialFen: fen, opponent: { script: [{ type: 'resign' }] } });
    const game = await h.server.waitForEnd(id);
    expect(game.moves[0]).toBe('e1f1');
    const move = h.server.stats.requests.find((r) => r.path.startsWith(`/api/bot/game/${id}/move/`));
    expect(move?.path).toBe(`/api/bot/game/${id}/move/e1f1?offeringDraw=true`);
    expect(h.players[0] === undefined || (h.players[0] as FirstLegalPlayer).requests.length === 0).toBe(true);
  });
});

describe('PGN file grouping', () => {
  it('all: every game appended to "<me> games.pgn"; opponent: one file per opponent', async () => {
    h = await startHarness({ config: { records: { pgnFileGrouping: 'all', mergeExport: false } }, player: () => new FirstLegalPlayer({ script: ['f2f3', 'g2g4'] }) });
    for (const from of ['Shark', 'Whale']) {
      const id = h.server.challenge({ from, color: 'black', opponent: { script: ['e7e5', 'd8h4'] } });
      await h.server.waitForEnd(id);
      await h.server.waitFor(() => h!.bot.finished.some((f) => f.gameId === id));
    }
    const all = join(h.recordsDir, 'lichess', 'KishiBot games.pgn');
    await h.server.waitFor(() => existsSync(all) && (readFileSync(all, 'utf8').match(/\[Event /g) ?? []).length === 2);
    const text = readFileSync(all, 'utf8');
    expect(text).toContain('[Black "Shark"]');
    expect(text).toContain('[Black "Whale"]');
    await h.close();

    h = await startHarness({ config: { records: { pgnFileGrouping: 'opponent', mergeExport: false } }, player: () => new FirstLegalPlayer({ script: ['f2f3', 'g2g4'] }) });
    const id = h.server.challenge({ from: 'Shark', color: 'black', opponent: { script: ['e7e5', 'd8h4'] } });
    await h.server.waitForEnd(id);
    const file = join(h.recordsDir, 'lichess', 'KishiBot games vs. Shark.pgn');
    await h.server.waitFor(() => existsSync(file));
    expect(readFileSync(file, 'utf8')).toContain('Qh4#');
  });
});

describe('challenge extras', () => {
  it('declines users on an online block list (generic) and picks up a refreshed list', async () => {
    online = new OnlineMovesServer();
    await online.start();
    online.files.set('/blocklist.txt', '# bots that flood us\nSpammer\n\n');
    h = await startHarness({
      config: { challenge: { onlineBlockList: [`${online.url}/blocklist.txt`], maxGamesPerOpponent: 5 }, concurrency: 4 },
      timings: { blockListRefreshMs: 100 },
    });
    const a = h.server.challenge({ from: 'Spammer', opponent: { script: [{ type: 'resign' }] } });
    await h.server.waitFor(() => h!.server.challengeStatus(a)?.status !== 'created');
    expect(h.server.challengeStatus(a)).toEqual({ status: 'declined', declineReason: 'generic' });
    // Wait for the refreshed list by events, not a window: fetches counted from the change (a busy machine
    // may have refreshed many times before it), then Spammer challenging again until a challenge of his is
    // accepted (the refreshes overlap, so a fetch can arrive before the one before it was read).
    const fetches = (): number => online!.requests.filter((r) => r.path === '/blocklist.txt').length;
    const before = fetches();
    online.files.set('/blocklist.txt', 'Nuisance\n');
    await h.server.waitFor(() => fetches() >= before + 2);
    let c = '';
    for (let attempt = 0; attempt < 100; attempt++) {
      c = h.server.challenge({ from: 'Spammer', opponent: { script: [{ type: 'resign' }] } });
      await h.server.waitFor(() => h!.server.challengeStatus(c)?.status !== 'created');
      if (h.server.challengeStatus(c)?.status === 'accepted') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(h.server.challengeStatus(c)?.status).toBe('accepted');
    // The same refresh put Nuisance on the list.
    const b = h.server.challenge({ from: 'Nuisance', opponent: { script: [{ type: 'resign' }] } });
    await h.server.waitFor(() => h!.server.challengeStatus(b)?.status !== 'created');
    expect(h.server.challengeStatus(b)).toEqual({ status: 'declined', declineReason: 'generic' });
  });

  it('keeps gamesReservedForHumans slots away from bots', async () => {
    h = await startHarness({ config: { concurrency: 2, challenge: { gamesReservedForHumans: 1 } } });
    const slow = { script: [{ type: 'pause' as const, ms: 1500 }, { type: 'resign' as const }] };
    const bot1 = h.server.challenge({ from: 'BotOne', title: 'BOT', color: 'white', opponent: slow });
    await h.server.waitFor(() => h!.server.challengeStatus(bot1)?.status === 'accepted');
    const bot2 = h.server.challenge({ from: 'BotTwo', title: 'BOT', color: 'white', opponent: slow });
    await h.server.waitFor(() => h!.server.challengeStatus(bot2)?.status !== 'created');
    expect(h.server.challengeStatus(bot2)).toEqual({ status: 'declined', declineReason: 'later' });
    const human = h.server.challenge({ from: 'Human', color: 'white', opponent: slow });
    await h.server.waitFor(() => h!.server.challengeStatus(human)?.status !== 'created');
    expect(h.server.challengeStatus(human)?.status).toBe('accepted');
  });

  it('queues acceptable challenges while busy (queueTimeS) and gives the free slot to the preferred, best-rated one', async () => {
    h = await startHarness({ config: { concurrency: 1, challenge: { queueTimeS: 10, sortBy: 'best', preference: 'human' } }, server: { challengeExpiryMs: 20_000 } });
    const first = h.server.challenge({ from: 'First', color: 'white', opponent: { script: [{ type: 'pause', ms: 600 }, { type: 'resign' }] } });
    await h.server.waitFor(() => h!.server.challengeStatus(first)?.status === 'accepted');
    const quick = { script: [{ type: 'resign' as const }] };
    const botHigh = h.server.challenge({ from: 'BotHigh', title: 'BOT', rating: 2500, color: 'white', opponent: quick });
    const humanLow = h.server.challenge({ from: 'HumanLow', rating: 1200, color: 'white', opponent: quick });
    const humanHigh = h.server.challenge({ from: 'HumanHigh', rating: 1800, color: 'white', opponent: quick });
    await h.server.waitFor(() => [botHigh, humanLow, humanHigh].every((id) => h!.server.challengeStatus(id)?.status === 'accepted'), 15_000);
    expect(acceptedOrder(h)).toEqual([first, humanHigh, humanLow, botHigh]);
    expect(h.bot.stats.declined).toEqual({});
  });

  it('counts games against bots across a restart (the daily cap survives)', async () => {
    h = await startHarness({ config: { challenge: { botGamesPerDay: 1 } } });
    const a = h.server.challenge({ from: 'RoboOne', title: 'BOT', color: 'white', opponent: { script: [{ type: 'resign' }] } });
    await h.server.waitForEnd(a);
    await h.server.waitFor(() => h!.bot.finished.length === 1);
    expect(h.bot.botGamesToday()).toBe(1);
    expect(existsSync(join(h.recordsDir, 'lichess', 'bot-state.json'))).toBe(true);
    await h.bot.stop(true);
    h.bot = h.newBot();
    h.running = (await startBot(h.bot)).running;
    expect(h.bot.botGamesToday()).toBe(1);
    const b = h.server.challenge({ from: 'RoboTwo', title: 'BOT', color: 'white', opponent: { script: [{ type: 'resign' }] } });
    await h.server.waitFor(() => h!.server.challengeStatus(b)?.status !== 'created');
    expect(h.server.challengeStatus(b)).toEqual({ status: 'declined', declineReason: 'later' });
  });
});

describe('bot state on disk', () => {
  it('keeps takebacks per game and bot games for 24 hours', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'kishi-state-')), 'bot-state.json');
    let now = 1_000_000_000_000;
    const s1 = new BotState(path, () => now);
    s1.addTakeback('g1');
    s1.addBotGame('g1', now - 1000);
    s1.addBotGame('g1', now - 1000);
    s1.addBotGame('g2', now - 86_000_000);
    const s2 = new BotState(path, () => now);
    expect(s2.takebacks('g1')).toBe(1);
    expect(s2.takebacks('g2')).toBe(0);
    expect(s2.botGamesToday()).toBe(2);
    now += 500_000;
    expect(s2.botGamesToday()).toBe(1);
    s2.forgetGame('g1');
    expect(new BotState(path, () => now).takebacks('g1')).toBe(0);
  });
});

describe('online status check', () => {
  it('reconnects the event stream when /api/users/status shows us offline', async () => {
    h = await startHarness({ timings: { statusCheckMs: 100 } });
    const opens = h.bot.stats.eventStreamOpens;
    await new Promise((r) => setTimeout(r, 350));
    expect(h.bot.stats.offlineReconnects).toBe(0);
    h.server.usersStatusOnline = false;
    await h.server.waitFor(() => h!.bot.stats.offlineReconnects >= 1 && h!.bot.stats.eventStreamOpens > opens);
    expect(h.server.stats.requests.some((r) => r.path === '/api/users/status?ids=kishibot')).toBe(true);
  });
});

describe('move timing rules (lichess-bot fake_think_time, should_terminate_now)', () => {
  it('fake think time: none in the first ten plies, 1.5 % of the smaller clock, shrinking later, at most 5 s', () => {
    expect(fakeThinkMs(9, 180_000, 120_000)).toBe(0);
    expect(fakeThinkMs(10, 180_000, 120_000)).toBe(1800);
    expect(fakeThinkMs(50, 180_000, 120_000)).toBeCloseTo(1440, 9);
    expect(fakeThinkMs(200, 180_000, 120_000)).toBeCloseTo(600, 9);
    expect(fakeThinkMs(12, 600_000, 600_000)).toBe(5000);
  });

  it('a game is stuck after the mover’s clock + increment + 60 s without an update', () => {
    expect(staleGameMs(30_000, 2_000)).toBe(92_000);
    expect(staleGameMs(-5, 0)).toBe(60_000);
  });
});
