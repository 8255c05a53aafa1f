import { describe, expect, it } from 'vitest';
import { parseConfig, readSecrets } from '../../../src/config/load.js';
import { checkChallenge } from '../../../src/protocols/lichess/challenge-filter.js';
import type { ChallengeContext } from '../../../src/protocols/lichess/challenge-filter.js';
import { endpointPath } from '../../../src/protocols/lichess/endpoints.js';
import { LISHOGI_ENDPOINTS } from '../../../src/protocols/lishogi/endpoints.js';
import { shogiClockState, shogiTimeLeftMs } from '../../../src/protocols/lishogi/clock.js';
import { ShogiLine } from '../../../src/protocols/lishogi/shogi-line.js';
import { normaliseChallenge, normaliseGameFull, normaliseGameState, normaliseIncomingEvent } from '../../../src/protocols/lishogi/wire.js';
import { planTime } from '../../../src/search/time.js';
import { ShogiSimClock } from '../../../src/protocols/lishogi/fake/shogi-sim-clock.js';
import { lishogiBotConfig } from '../../../src/protocols/lishogi/bot-config.js';

// The examples of lishogi-org/api `doc/specs/lishogi-api.yaml` (gameFull, gameState), with the keys
// lishogi's BotJsonView writes (sdraw/gdraw, sente/gote).
const STATE = { type: 'gameState', moves: '7g7f 3c3d', btime: 8395220, wtime: 7598040, binc: 10000, winc: 10000, byo: 0, sdraw: false, gdraw: true, status: 'started' };

describe('lishogi wire shapes', () => {
  it('maps gameState: btime/binc are sente\'s (white inside Kishi), gdraw is gote\'s offer', () => {
    const s = normaliseGameState(STATE);
    expect(s).toEqual({ type: 'gameState', moves: '7g7f 3c3d', wtime: 8395220, btime: 7598040, winc: 10000, binc: 10000, byo: 0, status: 'started', bdraw: true });
    expect(normaliseGameState({ ...STATE, status: 'impasse27', winner: 'gote' })).toMatchObject({ status: 'impasse27', winner: 'black' });
    expect(normaliseGameState({ ...STATE, status: 'somethingNew' })?.status).toBe('unknownFinish');
    expect(normaliseGameState({ ...STATE, btime: 'x' })).toBeUndefined();
  });

  it('maps gameFull: sente/gote players, initialSfen, byoyomi and periods', () => {
    const full = normaliseGameFull({
      type: 'gameFull',
      id: '5IrD6Gzz',
      rated: true,
      variant: { key: 'standard', name: 'Standard' },
      clock: { initial: 600000, increment: 0, byoyomi: 30000, periods: 2 },
      speed: 'rapid',
      perf: { name: 'Rapid' },
      createdAt: 1523825103562,
      sente: { id: 'lovlas', name: 'lovlas', rating: 2500, title: 'LM' },
      white: { id: 'lovlas', name: 'lovlas', rating: 2500, title: 'LM' },
      gote: { aiLevel: 3 },
      black: { aiLevel: 3 },
      initialSfen: 'startpos',
      initialFen: 'startpos',
      state: STATE,
    });
    expect(full?.white).toEqual({ id: 'lovlas', name: 'lovlas', rating: 2500, title: 'LM' });
    expect(full?.black).toEqual({ id: '', name: 'AI level 3', aiLevel: 3 });
    expect(full?.clock).toEqual({ initial: 600000, increment: 0, byoyomi: 30000, periods: 2 });
    expect(full?.initialFen).toBe('startpos');
    expect(full?.state.wtime).toBe(8395220);
  });

  it('maps challenges (byoyomi in seconds, sente/gote colours) and events', () => {
    const raw = {
      id: 'VU0nyvsW',
      url: 'https://lishogi.org/VU0nyvsW',
      status: 'created',
      challenger: { id: 'random', name: 'Random', title: 'BOT', rating: 1940, online: true },
      destUser: { id: 'kishi', name: 'Kishi', title: 'BOT', rating: 1500 },
      variant: { key: 'standard', name: 'Standard' },
      rated: true,
      speed: 'blitz',
      timeControl: { type: 'clock', limit: 300, increment: 0, byoyomi: 10, periods: 1, show: '5|10' },
      color: 'gote',
      perf: { icon: '+', name: 'blitz' },
    };
    const c = normaliseChallenge(raw);
    expect(c?.timeControl).toEqual({ type: 'clock', limit: 300, increment: 0, byoyomi: 10, periods: 1, show: '5|10' });
    expect(c?.color).toBe('black');
    expect(normaliseChallenge({ ...raw, challenger: null })).toBeUndefined();
    expect(normaliseIncomingEvent({ type: 'challengeCanceled', challenge: { id: 'abc' } })?.type).toBe('challengeCanceled');
    const start = normaliseIncomingEvent({
      type: 'gameStart',
      game: { fullId: 'rCRw1AuOvonq', gameId: 'rCRw1AuO', color: 'gote', sfen: 'x', status: { id: 20, name: 'started' }, variant: { key: 'standard', name: 'Standard' } },
    });
    expect(start).toMatchObject({ type: 'gameStart', game: { gameId: 'rCRw1AuO', color: 'black', fen: 'x' } });
    expect(normaliseIncomingEvent({ type: 'gameStart', game: {} })).toBeUndefined();
  });

  it('fills lishogi paths; USI drops and promotions survive the encoding', () => {
    expect(endpointPath('move', ['g1', 'P*5e'], LISHOGI_ENDPOINTS)).toBe('/api/bot/game/g1/move/P*5e');
    expect(endpointPath('move', ['g1', '8h2b+'], LISHOGI_ENDPOINTS)).toBe('/api/bot/game/g1/move/8h2b%2B');
    expect(() => endpointPath('tokenTest', [], LISHOGI_ENDPOINTS)).toThrow('not offered');
  });
});

