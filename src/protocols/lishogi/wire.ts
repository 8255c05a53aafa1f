/**
 * lishogi's stream lines and challenges, normalised into the lichess shapes the bot and game handlers
 * read (src/protocols/lichess/types.ts), so one client, stream and game handler serve both servers.
 * The mapping, from lishogi's code (see types.ts):
 * - sente (moves first) becomes `white` and gote `black`, as lishogi itself does for old clients
 *   (`gameFull` repeats sente as `white` and gote as `black`);
 * - `gameState.btime`/`binc` (sente's) become `wtime`/`winc`, `wtime`/`winc` (gote's) `btime`/`binc`;
 *   `byo` stays; `sdraw`/`gdraw` become `wdraw`/`bdraw`, left out when false as lila does;
 * - `initialSfen` becomes `initialFen`; challenge `initialSfen` likewise;
 * - statuses keep their lishogi names (impasse27, perpetualCheck, repetition, paused...);
 * - lishogi sends no `speed` on challenges, gameStart/gameFinish or `/api/account/playing` (since
 *   WandererXII/lishogi@ee461317, "Merge perftypes, remove speeds"): Kishi derives it from the clock the
 *   way lishogi's own `Game.isVeryFast` and its siblings class games (`speedOfClock`), and from the perf
 *   key and the time left where no clock is given (`speedOfPreview`); a challenge's `perf.name` (a perf
 *   key) becomes `perfKey`.
 * Lines that do not have lishogi's shape are refused (undefined), as the lichess guards do.
 * Pure: no I/O.
 */
import type {
  PlayingGame,
  Speed,
  ChallengeJson,
  ChallengeUser,
  Color,
  GameEventInfo,
  GameFullEvent,
  GamePlayer,
  GameStateEvent,
  GameStatus,
  GameStreamEvent,
  IncomingEvent,
  TimeControl,
} from '../lichess/types.js';
import type { LishogiChallenge, LishogiChallengeUser, LishogiGameEventInfo, LishogiPlayer, LishogiStatus, ShogiColor } from './types.js';
import { LISHOGI_STATUSES } from './types.js';

type Obj = Readonly<Record<string, unknown>>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** sente → white (the first mover), gote → black. */
export const colorOfShogi = (c: ShogiColor): Color => (c === 'sente' ? 'white' : 'black');
/** white → sente, black → gote. */
export const shogiColorOf = (c: Color): ShogiColor => (c === 'white' ? 'sente' : 'gote');

const shogiColor = (v: unknown): ShogiColor | undefined => (v === 'sente' || v === 'gote' ? v : undefined);

/** A lishogi status name, or `unknownFinish` for a name Kishi does not know (still an end). */
const status = (v: unknown): GameStatus | undefined => {
  const s = str(v);
  if (s === undefined) return undefined;
  return (LISHOGI_STATUSES as readonly string[]).includes(s) ? (s as LishogiStatus) : 'unknownFinish';
};

/**
 * The speed of a clock as lishogi classes its games (`Game.isVeryVeryFast`... in `modules/game/src/main/
 * Game.scala` @ WandererXII/lishogi@acb3b122, on scalashogi `Clock.Config.estimateTotalSeconds`
 * `limit + 60 * increment + 25 * periodsTotal * byoyomi`): under 60 s ultraBullet, 300 bullet, 600 blitz,
 * 1500 rapid, classical beyond (no upper bound since the speeds were merged). Seconds in, like a challenge's
 * `timeControl`; `periods` is `periodsTotal` (0 without byoyomi).
 */
export function speedOfClock(limitS: number, incrementS: number, byoyomiS: number, periods: number): Speed {
  const total = limitS + 60 * incrementS + 25 * periods * byoyomiS;
  if (total < 60) return 'ultraBullet';
  if (total < 300) return 'bullet';
  if (total < 600) return 'blitz';
  if (total < 1500) return 'rapid';
  return 'classical';
}

