/**
 * Follows lishogi as lishogi.org runs it today: WandererXII/lishogi@acb3b12286dd41bc88edfa81172e6a5e7f68c52b
 * (2026-06-28) on scalashogi 13.2.0 (WandererXII/scalashogi@e49f8a477ea456d127476d7cbc5de19a83b1b345); every
 * shape is re-derived there (tests/fixtures/lishogi/README.md lists file and commit per field). What changed
 * since the ddugovic/lishogi fork the first version followed: challenges carry no `speed` and their
 * `perf.name` is the perf key (`realTime`, `correspondence` or the variant: "Merge perftypes, remove speeds",
 * @ee461317); gameStart/gameFinish and `/api/account/playing` carry the perf key and no speed; gameFull
 * keeps `speed` "for backwards support" and `perf.name` is the perf's translated name (`Shogi` for
 * realTime); the players' and spectators' chats are one room and every line comes back `player` (@51be91d1);
 * games can be adjourned (`paused`, status 21: `pauseGame`/`resumeGame` here).
 *
 * The lishogi profile of the local Bot API server (bot-api-server.ts holds the core it shares with the
 * lichess profile): a lishogi-compatible Bot API server for tests, with several
 * accounts (each a token), so that two Kishi bots, or Kishi and a USI engine behind a second client, play
 * full shogi games against each other. It serves what Kishi calls on lishogi (lishogi `conf/routes`,
 * `PlayApi.scala`): account, ongoing games, upgrade, event stream, game stream, move, chat, abort,
 * resign, draw, challenge create/accept/decline, users status, online bots; in the shapes lishogi's code
 * writes (tests/fixtures/lishogi/schemas/, every message goes through `onSend` with its schema name):
 * sente/gote, USI moves, SFEN, `btime` for sente, byoyomi and periods, no decline reasons.
 * lishogi's habits kept: a keep-alive every 6 s, one event stream per account (a new one closes the old),
 * a new game stream for the same player closes the old one, games and challenges replayed when the event
 * stream opens, a bot's move held 750 ms before it is played when no player is human (`BotPlayer`; the
 * accounts here are all bots or humans, lishogi's AI is not modelled),
 * the final `gameState` then close at the end. Rules from the shogi adapter (shogiops): illegal moves
 * refused, mate, stalemate (a loss), perpetual check (the checker loses), fourfold repetition
 * (`repetition`, a draw); the clock runs in real time as scalashogi counts it (shogi-sim-clock.ts).
 *
 * Faults, as the lichess profile: HTTP faults on any request (429, 502/504, dropped sockets, answered
 * 504 after serving, delays; http-faults.ts), lines split or merged across chunks, keep-alive gaps, a
 * stalled or dropped game stream at a given ply, a stalled or dropped event stream.
 */
import type { IncomingMessage } from 'node:http';
import { ShogiGame } from '../../../games/shogi/shogi-game.js';
import type { Speed } from '../../lichess/types.js';
import type { LishogiStatus, ShogiColor } from '../types.js';
import { LISHOGI_STATUS_IDS } from '../types.js';
import { BotApiServer } from '../../lichess/fake/bot-api-server.js';
import type { BotApiSchemaName, BotApiServerOptions, GameStreams, RequestContext, RequestRecord, Reply, SentMessageOf } from '../../lichess/fake/bot-api-server.js';
import type { Side } from './shogi-sim-clock.js';
import { ShogiSimClock } from './shogi-sim-clock.js';

/** The schema (tests/fixtures/lishogi/schemas/<name>.json) a sent message must satisfy. */
export type LishogiSchemaName = BotApiSchemaName;

export type LishogiSentMessage = SentMessageOf<LishogiSchemaName>;

/** A request as the fake lishogi logs it: with the account whose token it carried, if any. */
export type LishogiRequestRecord = RequestRecord & { readonly account?: string };

export interface LishogiAccountSpec {
  readonly username: string;
  readonly token: string;
  /** `null`: not a BOT account yet. */
  readonly title?: 'BOT' | null;
  readonly rating?: number;
}

export interface LishogiTestServerOptions extends BotApiServerOptions<LishogiSchemaName> {
  readonly accounts: readonly LishogiAccountSpec[];
  /** How long a bot's move is held in a game without a human, milliseconds (lishogi: 750). */
  readonly botMoveDelayMs?: number;
  /** A game whose first two moves do not come within this time is aborted, milliseconds. */
  readonly firstMoveMs?: number;
  /** Real-time challenges expire (challengeCanceled) after this long, milliseconds (lishogi: 20000). */
  readonly challengeExpiryMs?: number;
  /**
   * Test shortcut, not a lishogi rule: a game reaching this many plies ends as a `draw` (0: never), so that
   * games between equal engines finish in a test's time.
   */
  readonly drawAfterPlies?: number;
}

