/**
 * The lichess profile of the local Bot API server (bot-api-server.ts holds the core it shares with the
 * lishogi profile): a lichess-compatible server for tests and the soak benchmark. It serves the Bot API endpoints Kishi
 * uses (event and game streams, moves, chat, abort, resign, draw, takeback, claim-victory, challenges,
 * account, ongoing games, online bots, token test, upgrade, game export), in the shapes of
 * the lichess-org/api JSON Schemas (tests/fixtures/lichess/schemas/), with lila's habits (false flags left out, replay of games and
 * challenges when the event stream opens, one event stream per token, a second game stream with the same
 * User-Agent closing the first, a final `gameState` then close at game end). Games are validated with
 * chessops and their clocks run in real time. Opponents are scripted or simple engines (opponents.ts).
 *
 * Faults to inject: lines split or merged across chunks, keep-alive gaps, a silent stall with the socket
 * left open, a dropped connection, HTTP 429 (lila's JSON error for that path, or HTML), 502/504 or a dropped socket on
 * any request, a second event stream closing the first, challenges that expire.
 *
 * Every message it sends goes through `onSend` with the name of the bundled schema it must satisfy, so the
 * tests validate them all.
 */
import type { IncomingMessage } from 'node:http';
import { makeSan } from 'chessops/san';
import { parseUci } from 'chessops/util';
import { normalizeMove } from 'chessops/chess';
import type { ChallengeJson, Color, DeclineReason, GameStatus, Speed, VariantKey } from '../types.js';
import { DECLINE_REASONS, GAME_STATUS_IDS, isChessVariantKey } from '../types.js';
import { OpponentDriver } from './opponents.js';
import type { OpponentAction, OpponentSpec } from './opponents.js';
import type { SimClock, SimUser } from './sim-game.js';
import { SimGame } from './sim-game.js';
import { BotApiServer } from './bot-api-server.js';
import type { BotApiSchemaName, BotApiServerOptions, GameStreams, RequestContext, RequestRecord, Reply, SentMessageOf } from './bot-api-server.js';

export type { FaultResponse } from './http-faults.js';
export { rateLimitBody } from './http-faults.js';

/** The schema (tests/fixtures/lichess/schemas/<name>.json) a sent message must satisfy, or undefined when none exists. */
export type SchemaName = BotApiSchemaName | 'OpponentGoneEvent' | 'PlayerGameChat';

export type SentMessage = SentMessageOf<SchemaName>;

/** A request as the fake lichess logs it: with the client's User-Agent (lila tells clients apart by it). */
export type LichessRequestRecord = RequestRecord & { readonly userAgent: string };

export interface TestUserSpec {
  readonly username: string;
  readonly title?: 'BOT';
  readonly rating?: number;
  /** Listed by `/api/bot/online`. */
  readonly online?: boolean;
  /** How this user answers the bot's challenges. */
  readonly onChallenge?: 'accept' | 'decline' | 'ignore';
  readonly declineReason?: DeclineReason;
  readonly answerDelayMs?: number;
  /** How this user plays. */
  readonly opponent?: OpponentSpec;
}

export interface LichessTestServerOptions extends BotApiServerOptions<SchemaName> {
  readonly bot: {
    readonly username: string;
    readonly token: string;
    /** `null`: not a BOT account yet. */
    readonly title?: 'BOT' | null;
    readonly scopes?: string;
    readonly ratings?: Readonly<Record<string, number>>;
    /** Games already played (upgrade is refused when > 0). */
    readonly gamesPlayed?: number;
  };
  readonly users?: readonly TestUserSpec[];
  /** Time for each side's first move before the game is aborted, milliseconds. */
  readonly firstMoveMs?: number;
  /** `claimWinInSeconds` sent with `opponentGone`. */
  readonly claimWinSeconds?: number;
  /** Real-time challenges expire after this long, milliseconds (lichess: 20000). */
  readonly challengeExpiryMs?: number;
  /** The bot has reached its bot-vs-bot daily cap (challenge creation answers 429 `bot.vsBot.day`). */
  readonly botDailyCapReached?: boolean;
}

export interface NewChallenge {
  /** Challenger user name (created if unknown). */
  readonly from: string;
  readonly title?: 'BOT';
  readonly rating?: number;
  readonly variant?: VariantKey;
  /** Seconds; or correspondence days; or unlimited. */
  readonly clock?: { readonly limit: number; readonly increment: number } | { readonly days: number } | 'unlimited';
  readonly rated?: boolean;
  /** The challenger's colour. */
  readonly color?: 'white' | 'black' | 'random';
  readonly initialFen?: string;
  readonly opponent?: OpponentSpec;
  /** Expires (challengeCanceled) after this long, milliseconds; default `challengeExpiryMs` for real-time. */
  readonly expireMs?: number;
}

export interface NewGame {
  readonly opponent: string;
  readonly opponentTitle?: 'BOT';
  readonly opponentRating?: number;
  /** The bot's colour. */
  readonly botColor: Color;
  readonly variant?: VariantKey;
  readonly clock?: SimClock;
  readonly daysPerTurn?: number;
  readonly rated?: boolean;
  readonly initialFen?: string;
  readonly spec?: OpponentSpec;
  /** Moves already played (a game in progress before the bot starts). */
  readonly moves?: readonly string[];
}

interface ChallengeRecord {
  json: ChallengeJson;
  readonly spec: OpponentSpec | undefined;
  expiry: NodeJS.Timeout | undefined;
  declineReason?: string;
  readonly incoming: boolean;
}

interface GameRecord {
  readonly sim: SimGame;
  readonly botColor: Color;
  readonly driver: OpponentDriver;
  /** By the client's User-Agent: lila closes a game stream when the same client opens another. */
  readonly streams: GameStreams;
  opponentGoneAt: number | undefined;
  /** Bumped on every change; a scheduled opponent turn runs only if it is still current. */
  version: number;
  /** The opponent stopped moving for good (`stall`). */
  stalled: boolean;
  turnScheduled: boolean;
  turnRunning: boolean;
  readonly waiters: ((g: SimGame) => void)[];
  /** Opponent actions waiting for the bot to answer an offer. */
  readonly answerWaiters: (() => void)[];
}

