import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load.js';
import { childLogger } from '../../../src/log/logger.js';
import { LichessClient } from '../../../src/protocols/lichess/client.js';
import { Matchmaker } from '../../../src/protocols/lichess/matchmaking.js';
import type { TestUserSpec } from '../../../src/protocols/lichess/fake/server.js';
import { LichessTestServer } from '../../../src/protocols/lichess/fake/server.js';
import { OnlineMovesServer } from '../../fakes/online-moves-server.js';
import type { Harness } from './helpers/harness.js';
import { TOKEN, startHarness } from './helpers/harness.js';

let h: Harness | undefined;
let online: OnlineMovesServer | undefined;
afterEach(async () => {
  await h?.close();
  await online?.stop();
  h = undefined;
  online = undefined;
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

describe('matchmaking, lichess-bot extras', () => {
  it('fine filter: a bot that declined the speed is remembered for that speed only (on disk), and still challenged when nobody else is left', async () => {
    h = await startHarness({
      server: { users: [{ username: 'Picky', title: 'BOT', online: true, onChallenge: 'decline', declineReason: 'tooFast' }] },
      config: { matchmaking: { ...mm.matchmaking, challengeFilter: 'fine' } },
    });
    await h.server.waitFor(() => challenges(h!).length >= 2);
    expect(challenges(h).slice(0, 2)).toEqual(['/api/challenge/Picky', '/api/challenge/Picky']);
    const saved = JSON.parse(readFileSync(join(h.recordsDir, 'lichess', 'matchmaking-declines.json'), 'utf8')) as Record<string, number>;
    expect(Object.keys(saved)).toEqual(['picky|bullet']);
  });

  it('skips bots on the matchmaking online block list', async () => {
    online = new OnlineMovesServer();
    await online.start();
    online.files.set('/bots.txt', 'Blocked\n');
    h = await startHarness({
      server: { users: [{ username: 'Blocked', title: 'BOT', online: true, onChallenge: 'ignore' }, { username: 'Welcome', title: 'BOT', online: true, onChallenge: 'ignore' }] },
      config: { matchmaking: { ...mm.matchmaking, onlineBlockList: [`${online.url}/bots.txt`] } },
    });
    await h.server.waitFor(() => challenges(h!).length >= 2, 5000);
    expect(new Set(challenges(h))).toEqual(new Set(['/api/challenge/Welcome']));
  });

  it('proposes correspondence games with challengeDays', async () => {
    h = await startHarness({
      server: { users: [{ username: 'Slowpoke', title: 'BOT', online: true, onChallenge: 'decline', declineReason: 'tooSlow' }] },
      config: { matchmaking: { ...mm.matchmaking, initialTimesS: [], incrementsS: [], challengeDays: [3] } },
    });
    await h.server.waitFor(() => challenges(h!).length >= 1);
    expect(h.server.stats.requests.find((r) => r.path === '/api/challenge/Slowpoke')?.body).toBe('rated=false&days=3&color=random&variant=standard');
    expect(h.schemas.failures).toEqual([]);
  });

  it('ratingPreference high favours the stronger bot (lichess-bot weights)', async () => {
    const server = new LichessTestServer({
      bot: { username: 'KishiBot', token: TOKEN },
      users: [
        { username: 'Weak', title: 'BOT', rating: 1000, online: true, onChallenge: 'ignore' },
        { username: 'Strong', title: 'BOT', rating: 2000, online: true, onChallenge: 'ignore' },
      ],
    });
    await server.start();
    try {
      const config = parseConfig('').unwrap().lichess.matchmaking;
      const picked: string[] = [];
      for (const ratingPreference of ['none', 'high', 'low'] as const) {
        const client = new LichessClient({ baseUrl: server.url, token: TOKEN });
        const m = new Matchmaker({
          client,
          config: { ...config, enabled: true, intervalS: 0, minRating: 900, maxRating: 2100, initialTimesS: [60], incrementsS: [1], ratingPreference },
          myId: 'kishibot',
          myRating: () => undefined,
          canChallenge: () => true,
          reserve: () => {},
          release: () => {},
          log: childLogger('test'),
          random: () => 0.4,
        });
        await m.tick();
        await m.stop();
        picked.push(server.stats.requests.filter((r) => /^\/api\/challenge\/[A-Za-z]+$/.test(r.path)).map((r) => r.path.slice(15)).pop() ?? '');
      }
      // Weights in [900, 2100]: high 1300/2300, low 2300/1300; a draw of 0.4 lands on Weak, Strong, Weak.
      expect(picked).toEqual(['Weak', 'Strong', 'Weak']);
    } finally {
      await server.stop();
    }
  });
});
