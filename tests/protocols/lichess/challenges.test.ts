import { afterEach, describe, expect, it } from 'vitest';
import type { NewChallenge } from '../../../src/protocols/lichess/fake/server.js';
import type { LichessConfig } from '../../../src/config/sections/lichess.js';
import type { Harness } from './helpers/harness.js';
import { startHarness } from './helpers/harness.js';
import { FirstLegalPlayer } from '../../fakes/player.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('challenges', () => {
  it('ten simultaneous challenges with concurrency 2: two games at a time, the rest declined with later', async () => {
    h = await startHarness({ config: { concurrency: 2, challenge: { maxGamesPerOpponent: 10 } } });
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      // Each opponent plays the Fool's mate against our first-legal moves... slowly enough to overlap.
      ids.push(h.server.challenge({ from: `Player${i}`, opponent: { then: 'firstLegal', script: [{ type: 'pause', ms: 100 }, 'e7e5', 'a7a6', { type: 'resign' }] }, color: 'black' }));
    }
    await h.server.waitFor(() => ids.every((id) => h!.server.challengeStatus(id)?.status !== 'created'));
    const statuses = ids.map((id) => h!.server.challengeStatus(id));
    expect(statuses.filter((s) => s?.status === 'accepted').length).toBe(2);
    expect(statuses.filter((s) => s?.status === 'declined').map((s) => s?.declineReason)).toEqual(Array(8).fill('later'));
    const accepted = ids.filter((id) => h!.server.challengeStatus(id)?.status === 'accepted');
    for (const id of accepted) expect((await h.server.waitForEnd(id)).status).toBe('resign');
    expect(h.server.stats.peakBotGames).toBe(2);
    expect(h.bot.stats.peakGames).toBe(2);
    expect(h.bot.stats.declined).toEqual({ later: 8 });
    expect(h.schemas.failures).toEqual([]);
  });

  const cases: [string, Partial<NewChallenge>, Record<string, unknown>][] = [
    ['noBot', { title: 'BOT' }, { challenge: { acceptBot: false } }],
    ['onlyBot', {}, { challenge: { onlyBot: true } }],
    ['timeControl', { clock: { limit: 60, increment: 0 } }, { challenge: { speeds: ['blitz', 'rapid'] } }],
    ['timeControl', { clock: 'unlimited' }, {}],
    ['timeControl', { clock: { days: 3 } }, {}],
    ['tooFast', { clock: { limit: 60, increment: 0 } }, { challenge: { minBaseS: 120 } }],
    ['tooFast', { clock: { limit: 60, increment: 0 }, title: 'BOT' }, { challenge: { bulletRequiresIncrement: true } }],
    ['tooFast', { clock: { days: 1 } }, { challenge: { speeds: ['correspondence'], minDays: 2 } }],
    ['tooSlow', { clock: { limit: 600, increment: 0 } }, { challenge: { maxBaseS: 300 } }],
    ['tooSlow', { clock: { limit: 180, increment: 30 } }, { challenge: { maxIncrementS: 10 } }],
    ['standard', { variant: 'chess960' }, {}],
    ['variant', { variant: 'crazyhouse' }, { challenge: { variants: ['standard', 'chess960'] } }],
    ['casual', { rated: true }, { challenge: { modes: ['casual'] } }],
    ['rated', { rated: false }, { challenge: { modes: ['rated'] } }],
    ['generic', { from: 'Troll' }, { challenge: { blockList: ['troll'] } }],
    ['generic', { from: 'Stranger' }, { challenge: { allowList: ['Friend'] } }],
    ['generic', { rating: 2900 }, { challenge: { maxRating: 2500 } }],
    ['generic', { rating: 2000 }, { challenge: { maxRatingDifference: 200 } }],
    ['generic', { variant: 'atomic' }, { challenge: { variants: ['standard', 'atomic'] } }],
  ];

  it.each(cases)('declines with %s (%j, config %j)', async (reason, challenge, config) => {
    h = await startHarness({ config: config as Partial<LichessConfig> });
    const id = h.server.challenge({ from: 'Challenger', ...challenge });
    await h.server.waitFor(() => h!.server.challengeStatus(id)?.status !== 'created');
    expect(h.server.challengeStatus(id)).toEqual({ status: 'declined', declineReason: reason });
    const decline = h.server.stats.requests.find((r) => r.path === `/api/challenge/${id}/decline`);
    expect(decline?.body).toBe(`reason=${reason}`);
    expect(h.schemas.failures).toEqual([]);
  });

  it('declines with later when the only slot is taken, and per opponent', async () => {
    h = await startHarness({ config: { concurrency: 2 } });
    const first = h.server.challenge({ from: 'Busy', color: 'black', opponent: { then: 'stall', script: ['e7e5'] } });
    await h.server.waitFor(() => h!.server.game(first) !== undefined);
    const again = h.server.challenge({ from: 'Busy' });
    await h.server.waitFor(() => h!.server.challengeStatus(again)?.status !== 'created');
    expect(h.server.challengeStatus(again)).toEqual({ status: 'declined', declineReason: 'later' });
  });

  it('releases the slot of a challenge that expired before our accept reached lichess', async () => {
    h = await startHarness({ config: { concurrency: 1 } });
    h.server.failRequests({ method: 'POST', path: /\/accept$/ }, { delayMs: 150 }, 1);
    const expired = h.server.challenge({ from: 'Impatient', expireMs: 50 });
    await h.server.waitFor(() => h!.server.challengeStatus(expired)?.status === 'canceled');
    await h.server.waitFor(() => h!.server.stats.requests.some((r) => r.path === `/api/challenge/${expired}/accept` && r.status === 404));
    await h.server.waitFor(() => h!.bot.busySlots() === 0);
    const next = h.server.challenge({ from: 'Patient', color: 'black', opponent: { script: ['e7e5', { type: 'resign' }] } });
    expect((await h.server.waitForEnd(next)).status).toBe('resign');
  });

  it('accepts a chess960 challenge when configured, and plays from its position', async () => {
    h = await startHarness({ config: { challenge: { variants: ['standard', 'chess960'] } }, player: () => new FirstLegalPlayer() });
    const fen = 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9';
    const id = h.server.challenge({ from: 'Fischer', variant: 'chess960', initialFen: fen, color: 'black', opponent: { script: ['a7a6', { type: 'resign' }] } });
    const game = await h.server.waitForEnd(id);
    expect(game.status).toBe('resign');
    expect(game.winner).toBe('white');
    expect(game.moves[1]).toBe('a7a6');
    expect(game.moves.length).toBe(3);
    expect(h.players.some((p) => (p as FirstLegalPlayer).requests.some((r) => r.variant === 'chess960' && r.start === fen))).toBe(true);
  });
});