const VARIANT_NAMES: Readonly<Record<VariantKey, string>> = {
  standard: 'Standard',
  chess960: 'Chess960',
  crazyhouse: 'Crazyhouse',
  antichess: 'Antichess',
  atomic: 'Atomic',
  horde: 'Horde',
  kingOfTheHill: 'King of the Hill',
  racingKings: 'Racing Kings',
  threeCheck: 'Three-check',
  fromPosition: 'From Position',
};

/** `variant.short` as lichess writes it (lila `chess.variant.Variant#shortName`; the spec's examples). */
const VARIANT_SHORT: Readonly<Record<VariantKey, string>> = {
  standard: 'Std',
  chess960: '960',
  crazyhouse: 'Crazy',
  antichess: 'Anti',
  atomic: 'Atom',
  horde: 'Horde',
  kingOfTheHill: 'KotH',
  racingKings: 'Racing',
  threeCheck: '3check',
  fromPosition: 'FEN',
};

const variantJson = (v: VariantKey): { key: VariantKey; name: string; short: string } => ({ key: v, name: VARIANT_NAMES[v], short: VARIANT_SHORT[v] });

/** A JSON challenge body as the form fields lichess would read from it; undefined when not a JSON object. */
function jsonForm(body: string): URLSearchParams | undefined {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const form = new URLSearchParams();
  const add = (prefix: string, v: unknown): void => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) for (const [k, x] of Object.entries(v)) add(prefix === '' ? k : `${prefix}.${k}`, x);
    else if (v !== undefined && v !== null) form.set(prefix, String(v));
  };
  add('', data);
  return form;
}

/** A perf's display name (`perf.name` of challenges and gameFull): "Blitz", or the variant's name. */
function perfName(variant: VariantKey, speed: Speed): string {
  if (variant !== 'standard' && variant !== 'fromPosition') return VARIANT_NAMES[variant];
  return speed === 'ultraBullet' ? 'UltraBullet' : speed.charAt(0).toUpperCase() + speed.slice(1);
}

const DECLINE_TEXT: Readonly<Record<DeclineReason, string>> = {
  generic: "I'm not accepting challenges at the moment.",
  later: 'This is not the right time for me, please ask again later.',
  tooFast: 'This time control is too fast for me, please challenge again with a slower game.',
  tooSlow: 'This time control is too slow for me, please challenge again with a faster game.',
  timeControl: "I'm not accepting challenges with this time control.",
  rated: 'Please send me a rated challenge instead.',
  casual: 'Please send me a casual challenge instead.',
  standard: "I'm not accepting variant challenges right now.",
  variant: 'I\'m not willing to play this variant right now.',
  noBot: "I'm not accepting challenges from bots.",
  onlyBot: "I'm only accepting challenges from bots.",
};

export function speedOfClock(limitS: number, incrementS: number): Speed {
  const total = limitS + 40 * incrementS;
  if (total < 30) return 'ultraBullet';
  if (total < 180) return 'bullet';
  if (total < 480) return 'blitz';
  if (total < 1500) return 'rapid';
  return 'classical';
}

const lower = (s: string): string => s.toLowerCase();


/** The lichess profile of the local Bot API server: one BOT account (the bot under test) among scripted users. */
export class LichessTestServer extends BotApiServer<SchemaName, LichessRequestRecord> {
  private readonly opts: LichessTestServerOptions;
  private readonly bot: SimUser & { scopes: string; title?: 'BOT' };
  private botTitle: 'BOT' | null;
  private readonly users = new Map<string, TestUserSpec & { id: string }>();
  private readonly games = new Map<string, GameRecord>();
  private readonly challenges = new Map<string, ChallengeRecord>();
  private gamesPlayed: number;
  /** What happened, for assertions. */
  readonly stats = {
    eventStreamOpens: 0,
    gameStreamOpens: new Map<string, number>(),
    peakBotGames: 0,
    requests: [] as LichessRequestRecord[],
    faultsServed: 0,
    stalls: 0,
    drops: 0,
  };

  constructor(opts: LichessTestServerOptions) {
    // nginx in front of lichess keeps an idle connection 75 s (its default keepalive_timeout); a client must
    // cope with a reused socket closed later than a 1 s test timeout would show.
    super(opts, { idPrefix: 't', keepAliveMs: 7000, tickMs: 10, idleConnectionMs: 75_000, notFoundText: 'Not found', answerErrors: false });
    this.opts = opts;
    this.bot = {
      id: lower(opts.bot.username),
      username: opts.bot.username,
      rating: opts.bot.ratings?.blitz ?? 1500,
      scopes: opts.bot.scopes ?? 'bot:play',
    };
    this.botTitle = opts.bot.title === undefined ? 'BOT' : opts.bot.title;
    this.gamesPlayed = opts.bot.gamesPlayed ?? 0;
    for (const u of opts.users ?? []) this.users.set(lower(u.username), { ...u, id: lower(u.username) });
  }

  // ---- the core's hooks --------------------------------------------------------------------------

  protected requestRecord(req: IncomingMessage, base: RequestRecord): LichessRequestRecord {
    return { ...base, userAgent: String(req.headers['user-agent'] ?? '') };
  }

  protected *gameStreams(): Iterable<GameStreams> {
    for (const g of this.games.values()) yield g.streams;
  }

  // ---- fault injection (the rest is the core's) ---------------------------------------------------

  /** When the game reaches `ply` plies, its open game streams go silent (socket left open); `*` for any game. */
  stallGameStreamAt(gameId: string, ply: number, once = true): void {
    this.addPlyHook(gameId, ply, 'stall', once);
  }

  /** When the game reaches `ply` plies, its game streams' sockets are destroyed; `*` for any game. */
  dropGameStreamAt(gameId: string, ply: number, once = true): void {
    this.addPlyHook(gameId, ply, 'drop', once);
  }

  stallEventStream(): void {
    this.stallStream(this.eventStreamOf(this.bot.id));
  }

  dropEventStream(): void {
    this.dropStream(this.eventStreamOf(this.bot.id));
  }

  /** Another client opened the event stream with the same token: lichess closes ours. */
  secondEventStream(): void {
    this.closeEventStream(this.bot.id);
  }