export interface NewShogiChallenge {
  readonly from: string;
  readonly to: string;
  /** Seconds and a period count; `days` for correspondence. */
  readonly clock?: { readonly limitS: number; readonly incrementS: number; readonly byoyomiS: number; readonly periods: number } | { readonly days: number } | 'unlimited';
  readonly variant?: string;
  readonly rated?: boolean;
  /** The challenger's colour. */
  readonly color?: 'sente' | 'gote' | 'random';
  readonly sfen?: string;
}

interface Account {
  readonly id: string;
  readonly username: string;
  readonly token: string;
  title: 'BOT' | null;
  readonly rating: number;
  games: number;
}

interface ChallengeRec {
  readonly id: string;
  readonly challenger: Account;
  readonly dest: Account;
  readonly variant: string;
  readonly rated: boolean;
  readonly clock: { readonly limitS: number; readonly incrementS: number; readonly byoyomiS: number; readonly periods: number } | undefined;
  readonly days: number | undefined;
  readonly colorChoice: 'sente' | 'gote' | 'random';
  /** The challenger's colour. */
  readonly finalColor: ShogiColor;
  readonly sfen: string | undefined;
  status: 'created' | 'offline' | 'canceled' | 'declined' | 'accepted';
  expiry: NodeJS.Timeout | undefined;
}

/** One move as the server saw it: who, what, and the mover's clock before and after (ms, -1 without a clock). */
export interface ShogiMoveLog {
  readonly ply: number;
  readonly usi: string;
  readonly mover: ShogiColor;
  readonly clockBeforeMs: number;
  readonly clockAfterMs: number;
  readonly spentPeriods: number;
}

export interface ShogiGameRec {
  readonly id: string;
  readonly variant: string;
  readonly rated: boolean;
  readonly speed: Speed;
  readonly createdAt: number;
  readonly initialSfen: string;
  /** [sente, gote]. */
  readonly players: readonly [Account, Account];
  readonly board: ShogiGame;
  readonly moves: string[];
  readonly clock: ShogiSimClock | undefined;
  readonly days: number | undefined;
  status: LishogiStatus;
  winner: ShogiColor | undefined;
  readonly draw: [boolean, boolean];
  /** Open game streams per account id: a player's new stream closes the one it had. */
  readonly streams: GameStreams;
  /** A held bot move is on its way. */
  moveInFlight: boolean;
  firstMoveTimer: NodeJS.Timeout | undefined;
  readonly log: ShogiMoveLog[];
  /** Moves refused: illegal, malformed, or out of turn. */
  readonly refused: string[];
  readonly waiters: ((g: ShogiGameRec) => void)[];
}

const lower = (s: string): string => s.toLowerCase();
const other = (c: ShogiColor): ShogiColor => (c === 'sente' ? 'gote' : 'sente');
const sideOf = (c: ShogiColor): Side => (c === 'sente' ? 0 : 1);

/**
 * The speed lishogi still writes into gameFull "for backwards support" (`BotJsonView.speedKeyBc` @
 * WandererXII/lishogi@51be91d1, on `Game.isVeryVeryFast`...): the clock's `estimateTotalSeconds`
 * (`limit + 60 * increment + 25 * periodsTotal * byoyomi`, scalashogi `Clock.scala`) under 60 s is
 * ultraBullet, under 300 bullet, under 600 blitz, under 1500 rapid, classical beyond; no clock: correspondence.
 */
export function shogiSpeedOf(limitS: number, incrementS: number, byoyomiS: number, periods: number): Speed {
  const total = limitS + 60 * incrementS + 25 * (byoyomiS > 0 ? Math.max(1, periods) : 0) * byoyomiS;
  if (total < 60) return 'ultraBullet';
  if (total < 300) return 'bullet';
  if (total < 600) return 'blitz';
  if (total < 1500) return 'rapid';
  return 'classical';
}

/**
 * lishogi's perf key (`PerfType.from(variant, hasClock)`, modules/rating/src/main/PerfType.scala @acb3b122):
 * the variant's own perf, else `realTime` with a clock and `correspondence` without.
 */
export function lishogiPerfKey(variant: string, hasClock: boolean): string {
  if (variant !== 'standard') return variant;
  return hasClock ? 'realTime' : 'correspondence';
}

/** `PerfType.trans` in English (lishogi's i18n): what gameFull's `perf.name` says. */
function perfTrans(key: string): string {
  if (key === 'realTime') return 'Shogi';
  return key.charAt(0).toUpperCase() + key.slice(1);
}

/** scalashogi `Clock.Config.show`: `10|30`, `5+2`, `3|10(3x)`. */
function clockShow(limitS: number, incrementS: number, byoyomiS: number, periods: number): string {
  const limit = limitS % 60 === 0 ? String(limitS / 60) : String(Math.round((limitS / 60) * 100) / 100);
  const base = incrementS > 0 ? `${limit}+${incrementS}` : limit;
  if (byoyomiS > 0) return `${base}|${byoyomiS}${periods > 1 ? `(${periods}x)` : ''}`;
  return incrementS > 0 ? base : `${base}|0`;
}

