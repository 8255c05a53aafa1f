/**
 * The bot on lishogi: account checks (no token test on lishogi; a refused token and a non-BOT account are
 * one-line errors naming LISHOGI_TOKEN and the upgrade), challenges (standard shogi accepted, other
 * variants and short byoyomi declined, with no reason in the body since lishogi takes none), and the token
 * kept out of every log, transcript and record.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import winston from 'winston';
import { parseConfig } from '../../../src/config/load.js';
import { Dispatcher } from '../../../src/bot/dispatcher.js';
import { rootLogger } from '../../../src/log/logger.js';
import { fileTranscript } from '../../../src/log/transcript.js';
import { LichessBot } from '../../../src/protocols/lichess/game-server.js';
import { lishogiBotConfig } from '../../../src/protocols/lishogi/bot-config.js';
import { LISHOGI_PROFILE } from '../../../src/protocols/lishogi/profile.js';
import { upgradeAccount } from '../../../src/protocols/lichess/upgrade.js';
import { LishogiTestServer } from '../../../src/protocols/lishogi/fake/lishogi-server.js';
import { FAST_TIMINGS } from '../lichess/helpers/harness.js';
import type { LishogiHarness } from './helpers/harness.js';
import { startLishogi } from './helpers/harness.js';

// Not shaped like a lishogi token and never registered as a secret: only our own care keeps it out.
const SECRET = 'kishi-lishogi-secret-token-4e1b7d';

let h: LishogiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });

describe('lishogi account checks', () => {
  const botFor = (url: string, token: string): LichessBot =>
    new LichessBot({
      profile: LISHOGI_PROFILE,
      config: lishogiBotConfig(parseConfig(`lishogi:\n  enabled: true\n  url: ${url}\n`).unwrap().lishogi),
      token,
      moveOverheadMs: 50,
      dispatcher: new Dispatcher(async () => {
        throw new Error('no engine needed');
      }),
      timings: FAST_TIMINGS,
    });

  it('a refused token and a non-BOT account are errors a user can act on; no token test is called', async () => {
    const server = new LishogiTestServer({ accounts: [{ username: 'Human', token: 'lip_human', title: null }] });
    const url = await server.start();
    try {
      const bad = await botFor(url, 'lip_wrong').checkAccount();
      expect(bad.isErr && bad.error.message).toContain('lishogi refused LISHOGI_TOKEN');
      const human = await botFor(url, 'lip_human').checkAccount();
      expect(human.isErr && human.error.message).toContain('the lishogi account Human is not a BOT account');
      expect(human.isErr && human.error.message).toContain('run `kishi lishogi upgrade`');
      expect(server.stats.requests.some((r) => r.path.includes('/api/token/test'))).toBe(false);
    } finally {
      await server.stop();
    }
  });
});

describe('kishi lishogi upgrade', () => {
  it('upgrades a fresh account after confirmation, through lishogi\'s upgrade endpoint', async () => {
    const server = new LishogiTestServer({ accounts: [{ username: 'Fresh', token: 'lip_fresh', title: null }] });
    const url = await server.start();
    const lines: string[] = [];
    try {
      const code = await upgradeAccount({ baseUrl: url, token: 'lip_fresh', confirm: async (q) => (lines.push(q), true), say: (l) => lines.push(l), profile: LISHOGI_PROFILE });
      expect(code).toBe(0);
      expect(lines[0]).toContain('Upgrade the lishogi account Fresh to a BOT account?');
      expect(lines[1]).toBe('Fresh is now a BOT account.');
      const again = await upgradeAccount({ baseUrl: url, token: 'lip_fresh', confirm: async () => true, say: (l) => lines.push(l), profile: LISHOGI_PROFILE });
      expect([again, lines[2]]).toEqual([0, 'Fresh is already a BOT account.']);
    } finally {
      await server.stop();
    }
  });
});

describe('lishogi challenges', () => {
  it('accepts standard shogi; declines other variants and a too short byoyomi without a reason in the body', async () => {
    h = await startLishogi({ bots: [{ username: 'KishiA', token: 'lip_a', engine: { kind: 'kishi' } }, { username: 'Other', token: 'lip_o', engine: { kind: 'kishi' } }] });
    const kishi = h.bots.get('KishiA')!;
    const other = h.bots.get('Other')!;
    await other.stop(false);
    const mini = h.server.challenge({ from: 'Other', to: 'KishiA', variant: 'minishogi', clock: { limitS: 60, incrementS: 0, byoyomiS: 10, periods: 1 } });
    const fast = h.server.challenge({ from: 'Other', to: 'KishiA', clock: { limitS: 60, incrementS: 0, byoyomiS: 1, periods: 1 } });
    await h.server.waitFor(() => h!.server.challengeStatus(mini) === 'declined' && h!.server.challengeStatus(fast) === 'declined');
    const declines = h.server.stats.requests.filter((r) => r.path.endsWith('/decline'));
    expect(declines.map((r) => r.body)).toEqual(['', '']);
    expect(kishi.stats.declined).toEqual({ standard: 1, tooFast: 1 });
    const ok = h.server.challenge({ from: 'Other', to: 'KishiA', clock: { limitS: 60, incrementS: 0, byoyomiS: 10, periods: 1 } });
    await h.server.waitFor(() => h!.server.challengeStatus(ok) === 'accepted');
    expect(h.schemas.failures).toEqual([]);
  }, 60_000);
});

describe('the lishogi token never appears in a log, transcript or record', () => {
  it('after a game with rate limits, server errors and reconnects, at debug level', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-lishogi-secret-'));
    const lines: string[] = [];
    const capture = new winston.transports.Stream({ stream: new Writable({ write: (c: Buffer, _e, cb) => (lines.push(c.toString()), cb()) }) });
    const level = rootLogger.level;
    rootLogger.level = 'debug';
    rootLogger.add(capture);
    try {
      h = await startLishogi({
        bots: [
          { username: 'KishiA', token: SECRET, engine: { kind: 'kishi' }, transcript: fileTranscript(join(dir, 'lishogi-wire.log')) },
          { username: 'KishiB', token: 'lip_b', engine: { kind: 'kishi' } },
        ],
        server: { drawAfterPlies: 16 },
        // Small searches: the game is about the wire, not the moves.
        configYaml: '  challenge:\n    speeds: [bullet]\n  goOverrides:\n    bullet:\n      nodes: 1500\n',
      });
      const id = h.server.challenge({ from: 'KishiB', to: 'KishiA', clock: { limitS: 60, incrementS: 0, byoyomiS: 5, periods: 1 } });
      h.server.failRequests({ method: 'POST', path: /\/move\// }, '429html', 1);
      h.server.failRequests({ method: 'POST', path: /\/move\// }, '502', 1);
      h.server.failRequests({ method: 'GET', path: /\/api\/account\/playing$/ }, '504', 1);
      h.server.dropGameStreamAt(id, 4);
      const g = await h.server.waitForEnd(id, 60_000);
      expect(g.status).toBe('draw');
      await h.server.waitFor(() => h!.bots.get('KishiA')!.finished.length === 1, 10_000);
      const recorded = files(h.recordsDir).map((f) => readFileSync(f, 'utf8'));
      expect(recorded.length).toBeGreaterThan(0);
      const wire = readFileSync(join(dir, 'lishogi-wire.log'), 'utf8');
      expect(wire).toContain('/api/bot/game/');
      for (const text of [...lines, wire, ...recorded]) expect(text).not.toContain(SECRET);
    } finally {
      rootLogger.remove(capture);
      rootLogger.level = level;
    }
  }, 90_000);
});

describe("lishogi's adjourned games and one chat room (today's server)", () => {
  it('a paused game is parked, not finished, and played to its end once resumed; no greeting goes to the spectators\' room', async () => {
    h = await startLishogi({
      bots: [
        { username: 'KishiA', token: 'lip_pa', engine: { kind: 'kishi' }, nodes: 2000 },
        { username: 'KishiB', token: 'lip_pb', engine: { kind: 'kishi' }, nodes: 2000 },
      ],
      server: { drawAfterPlies: 24 },
    });
    const server = h.server;
    const id = server.challenge({ from: 'KishiA', to: 'KishiB', color: 'sente', clock: { limitS: 60, incrementS: 0, byoyomiS: 5, periods: 1 } });
    await server.waitFor(() => (server.game(id)?.moves.length ?? 0) >= 4, 30_000);
    server.pauseGame(id);
    // The side to move has its move refused, resynchronises, reads `paused` and leaves; the other side
    // learns it when its stream is reconnected (as after any stall).
    server.dropGameStreamsNow(id);
    await server.waitFor(() => [...h!.bots.values()].every((b) => b.activeGames() === 0), 20_000);
    expect(server.game(id)!.status).toBe('paused');
    for (const b of h.bots.values()) expect(b.finished.filter((e) => e.gameId === id)).toEqual([]);
    server.resumeGame(id);
    const g = await server.waitForEnd(id, 90_000);
    expect(g.status).toBe('draw');
    expect(g.moves.length).toBeGreaterThanOrEqual(24);
    await server.waitFor(() => [...h!.bots.values()].every((b) => b.finished.some((e) => e.gameId === id)), 20_000);
    // lishogi writes both rooms to the game's one chat, which the opponent reads.
    expect(server.chatLog.filter((c) => c.room === 'spectator')).toEqual([]);
    expect(server.chatLog.some((c) => c.room === 'player')).toBe(true);
    expect(h.schemas.failures).toEqual([]);
  }, 150_000);
});