  // ---- driving the world --------------------------------------------------------------------------

  private user(username: string, title?: 'BOT', rating?: number): TestUserSpec & { id: string } {
    const id = lower(username);
    let u = this.users.get(id);
    if (u === undefined) {
      u = { username, id, ...(title ? { title } : {}), rating: rating ?? 1500 };
      this.users.set(id, u);
    }
    return u;
  }

  private simUser(u: TestUserSpec & { id: string }): SimUser {
    return { id: u.id, username: u.username, rating: u.rating ?? 1500, ...(u.title ? { title: u.title } : {}) };
  }

  private botUser(): SimUser {
    return { id: this.bot.id, username: this.bot.username, rating: this.bot.rating, ...(this.botTitle ? { title: this.botTitle } : {}) };
  }

  private perfOf(variant: VariantKey, speed: Speed): string {
    return variant === 'standard' || variant === 'fromPosition' ? speed : variant;
  }

  private challengeUser(u: SimUser): ChallengeJson['challenger'] {
    return { id: u.id, name: u.username, rating: u.rating, ...(u.title ? { title: u.title } : {}), online: true };
  }

  /** A user challenges the bot; returns the challenge id. */
  challenge(c: NewChallenge): string {
    const u = this.user(c.from, c.title, c.rating);
    const id = this.newId();
    const variant = c.variant ?? 'standard';
    const clock = c.clock ?? { limit: 60, increment: 0 };
    if (typeof clock === 'object' && 'limit' in clock && (!Number.isInteger(clock.limit) || !Number.isInteger(clock.increment))) {
      throw new Error(`challenge: lichess clocks are whole seconds (${clock.limit}+${clock.increment})`);
    }
    const timeControl: ChallengeJson['timeControl'] =
      clock === 'unlimited'
        ? { type: 'unlimited' }
        : 'days' in clock
          ? { type: 'correspondence', daysPerTurn: clock.days }
          : { type: 'clock', limit: clock.limit, increment: clock.increment, show: `${clock.limit / 60}+${clock.increment}` };
    const speed: Speed = timeControl.type === 'clock' ? speedOfClock(timeControl.limit, timeControl.increment) : 'correspondence';
    const color = c.color ?? 'random';
    const finalColor: Color = color === 'random' ? (this.random() < 0.5 ? 'white' : 'black') : color;
    const json: ChallengeJson = {
      id,
      url: `${this.url}/${id}`,
      status: 'created',
      challenger: this.challengeUser(this.simUser(u)),
      destUser: this.challengeUser(this.botUser()),
      variant: variantJson(variant),
      rated: c.rated ?? false,
      speed,
      timeControl,
      color,
      finalColor,
      perf: { icon: '\ue019', name: perfName(variant, speed) },
      direction: 'in',
      ...(c.initialFen ? { initialFen: c.initialFen } : {}),
    };
    const record: ChallengeRecord = { json, spec: c.opponent ?? u.opponent, expiry: undefined, incoming: true };
    this.challenges.set(id, record);
    const expireMs = c.expireMs ?? (timeControl.type === 'clock' ? (this.opts.challengeExpiryMs ?? 20_000) : undefined);
    if (expireMs !== undefined) record.expiry = this.later(expireMs, () => this.cancelChallenge(id));
    this.botEvent({ type: 'challenge', challenge: json, compat: { bot: true, board: true } }, 'ChallengeEvent');
    return id;
  }

  /** The status of a challenge and the reason it was declined with. */
  challengeStatus(id: string): { status: ChallengeJson['status']; declineReason?: string } | undefined {
    const c = this.challenges.get(id);
    return c && { status: c.json.status, ...(c.declineReason ? { declineReason: c.declineReason } : {}) };
  }

  private cancelChallenge(id: string): void {
    const c = this.challenges.get(id);
    if (c === undefined || c.json.status !== 'created') return;
    clearTimeout(c.expiry);
    c.json = { ...c.json, status: 'canceled' };
    this.botEvent({ type: 'challengeCanceled', challenge: c.json }, 'ChallengeCanceledEvent');
  }

  /** Starts a game directly (as if accepted elsewhere); returns its id. */
  startGame(g: NewGame): string {
    const u = this.user(g.opponent, g.opponentTitle, g.opponentRating);
    const id = this.newId();
    this.createGame(id, g.botColor, this.simUser(u), g.variant ?? 'standard', g.initialFen ?? 'startpos', g.clock, g.daysPerTurn, g.rated ?? false, g.spec ?? u.opponent ?? {}, 'api', g.moves ?? []);
    return id;
  }

  private createGame(
    id: string,
    botColor: Color,
    opponent: SimUser,
    variant: VariantKey,
    initialFen: string,
    clock: SimClock | undefined,
    daysPerTurn: number | undefined,
    rated: boolean,
    spec: OpponentSpec,
    source: 'friend' | 'api' | 'lobby',
    moves: readonly string[],
  ): void {
    const now = Date.now();
    const speed: Speed = clock ? speedOfClock(clock.initial / 1000, clock.increment / 1000) : 'correspondence';
    const sim = new SimGame(
      {
        id,
        white: botColor === 'white' ? this.botUser() : opponent,
        black: botColor === 'white' ? opponent : this.botUser(),
        variant,
        initialFen,
        ...(clock ? { clock } : {}),
        ...(daysPerTurn !== undefined ? { daysPerTurn } : {}),
        rated,
        speed,
        createdAt: now,
        firstMoveMs: this.opts.firstMoveMs ?? 30_000,
        source,
      },
      now,
    );
    for (const m of moves) {
      const r = sim.play(sim.turn(), m, now);
      if (!r.ok) throw new Error(`startGame: ${r.error}`);
    }
    const record: GameRecord = {
      sim,
      botColor,
      driver: new OpponentDriver(spec),
      streams: new Map(),
      opponentGoneAt: undefined,
      version: 0,
      stalled: false,
      turnScheduled: false,
      turnRunning: false,
      waiters: [],
      answerWaiters: [],
    };
    this.games.set(id, record);
    this.gamesPlayed++;
    this.stats.peakBotGames = Math.max(this.stats.peakBotGames, this.activeBotGames());
    this.botEvent({ type: 'gameStart', game: this.gameEventInfo(record) }, 'GameStartEvent');
    this.changed(record);
  }