/** The lishogi profile of the local Bot API server: several accounts, each a token, playing each other. */
export class LishogiTestServer extends BotApiServer<LishogiSchemaName, LishogiRequestRecord> {
  private readonly accounts = new Map<string, Account>();
  private readonly byToken = new Map<string, Account>();
  private readonly games = new Map<string, ShogiGameRec>();
  private readonly challenges = new Map<string, ChallengeRec>();
  /** Counters and the request log, for tests. */
  readonly stats = {
    requests: [] as LishogiRequestRecord[],
    faultsServed: 0,
    stalls: 0,
    drops: 0,
    eventStreamsOpened: 0,
    gameStreamsOpened: 0,
  };
  /** Every chat post as sent (the room the client asked for), for tests. */
  readonly chatLog: { readonly gameId: string; readonly room: string; readonly username: string; readonly text: string }[] = [];

  constructor(private readonly opts: LishogiTestServerOptions) {
    super(opts, { idPrefix: 's', keepAliveMs: 6000, tickMs: 20, notFoundText: 'Not found.', answerErrors: true });
    for (const a of opts.accounts) {
      const acc: Account = { id: lower(a.username), username: a.username, token: a.token, title: a.title === undefined ? 'BOT' : a.title, rating: a.rating ?? 1500, games: 0 };
      this.accounts.set(acc.id, acc);
      this.byToken.set(a.token, acc);
    }
  }

  // ---- the core's hooks --------------------------------------------------------------------------

  private accountOf(req: IncomingMessage): Account | undefined {
    const auth = String(req.headers.authorization ?? '');
    return auth.startsWith('Bearer ') ? this.byToken.get(auth.slice(7)) : undefined;
  }

  protected requestRecord(req: IncomingMessage, base: RequestRecord): LishogiRequestRecord {
    const account = this.accountOf(req);
    return { ...base, ...(account ? { account: account.username } : {}) };
  }

  protected *gameStreams(): Iterable<GameStreams> {
    for (const g of this.games.values()) yield g.streams;
  }

  private online(a: Account): boolean {
    return this.eventStreamOf(a.id)?.isOpen() === true;
  }

  // ---- fault injection (the rest is the core's) ---------------------------------------------------

  /** When the game reaches `ply` plies, the game streams (of `username`, or all) go silent with the socket open; `*`: any game. */
  stallGameStreamAt(gameId: string, ply: number, username?: string): void {
    this.addPlyHook(gameId, ply, 'stall', true, username ? lower(username) : undefined);
  }

  /** When the game reaches `ply` plies, the game streams' sockets are destroyed. */
  dropGameStreamAt(gameId: string, ply: number, username?: string): void {
    this.addPlyHook(gameId, ply, 'drop', true, username ? lower(username) : undefined);
  }

  /** Destroys the game's open game streams now (a connection lost: the bots reconnect and read a gameFull). */
  dropGameStreamsNow(gameId: string): void {
    const g = this.games.get(gameId);
    for (const conn of g ? [...g.streams.values()] : []) this.dropStream(conn);
  }

  stallEventStream(username: string): void {
    this.stallStream(this.eventStreamOf(lower(username)));
  }

  dropEventStream(username: string): void {
    this.dropStream(this.eventStreamOf(lower(username)));
  }

  // ---- the world ----------------------------------------------------------------------------------

  /** `from` challenges `to` (as `POST /api/challenge/{to}` would); returns the challenge id. */
  challenge(c: NewShogiChallenge): string {
    const from = this.accounts.get(lower(c.from));
    const to = this.accounts.get(lower(c.to));
    if (from === undefined || to === undefined) throw new Error(`challenge: unknown account ${c.from} or ${c.to}`);
    return this.createChallenge(from, to, c);
  }

  private createChallenge(from: Account, to: Account, c: NewShogiChallenge): string {
    const id = this.newId();
    const tc = c.clock ?? { limitS: 60, incrementS: 0, byoyomiS: 10, periods: 1 };
    const clock = tc !== 'unlimited' && 'limitS' in tc ? { ...tc, periods: tc.byoyomiS > 0 ? Math.max(1, tc.periods) : 0 } : undefined;
    const days = tc !== 'unlimited' && 'days' in tc ? tc.days : undefined;
    const colorChoice = c.color ?? 'random';
    const finalColor: ShogiColor = colorChoice === 'random' ? (this.random() < 0.5 ? 'sente' : 'gote') : colorChoice;
    const rec: ChallengeRec = {
      id,
      challenger: from,
      dest: to,
      variant: c.variant ?? 'standard',
      rated: c.rated ?? false,
      clock,
      days,
      colorChoice,
      finalColor,
      sfen: c.sfen,
      status: 'created',
      expiry: undefined,
    };
    this.challenges.set(id, rec);
    if (clock !== undefined) {
      rec.expiry = this.later(this.opts.challengeExpiryMs ?? 20_000, () => {
        if (rec.status !== 'created') return;
        rec.status = 'canceled';
        this.challengeEvent(rec, 'challengeCanceled', 'ChallengeCanceledEvent');
      });
    }
    this.challengeEvent(rec, 'challenge', 'ChallengeEvent');
    return id;
  }

