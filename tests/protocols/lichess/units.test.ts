import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load.js';
import { gameSilenceMs, LICHESS_PROFILE } from '../../../src/protocols/lichess/server-profile.js';
import { LISHOGI_PROFILE } from '../../../src/protocols/lishogi/profile.js';
import { capChat, formatGreeting } from '../../../src/protocols/lichess/chat.js';
import { checkChallenge } from '../../../src/protocols/lichess/challenge-filter.js';
import type { ChallengeContext } from '../../../src/protocols/lichess/challenge-filter.js';
import { drawConditionHolds, scoreToCp, shouldAcceptDraw, shouldResign } from '../../../src/bot/thinker/draw-or-resign.js';
import { endpointPath } from '../../../src/protocols/lichess/endpoints.js';
import { NdjsonSplitter } from '../../../src/protocols/lichess/ndjson.js';
import { makePgn, pgnResult } from '../../../src/protocols/lichess/pgn-record.js';
import { RateLimiter, parseRateLimitBody, parseRetryAfter } from '../../../src/protocols/lichess/rate-limit.js';
import type { ChallengeJson } from '../../../src/protocols/lichess/types.js';
import { speedOf } from '../../../src/protocols/lichess/matchmaking.js';
import { readFileSync } from 'node:fs';

describe('ndjson framing', () => {
  it('joins lines split across chunks, splits merged lines, counts keep-alives', () => {
    const s = new NdjsonSplitter();
    expect(s.push('{"a":')).toEqual({ lines: [], keepAlives: 0 });
    expect(s.push('1}\n\n{"b":2}\n{"c"')).toEqual({ lines: ['{"a":1}', '{"b":2}'], keepAlives: 1 });
    expect(s.push(':3}\r\n\n\n')).toEqual({ lines: ['{"c":3}'], keepAlives: 2 });
    expect(s.pending()).toBe(0);
  });

  it('keeps a multi-byte character split between chunks', () => {
    const s = new NdjsonSplitter();
    const bytes = Buffer.from('{"text":"王手"}\n', 'utf8');
    const cut = 10; // inside the first character (UTF-8: 3 bytes each)
    expect(s.push(bytes.subarray(0, cut)).lines).toEqual([]);
    expect(s.push(bytes.subarray(cut)).lines).toEqual(['{"text":"王手"}']);
  });

  it('returns a last line without newline at the end of the stream', () => {
    const s = new NdjsonSplitter();
    s.push('{"x":1}\n{"y"');
    s.push(':2}');
    expect(s.end()).toEqual({ lines: ['{"y":2}'], keepAlives: 0 });
  });

  it('parses the bundled sample streams', () => {
    for (const f of ['event-stream.ndjson', 'bot-game-stream.ndjson']) {
      const text = readFileSync(new URL(`../../fixtures/lichess/samples/${f}`, import.meta.url), 'utf8');
      const s = new NdjsonSplitter();
      let lines = 0;
      for (let i = 0; i < text.length; i += 7) lines += s.push(text.slice(i, i + 7)).lines.length;
      lines += s.end().lines.length;
      expect(lines).toBe(text.split('\n').filter((l) => l.trim() !== '').length);
    }
  });
});