/**
 * A correspondence clock gives the side not to move its whole `daysPerTurn` (lishogi `Game.correspondenceClock`:
 * at least a day); no real-time clock comes near it (the challenge form caps the main time at 3 hours).
 */
const DAY_S = 24 * 60 * 60;

/** A `gameState` line (or the `state` of a `gameFull`). */
export function normaliseGameState(v: unknown): GameStateEvent | undefined {
  if (!isObj(v) || v['type'] !== 'gameState') return undefined;
  const moves = str(v['moves']);
  const btime = num(v['btime']);
  const wtime = num(v['wtime']);
  const st = status(v['status']);
  if (moves === undefined || btime === undefined || wtime === undefined || st === undefined) return undefined;
  const winner = shogiColor(v['winner']);
  const rematch = str(v['rematch']);
  return {
    type: 'gameState',
    moves,
    wtime: btime,
    btime: wtime,
    winc: num(v['binc']) ?? 0,
    binc: num(v['winc']) ?? 0,
    byo: num(v['byo']) ?? 0,
    status: st,
    ...(winner !== undefined ? { winner: colorOfShogi(winner) } : {}),
    ...(v['sdraw'] === true ? { wdraw: true } : {}),
    ...(v['gdraw'] === true ? { bdraw: true } : {}),
    ...(rematch !== undefined ? { rematch } : {}),
  };
}

const player = (v: unknown): GamePlayer => {
  const p: LishogiPlayer = isObj(v) ? (v as LishogiPlayer) : {};
  const ai = num(p.aiLevel);
  return {
    id: str(p.id) ?? '',
    name: str(p.name) ?? (ai !== undefined ? `AI level ${ai}` : 'anonymous'),
    ...(p.title !== undefined ? { title: p.title } : {}),
    ...(num(p.rating) !== undefined ? { rating: p.rating as number } : {}),
    ...(typeof p.provisional === 'boolean' ? { provisional: p.provisional } : {}),
    ...(ai !== undefined ? { aiLevel: ai } : {}),
  };
};

/** A `gameFull` line. */
export function normaliseGameFull(v: unknown): GameFullEvent | undefined {
  if (!isObj(v) || v['type'] !== 'gameFull') return undefined;
  const id = str(v['id']);
  const state = normaliseGameState(v['state']);
  const variant = v['variant'];
  if (id === undefined || state === undefined || !isObj(variant) || typeof variant['key'] !== 'string') return undefined;
  const c = v['clock'];
  const clock = isObj(c) && num(c['initial']) !== undefined && num(c['increment']) !== undefined
    ? { initial: c['initial'] as number, increment: c['increment'] as number, byoyomi: num(c['byoyomi']) ?? 0, periods: num(c['periods']) ?? 0 }
    : undefined;
  const perf = v['perf'];
  return {
    type: 'gameFull',
    id,
    variant: { key: variant['key'] as GameFullEvent['variant']['key'], name: str(variant['name']) ?? String(variant['key']) },
    ...(clock ? { clock } : {}),
    // From the clock: lishogi's `speed` here is kept only for old clients (`speedKeyBc`).
    speed: clock ? speedOfClock(clock.initial / 1000, clock.increment / 1000, clock.byoyomi / 1000, clock.periods) : 'correspondence',
    perf: isObj(perf) && typeof perf['name'] === 'string' ? { name: perf['name'] } : {},
    rated: v['rated'] === true,
    createdAt: num(v['createdAt']) ?? 0,
    white: player(v['sente'] ?? v['white']),
    black: player(v['gote'] ?? v['black']),
    initialFen: str(v['initialSfen']) ?? str(v['initialFen']) ?? 'startpos',
    state,
    ...(typeof v['tournamentId'] === 'string' ? { tournamentId: v['tournamentId'] } : {}),
  };
}