  private speedOf(c: { clock: ChallengeRec['clock'] }): Speed {
    return c.clock ? shogiSpeedOf(c.clock.limitS, c.clock.incrementS, c.clock.byoyomiS, c.clock.periods) : 'correspondence';
  }

  private challengeUserJson(a: Account): Record<string, unknown> {
    return { id: a.id, name: a.username, title: a.title, rating: a.rating, provisional: false, online: this.online(a) };
  }

  /** lishogi `challenge/JsonView.apply` (@1ae6af1f): no `speed`; `perf.name` is the perf key. */
  private challengeJson(c: ChallengeRec, direction?: 'in' | 'out'): Record<string, unknown> {
    const timeControl = c.clock
      ? {
          type: 'clock',
          limit: c.clock.limitS,
          increment: c.clock.incrementS,
          byoyomi: c.clock.byoyomiS,
          periods: c.clock.periods,
          show: clockShow(c.clock.limitS, c.clock.incrementS, c.clock.byoyomiS, c.clock.periods),
        }
      : c.days !== undefined
        ? { type: 'correspondence', daysPerTurn: c.days }
        : { type: 'unlimited' };
    return {
      id: c.id,
      url: `${this.url}/${c.id}`,
      status: c.status,
      challenger: this.challengeUserJson(c.challenger),
      destUser: this.challengeUserJson(c.dest),
      variant: { key: c.variant, name: c.variant === 'standard' ? 'Standard' : c.variant },
      rated: c.rated,
      timeControl,
      color: c.colorChoice,
      perf: { icon: '+', name: lishogiPerfKey(c.variant, c.clock !== undefined) },
      ...(direction ? { direction } : {}),
      ...(c.sfen ? { initialSfen: c.sfen } : {}),
    };
  }

  /** EventStream: a challenge event goes to both its challenger and its destination. */
  private challengeEvent(c: ChallengeRec, type: 'challenge' | 'challengeDeclined' | 'challengeCanceled', schema: LishogiSchemaName): void {
    for (const a of [c.challenger, c.dest]) this.accountEvent(a, { type, challenge: this.challengeJson(c) }, schema);
  }

  /** An event on an account's event stream. */
  private accountEvent(a: Account, message: unknown, schema: LishogiSchemaName): void {
    this.sendEvent(a.id, `/api/stream/event (${a.username})`, schema, message);
  }

  challengeStatus(id: string): ChallengeRec['status'] | undefined {
    return this.challenges.get(id)?.status;
  }

  private acceptChallenge(c: ChallengeRec): ShogiGameRec {
    c.status = 'accepted';
    clearTimeout(c.expiry);
    const sente = c.finalColor === 'sente' ? c.challenger : c.dest;
    const gote = sente === c.challenger ? c.dest : c.challenger;
    const initial = c.sfen ?? 'startpos';
    const board = (initial === 'startpos' ? ShogiGame.startpos() : ShogiGame.fromSfen(initial).unwrap());
    const clock = c.clock
      ? new ShogiSimClock({ initialMs: c.clock.limitS * 1000, incrementMs: c.clock.incrementS * 1000, byoyomiMs: c.clock.byoyomiS * 1000, periods: c.clock.periods })
      : undefined;
    const g: ShogiGameRec = {
      id: c.id,
      variant: c.variant,
      rated: c.rated,
      speed: this.speedOf(c),
      createdAt: Date.now(),
      initialSfen: initial,
      players: [sente, gote],
      board,
      moves: [],
      clock,
      days: c.days,
      status: 'started',
      winner: undefined,
      draw: [false, false],
      streams: new Map(),
      moveInFlight: false,
      firstMoveTimer: undefined,
      log: [],
      refused: [],
      waiters: [],
    };
    this.games.set(g.id, g);
    sente.games++;
    gote.games++;
    this.armFirstMove(g);
    for (const a of g.players) this.accountEvent(a, { type: 'gameStart', game: this.gameInfo(g, a) }, 'GameStartEvent');
    return g;
  }

  private armFirstMove(g: ShogiGameRec): void {
    clearTimeout(g.firstMoveTimer);
    if (g.clock === undefined || g.moves.length >= 2) return;
    g.firstMoveTimer = this.later(this.opts.firstMoveMs ?? 30_000, () => {
      if (g.status === 'started' && g.moves.length < 2) this.finish(g, 'aborted', undefined);
    });
  }