  /** Active games the bot plays in. */
  activeBotGames(): number {
    let n = 0;
    for (const g of this.games.values()) if (!g.sim.isOver()) n++;
    return n;
  }

  game(id: string): SimGame | undefined {
    return this.games.get(id)?.sim;
  }

  allGames(): SimGame[] {
    return [...this.games.values()].map((g) => g.sim);
  }

  /** Resolves when the game (or the game of an accepted challenge with this id) is over. */
  async waitForEnd(id: string, timeoutMs = 20_000): Promise<SimGame> {
    await this.waitFor(() => this.games.has(id), timeoutMs);
    const g = this.games.get(id);
    if (g === undefined) throw new Error(`no game ${id}`);
    if (g.sim.isOver()) return g.sim;
    return this.waitOn(g.waiters, timeoutMs, () => `game ${id} did not end within ${timeoutMs} ms (${g.sim.moves.join(' ')})`);
  }

  /** The game with this id, finished or not. */
  gameOf(id: string): SimGame | undefined {
    return this.games.get(id)?.sim;
  }

  /** A spectator (or the opponent) writes in a game's chat. */
  chat(gameId: string, username: string, room: 'player' | 'spectator', text: string): void {
    const g = this.games.get(gameId);
    if (g === undefined) return;
    g.sim.chat.push({ user: username, room, text });
    this.broadcast(g, { type: 'chatLine', room, username, text }, 'ChatLineEvent');
  }

  // ---- game progress ------------------------------------------------------------------------------

  protected tick(): void {
    const now = Date.now();
    for (const g of this.games.values()) {
      if (g.sim.isOver()) continue;
      if (g.sim.checkTime(now)) this.changed(g);
    }
  }

  private opponentColor(g: GameRecord): Color {
    return g.botColor === 'white' ? 'black' : 'white';
  }

  /** After any change: hooks, broadcast, opponent's turn, end. */
  private changed(g: GameRecord): void {
    g.version++;
    if (!g.sim.isOver()) this.runPlyHooks(g.sim.id, g.sim.plies(), g.streams);
    this.broadcast(g, g.sim.state(Date.now()), 'GameStateEvent');
    if (g.sim.isOver()) {
      this.finishGame(g);
      return;
    }
    if (this.opponentMayAct(g)) this.scheduleOpponent(g);
  }

  private finishGame(g: GameRecord): void {
    this.closeGameStreams(g.streams);
    this.botEvent({ type: 'gameFinish', game: this.gameEventInfo(g) }, 'GameFinishEvent');
    for (const w of g.waiters.splice(0)) w(g.sim);
  }

  /** Schedules the opponent's turn, unless one is already scheduled or running (it reschedules itself). */
  private scheduleOpponent(g: GameRecord): void {
    if (g.turnRunning || g.turnScheduled || g.stalled) return;
    g.turnScheduled = true;
    this.later(g.driver.spec.delayMs ?? 5, () => {
      g.turnScheduled = false;
      if (this.opponentMayAct(g)) void this.runOpponentTurn(g);
    });
  }

  private opponentMayAct(g: GameRecord): boolean {
    return !g.sim.isOver() && g.sim.turn() !== g.botColor && g.opponentGoneAt === undefined && !g.stalled;
  }

  private async runOpponentTurn(g: GameRecord): Promise<void> {
    g.turnRunning = true;
    try {
      await this.opponentActions(g);
    } finally {
      g.turnRunning = false;
    }
    // The game changed under the turn (a takeback): if it is still the opponent's turn, play again.
    if (this.opponentMayAct(g)) this.scheduleOpponent(g);
  }

  private async opponentActions(g: GameRecord): Promise<void> {
    const color = this.opponentColor(g);
    let version = g.version;
    const actions: OpponentAction[] = g.driver.turn(g.sim.position(), g.sim.plies());
    for (const a of actions) {
      if (g.version !== version || g.sim.isOver()) return;
      switch (a.type) {
        case 'pause':
          await new Promise<void>((r) => this.later(a.ms, r));
          break;
        case 'chat':
          this.chat(g.sim.id, g.sim.player(color).username, a.room ?? 'player', a.text);
          break;
        case 'offerDraw':
          g.sim.setOffer('draw', color, true);
          this.changed(g);
          version = g.version;
          break;
        case 'proposeTakeback':
          g.sim.setOffer('takeback', color, true);
          this.changed(g);
          version = g.version;
          // Wait for the bot's answer (or 10 s), so that scripts do not race it.
          await new Promise<void>((resolve) => {
            g.answerWaiters.push(resolve);
            this.later(10_000, resolve);
          });
          break;
        case 'resign':
          g.sim.finish('resign', g.botColor);
          this.changed(g);
          return;
        case 'leave':
          g.opponentGoneAt = Date.now();
          this.broadcast(g, { type: 'opponentGone', gone: true, claimWinInSeconds: this.opts.claimWinSeconds ?? 10 }, 'OpponentGoneEvent');
          return;
        case 'stall':
          g.stalled = true;
          return;
        case 'move': {
          const r = g.sim.play(color, a.uci, Date.now());
          if (!r.ok) throw new Error(`scripted opponent move ${a.uci} in game ${g.sim.id}: ${r.error}`);
          if (a.offerDraw) g.sim.setOffer('draw', color, true);
          this.changed(g);
          return;
        }
      }
    }
  }

  // ---- messages -----------------------------------------------------------------------------------

  /** An event on the bot's event stream. */
  private botEvent(message: unknown, schema: SchemaName): void {
    this.sendEvent(this.bot.id, '/api/stream/event', schema, message);
  }

  private broadcast(g: GameRecord, message: unknown, schema: SchemaName): void {
    this.broadcastOn(g.streams, () => `/api/bot/game/stream/${g.sim.id}`, schema, message);
  }