describe('lishogi clock → core ClockState', () => {
  const state = (sente: number, gote: number, byo: number, inc = 0): { wtime: number; btime: number; winc: number; binc: number; byo: number } => ({
    wtime: sente,
    btime: gote,
    winc: inc,
    binc: inc,
    byo,
  });

  it('main time left: main time, increment and one period', () => {
    const c = shogiClockState({ state: state(60_000, 50_000, 10_000, 1000), initialMs: 300_000, ourColor: 'white', elapsedMs: 200, serverDelayMs: 750 });
    expect(c).toEqual({ firstMs: 59_050, secondMs: 50_000, firstIncMs: 1000, secondIncMs: 1000, byoyomiMs: 10_000 });
  });

  it('in byoyomi (reported time = the period): no main time, the period less what has run', () => {
    const c = shogiClockState({ state: state(10_000, 10_000, 10_000), initialMs: 300_000, ourColor: 'black', elapsedMs: 300, serverDelayMs: 750 });
    expect(c.secondMs).toBe(0);
    expect(c.byoyomiMs).toBe(8950);
    expect(c.secondIncMs).toBe(0);
  });

  it('main time below the byoyomi counts as byoyomi only (never more than is surely there)', () => {
    const c = shogiClockState({ state: state(4000, 9000, 10_000), initialMs: 300_000, ourColor: 'white', elapsedMs: 0, serverDelayMs: 0 });
    expect(c.firstMs).toBe(0);
    expect(c.byoyomiMs).toBe(4000);
  });

  it('time run past the main time comes off the period', () => {
    const c = shogiClockState({ state: state(11_000, 9000, 10_000), initialMs: 300_000, ourColor: 'white', elapsedMs: 12_250, serverDelayMs: 750 });
    expect(c.firstMs).toBe(0);
    expect(c.byoyomiMs).toBe(8000);
  });

  it('no main time (pure byoyomi) is byoyomi from the first move, even with 5 s reported', () => {
    const c = shogiClockState({ state: state(5000, 5000, 3000), initialMs: 0, ourColor: 'white', elapsedMs: 0, serverDelayMs: 0 });
    expect(c.firstMs).toBe(0);
    expect(c.byoyomiMs).toBe(3000);
  });

  it('the shared time plan never goes past the main time plus the current period', () => {
    let seed = 1;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let i = 0; i < 2000; i++) {
      const byo = [0, 1000, 3000, 10_000, 30_000][rnd(5)] ?? 0;
      const initial = [0, 10_000, 60_000, 600_000][rnd(4)] ?? 0;
      const t = rnd(initial + byo + 1);
      const elapsed = rnd(300);
      const delay = rnd(2) * 750;
      const ours = rnd(2) === 0 ? 'white' : 'black';
      const clock = shogiClockState({ state: state(t, t, byo, rnd(2) * 2000), initialMs: initial, ourColor: ours, elapsedMs: elapsed, serverDelayMs: delay });
      const plan = planTime({ game: 'shogi', clock, side: ours === 'white' ? 'first' : 'second', plies: rnd(200), moveOverheadMs: 100 });
      // What lishogi surely gives: the reported time (main or the period) plus one period when in main time.
      const sure = byo > 0 && (initial === 0 || t <= byo) ? Math.min(t, byo) : t + byo;
      const left = sure - elapsed - delay;
      expect(shogiTimeLeftMs(clock, ours)).toBeLessThanOrEqual(Math.max(0, left));
      if (left > 200) expect(plan.hardMs + 100).toBeLessThanOrEqual(left);
    }
  });
});