  game(id: string): ShogiGameRec | undefined {
    return this.games.get(id);
  }

  allGames(): ShogiGameRec[] {
    return [...this.games.values()];
  }

  /** lila `Game.finishedOrAborted`: a `paused` game (21) is not over. */
  isOver(g: ShogiGameRec): boolean {
    return g.status !== 'started' && g.status !== 'created' && g.status !== 'paused';
  }

  /** lila `Game.playable`: not over and not paused. */
  private playable(g: ShogiGameRec): boolean {
    return !this.isOver(g) && g.status !== 'paused';
  }

  /**
   * Adjourns a game as the server does (`Finisher.forcePause`, or both players' pause offers): status
   * `paused`, clocks stopped, moves refused. Nothing goes down the bot game stream (lishogi publishes
   * `Event.Reload` for the web round only; the bot stream follows moves, draw offers, takebacks and ends),
   * so a bot learns it from the next gameFull.
   */
  pauseGame(id: string): void {
    const g = this.games.get(id);
    if (g === undefined || this.isOver(g)) throw new Error(`pauseGame: no ongoing game ${id}`);
    g.status = 'paused';
    g.clock?.stop();
  }

  /**
   * Resumes an adjourned game (`Game.resume`: status `started`, clocks started again). lishogi pushes no
   * gameState for it either unless a sealed move is played; the fake pushes nothing.
   */
  resumeGame(id: string): void {
    const g = this.games.get(id);
    if (g === undefined || g.status !== 'paused') throw new Error(`resumeGame: game ${id} is not paused`);
    g.status = 'started';
    if (g.clock && g.moves.length >= 2) g.clock.start(sideOf(this.turnColor(g)));
  }

  /** Waits for the game `id` (a challenge id until it is accepted) to end. */
  async waitForEnd(id: string, timeoutMs = 60_000): Promise<ShogiGameRec> {
    const started = Date.now();
    await this.waitFor(() => this.games.has(id) || (this.challenges.get(id)?.status ?? 'created') !== 'created', timeoutMs);
    const g = this.games.get(id);
    if (g === undefined) throw new Error(`no game ${id}: the challenge is ${this.challenges.get(id)?.status ?? 'unknown'}`);
    if (this.isOver(g)) return g;
    const left = timeoutMs - (Date.now() - started);
    return this.waitOn(g.waiters, left, () => `game ${id} did not end within ${left} ms (${g.moves.length} plies, ${g.status})`);
  }

  protected tick(): void {
    for (const g of this.games.values()) {
      if (this.isOver(g) || g.clock === undefined || !g.clock.isRunning()) continue;
      const side = g.clock.runningSide();
      if (side !== undefined && g.clock.outOfTime(side)) {
        g.clock.stop();
        this.finish(g, 'outoftime', side === 0 ? 'gote' : 'sente');
      }
    }
  }

  private turnColor(g: ShogiGameRec): ShogiColor {
    return g.board.turn() === 'first' ? 'sente' : 'gote';
  }

  private colorOf(g: ShogiGameRec, a: Account): ShogiColor | undefined {
    return g.players[0] === a ? 'sente' : g.players[1] === a ? 'gote' : undefined;
  }

  private millisOf(g: ShogiGameRec, c: ShogiColor): number {
    // BotJsonView.millisOf: Int.MaxValue without a clock (correspondence uses days; not modelled here).
    return g.clock ? Math.round(g.clock.reported(sideOf(c))) : 2147483647;
  }

  /** lishogi `BotJsonView.gameState`. */
  private stateJson(g: ShogiGameRec): Record<string, unknown> {
    const cfg = g.clock?.config;
    return {
      type: 'gameState',
      moves: g.moves.join(' '),
      btime: this.millisOf(g, 'sente'),
      wtime: this.millisOf(g, 'gote'),
      binc: cfg?.incrementMs ?? 0,
      winc: cfg?.incrementMs ?? 0,
      byo: cfg?.byoyomiMs ?? 0,
      sdraw: g.draw[0],
      gdraw: g.draw[1],
      status: g.status,
      ...(g.winner ? { winner: g.winner } : {}),
    };
  }

  /** lishogi `BotJsonView.playerJson`. */
  private playerJson(a: Account): Record<string, unknown> {
    return { id: a.id, name: a.username, title: a.title, rating: a.rating, provisional: false };
  }