/** A line of the bot game stream (`gameFull`, `gameState`, `chatLine`); undefined for anything else. */
export function normaliseGameStreamLine(v: unknown): GameStreamEvent | undefined {
  if (!isObj(v)) return undefined;
  switch (v['type']) {
    case 'gameFull':
      return normaliseGameFull(v);
    case 'gameState':
      return normaliseGameState(v);
    case 'chatLine': {
      const room = v['room'];
      const username = str(v['username']);
      const text = str(v['text']);
      if ((room !== 'player' && room !== 'spectator') || username === undefined || text === undefined) return undefined;
      return { type: 'chatLine', room, username, text };
    }
    default:
      return undefined;
  }
}

const challengeUser = (u: LishogiChallengeUser): ChallengeUser => ({
  id: u.id,
  name: u.name,
  ...(typeof u.title === 'string' ? { title: u.title } : {}),
  ...(u.rating !== undefined ? { rating: u.rating } : {}),
  ...(u.provisional !== undefined ? { provisional: u.provisional } : {}),
  ...(u.online !== undefined ? { online: u.online } : {}),
  ...(u.lag !== undefined ? { lag: u.lag } : {}),
});

/** A lishogi challenge; undefined without a registered challenger (open challenges are not for bots). */
export function normaliseChallenge(v: unknown): ChallengeJson | undefined {
  if (!isObj(v) || typeof v['id'] !== 'string' || !isObj(v['challenger']) || !isObj(v['variant']) || !isObj(v['timeControl'])) return undefined;
  const c = v as unknown as LishogiChallenge;
  if (c.challenger === null || typeof c.challenger.id !== 'string') return undefined;
  const tc = c.timeControl;
  const timeControl: TimeControl =
    tc.type === 'clock'
      ? { type: 'clock', limit: tc.limit, increment: tc.increment, byoyomi: tc.byoyomi ?? 0, periods: tc.periods ?? 0, ...(tc.show ? { show: tc.show } : {}) }
      : tc.type === 'correspondence'
        ? { type: 'correspondence', daysPerTurn: tc.daysPerTurn }
        : { type: 'unlimited' };
  const color = c.color === 'sente' ? 'white' : c.color === 'gote' ? 'black' : 'random';
  const speed: Speed =
    tc.type === 'clock' ? speedOfClock(tc.limit, tc.increment, tc.byoyomi ?? 0, tc.periods ?? 0) : 'correspondence';
  return {
    id: c.id,
    url: c.url,
    status: c.status,
    challenger: challengeUser(c.challenger),
    destUser: c.destUser ? challengeUser(c.destUser) : null,
    variant: { key: c.variant.key, name: c.variant.name },
    rated: c.rated,
    speed,
    timeControl,
    color,
    perf: c.perf,
    ...(typeof c.perf?.name === 'string' && c.perf.name !== '' ? { perfKey: c.perf.name } : {}),
    ...(c.direction ? { direction: c.direction } : {}),
    ...(c.initialSfen ? { initialFen: c.initialSfen } : {}),
    ...(c.rematchOf ? { rematchOf: c.rematchOf } : {}),
  };
}

/**
 * The speed of a game from `ownerPreview`, which gives no clock: standard shogi's perf key says it
 * (`realTime` or `correspondence`); a variant's perf is the variant's whatever its clock, so a variant game
 * counts as correspondence only when the time left is a day or more. Undefined when it cannot be told
 * (a variant on our move): callers then open the game, whose `gameFull` gives the clock.
 */
function speedOfPreview(g: LishogiGameEventInfo): Speed | undefined {
  if (g.perf === 'correspondence') return 'correspondence';
  if (typeof g.secondsLeft === 'number' && g.secondsLeft >= DAY_S) return 'correspondence';
  return undefined;
}

