/**
 * lishogi's API as lishogi.org runs it today (WandererXII/lishogi@acb3b122, scalashogi 13.2.0), against
 * the client's pure readings: challenges without `speed` and with the perf key as `perf.name`
 * (modules/challenge JsonView @1ae6af1f, "Merge perftypes, remove speeds" @ee461317), gameStart and
 * `/api/account/playing` entries without `speed` (modules/game JsonView `ownerPreview` @d2fbb2e2), the
 * statuses `paused` 21, `check` 45 and `illegalMove` 46 (scalashogi Status.scala @e49f8a47), one chat room
 * per game (@51be91d1) and the 750 ms bot hold whenever no human plays (`BotPlayer`, `Player.isHuman`).
 * The JSON examples are written as those files write them (field for field).
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load.js';
import { answerChat } from '../../../src/protocols/lichess/chat.js';
import type { ChatContext } from '../../../src/protocols/lichess/chat.js';
import { checkChallenge, perfKey } from '../../../src/protocols/lichess/challenge-filter.js';
import type { ChallengeContext } from '../../../src/protocols/lichess/challenge-filter.js';
import { isGameOver } from '../../../src/protocols/lichess/types.js';
import type { GameFullEvent } from '../../../src/protocols/lichess/types.js';
import { lishogiBotConfig } from '../../../src/protocols/lishogi/bot-config.js';
import { lishogiProfile } from '../../../src/protocols/lishogi/profile.js';
import { normaliseChallenge, normaliseGameFull, normaliseGameState, normaliseIncomingEvent, normalisePlayingGame, speedOfClock } from '../../../src/protocols/lishogi/wire.js';

/** A challenge as `challenge/JsonView.apply` writes it today: no `speed`, `perf.name` the perf key. */
const CHALLENGE = {
  id: 'VU0nyvsW',
  url: 'https://lishogi.org/VU0nyvsW',
  status: 'created',
  challenger: { id: 'someone', name: 'Someone', title: null, rating: 1612, provisional: false, online: true, lag: 4 },
  destUser: { id: 'kishi', name: 'Kishi', title: 'BOT', rating: 1500, online: true },
  variant: { key: 'standard', name: 'Standard' },
  rated: true,
  timeControl: { type: 'clock', limit: 300, increment: 0, byoyomi: 10, periods: 1, show: '5|10' },
  color: 'random',
  perf: { icon: '', name: 'realTime' },
};

/** `ownerPreview` + EventStream's source, compat and id: no `speed`, `perf` a perf key. */
const PREVIEW = {
  fullId: 'rCRw1AuOvonq',
  gameId: 'rCRw1AuO',
  sfen: 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2',
  color: 'sente',
  lastMove: '7g7f',
  source: 'friend',
  status: { id: 20, name: 'started' },
  variant: { key: 'standard', name: 'Standard' },
  perf: 'correspondence',
  rated: false,
  hasMoved: true,
  opponent: { id: 'other', username: 'Other', rating: 1500 },
  isMyTurn: false,
  secondsLeft: 259_200,
  compat: { bot: true, board: true },
  id: 'rCRw1AuO',
};