describe('rate limits', () => {
  it('reads Retry-After in seconds or as a date', () => {
    expect(parseRetryAfter('30')).toBe(30_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(30_000);
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('reads JSON and HTML 429 bodies', () => {
    expect(parseRateLimitBody('{"error":"You played 100 games","ratelimit":{"key":"bot.vsBot.day","seconds":86398}}')).toEqual({
      message: 'You played 100 games',
      key: 'bot.vsBot.day',
      waitMs: 86_398_000,
    });
    expect(parseRateLimitBody('<html><body><h1>Too many requests</h1></body></html>')).toEqual({ message: 'Too many requests' });
  });

  it('blocks per endpoint: a minute by default, 1 s for moves, Retry-After first, challenge doubling', () => {
    let now = 0;
    const r = new RateLimiter(1, () => now);
    expect(r.block('move', undefined, { message: '' })).toBe(1000);
    expect(r.block('chat', undefined, { message: '' })).toBe(60_000);
    expect(r.block('accept', 5000, { message: '', waitMs: 9000 })).toBe(5000);
    expect(r.block('decline', undefined, { message: '', waitMs: 9000 })).toBe(9000);
    expect([1, 2, 3, 4, 5].map(() => r.block('challenge', undefined, { message: '' }))).toEqual([60_000, 120_000, 240_000, 480_000, 600_000]);
    now = 999;
    expect(r.remaining('move')).toBe(1);
    expect(r.remaining('account')).toBe(0);
    now = 1000;
    expect(r.remaining('move')).toBe(0);
  });

  it('fills and encodes endpoint paths', () => {
    expect(endpointPath('move', ['abcd1234', 'e2e4'])).toBe('/api/bot/game/abcd1234/move/e2e4');
    expect(endpointPath('challenge', ['Some User'])).toBe('/api/challenge/Some%20User');
    expect(() => endpointPath('move', ['x'])).toThrow('missing path argument');
  });
});

describe('draw or resign', () => {
  const cfg = { ...parseConfig('').unwrap().lichess.drawOrResign, resignEnabled: true };
  it('scores mates as ±40000 minus the distance', () => {
    expect([scoreToCp({ cp: 12 }), scoreToCp({ mate: 3 }), scoreToCp({ mate: -2 })]).toEqual([12, 39_997, -39_998]);
  });
  it('resigns after resignMoves scores at or below the threshold', () => {
    expect(shouldResign([-1000, -1200], cfg)).toBe(false);
    expect(shouldResign([0, -1000, -1200, -1000], cfg)).toBe(true);
    expect(shouldResign([-1000, -999, -1200], cfg)).toBe(false);
    expect(shouldResign([-5000, -5000, -5000], { ...cfg, resignEnabled: false })).toBe(false);
  });
  it('offers and accepts draws only with enough near-zero scores and few pieces', () => {
    const ten = Array(10).fill(0);
    expect(drawConditionHolds(ten, 10, cfg)).toBe(true);
    expect(drawConditionHolds(ten, 11, cfg)).toBe(false);
    expect(drawConditionHolds(ten.slice(1), 4, cfg)).toBe(false);
    expect(drawConditionHolds([...ten.slice(1), 1], 4, cfg)).toBe(false);
    expect(shouldAcceptDraw(ten, 4, { ...cfg, acceptDraws: false })).toBe(false);
  });
});

describe('chat', () => {
  it('fills placeholders and caps at 140 characters', () => {
    expect(formatGreeting('Hi {opponent}, {me} here', { me: 'Kishi', opponent: 'Bob' })).toBe('Hi Bob, Kishi here');
    expect(capChat('a'.repeat(140))).toBe('a'.repeat(140));
    expect([...capChat('a'.repeat(141))].length).toBe(140);
    expect(formatGreeting('', { me: 'x', opponent: 'y' })).toBe('');
  });
});

describe('challenge filter', () => {
  const cfg = parseConfig('').unwrap().lichess.challenge;
  const ctx: ChallengeContext = {
    myId: 'kishibot',
    myRating: () => 1500,
    busySlots: 0,
    concurrency: 1,
    gamesWith: () => 0,
    recentGamesWith: () => 0,
    botGamesToday: 0,
    supportsVariant: () => true,
    shuttingDown: false,
  };
  const challenge = (over: Partial<ChallengeJson> = {}): ChallengeJson => ({
    id: 'c1',
    url: 'https://lichess.org/c1',
    status: 'created',
    challenger: { id: 'bob', name: 'Bob', rating: 1500, title: 'BOT' },
    destUser: { id: 'kishibot', name: 'KishiBot' },
    variant: { key: 'standard', name: 'Standard' },
    rated: true,
    speed: 'blitz',
    timeControl: { type: 'clock', limit: 180, increment: 2 },
    color: 'random',
    perf: { icon: '', name: 'Blitz' },
    ...over,
  });
  it('ignores our own challenges and accepts a fitting one', () => {
    expect(checkChallenge(challenge({ direction: 'out' }), cfg, ctx)).toEqual({ accept: false, reason: undefined, why: 'our own challenge' });
    expect(checkChallenge(challenge({ challenger: { id: 'kishibot', name: 'KishiBot' } }), cfg, ctx).accept).toBe(false);
    expect(checkChallenge(challenge(), cfg, ctx)).toEqual({ accept: true });
  });
  it('declines later for concurrency, the daily bot cap, recent games and shutdown', () => {
    const reason = (c: Partial<ChallengeContext>, f = cfg): unknown => {
      const d = checkChallenge(challenge(), f, { ...ctx, ...c });
      return d.accept ? 'accept' : d.reason;
    };
    expect(reason({ busySlots: 1 })).toBe('later');
    expect(reason({ botGamesToday: 100 })).toBe('later');
    expect(reason({ recentGamesWith: () => 2 }, { ...cfg, maxRecentBotChallenges: 2 })).toBe('later');
    expect(reason({ gamesWith: () => 1 })).toBe('later');
    expect(reason({ shuttingDown: true })).toBe('later');
    expect(reason({ supportsVariant: () => false })).toBe('generic');
  });
});

describe('records', () => {
  it('writes PGN with tags, clocks, evals from White’s view, and a FEN start', () => {
    const pgn = makePgn({
      event: 'Casual blitz game',
      site: 'https://lichess.org/abc',
      date: new Date(Date.UTC(2026, 0, 2)),
      white: { name: 'A', rating: 1500 },
      black: { name: 'B', title: 'BOT' },
      result: pgnResult('resign', 'black'),
      variant: 'fromPosition',
      initialFen: '8/8/8/8/8/8/4k3/4K2R b K - 0 40',
      timeControl: '180+2',
      termination: 'Normal',
      sans: ['Kd3', 'Rh2'],
      startFullmoves: 40,
      firstMover: 'black',
      notes: [{ clockMs: 61_000, search: { depth: 9, score: { cp: 150 }, nodes: 1, nps: 1, timeMs: 1, pv: [] } }, { clockMs: 3_723_000 }],
    });
    expect(pgn).toBe(
      [
        '[Event "Casual blitz game"]',
        '[Site "https://lichess.org/abc"]',
        '[Date "2026.01.02"]',
        '[White "A"]',
        '[Black "B"]',
        '[Result "0-1"]',
        '[WhiteElo "1500"]',
        '[BlackTitle "BOT"]',
        '[TimeControl "180+2"]',
        '[Termination "Normal"]',
        '[Variant "fromPosition"]',
        '[SetUp "1"]',
        '[FEN "8/8/8/8/8/8/4k3/4K2R b K - 0 40"]',
        '',
        '40... Kd3 { [%eval -1.50,9] [%clk 0:01:01] } 41. Rh2 { [%clk 1:02:03] } 0-1',
        '',
      ].join('\n'),
    );
  });
  it('maps statuses to results', () => {
    expect([pgnResult('mate', 'white'), pgnResult('draw', undefined), pgnResult('outoftime', undefined), pgnResult('aborted', undefined)]).toEqual([
      '1-0',
      '1/2-1/2',
      '1/2-1/2',
      '*',
    ]);
  });
  it('estimates speeds as lichess does', () => {
    expect([speedOf(15, 0), speedOf(60, 1), speedOf(180, 2), speedOf(600, 5), speedOf(1800, 0)]).toEqual(['ultraBullet', 'bullet', 'blitz', 'rapid', 'classical']);
  });
});

describe('game stream stall threshold (issue 48)', () => {
  it("is the server's keep-alive cadence plus 1.5 s unless configured: lichess 7 s (lila GameStateStream), lishogi 6 s", () => {
    const defaults = parseConfig('').unwrap();
    expect(gameSilenceMs(LICHESS_PROFILE, defaults.lichess.gameStreamSilenceMs)).toBe(8500);
    expect(gameSilenceMs(LISHOGI_PROFILE, defaults.lishogi.gameStreamSilenceMs)).toBe(7500);
    expect(gameSilenceMs(LICHESS_PROFILE, 12_000)).toBe(12_000);
  });
});