const gameInfo = (v: unknown): GameEventInfo | undefined => {
  if (!isObj(v) || typeof v['gameId'] !== 'string') return undefined;
  const g = v as unknown as LishogiGameEventInfo;
  const speed = speedOfPreview(g);
  const color = shogiColor(g.color);
  const winner = shogiColor(g.winner);
  const st = g.status !== undefined ? status(g.status.name) : undefined;
  return {
    fullId: g.fullId,
    gameId: g.gameId,
    ...(g.sfen !== undefined ? { fen: g.sfen } : {}),
    ...(color ? { color: colorOfShogi(color) } : {}),
    ...(g.lastMove !== undefined ? { lastMove: g.lastMove } : {}),
    ...(g.source !== undefined ? { source: g.source } : {}),
    ...(st !== undefined && g.status ? { status: { id: g.status.id, name: st } } : {}),
    ...(g.variant ? { variant: { key: g.variant.key, name: g.variant.name } } : {}),
    ...(speed !== undefined ? { speed } : {}),
    ...(g.perf !== undefined ? { perf: g.perf } : {}),
    ...(g.rated !== undefined ? { rated: g.rated } : {}),
    ...(g.hasMoved !== undefined ? { hasMoved: g.hasMoved } : {}),
    ...(g.isMyTurn !== undefined ? { isMyTurn: g.isMyTurn } : {}),
    ...(g.secondsLeft !== undefined ? { secondsLeft: g.secondsLeft } : {}),
    ...(winner ? { winner: colorOfShogi(winner) } : {}),
    ...(g.compat ? { compat: g.compat } : {}),
    ...(g.tournamentId !== undefined ? { tournamentId: g.tournamentId } : {}),
  };
};

/**
 * One entry of `/api/account/playing`'s `nowPlaying` (lishogi `LobbyApi.nowPlaying` = `ownerPreview`), in the
 * lichess shape; `speed` is `undefined` where it cannot be told (see speedOfPreview). Undefined without a
 * game id or a colour.
 */
export function normalisePlayingGame(v: unknown): PlayingGame | undefined {
  const info = gameInfo(v);
  if (info === undefined || info.color === undefined) return undefined;
  const g = v as unknown as LishogiGameEventInfo;
  return {
    gameId: info.gameId,
    fullId: info.fullId,
    color: info.color,
    fen: info.fen ?? '',
    hasMoved: info.hasMoved ?? false,
    isMyTurn: info.isMyTurn ?? false,
    lastMove: info.lastMove ?? '',
    opponent: g.opponent ?? { id: null, username: '' },
    perf: info.perf ?? '',
    rated: info.rated ?? false,
    secondsLeft: info.secondsLeft ?? null,
    source: info.source ?? '',
    speed: info.speed,
    variant: info.variant ?? { key: 'standard', name: 'Standard' },
  };
}

/**
 * A line of the event stream. A `challengeCanceled` for a rematch carries only the challenge id
 * (EventStream: `RematchCancel`); it is kept with placeholders, the bot reading only the id.
 */
export function normaliseIncomingEvent(v: unknown): IncomingEvent | undefined {
  if (!isObj(v)) return undefined;
  switch (v['type']) {
    case 'gameStart':
    case 'gameFinish': {
      const game = gameInfo(v['game']);
      return game ? { type: v['type'], game } : undefined;
    }
    case 'challenge':
    case 'challengeDeclined': {
      const c = normaliseChallenge(v['challenge']);
      if (c === undefined) return undefined;
      return v['type'] === 'challenge' ? { type: 'challenge', challenge: c } : { type: 'challengeDeclined', challenge: { ...c, declineReason: '', declineReasonKey: 'generic' } };
    }
    case 'challengeCanceled': {
      const raw = v['challenge'];
      if (!isObj(raw) || typeof raw['id'] !== 'string') return undefined;
      const c = normaliseChallenge(raw) ?? idOnlyChallenge(raw['id']);
      return { type: 'challengeCanceled', challenge: c };
    }
    default:
      return undefined;
  }
}

const idOnlyChallenge = (id: string): ChallengeJson => ({
  id,
  url: '',
  status: 'canceled',
  challenger: { id: '', name: '' },
  destUser: null,
  variant: { key: 'standard', name: 'Standard' },
  rated: false,
  speed: 'correspondence',
  timeControl: { type: 'unlimited' },
  color: 'random',
  perf: { icon: '', name: '' },
});
