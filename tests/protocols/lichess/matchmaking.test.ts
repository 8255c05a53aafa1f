import { afterEach, describe, expect, it } from 'vitest';
import type { TestUserSpec } from '../../../src/testing/lichess-server/server.js';
import type { Harness } from './helpers/harness.js';
import { startHarness } from './helpers/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const mm = { matchmaking: { enabled: true, intervalS: 0.05, challengeTimeoutS: 0.3, initialTimesS: [60], incrementsS: [1] } };
const challenges = (h: Harness): string[] => h.server.stats.requests.filter((r) => /^\/api\/challenge\/[A-Za-z]+$/.test(r.path)).map((r) => r.path);

describe('matchmaking', () => {
  it('is off by default', async () => {
    h = await startHarness({ server: { users: [{ username: 'OtherBot', title: 'BOT', online: true }] } });
    await new Promise((r) => setTimeout(r, 300));
    expect(challenges(h)).toEqual([]);
  });

  it('challenges an online bot, ignores its own challenge echoed back, and plays the game', async () => {
    const users: TestUserSpec[] = [{ username: 'OtherBot', title: 'BOT', online: true, onChallenge: 'accept', opponent: { script: ['e7e5', 'a7a6', { type: 'resign' }] } }];
    h = await startHarness({ server: { users }, config: mm });
    await h.server.waitFor(() => h!.bot.finished.length >= 1);
    const first = challenges(h)[0];
    expect(first).toBe('/api/challenge/OtherBot');
    const body = h.server.stats.requests.find((r) => r.path === first)?.body;
    expect(body).toBe('rated=false&clock.limit=60&clock.increment=1&color=random&variant=standard');
    const id = h.bot.finished[0]?.gameId ?? '';
    expect(h.server.stats.requests.filter((r) => r.path.startsWith(`/api/challenge/${id}/`))).toEqual([]);
    expect(h.schemas.failures).toEqual([]);
  });

  it('remembers a bot that declined and does not challenge it again', async () => {
    h = await startHarness({ server: { users: [{ username: 'Grumpy', title: 'BOT', online: true, onChallenge: 'decline', declineReason: 'tooFast' }] }, config: mm });
    await h.server.waitFor(() => h!.bot.matchmaking()?.stats.declined === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(challenges(h)).toEqual(['/api/challenge/Grumpy']);
    expect(h.bot.busySlots()).toBe(0);
  });

  it('cancels a challenge left unanswered', async () => {
    h = await startHarness({ server: { users: [{ username: 'Silent', title: 'BOT', online: true, onChallenge: 'ignore' }] }, config: mm });
    await h.server.waitFor(() => h!.bot.matchmaking()?.stats.canceled === 1);
    await h.server.waitFor(() => h!.server.stats.requests.some((r) => /\/api\/challenge\/\w+\/cancel$/.test(r.path)));
    await h.server.waitFor(() => h!.bot.busySlots() === 0);
  });

  it('pauses when lichess says our bot-vs-bot daily cap is reached', async () => {
    h = await startHarness({ server: { users: [{ username: 'OtherBot', title: 'BOT', online: true }], botDailyCapReached: true }, config: mm });
    await h.server.waitFor(() => challenges(h!).length === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(challenges(h)).toEqual(['/api/challenge/OtherBot']);
  });
});