  private gameEventInfo(g: GameRecord): Record<string, unknown> {
    const sim = g.sim;
    const opp = sim.player(this.opponentColor(g));
    const now = Date.now();
    const status = sim.status;
    return {
      fullId: `${sim.id}abcd`,
      gameId: sim.id,
      fen: sim.fen(),
      color: g.botColor,
      lastMove: sim.moves[sim.moves.length - 1] ?? '',
      source: sim.init.source,
      status: { id: GAME_STATUS_IDS[status], name: status },
      variant: { key: sim.init.variant, name: VARIANT_NAMES[sim.init.variant] },
      speed: sim.init.speed,
      perf: this.perfOf(sim.init.variant, sim.init.speed),
      rated: sim.init.rated,
      hasMoved: sim.moves.length >= (g.botColor === 'white' ? 1 : 2),
      opponent: { id: opp.id, username: opp.username, rating: opp.rating },
      isMyTurn: !sim.isOver() && sim.turn() === g.botColor,
      secondsLeft: Math.max(0, Math.round(sim.timeLeft(g.botColor, now) / 1000)),
      ...(sim.winner ? { winner: sim.winner } : {}),
      compat: { bot: true, board: true },
      id: sim.id,
    };
  }

  private gameFull(g: GameRecord): Record<string, unknown> {
    const sim = g.sim;
    const player = (u: SimUser): Record<string, unknown> => ({
      id: u.id,
      name: u.username,
      title: u.title ?? null,
      rating: u.rating,
    });
    return {
      type: 'gameFull',
      id: sim.id,
      variant: variantJson(sim.init.variant),
      ...(sim.init.clock ? { clock: { initial: sim.init.clock.initial, increment: sim.init.clock.increment } } : {}),
      speed: sim.init.speed,
      perf: { name: perfName(sim.init.variant, sim.init.speed) },
      rated: sim.init.rated,
      createdAt: sim.init.createdAt,
      white: player(sim.init.white),
      black: player(sim.init.black),
      initialFen: sim.init.initialFen,
      state: sim.state(Date.now()),
      ...(sim.init.daysPerTurn !== undefined ? { daysPerTurn: sim.init.daysPerTurn } : {}),
    };
  }

  // ---- HTTP ---------------------------------------------------------------------------------------