describe('scalashogi clock (the local server)', () => {
  it('main time, then byoyomi periods that start afresh, then a flag', () => {
    let now = 0;
    const clock = new ShogiSimClock({ initialMs: 10_000, incrementMs: 0, byoyomiMs: 5000, periods: 2 }, () => now);
    clock.start(0);
    now += 8000;
    expect(clock.step()).toBe(true); // sente: 2 s main time left
    now += 1000;
    expect(clock.step()).toBe(true); // gote: 9 s left
    expect(clock.reported(0)).toBe(2000);
    now += 4000; // sente runs 2 s into the first period
    expect(clock.reported(0)).toBe(3000);
    expect(clock.step()).toBe(true);
    expect(clock.reported(0)).toBe(5000);
    expect(clock.spentPeriods(0)).toBe(1);
    now += 100;
    expect(clock.step()).toBe(true);
    now += 6000; // overruns the period: the second (last) one is spent
    expect(clock.outOfTime(0)).toBe(false);
    expect(clock.step()).toBe(true);
    expect(clock.spentPeriods(0)).toBe(2);
    now += 100;
    clock.step();
    now += 5000;
    expect(clock.outOfTime(0)).toBe(true);
    expect(clock.step()).toBe(false);
  });

  it('Fischer: the increment after each move in main time', () => {
    let now = 0;
    const clock = new ShogiSimClock({ initialMs: 3000, incrementMs: 2000, byoyomiMs: 0, periods: 0 }, () => now);
    clock.start(1);
    now += 2500;
    expect(clock.step()).toBe(true);
    expect(clock.reported(1)).toBe(2500);
    now += 100;
    clock.step();
    now += 2600;
    expect(clock.step()).toBe(false);
  });
});

describe('ShogiLine', () => {
  it('follows the USI move list, rebuilds on a takeback, refuses illegal moves and other variants', () => {
    const line = ShogiLine.create('standard', 'startpos').unwrap();
    expect(line.sync(['7g7f', '3c3d', '8h2b+']).isOk).toBe(true);
    expect(line.turn()).toBe('black');
    expect(line.firstMover()).toBe('white');
    expect(line.fen()).toMatch(/ w B /);
    expect(line.sync(['7g7f', '3c3d']).isOk).toBe(true);
    expect(line.plies()).toBe(2);
    expect(line.sync(['7g7f', '7g7f']).isErr).toBe(true);
    expect(line.isLegal('2g2f')).toBe(false);
    expect(ShogiLine.create('minishogi', 'startpos').isErr).toBe(true);
    expect(ShogiLine.create('standard', 'not an sfen').isErr).toBe(true);
  });

  it('knows mate (a drop mate) and the legal moves', () => {
    const line = ShogiLine.create('standard', '4k4/9/4P4/9/9/9/9/9/4K4 b G 1').unwrap();
    expect(line.legalMoves()).toContain('G*5b');
    expect(line.play('G*5b').isOk).toBe(true);
    expect(line.isEnd()).toBe(true);
    expect(line.outcome()).toEqual({ winner: 'first', reason: 'checkmate' });
  });
});