  /** lishogi `BotJsonView.gameFull`. */
  private fullJson(g: ShogiGameRec): Record<string, unknown> {
    const cfg = g.clock?.config;
    const sente = this.playerJson(g.players[0]);
    const gote = this.playerJson(g.players[1]);
    return {
      id: g.id,
      variant: { key: g.variant, name: g.variant === 'standard' ? 'Standard' : g.variant },
      clock: cfg ? { initial: cfg.initialMs, increment: cfg.incrementMs, byoyomi: cfg.byoyomiMs, periods: cfg.byoyomiMs > 0 ? Math.max(1, cfg.periods) : 0 } : null,
      speed: g.speed,
      perf: { name: perfTrans(lishogiPerfKey(g.variant, g.clock !== undefined)) },
      rated: g.rated,
      createdAt: g.createdAt,
      sente,
      white: sente,
      gote,
      black: gote,
      initialSfen: g.initialSfen,
      initialFen: g.initialSfen,
      type: 'gameFull',
      state: this.stateJson(g),
    };
  }

  /**
   * lishogi `JsonView.ownerPreview` (@d2fbb2e2) + source + compat + id (EventStream.gameJson): `perf` is the
   * perf key, no speed; `secondsLeft` from the clock, or the correspondence clock (`Pov.remainingSeconds`:
   * the side not to move has its whole `daysPerTurn`; time run on a move is not modelled here).
   */
  private gameInfo(g: ShogiGameRec, a: Account): Record<string, unknown> {
    const color = this.colorOf(g, a) ?? 'sente';
    const opp = color === 'sente' ? g.players[1] : g.players[0];
    return {
      fullId: `${g.id}${a.id.slice(0, 4).padEnd(4, 'x')}`,
      gameId: g.id,
      sfen: g.board.toText(),
      color,
      lastMove: g.moves[g.moves.length - 1] ?? '',
      source: 'friend',
      status: { id: LISHOGI_STATUS_IDS[g.status], name: g.status },
      variant: { key: g.variant, name: g.variant === 'standard' ? 'Standard' : g.variant },
      perf: lishogiPerfKey(g.variant, g.clock !== undefined),
      rated: g.rated,
      hasMoved: g.moves.length > (color === 'sente' ? 0 : 1),
      opponent: { id: opp.id, username: opp.username, rating: opp.rating },
      // `Pov.isMyTurn`: started, playable (not over, not paused) and our turn.
      isMyTurn: this.playable(g) && this.turnColor(g) === color,
      ...(g.clock
        ? { secondsLeft: Math.floor(this.millisOf(g, color) / 1000) }
        : g.days !== undefined && this.playable(g)
          ? { secondsLeft: g.days * 86400 }
          : {}),
      ...(g.winner ? { winner: g.winner } : {}),
      compat: { bot: true, board: false },
      id: g.id,
    };
  }

  private broadcast(g: ShogiGameRec, message: unknown, schema: LishogiSchemaName): void {
    this.broadcastOn(g.streams, (accId) => `/api/bot/game/stream/${g.id} (${accId})`, schema, message);
  }

  private changed(g: ShogiGameRec): void {
    if (!this.isOver(g)) this.runPlyHooks(g.id, g.moves.length, g.streams);
    this.broadcast(g, this.stateJson(g), 'GameStateEvent');
  }

  private finish(g: ShogiGameRec, status: LishogiStatus, winner: ShogiColor | undefined): void {
    if (this.isOver(g)) return;
    g.status = status;
    g.winner = winner;
    g.clock?.stop();
    clearTimeout(g.firstMoveTimer);
    this.broadcast(g, this.stateJson(g), 'GameStateEvent');
    this.closeGameStreams(g.streams);
    for (const a of g.players) this.accountEvent(a, { type: 'gameFinish', game: this.gameInfo(g, a) }, 'GameFinishEvent');
    for (const w of g.waiters.splice(0)) w(g);
  }

  /** Plays a checked move now: the clock, the board, the rules' verdict. */
  private applyMove(g: ShogiGameRec, usi: string): string | undefined {
    const mover = this.turnColor(g);
    const md = g.board.parseMove(usi);
    if (md.isErr) return md.error.message;
    const before = g.clock ? g.clock.reported(sideOf(mover)) : -1;
    if (g.clock?.isRunning() === true && !g.clock.step()) {
      this.finish(g, 'outoftime', other(mover));
      return 'Not your turn, or game already over';
    }
    g.board.play(md.value);
    g.moves.push(usi);
    // The mover's offer stands (lila keeps it); its opponent's lapses with a move.
    g.draw[sideOf(other(mover))] = false;
    if (g.clock && g.moves.length === 2) g.clock.start(sideOf(this.turnColor(g)));
    if (g.moves.length >= 2) clearTimeout(g.firstMoveTimer);
    g.log.push({
      ply: g.moves.length,
      usi,
      mover,
      clockBeforeMs: Math.round(before),
      clockAfterMs: g.clock ? Math.round(g.clock.reported(sideOf(mover))) : -1,
      spentPeriods: g.clock ? g.clock.spentPeriods(sideOf(mover)) : 0,
    });
    const outcome = g.board.outcome();
    this.changed(g);
    if (outcome !== undefined) {
      const winner: ShogiColor | undefined = outcome.winner === undefined ? undefined : outcome.winner === 'first' ? 'sente' : 'gote';
      const status: LishogiStatus =
        outcome.reason === 'checkmate' ? 'mate' : outcome.reason === 'stalemate' ? 'stalemate' : outcome.reason === 'perpetual-check' ? 'perpetualCheck' : 'repetition';
      this.finish(g, status, winner);
    } else if ((this.opts.drawAfterPlies ?? 0) > 0 && g.moves.length >= (this.opts.drawAfterPlies ?? 0)) {
      this.finish(g, 'draw', undefined);
    }
    return undefined;
  }