  protected async route(ctx: RequestContext<LichessRequestRecord>, reply: Reply<SchemaName>): Promise<void> {
    const { req, res, url, method, path, body, record } = ctx;
    const { send, ok, bad, notFound } = reply;

    if (method === 'GET' && path === '/api/bot/online') {
      record.status = 200;
      res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
      const lines = [...this.users.values()]
        .filter((u) => u.online && u.title === 'BOT')
        .map((u) => JSON.stringify({ id: u.id, username: u.username, title: 'BOT', perfs: { bullet: { rating: u.rating ?? 1500, games: 10, rd: 50, prog: 0 }, blitz: { rating: u.rating ?? 1500, games: 10, rd: 50, prog: 0 } } }));
      res.end(lines.map((l) => l + '\n').join(''));
      return;
    }
    if (method === 'GET' && path === '/api/cloud-eval') {
      // CloudEval of the OpenAPI spec (schemas/CloudEval.yaml); unknown positions: 404 with `error`.
      const fen = url.searchParams.get('fen') ?? '';
      const ev = this.cloudEvals.get(fen);
      if (ev === undefined) return notFound('No cloud evaluation available for that position');
      const multiPv = Number(url.searchParams.get('multiPv') ?? '1');
      send(200, { ...ev, fen, pvs: ev.pvs.slice(0, Math.max(1, multiPv)) }, undefined);
      return;
    }
    if (method === 'GET' && path === '/api/users/status') {
      // lila `api/users/status`: [{id, name, online?: true, ...}]; `online` is left out when false.
      const ids = (url.searchParams.get('ids') ?? '').split(',').filter(Boolean);
      send(
        200,
        ids.map((id) => ({ id: id.toLowerCase(), name: id, ...(id.toLowerCase() === this.bot.id && this.usersStatusOnline ? { online: true } : {}) })),
        undefined,
      );
      return;
    }
    let m: RegExpMatchArray | null;
    if (method === 'POST' && path === '/api/token/test') {
      const out: Record<string, unknown> = {};
      for (const t of body.split(',').map((s) => s.trim()).filter(Boolean)) {
        out[t] = t === this.opts.bot.token ? { scopes: this.bot.scopes, userId: this.bot.id, expires: null } : null;
      }
      send(200, out, undefined);
      return;
    }
    if ((m = path.match(/^\/game\/export\/(\w+)$/)) && method === 'GET') {
      // Public (the spec's `security: []`): no token needed.
      const g = this.games.get(m[1] ?? '');
      if (g === undefined) return notFound();
      const flag = (name: string, def: boolean): boolean => {
        const v = url.searchParams.get(name);
        return v === null ? def : v === 'true' || v === '1';
      };
      const opts = { clocks: flag('clocks', true), evals: flag('evals', true), opening: flag('opening', true), tags: flag('tags', true), moves: flag('moves', true) };
      if (String(req.headers.accept ?? '').includes('application/json')) return send(200, this.exportJson(g.sim, opts), undefined);
      record.status = 200;
      res.writeHead(200, { 'Content-Type': 'application/x-chess-pgn' });
      res.end(this.exportPgn(g.sim, opts));
      return;
    }
    if ((m = path.match(/^\/api\/user\/([\w-]+)$/)) && method === 'GET') {
      // lichess-bot's matchmaking reads a bot's perfs here (User.yaml of the spec); public.
      const id = lower(m[1] ?? '');
      const u = id === this.bot.id ? this.botUser() : this.users.get(id) !== undefined ? this.simUser(this.users.get(id)!) : undefined;
      if (u === undefined) return notFound();
      const rating = u.rating;
      const perfs = Object.fromEntries(['bullet', 'blitz', 'rapid', 'classical', 'correspondence'].map((p) => [p, { games: 10, rating, rd: 60, prog: 0 }]));
      return send(200, { id: u.id, username: u.username, ...(u.title ? { title: u.title } : {}), perfs, createdAt: 1700000000000, seenAt: Date.now(), url: `${this.url}/@/${u.username}` }, undefined);
    }
    if (req.headers.authorization !== `Bearer ${this.opts.bot.token}`) {
      send(401, { error: 'No such token' }, 'Error');
      return;
    }
    if (method === 'GET' && path === '/api/account') {
      const perfs: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(this.opts.bot.ratings ?? { blitz: 1500, bullet: 1500, rapid: 1500 })) perfs[k] = { games: 10, rating: v, rd: 60, prog: 0 };
      send(200, { id: this.bot.id, username: this.bot.username, ...(this.botTitle ? { title: this.botTitle } : {}), perfs, createdAt: 1700000000000, url: `${this.url}/@/${this.bot.username}` }, 'UserExtended');
      return;
    }
    if (method === 'POST' && path === '/api/bot/account/upgrade') {
      if (this.botTitle === 'BOT') return bad('This account is already a bot account');
      if (this.gamesPlayed > 0) return bad('This account has played games and cannot become a bot account');
      this.botTitle = 'BOT';
      return ok();
    }
    if (method === 'GET' && path === '/api/account/playing') {
      const now = Date.now();
      const nowPlaying = [...this.games.values()]
        .filter((g) => !g.sim.isOver())
        .map((g) => {
          const { status: _status, compat: _compat, id: _id, ...info } = this.gameEventInfo(g);
          void _status, _compat, _id;
          return { ...info, isMyTurn: info.isMyTurn === true, secondsLeft: Math.max(0, Math.round(g.sim.timeLeft(g.botColor, now) / 1000)) };
        })
        .sort((a, b) => Number(b.isMyTurn) - Number(a.isMyTurn) || a.secondsLeft - b.secondsLeft);
      // `nb`: 1 to 50, default 9 (the spec); the most urgent games first.
      const nbRaw = Number(url.searchParams.get('nb') ?? 9);
      const nb = Number.isFinite(nbRaw) ? Math.min(50, Math.max(1, Math.floor(nbRaw))) : 9;
      const shown = nowPlaying.slice(0, nb);
      send(200, { nowPlaying: shown, nbMyTurn: nowPlaying.filter((g) => g.isMyTurn).length }, undefined);
      return;
    }
    if (method === 'GET' && path === '/api/stream/event') {
      if (this.botTitle !== 'BOT') return bad('This endpoint can only be used with a Bot account');
      record.status = 200;
      this.stats.eventStreamOpens++;
      this.openEventStream(this.bot.id, res, record.userAgent);
      for (const g of this.games.values()) {
        if (!g.sim.isOver()) this.botEvent({ type: 'gameStart', game: this.gameEventInfo(g) }, 'GameStartEvent');
      }
      for (const c of this.challenges.values()) {
        // Replayed challenges carry no `compat` (lila).
        if (c.incoming && c.json.status === 'created') this.botEvent({ type: 'challenge', challenge: c.json }, 'ChallengeEvent');
      }
      return;
    }
    if ((m = path.match(/^\/api\/bot\/game\/stream\/(\w+)$/)) && method === 'GET') {
      const g = this.games.get(m[1] ?? '');
      if (g === undefined) return notFound();
      if (this.botTitle !== 'BOT') return bad('This endpoint can only be used with a Bot account');
      record.status = 200;
      this.stats.gameStreamOpens.set(g.sim.id, (this.stats.gameStreamOpens.get(g.sim.id) ?? 0) + 1);
      const conn = this.openGameStream(g.streams, record.userAgent, res, record.userAgent);
      const full = this.gameFull(g);
      this.deliver(conn, 'game', `/api/bot/game/stream/${g.sim.id}`, 'GameFullEvent', full);
      if (g.opponentGoneAt !== undefined) {
        const left = Math.max(0, (this.opts.claimWinSeconds ?? 10) - Math.floor((Date.now() - g.opponentGoneAt) / 1000));
        const gone = { type: 'opponentGone', gone: true, claimWinInSeconds: left };
        this.deliver(conn, 'game', `/api/bot/game/stream/${g.sim.id}`, 'OpponentGoneEvent', gone);
      }
      if (g.sim.isOver()) conn.close();
      return;
    }
    if ((m = path.match(/^\/api\/bot\/game\/(\w+)\/(move|chat|abort|resign|draw|takeback|claim-victory|claim-draw)(?:\/([\w-]+))?$/))) {
      const g = this.games.get(m[1] ?? '');
      const action = m[2] ?? '';
      const arg = m[3];
      if (g === undefined) return notFound('No such game');
      const sim = g.sim;
      const me = g.botColor;
      const them = this.opponentColor(g);
      const now = Date.now();
      if (action === 'chat' && method === 'GET') {
        send(200, sim.chat.map((c) => ({ text: c.text, user: c.user })), 'PlayerGameChat');
        return;
      }
      if (method !== 'POST') return notFound();
      switch (action) {
        case 'move': {
          const r = sim.play(me, arg ?? '', now);
          if (!r.ok) {
            if (sim.isOver()) this.changed(g);
            return bad(r.error);
          }
          const offering = url.searchParams.get('offeringDraw') === 'true';
          ok();
          if (offering && !sim.isOver()) {
            if (g.driver.spec.acceptDraws) sim.finish('draw', undefined);
            else sim.setOffer('draw', me, true);
          }
          this.changed(g);
          return;
        }
        case 'chat': {
          const form = new URLSearchParams(body);
          const text = form.get('text') ?? '';
          const room = form.get('room');
          if ((room !== 'player' && room !== 'spectator') || text === '' || text.length > 140) return bad('Invalid chat message');
          ok();
          this.chat(sim.id, this.bot.username, room, text);
          return;
        }
        case 'abort':
          if (sim.isOver() || sim.plies() >= 2) return bad('This game can no longer be aborted');
          ok();
          sim.finish('aborted', undefined);
          this.changed(g);
          return;
        case 'resign':
          if (sim.isOver()) return bad('This game cannot be resigned');
          ok();
          if (sim.plies() < 2) sim.finish('aborted', undefined);
          else sim.finish('resign', them);
          this.changed(g);
          return;
        case 'draw': {
          if (sim.isOver()) return bad('This game is over');
          const yes = arg === 'yes' || arg === 'true';
          ok();
          if (yes && (sim.offers('draw', them) || g.driver.spec.acceptDraws)) sim.finish('draw', undefined);
          else if (yes) sim.setOffer('draw', me, true);
          else sim.setOffer('draw', them, false);
          this.changed(g);
          return;
        }
        case 'takeback': {
          if (sim.isOver()) return bad('This game is over');
          const yes = arg === 'yes' || arg === 'true';
          ok();
          if (yes && sim.offers('takeback', them)) sim.takeback(them);
          else if (yes && g.driver.spec.acceptTakebacks) sim.takeback(me);
          else if (yes) sim.setOffer('takeback', me, true);
          else sim.setOffer('takeback', them, false);
          this.changed(g);
          for (const w of g.answerWaiters.splice(0)) w();
          return;
        }
        case 'claim-victory': {
          const claimable = g.opponentGoneAt !== undefined && now - g.opponentGoneAt >= (this.opts.claimWinSeconds ?? 10) * 1000;
          if (sim.isOver() || !claimable) return bad('You cannot claim the win on this game');
          ok();
          sim.finish('timeout', me);
          this.changed(g);
          return;
        }
        case 'claim-draw':
          return bad('You cannot claim a draw on this game');
      }
      return notFound();
    }
    if ((m = path.match(/^\/api\/challenge\/(\w+)\/(accept|decline|cancel)$/)) && method === 'POST') {
      const c = this.challenges.get(m[1] ?? '');
      const action = m[2];
      if (c === undefined || c.json.status !== 'created') return notFound('Challenge not found');
      if (action === 'accept') {
        if (!c.incoming) return notFound('Challenge not found');
        // lila checks the bot-vs-bot cap on accepting as on challenging (BotLimit.scala).
        if (this.opts.botDailyCapReached && c.json.challenger.title === 'BOT') {
          return send(429, { error: 'You played 100 games against other bots today, please wait.', ratelimit: { key: 'bot.vsBot.day', seconds: 86398 } }, undefined);
        }
        clearTimeout(c.expiry);
        c.json = { ...c.json, status: 'accepted' };
        ok();
        this.acceptedChallenge(c);
        return;
      }
      if (action === 'decline') {
        const reason = new URLSearchParams(body).get('reason') ?? 'generic';
        if (!(DECLINE_REASONS as readonly string[]).includes(reason)) return bad(`Invalid reason ${reason}`);
        clearTimeout(c.expiry);
        c.json = { ...c.json, status: 'declined' };
        c.declineReason = reason;
        return ok();
      }
      clearTimeout(c.expiry);
      ok();
      this.cancelChallenge(c.json.id);
      return;
    }
    if ((m = path.match(/^\/api\/challenge\/([\w-]+)$/)) && method === 'POST') {
      // lichess reads form data or a JSON object (`{"clock.limit": 180, "rated": true}` or `{"clock": {"limit": 180}}`).
      const form = String(req.headers['content-type'] ?? '').includes('application/json') ? jsonForm(body) : new URLSearchParams(body);
      if (form === undefined) return bad('Invalid JSON body');
      return this.botChallenges(m[1] ?? '', form, send);
    }
    notFound(`No route for ${method} ${path}`);
  }

  private acceptedChallenge(c: ChallengeRecord): void {
    const j = c.json;
    const challenger = this.users.get(j.challenger.id) ?? this.user(j.challenger.name);
    const botColor: Color = (j.finalColor ?? 'white') === 'white' ? 'black' : 'white';
    const tc = j.timeControl;
    const clock = tc.type === 'clock' ? { initial: tc.limit * 1000, increment: tc.increment * 1000 } : undefined;
    const days = tc.type === 'correspondence' ? tc.daysPerTurn : undefined;
    // This server makes chess challenges only (the lishogi profile has its own games).
    const variant: VariantKey = isChessVariantKey(j.variant.key) ? j.variant.key : 'standard';
    this.createGame(j.id, botColor, this.simUser(challenger), variant, j.initialFen ?? 'startpos', clock, days, j.rated, c.spec ?? {}, 'friend', []);
  }

  /** The bot challenges a user (matchmaking). */
  private botChallenges(username: string, form: URLSearchParams, send: Reply<SchemaName>['send']): void {
    const target = this.users.get(lower(username));
    if (target === undefined) return send(404, { error: 'User not found' }, 'NotFound');
    if (this.opts.botDailyCapReached && target.title === 'BOT') {
      return send(429, { error: 'You played 100 games against other bots today, please wait.', ratelimit: { key: 'bot.vsBot.day', seconds: 86398 } }, undefined);
    }
    const id = this.newId();
    const limit = Number(form.get('clock.limit') ?? 180);
    const increment = Number(form.get('clock.increment') ?? 0);
    const variant = (form.get('variant') ?? 'standard') as VariantKey;
    const days = form.get('days') !== null ? Number(form.get('days')) : undefined;
    const speed: Speed = days !== undefined ? 'correspondence' : speedOfClock(limit, increment);
    const finalColor: Color = this.random() < 0.5 ? 'white' : 'black';
    const json: ChallengeJson = {
      id,
      url: `${this.url}/${id}`,
      status: 'created',
      challenger: this.challengeUser(this.botUser()),
      destUser: this.challengeUser(this.simUser(target)),
      variant: variantJson(variant),
      rated: form.get('rated') === 'true',
      speed,
      timeControl: days !== undefined ? { type: 'correspondence', daysPerTurn: days } : { type: 'clock', limit, increment, show: `${limit / 60}+${increment}` },
      color: 'random',
      finalColor,
      perf: { icon: '\ue019', name: perfName(variant, speed) },
      direction: 'out',
    };
    const record: ChallengeRecord = { json, spec: target.opponent, expiry: undefined, incoming: false };
    this.challenges.set(id, record);
    send(200, json, 'ChallengeJson');
    // lila echoes our own outgoing challenge on the event stream.
    this.botEvent({ type: 'challenge', challenge: json, compat: { bot: true, board: true } }, 'ChallengeEvent');
    record.expiry = this.later(this.opts.challengeExpiryMs ?? 20_000, () => this.cancelChallenge(id));
    const answer = target.onChallenge ?? 'accept';
    if (answer === 'ignore') return;
    this.later(target.answerDelayMs ?? 20, () => {
      if (record.json.status !== 'created') return;
      clearTimeout(record.expiry);
      if (answer === 'accept') {
        record.json = { ...record.json, status: 'accepted' };
        const botColor = finalColor;
        const clock = days !== undefined ? undefined : { initial: limit * 1000, increment: increment * 1000 };
        this.createGame(id, botColor, this.simUser(target), variant, 'startpos', clock, days, json.rated, target.opponent ?? {}, 'friend', []);
        return;
      }
      const key = target.declineReason ?? 'generic';
      record.json = { ...record.json, status: 'declined' };
      record.declineReason = key;
      this.botEvent(
        { type: 'challengeDeclined', challenge: { ...record.json, declineReason: DECLINE_TEXT[key], declineReasonKey: key.toLowerCase() } },
        'ChallengeDeclinedEvent',
      );
    });
  }

  /** Cloud evaluations served by GET /api/cloud-eval, by FEN (tests fill it in). */
  readonly cloudEvals = new Map<string, { depth: number; knodes: number; pvs: { moves: string; cp?: number; mate?: number }[] }>();
  /** Whether GET /api/users/status shows the bot online (tests switch it off). */
  usersStatusOnline = true;

  /** SAN of the game's moves. */
  private sanMoves(sim: SimGame): string[] {
    const replay = new SimGame({ ...sim.init, firstMoveMs: Number.MAX_SAFE_INTEGER }, 0);
    const sans: string[] = [];
    for (const uci of sim.moves) {
      const p = replay.position();
      const mv = parseUci(uci);
      if (mv) sans.push(makeSan(p, normalizeMove(p, mv)));
      replay.play(replay.turn(), uci, 0);
    }
    return sans;
  }

  /** GameJson of the spec (the fields a bot client reads), for `Accept: application/json`. */
  private exportJson(sim: SimGame, opts: { clocks: boolean; opening: boolean; moves: boolean }): unknown {
    const player = (u: SimUser): unknown => ({ user: { name: u.username, id: u.id, ...(u.title ? { title: u.title } : {}) }, rating: u.rating });
    const clocks = sim.clockAfter.filter((c): c is number => c !== undefined).map((c) => Math.round(c / 10));
    return {
      id: sim.id,
      rated: sim.init.rated,
      variant: sim.init.variant,
      speed: sim.init.speed,
      perf: sim.init.variant === 'standard' || sim.init.variant === 'fromPosition' ? sim.init.speed : sim.init.variant,
      createdAt: sim.init.createdAt,
      lastMoveAt: Date.now(),
      status: sim.status,
      source: sim.init.source,
      players: { white: player(sim.init.white), black: player(sim.init.black) },
      ...(sim.winner !== undefined ? { winner: sim.winner } : {}),
      ...(opts.moves ? { moves: this.sanMoves(sim).join(' ') } : {}),
      ...(sim.init.clock ? { clock: { initial: sim.init.clock.initial / 1000, increment: sim.init.clock.increment / 1000, totalTime: sim.init.clock.initial / 1000 + (40 * sim.init.clock.increment) / 1000 } } : {}),
      ...(opts.clocks && sim.init.clock ? { clocks: [Math.round(sim.init.clock.initial / 10), Math.round(sim.init.clock.initial / 10), ...clocks] } : {}),
    };
  }

  private exportPgn(sim: SimGame, opts: { clocks: boolean; evals: boolean; opening: boolean; tags: boolean; moves: boolean } = { clocks: true, evals: true, opening: true, tags: true, moves: true }): string {
    const sans = this.sanMoves(sim);
    const result = sim.winner === 'white' ? '1-0' : sim.winner === 'black' ? '0-1' : sim.isOver() && (sim.status as GameStatus) !== 'aborted' ? '1/2-1/2' : '*';
    const created = new Date(sim.init.createdAt);
    const pad = (n: number): string => String(n).padStart(2, '0');
    const speed = sim.init.speed.charAt(0).toUpperCase() + sim.init.speed.slice(1);
    // As lichess writes them: `Rated blitz game`, the creation time in UTC; the fake server knows no
    // opening book, so ECO and Opening stay "?" (lichess writes them with opening=true).
    const event = `${sim.init.rated ? 'Rated' : 'Casual'} ${sim.init.variant === 'standard' || sim.init.variant === 'fromPosition' ? speed.toLowerCase() : VARIANT_NAMES[sim.init.variant]} game`;
    const tags = [
      `[Event "${event}"]`,
      `[Site "${this.url}/${sim.id}"]`,
      `[Date "${created.getUTCFullYear()}.${pad(created.getUTCMonth() + 1)}.${pad(created.getUTCDate())}"]`,
      `[White "${sim.init.white.username}"]`,
      `[Black "${sim.init.black.username}"]`,
      `[Result "${result}"]`,
      `[UTCDate "${created.getUTCFullYear()}.${pad(created.getUTCMonth() + 1)}.${pad(created.getUTCDate())}"]`,
      `[UTCTime "${pad(created.getUTCHours())}:${pad(created.getUTCMinutes())}:${pad(created.getUTCSeconds())}"]`,
      `[WhiteElo "${sim.init.white.rating}"]`,
      `[BlackElo "${sim.init.black.rating}"]`,
      `[Variant "${VARIANT_NAMES[sim.init.variant]}"]`,
      ...(sim.init.clock ? [`[TimeControl "${sim.init.clock.initial / 1000}+${sim.init.clock.increment / 1000}"]`] : ['[TimeControl "-"]']),
      ...(opts.opening ? ['[ECO "?"]', '[Opening "?"]'] : []),
      `[Termination "${sim.status === 'outoftime' || sim.status === 'timeout' ? 'Time forfeit' : 'Normal'}"]`,
    ];
    const clk = (ms: number): string => {
      const t = Math.max(0, Math.floor(ms / 1000));
      return `${Math.floor(t / 3600)}:${pad(Math.floor(t / 60) % 60)}:${pad(t % 60)}`;
    };
    const words: string[] = [];
    sans.forEach((san, i) => {
      if (i % 2 === 0) words.push(`${i / 2 + 1}.`);
      words.push(san);
      const c = sim.clockAfter[i];
      if (opts.clocks && c !== undefined) words.push(`{ [%clk ${clk(c)}] }`);
    });
    const movetext = opts.moves ? `${[...words, result].join(' ')}\n` : '';
    return `${opts.tags ? `${tags.join('\n')}\n\n` : ''}${movetext}`;
  }
}