describe('lishogi challenges and config', () => {
  const cfg = lishogiBotConfig(parseConfig('lishogi:\n  enabled: true\n').unwrap().lishogi).challenge;
  const ctx: ChallengeContext = {
    myId: 'kishi',
    myRating: () => undefined,
    busySlots: 0,
    concurrency: 1,
    gamesWith: () => 0,
    recentGamesWith: () => 0,
    botGamesToday: 0,
    supportsVariant: (v) => v === 'standard',
    shuttingDown: false,
  };
  const challenge = (tc: { limit: number; increment: number; byoyomi: number; periods: number }, variant = 'standard'): Parameters<typeof checkChallenge>[0] =>
    normaliseChallenge({
      id: 'c1',
      url: 'u',
      status: 'created',
      challenger: { id: 'someone', name: 'Someone', title: null, rating: 1500 },
      destUser: { id: 'kishi', name: 'Kishi', title: 'BOT', rating: 1500 },
      variant: { key: variant, name: variant },
      rated: false,
      // lishogi's challenge today (modules/challenge JsonView @1ae6af1f): no speed; perf.name is the perf key.
      timeControl: { type: 'clock', ...tc, show: '' },
      color: 'random',
      perf: { icon: '+', name: variant === 'standard' ? 'realTime' : variant },
    })!;

  it('accepts standard shogi with byoyomi or Fischer; declines short byoyomi, too many periods and other variants', () => {
    expect(checkChallenge(challenge({ limit: 300, increment: 0, byoyomi: 10, periods: 1 }), cfg, ctx).accept).toBe(true);
    expect(checkChallenge(challenge({ limit: 180, increment: 2, byoyomi: 0, periods: 0 }), cfg, ctx).accept).toBe(true);
    expect(checkChallenge(challenge({ limit: 0, increment: 0, byoyomi: 10, periods: 1 }), cfg, ctx).accept).toBe(true);
    expect(checkChallenge(challenge({ limit: 60, increment: 0, byoyomi: 1, periods: 1 }), cfg, ctx)).toMatchObject({ accept: false, reason: 'tooFast' });
    // No time at all is an ultraBullet game (estimate 0 s), not among the accepted speeds.
    expect(checkChallenge(challenge({ limit: 0, increment: 0, byoyomi: 0, periods: 0 }), cfg, ctx)).toMatchObject({ accept: false, reason: 'timeControl' });
    const strict = { ...cfg, maxPeriods: 1 };
    expect(checkChallenge(challenge({ limit: 60, increment: 0, byoyomi: 10, periods: 3 }), strict, ctx)).toMatchObject({ accept: false, reason: 'tooSlow' });
    expect(checkChallenge(challenge({ limit: 300, increment: 0, byoyomi: 10, periods: 1 }, 'minishogi'), cfg, ctx)).toMatchObject({ accept: false, reason: 'standard' });
  });

  it('reads the token from LISHOGI_TOKEN only, and fills the chess-only keys as off', () => {
    const config = parseConfig('lishogi:\n  enabled: true\n').unwrap();
    expect(readSecrets(config, {}).isErr).toBe(true);
    expect(readSecrets(config, { LISHOGI_TOKEN: 'lip_x' }).unwrap().lishogiToken).toBe('lip_x');
    const bad = parseConfig('lishogi:\n  token: lip_secret\n');
    expect(bad.isErr && bad.error.issues[0]?.message).toContain('LISHOGI_TOKEN');
    const bot = lishogiBotConfig(config.lishogi);
    expect(bot.url).toBe('https://lishogi.org');
    expect(bot.polyglot.enabled).toBe(false);
    expect(bot.matchmaking.enabled).toBe(false);
    expect(bot.records.pgn).toBe(false);
    expect(bot.claimVictory).toBe(false);
    expect(bot.challenge.minByoyomiS).toBe(2);
  });
});