const filterCtx: ChallengeContext = {
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

describe("today's lishogi challenges (no speed)", () => {
  const cfg = lishogiBotConfig(parseConfig('lishogi:\n  enabled: true\n').unwrap().lishogi).challenge;

  it('are accepted by the default filter: the speed comes from the clock as lishogi classes it', () => {
    const c = normaliseChallenge(CHALLENGE)!;
    // 300 + 25 * 1 * 10 = 550 s: blitz (Game.isFast: 300 <= estimate < 600).
    expect(c.speed).toBe('blitz');
    expect(checkChallenge(c, cfg, filterCtx)).toEqual({ accept: true });
  });

  it('classes clocks as lishogi does, and correspondence and unlimited as correspondence', () => {
    // Estimates: limit + 60 * increment + 25 * periods * byoyomi seconds.
    expect(speedOfClock(0, 0, 2, 1)).toBe('ultraBullet'); // 50 s
    expect(speedOfClock(60, 0, 5, 1)).toBe('bullet'); // 185 s
    expect(speedOfClock(60, 0, 10, 1)).toBe('blitz'); // 310 s
    expect(speedOfClock(180, 2, 0, 0)).toBe('blitz'); // 300 s
    expect(speedOfClock(600, 0, 30, 1)).toBe('rapid'); // 1350 s
    expect(speedOfClock(10_800, 60, 60, 5)).toBe('classical'); // 21 900 s: no upper bound since the merge
    const corr = normaliseChallenge({ ...CHALLENGE, timeControl: { type: 'unlimited' }, perf: { icon: '', name: 'correspondence' } });
    expect(corr?.speed).toBe('correspondence');
  });

  it('read the perf key from perf.name for the rating filter', () => {
    const seen: string[] = [];
    const c = normaliseChallenge({ ...CHALLENGE, variant: { key: 'minishogi', name: 'Minishogi' }, perf: { icon: '', name: 'minishogi' } })!;
    expect(perfKey(c)).toBe('minishogi');
    expect(perfKey(normaliseChallenge(CHALLENGE)!)).toBe('realTime');
    const d = checkChallenge(normaliseChallenge(CHALLENGE)!, { ...cfg, maxRatingDifference: 50 }, { ...filterCtx, myRating: (p) => (seen.push(p), 1500) });
    expect(seen).toEqual(['realTime']);
    expect(d).toMatchObject({ accept: false, why: 'rating 1612 is more than 50 from ours (1500)' });
  });

  it('a correspondence challenge is correspondence', () => {
    const c = normaliseChallenge({ ...CHALLENGE, timeControl: { type: 'correspondence', daysPerTurn: 3 }, perf: { icon: '', name: 'correspondence' } })!;
    expect(c.speed).toBe('correspondence');
  });
});

describe("today's lishogi games (no speed in gameStart and /api/account/playing)", () => {
  it('a standard correspondence game is told by its perf key; a real-time one is not correspondence', () => {
    expect(normalisePlayingGame(PREVIEW)).toMatchObject({ gameId: 'rCRw1AuO', color: 'white', isMyTurn: false, speed: 'correspondence' });
    const rt = normalisePlayingGame({ ...PREVIEW, perf: 'realTime', secondsLeft: 290 });
    expect(rt?.speed).toBeUndefined();
  });

  it('a variant in correspondence is told by a day or more left; on our move it cannot be told (opened)', () => {
    expect(normalisePlayingGame({ ...PREVIEW, perf: 'minishogi', variant: { key: 'minishogi', name: 'Minishogi' } })?.speed).toBe('correspondence');
    expect(normalisePlayingGame({ ...PREVIEW, perf: 'minishogi', secondsLeft: 3_000, isMyTurn: true })?.speed).toBeUndefined();
  });

  it('gameStart carries the derived speed', () => {
    const ev = normaliseIncomingEvent({ type: 'gameStart', game: PREVIEW });
    expect(ev).toMatchObject({ type: 'gameStart', game: { gameId: 'rCRw1AuO', speed: 'correspondence', perf: 'correspondence' } });
  });

  it('gameFull: the speed comes from the clock (its `speed` is kept for old clients only)', () => {
    const full = normaliseGameFull({
      type: 'gameFull',
      id: 'rCRw1AuO',
      variant: { key: 'standard', name: 'Standard' },
      clock: { initial: 600_000, increment: 0, byoyomi: 30_000, periods: 1 },
      perf: { name: 'Shogi' },
      rated: false,
      createdAt: 1,
      sente: { id: 'kishi', name: 'Kishi', title: 'BOT', rating: 1500 },
      gote: { aiLevel: 3 },
      initialSfen: 'startpos',
      state: { type: 'gameState', moves: '', btime: 600_000, wtime: 600_000, binc: 0, winc: 0, byo: 30_000, sdraw: false, gdraw: false, status: 'started' },
    });
    // 600 + 25 * 30 = 1350 s: rapid.
    expect(full?.speed).toBe('rapid');
  });
});

describe('scalashogi 13.2 statuses', () => {
  const state = (status: string): unknown => ({ type: 'gameState', moves: '7g7f', btime: 1, wtime: 1, binc: 0, winc: 0, byo: 0, sdraw: false, gdraw: false, status });

  it('paused (21) is an adjourned game, not an end', () => {
    const s = normaliseGameState(state('paused'));
    expect(s?.status).toBe('paused');
    expect(isGameOver(s!.status)).toBe(false);
  });

  it('check (45) and illegalMove (46) are known ends', () => {
    expect(normaliseGameState(state('check'))?.status).toBe('check');
    expect(normaliseGameState(state('illegalMove'))?.status).toBe('illegalMove');
    expect(isGameOver('check')).toBe(true);
    expect(isGameOver('illegalMove')).toBe(true);
  });
});

describe('one chat room (lishogi since @51be91d1)', () => {
  const ctx: ChatContext = {
    me: 'Kishi',
    engineName: 'kishi-ab',
    lastSearch: () => ({ depth: 9, nodes: 1000, score: { cp: 31 }, pv: ['7g7f'] }) as never,
    extendAbort: () => false,
    queued: () => 0,
    oneRoom: true,
  };

  it('!eval is told to nobody but ourselves: every line reads `player` and everyone reads every reply', () => {
    const spectator = answerChat({ type: 'chatLine', room: 'player', username: 'watcher', text: '!eval' }, ctx);
    expect(spectator?.room).toBe('player');
    expect(spectator?.text).not.toContain('depth');
    const mine = answerChat({ type: 'chatLine', room: 'player', username: 'Kishi', text: '!eval' }, ctx);
    expect(mine?.text).toContain('depth 9');
  });

  it('other commands are answered in the one room', () => {
    expect(answerChat({ type: 'chatLine', room: 'player', username: 'watcher', text: '!name' }, ctx)).toEqual({ room: 'player', text: 'Kishi running kishi-ab' });
  });
});

describe("lishogi's bot move hold (BotPlayer: whenever no human plays)", () => {
  const full = (gote: GameFullEvent['black']): GameFullEvent => ({
    type: 'gameFull',
    id: 'g',
    variant: { key: 'standard', name: 'Standard' },
    clock: { initial: 300_000, increment: 0, byoyomi: 10_000, periods: 1 },
    speed: 'blitz',
    perf: {},
    rated: false,
    createdAt: 0,
    white: { id: 'kishi', name: 'Kishi', title: 'BOT' },
    black: gote,
    initialFen: 'startpos',
    state: { type: 'gameState', moves: '', wtime: 60_000, btime: 60_000, winc: 0, binc: 0, byo: 10_000, status: 'started' },
  });
  const ours = (gote: GameFullEvent['black']): number => {
    const f = full(gote);
    return lishogiProfile(750).clockState({ state: f.state, full: f, ourColor: 'white', elapsedMs: 0 }).firstMs;
  };

  it("counts the 750 ms against lishogi's AI (not human) and a bot, not against a human", () => {
    const human = ours({ id: 'h', name: 'Human', rating: 1500 });
    expect(ours({ id: '', name: 'AI level 3', aiLevel: 3 })).toBe(human - 750);
    expect(ours({ id: 'b', name: 'Bot', title: 'BOT' })).toBe(human - 750);
  });
});