  // ---- HTTP ---------------------------------------------------------------------------------------

  protected async route(ctx: RequestContext<LishogiRequestRecord>, reply: Reply<LishogiSchemaName>): Promise<void> {
    const { req, res, url, method, path, body, where } = ctx;
    const { send, ok, bad, notFound } = reply;
    const me = this.accountOf(req);
    if (me === undefined) {
      if (method === 'GET' && path === '/api/bot/online') {
        res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
        res.end([...this.accounts.values()].filter((a) => a.title === 'BOT' && this.online(a)).map((a) => JSON.stringify({ id: a.id, username: a.username, title: 'BOT' }) + '\n').join(''));
        return;
      }
      send(401, { error: 'No such token' }, 'Error');
      return;
    }
    if (method === 'GET' && path === '/api/account') {
      send(200, { id: me.id, username: me.username, ...(me.title ? { title: me.title } : {}), perfs: {} }, 'UserExtended');
      return;
    }
    if (method === 'POST' && path === '/api/bot/account/upgrade') {
      if (me.games > 0) return bad('This account has played games');
      me.title = 'BOT';
      return ok();
    }
    if (method === 'GET' && path === '/api/account/playing') {
      const now = [...this.games.values()].filter((g) => !this.isOver(g) && this.colorOf(g, me) !== undefined).map((g) => this.gameInfo(g, me));
      send(200, { nowPlaying: now }, undefined);
      return;
    }
    if (method === 'GET' && path === '/api/users/status') {
      const ids = (url.searchParams.get('ids') ?? '').split(',').map(lower);
      send(200, ids.filter((id) => this.accounts.has(id)).map((id) => ({ id, name: this.accounts.get(id)?.username, online: this.eventStreamOf(id)?.isOpen() === true })), undefined);
      return;
    }
    if (method === 'GET' && path === '/api/stream/event') {
      this.stats.eventStreamsOpened++;
      // EventStream: kill the previous one, if any.
      this.openEventStream(me.id, res, String(req.headers['user-agent'] ?? ''));
      for (const g of this.games.values()) {
        if (!this.isOver(g) && this.colorOf(g, me) !== undefined) this.accountEvent(me, { type: 'gameStart', game: this.gameInfo(g, me) }, 'GameStartEvent');
      }
      for (const c of this.challenges.values()) {
        if (c.status === 'created' && c.dest === me) this.accountEvent(me, { type: 'challenge', challenge: this.challengeJson(c) }, 'ChallengeEvent');
      }
      return;
    }
    let m = /^\/api\/bot\/game\/stream\/([^/]+)$/.exec(path);
    if (method === 'GET' && m) {
      const g = this.games.get(m[1] ?? '');
      if (g === undefined) return notFound('No such game');
      if (this.colorOf(g, me) === undefined) return notFound('Not your game');
      if (me.title !== 'BOT') return bad('This endpoint can only be used with a Bot account.');
      this.stats.gameStreamsOpened++;
      const conn = this.openGameStream(g.streams, me.id, res, String(req.headers['user-agent'] ?? ''));
      this.deliver(conn, 'game', `${where} (${me.id})`, 'GameFullEvent', this.fullJson(g));
      if (this.isOver(g)) conn.close();
      return;
    }
    m = /^\/api\/bot\/game\/([^/]+)\/(move|chat|abort|resign|draw)(?:\/([^/]+))?$/.exec(path);
    if (method === 'POST' && m) {
      const g = this.games.get(m[1] ?? '');
      if (g === undefined) return notFound('No such game');
      const color = this.colorOf(g, me);
      if (color === undefined) return notFound('Not your game');
      const arg = m[3] !== undefined ? decodeURIComponent(m[3]) : undefined;
      switch (m[2]) {
        case 'move': {
          if (arg === undefined) return notFound('No such command');
          if (!this.playable(g) || this.turnColor(g) !== color || g.moveInFlight) {
            g.refused.push(`${color} ${arg}: out of turn`);
            return bad('Not your turn, or game already over');
          }
          const check = g.board.parseMove(arg);
          if (check.isErr) {
            g.refused.push(`${color} ${arg}: ${check.error.message}`);
            return bad(`Invalid USI: ${arg}`);
          }
          // BotPlayer: `!pov.game.hasHuman ?? 750` ms (no human: every player a bot or lishogi's AI).
          const botsOnly = g.players.every((p) => p.title === 'BOT');
          const delay = botsOnly ? (this.opts.botMoveDelayMs ?? 750) : 0;
          if (delay > 0) {
            g.moveInFlight = true;
            await new Promise<void>((r) => this.later(delay, r));
            g.moveInFlight = false;
            if (this.isOver(g)) return bad('Not your turn, or game already over');
          }
          // BotPlayer: `offeringDraw=true` offers (or accepts) a draw with the move, `false` declines one.
          // The offer is handled before the move is played (the opponent's standing offer is then accepted).
          const offering = url.searchParams.get('offeringDraw');
          if (offering === 'false') g.draw[sideOf(other(color))] = false;
          if (offering === 'true') {
            if (g.draw[sideOf(other(color))]) {
              this.finish(g, 'draw', undefined);
              return ok();
            }
            g.draw[sideOf(color)] = true;
          }
          const err = this.applyMove(g, arg);
          if (err !== undefined) {
            g.refused.push(`${color} ${arg}: ${err}`);
            return bad(err);
          }
          return ok();
        }
        case 'chat': {
          const form = new URLSearchParams(body);
          const room = form.get('room');
          const text = form.get('text');
          if ((room !== 'player' && room !== 'spectator') || !text) return bad('Invalid chat');
          // One chat per game since @51be91d1 (`BotPlayer.chat` writes both rooms to `Chat.Id(gameId)`), and
          // GameStateStream labels a line `player` when its chat id is a game id: always.
          this.chatLog.push({ gameId: g.id, room, username: me.username, text });
          this.broadcast(g, { type: 'chatLine', room: 'player', username: me.username, text }, 'ChatLineEvent');
          return ok();
        }
        case 'abort':
          if (this.isOver(g) || g.moves.length >= 2) return bad('This game can no longer be aborted');
          this.finish(g, 'aborted', undefined);
          return ok();
        case 'resign':
          if (this.isOver(g)) return bad('This game cannot be resigned');
          if (g.moves.length < 2) this.finish(g, 'aborted', undefined);
          else this.finish(g, 'resign', other(color));
          return ok();
        case 'draw': {
          if (this.isOver(g)) return ok();
          const yes = arg === 'yes' || arg === 'true' || arg === '1';
          const mine = sideOf(color);
          const theirs = sideOf(other(color));
          if (yes && g.draw[theirs]) {
            this.finish(g, 'draw', undefined);
          } else if (yes) {
            g.draw[mine] = true;
            this.broadcast(g, this.stateJson(g), 'GameStateEvent');
          } else if (g.draw[theirs]) {
            g.draw[theirs] = false;
            this.broadcast(g, this.stateJson(g), 'GameStateEvent');
          }
          return ok();
        }
      }
    }
    m = /^\/api\/challenge\/([^/]+)\/(accept|decline)$/.exec(path);
    if (method === 'POST' && m) {
      const c = this.challenges.get(m[1] ?? '');
      if (c === undefined || c.dest !== me || (c.status !== 'created' && c.status !== 'offline')) return notFound();
      if (m[2] === 'accept') {
        this.acceptChallenge(c);
      } else {
        // lishogi's decline takes no reason.
        c.status = 'declined';
        clearTimeout(c.expiry);
        this.challengeEvent(c, 'challengeDeclined', 'ChallengeDeclinedEvent');
      }
      return ok();
    }
    m = /^\/api\/challenge\/([^/]+)$/.exec(path);
    if (method === 'POST' && m) {
      const dest = this.accounts.get(lower(decodeURIComponent(m[1] ?? '')));
      if (dest === undefined) return bad('No such user');
      const form = new URLSearchParams(body);
      const num = (k: string): number | undefined => (form.has(k) ? Number(form.get(k)) : undefined);
      const limit = num('clock.limit');
      const days = num('days');
      const clock =
        limit !== undefined
          ? { limitS: limit, incrementS: num('clock.increment') ?? 0, byoyomiS: num('clock.byoyomi') ?? 0, periods: num('clock.periods') ?? 1 }
          : days !== undefined
            ? { days }
            : 'unlimited';
      const color = form.get('color');
      const sfen = form.get('sfen');
      const id = this.createChallenge(me, dest, {
        from: me.username,
        to: dest.username,
        clock,
        variant: form.get('variant') ?? 'standard',
        rated: form.get('rated') === 'true',
        color: color === 'sente' || color === 'gote' ? color : 'random',
        ...(sfen ? { sfen } : {}),
      });
      const c = this.challenges.get(id);
      if (c) send(200, this.challengeJson(c, 'out'), 'ChallengeJson');
      return;
    }
    notFound(`No route for ${method} ${path}`);
  }
}
