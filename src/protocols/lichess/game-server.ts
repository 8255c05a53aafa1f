/**
 * The lichess bot as a GameServer: checks the token (`bot:play`) and the account (BOT title), follows the
 * event stream, accepts or declines challenges, runs one LichessGame per game within the concurrency, and
 * resumes every ongoing game after a restart (`/api/account/playing` and the `gameStart` lines the event
 * stream replays on open) without going over the concurrency: extra games wait for a free slot, most
 * urgent first. A slot is held from the moment a challenge is accepted (or our own challenge is sent) until
 * its game ends, so challenges that arrive together cannot overbook (lichess-bot#1101, #1163, #1221).
 * Correspondence games give their slot back while the opponent thinks and are checked every
 * `checkinPeriodS`.
 */
import { join } from 'node:path';
import type winston from 'winston';
import { Result } from '../../core/result.js';
import { KishiError } from '../../core/result.js';
import type { LichessConfig } from '../../config/sections/lichess.js';
import type { Dispatcher } from '../../bot/dispatcher.js';
import type { GameServer, GracefulStop } from '../../bot/server.js';
import type { LichessStatus } from '../../bot/server-status.js';
import { childLogger } from '../../log/logger.js';
import type { Transcript } from '../../log/transcript.js';
import { sleep } from './backoff.js';
import { BotState } from './bot-state.js';
import { challengeOrder, checkChallenge } from './challenge-filter.js';
import { LichessClient } from './client.js';
import type { GameEnd } from './game.js';
import { LichessGame } from './game.js';
import { Matchmaker } from './matchmaking.js';
import type { MoveSourceChain } from './move-sources/move-source.js';
import { moveSourceFactory } from './move-sources/create-move-sources.js';
import { OnlineBlockList } from './online-block-list.js';
import type { ServerProfile } from './server-profile.js';
import { gameSilenceMs, LICHESS_PROFILE } from './server-profile.js';
import { ResilientStream } from './stream.js';
import type { Account, ChallengeJson, DeclineReason, GameEventInfo, IncomingEvent, PlayingGame, PlayingResponse, TokenTestResponse } from './types.js';

/** Timings, production defaults in comments; tests shrink them. */
export interface BotTimings {
  /** Reconnect a silent event stream (config `streamSilenceMs`). */
  readonly silenceMs: number;
  /** Reconnect a silent game stream (config `gameStreamSilenceMs`). */
  readonly gameSilenceMs: number;
  /** Event-stream reconnect backoff (1 s doubling to 60 s). */
  readonly reconnectMinMs: number;
  readonly reconnectMaxMs: number;
  /** Game-stream reconnect backoff cap (5 s: a game's clock is running). */
  readonly gameReconnectMaxMs: number;
  /** Per-call timeout (config `requestTimeoutMs`). */
  readonly requestTimeoutMs: number;
  /** Multiplies every 429 block (1). */
  readonly rateLimitScale: number;
  /** Retry delays for 5xx/network failures (100 ms doubling to 5 s, for 60 s). */
  readonly retryMinDelayMs: number;
  readonly retryMaxDelayMs: number;
  readonly retryForMs: number;
  /** Added to lichess's `claimWinInSeconds` (500 ms). */
  readonly claimMarginMs: number;
  /** How long an accepted challenge holds a slot while waiting for its `gameStart` (20 s). */
  readonly acceptHoldMs: number;
  /** Correspondence check-in period (config `correspondence.checkinPeriodS`). */
  readonly checkinMs: number;
  /** Matchmaking tick (5 s). */
  readonly matchmakingTickMs: number;
  /** `/api/users/status` check period (config `statusCheckS`; 0: never). */
  readonly statusCheckMs: number;
  /** Online block list refresh (config `challenge.onlineBlockListRefreshS`). */
  readonly blockListRefreshMs: number;
  /** Wait between retries of an online move source (100 ms). */
  readonly onlineRetryDelayMs: number;
}

export interface LichessBotOptions {
  /** The server: lichess (default) or lishogi (src/protocols/lishogi/profile.ts). */
  readonly profile?: ServerProfile;
  readonly config: LichessConfig;
  readonly token: string;
  readonly moveOverheadMs: number;
  /** Think on the opponent's time (config `engine.ponder`). */
  readonly ponder?: boolean;
  readonly dispatcher: Dispatcher;
  /** `records.dir`; records go to `<dir>/lichess/`. Undefined: no records. */
  readonly recordsDir?: string;
  readonly transcript?: Transcript;
  readonly timings?: Partial<BotTimings>;
  readonly log?: winston.Logger;
  /** Random source for matchmaking, book and cloud-eval choices. */
  readonly random?: () => number;
}

/** An acceptable challenge waiting for a free slot (config `challenge.queueTimeS`, sortBy, preference). */
interface WaitingChallenge {
  readonly c: ChallengeJson;
  readonly seq: number;
  /** When it arrived and when it is declined if no slot frees, ms since the epoch. */
  readonly since: number;
  readonly until: number;
  timer?: NodeJS.Timeout;
}

interface ActiveGame {
  readonly game: LichessGame;
  readonly done: Promise<GameEnd>;
}

const DAY_MS = 86_400_000;

export class LichessBot implements GameServer {
  readonly name: string;
  readonly profile: ServerProfile;
  readonly client: LichessClient;
  private readonly config: LichessConfig;
  private readonly timings: BotTimings;
  private readonly log: winston.Logger;
  private account: Account | undefined;
  private eventStream: ResilientStream | undefined;
  private readonly games = new Map<string, ActiveGame>();
  /** Slots held by accepted challenges and our pending challenges, until their game starts. */
  private readonly holds = new Map<string, NodeJS.Timeout>();
  /** Games waiting for a free slot (resumed beyond the concurrency), most urgent first. */
  private readonly waiting: { id: string; variant?: string }[] = [];
  /** Correspondence games left while the opponent thinks. */
  private readonly parked = new Set<string>();
  /** Games against bots (24 h cap, kept on disk) and takebacks granted per game. */
  private readonly botState: BotState;
  /** Start times of games per opponent (recent-games limit). */
  private readonly gamesByOpponent = new Map<string, number[]>();
  private readonly opponentOf = new Map<string, string>();
  private matchmaker: Matchmaker | undefined;
  private readonly challengeBlockList: OnlineBlockList;
  private readonly matchmakingBlockList: OnlineBlockList;
  private readonly moveSources: (() => MoveSourceChain) | undefined;
  private readonly challengeQueue: WaitingChallenge[] = [];
  private challengeSeq = 0;
  private challengePumpScheduled = false;
  private timers: NodeJS.Timeout[] = [];
  private stopping = false;
  private stopped = false;
  private resolveStart: (() => void) | undefined;
  private rejectStart: ((e: Error) => void) | undefined;
  /** Finished games, for tests and the soak benchmark. */
  readonly finished: GameEnd[] = [];
  /** Counters: challenges accepted and declined per reason, peak games at once. */
  readonly stats = { accepted: 0, declined: {} as Record<string, number>, peakGames: 0, eventStreamOpens: 0, offlineReconnects: 0 };

  constructor(private readonly opts: LichessBotOptions) {
    this.profile = opts.profile ?? LICHESS_PROFILE;
    this.name = this.profile.name;
    this.config = opts.config;
    this.log = opts.log ?? childLogger(this.profile.name);
    this.timings = {
      silenceMs: opts.config.streamSilenceMs,
      gameSilenceMs: gameSilenceMs(opts.profile ?? LICHESS_PROFILE, opts.config.gameStreamSilenceMs),
      reconnectMinMs: 1000,
      reconnectMaxMs: 60_000,
      gameReconnectMaxMs: 5000,
      requestTimeoutMs: opts.config.requestTimeoutMs,
      rateLimitScale: 1,
      retryMinDelayMs: 100,
      retryMaxDelayMs: 5000,
      retryForMs: 60_000,
      claimMarginMs: 500,
      acceptHoldMs: 20_000,
      checkinMs: opts.config.correspondence.checkinPeriodS * 1000,
      matchmakingTickMs: 5000,
      statusCheckMs: opts.config.statusCheckS * 1000,
      blockListRefreshMs: opts.config.challenge.onlineBlockListRefreshS * 1000,
      onlineRetryDelayMs: 100,
      ...opts.timings,
    };
    this.client = new LichessClient({
      baseUrl: opts.config.url,
      token: opts.token,
      requestTimeoutMs: this.timings.requestTimeoutMs,
      retryForMs: this.timings.retryForMs,
      retryMinDelayMs: this.timings.retryMinDelayMs,
      retryMaxDelayMs: this.timings.retryMaxDelayMs,
      rateLimitScale: this.timings.rateLimitScale,
      log: childLogger(`${this.profile.name}/client`),
      endpoints: this.profile.endpoints,
      ...(opts.transcript ? { transcript: opts.transcript } : {}),
    });
    this.botState = new BotState(opts.recordsDir !== undefined ? join(opts.recordsDir, this.profile.name, 'bot-state.json') : undefined);
    const listOpts = { refreshMs: this.timings.blockListRefreshMs, timeoutMs: this.timings.requestTimeoutMs, log: this.log };
    this.challengeBlockList = new OnlineBlockList(opts.config.challenge.onlineBlockList, listOpts);
    this.matchmakingBlockList = new OnlineBlockList(opts.config.matchmaking.onlineBlockList, listOpts);
    // Books, cloud evals and tablebases are chess sources (lichess-bot's online_moves).
    this.moveSources = this.profile.game !== 'chess' ? undefined : moveSourceFactory({
      config: opts.config,
      client: this.client,
      token: opts.token,
      me: () => this.account?.username ?? '',
      log: childLogger('lichess/moves'),
      retryDelayMs: this.timings.onlineRetryDelayMs,
      ...(opts.random ? { random: opts.random } : {}),
    });
  }

  /** Games against bots in the last 24 hours, restarts included. */
  botGamesToday(): number {
    return this.botState.botGamesToday();
  }

  /** Games being played now (correspondence games waiting for the opponent excluded). */
  activeGames(): number {
    return this.games.size;
  }

  /**
   * The challenge queue and limits as the watch view shows them (read-only): challenges waiting for a
   * free slot in the order they will be taken, games in progress, games against bots in 24 h.
   */
  status(): LichessStatus {
    const now = Date.now();
    return {
      kind: 'lichess',
      name: this.name,
      ...(this.account ? { account: this.account.username } : {}),
      queue: [...this.challengeQueue].sort(challengeOrder(this.config.challenge)).map((w) => ({
        id: w.c.id,
        challenger: w.c.challenger.name,
        ...(w.c.challenger.rating !== undefined ? { rating: w.c.challenger.rating } : {}),
        variant: w.c.variant.key,
        speed: w.c.speed,
        rated: w.c.rated,
        waitedS: Math.max(0, Math.round((now - w.since) / 1000)),
      })),
      gamesInProgress: this.games.size,
      concurrency: this.config.concurrency,
      botGamesToday: this.botState.botGamesToday(),
      botGamesPerDay: this.config.challenge.botGamesPerDay,
    };
  }

  /** Games playing plus slots held for accepted or sent challenges. */
  busySlots(): number {
    return this.games.size + this.holds.size;
  }

  /** The account, once `start` has checked it. */
  me(): Account | undefined {
    return this.account;
  }

  /**
   * Checks the token's `bot:play` scope (`/api/token/test`) and that the account is a BOT.
   * The error message is one line a user can act on.
   */
  async checkAccount(): Promise<Result<Account, KishiError>> {
    this.log.info(`connecting to ${this.config.url}...`);
    const { name, tokenEnv } = this.profile;
    // Every retry is shown: without the network the first answer may be a minute away.
    const onRetry = (failure: string, delayMs: number, givesUpInMs: number): void => {
      this.log.warn(`${failure}; retrying in ${(delayMs / 1000).toFixed(1)} s (giving up in ${Math.round(givesUpInMs / 1000)} s)`);
    };
    const stillWanted = (): boolean => !this.stopping;
    // lishogi has no token test: its scopes show when the event stream refuses the token (401/403).
    if (this.client.offers('tokenTest')) {
      const test = await this.client.request<TokenTestResponse>('tokenTest', { text: this.opts.token, onRetry, stillWanted });
      if (test.isErr) return Result.err(new KishiError('ERR_LICHESS_TOKEN', `cannot check ${tokenEnv}: ${test.error.message}`));
      const info = test.value.data[this.opts.token];
      if (info === null || info === undefined) {
        return Result.err(new KishiError('ERR_LICHESS_TOKEN', `${tokenEnv} is not a valid ${name} token (${name} does not recognise it)`));
      }
      const scopes = info.scopes.split(',').map((s) => s.trim());
      if (!scopes.includes('bot:play')) {
        return Result.err(
          new KishiError('ERR_LICHESS_SCOPE', `${tokenEnv} lacks the bot:play scope (it has: ${info.scopes || 'none'}); create a token with "Play games with the bot API"`),
        );
      }
    }
    const account = await this.client.request<Account>('account', { onRetry, stillWanted });
    if (account.isErr) {
      const refused = account.error.status === 401 || account.error.status === 403;
      return Result.err(
        new KishiError(
          refused ? 'ERR_LICHESS_TOKEN' : 'ERR_LICHESS_ACCOUNT',
          refused ? `${name} refused ${tokenEnv}: ${account.error.message}` : `cannot read the ${name} account: ${account.error.message}`,
        ),
      );
    }
    const acc = account.value.data;
    this.client.setUser(acc.username);
    if (acc.title !== 'BOT') {
      return Result.err(new KishiError('ERR_LICHESS_NOT_BOT', `the ${name} account ${acc.username} is not a BOT account; ${this.profile.upgradeHint}`));
    }
    return Result.ok(acc);
  }

  /** Serves until `stop` completes; rejects on a fatal error (bad token, not a bot account). */
  async start(): Promise<void> {
    const checked = await this.checkAccount();
    // A stop while connecting (Ctrl-C before the server answered) is what was asked, not a failure:
    // the requests it cut short say "no longer wanted", and nothing is started after it.
    if (this.stopping) {
      this.log.info('stopped before connecting');
      return;
    }
    if (checked.isErr) throw checked.error;
    this.account = checked.value;
    this.log.info(`logged in to ${this.config.url} as ${this.account.username}`);
    const finished = new Promise<void>((resolve, reject) => {
      this.resolveStart = resolve;
      this.rejectStart = reject;
    });
    await Promise.all([this.challengeBlockList.start(), this.matchmakingBlockList.start()]);
    await this.resumeOngoing();
    if (this.stopping) {
      // Stopped meanwhile: the block lists' refresh timers started after `stop` cleared them.
      this.challengeBlockList.stop();
      this.matchmakingBlockList.stop();
      return;
    }
    this.startEventStream();
    if (this.timings.statusCheckMs > 0) this.timers.push(setInterval(() => void this.checkOnline(), this.timings.statusCheckMs));
    if (this.config.correspondence.checkinPeriodS > 0) {
      this.timers.push(setInterval(() => void this.checkIn(), this.timings.checkinMs));
    }
    if (this.config.matchmaking.enabled) this.startMatchmaking();
    return finished;
  }

  /** A graceful stop resigns the games with `onShutdown: resign`, else plays them out. */
  gracefulStop(): GracefulStop {
    return this.config.onShutdown === 'resign' ? 'resign' : 'finish';
  }

  /** Stops accepting games; `graceful` plays current games out (or resigns them, per `onShutdown`). */
  async stop(graceful: boolean): Promise<void> {
    if (this.stopped) return;
    this.stopping = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await this.matchmaker?.stop();
    this.challengeBlockList.stop();
    this.matchmakingBlockList.stop();
    for (const w of this.challengeQueue.splice(0)) clearTimeout(w.timer);
    for (const [id, timer] of this.holds) {
      clearTimeout(timer);
      this.holds.delete(id);
    }
    this.waiting.length = 0;
    const games = [...this.games.values()];
    if (graceful) {
      this.log.info(`stopping: ${games.length} game(s) in progress will be ${this.config.onShutdown === 'resign' ? 'resigned' : 'played out'}`);
      for (const g of games) {
        if (this.config.onShutdown === 'resign') void g.game.shutdown('resign');
        else if (g.game.isCorrespondence()) void g.game.shutdown('leave');
      }
    } else {
      for (const g of games) void g.game.shutdown('leave');
    }
    // Games that start meanwhile (accepted just before the signal) are awaited too.
    while (this.games.size > 0) await Promise.all([...this.games.values()].map((g) => g.done));
    this.eventStream?.stop();
    this.stopped = true;
    this.resolveStart?.();
  }

  // ---- event stream -------------------------------------------------------------------------------

  private startEventStream(): void {
    this.eventStream = new ResilientStream({
      name: 'event stream',
      open: (signal) => this.client.openStream('streamEvent', [], signal),
      onOpen: () => {
        this.stats.eventStreamOpens++;
      },
      onMessage: (m) => {
        const ev = this.profile.incomingEvent(m);
        if (ev !== undefined) this.onEvent(ev);
      },
      onOpenError: (e) => {
        if (e.kind === 'http' && (e.status === 401 || e.status === 403)) {
          this.rejectStart?.(new KishiError('ERR_LICHESS_TOKEN', `the event stream refused ${this.profile.tokenEnv} (it needs the bot:play scope): ${e.message}`));
          return 'stop';
        }
        return 'retry';
      },
      shouldReconnect: () => !this.stopped,
      silenceMs: this.timings.silenceMs,
      backoff: { minMs: this.timings.reconnectMinMs, maxMs: this.timings.reconnectMaxMs },
      blockedFor: () => this.client.blockedFor('streamEvent'),
      log: this.log,
      transcript: this.client.wire(),
    });
    void this.eventStream.start();
  }

  private onEvent(ev: IncomingEvent): void {
    switch (ev.type) {
      case 'challenge':
        this.onChallenge(ev.challenge);
        break;
      case 'challengeCanceled':
        this.dropWaitingChallenge(ev.challenge.id);
        this.releaseHold(ev.challenge.id);
        this.matchmaker?.onChallengeGone(ev.challenge, false);
        break;
      case 'challengeDeclined':
        this.matchmaker?.onChallengeGone(ev.challenge, true);
        break;
      case 'gameStart':
        this.matchmaker?.onGameStart(ev.game.gameId);
        // The event stream replays every ongoing game when it opens: a parked correspondence game on the
        // opponent's move stays parked (the check-in reopens it on our move).
        if (this.parked.has(ev.game.gameId) && ev.game.speed === 'correspondence' && ev.game.isMyTurn === false) break;
        this.startGame(ev.game.gameId, ev.game.variant?.key);
        break;
      case 'gameFinish':
        this.onGameFinish(ev.game);
        break;
    }
  }

  // ---- challenges ---------------------------------------------------------------------------------

  private myRating = (perf: string): number | undefined => this.account?.perfs?.[perf]?.rating;

  private recent(opponent: string, withinMs: number): number {
    const now = Date.now();
    return (this.gamesByOpponent.get(opponent) ?? []).filter((t) => now - t < withinMs).length;
  }

  private gamesWith(opponent: string): number {
    let n = 0;
    for (const id of this.games.keys()) if (this.opponentOf.get(id) === opponent) n++;
    return n;
  }

  private challengeContext(): Parameters<typeof checkChallenge>[2] | undefined {
    const me = this.account;
    if (me === undefined) return undefined;
    return {
      myId: me.id,
      myRating: this.myRating,
      busySlots: this.busySlots(),
      concurrency: this.config.concurrency,
      gamesWith: (id) => this.gamesWith(id),
      recentGamesWith: (id) => this.recent(id, this.config.challenge.recentBotChallengeAgeS * 1000),
      botGamesToday: this.botState.botGamesToday(),
      supportsVariant: (v) => this.opts.dispatcher.supports(this.profile.game, v),
      shuttingDown: this.stopping,
      onlineBlocked: (id) => this.challengeBlockList.has(id),
    };
  }

  /**
   * A challenge that passes every filter except a free slot waits in the queue: challenges arriving
   * together are ordered by `sortBy`/`preference` before the free slots go, and with `queueTimeS` > 0 one
   * may wait that long for a slot (lichess-bot's challenge queue); otherwise it is declined `later`.
   */
  private onChallenge(c: ChallengeJson): void {
    const ctx = this.challengeContext();
    if (ctx === undefined) return;
    if (this.games.has(c.id) || this.holds.has(c.id) || this.challengeQueue.some((w) => w.c.id === c.id)) return;
    // Admission: every filter but the slot count.
    const decision = checkChallenge(c, this.config.challenge, { ...ctx, busySlots: 0, concurrency: Number.POSITIVE_INFINITY });
    if (!decision.accept) {
      if (decision.reason !== undefined) this.decline(c, decision.reason, decision.why);
      return;
    }
    const now = Date.now();
    const w: WaitingChallenge = { c, seq: this.challengeSeq++, since: now, until: now + this.config.challenge.queueTimeS * 1000 };
    if (this.config.challenge.queueTimeS > 0) {
      w.timer = setTimeout(() => {
        if (this.dropWaitingChallenge(c.id)) this.decline(c, 'later', `no free slot within ${this.config.challenge.queueTimeS} s`);
      }, this.config.challenge.queueTimeS * 1000);
    }
    this.challengeQueue.push(w);
    this.scheduleChallengePump();
  }

  private scheduleChallengePump(): void {
    if (this.challengePumpScheduled) return;
    this.challengePumpScheduled = true;
    setImmediate(() => {
      this.challengePumpScheduled = false;
      this.pumpChallenges();
    });
  }

  /** Gives free slots to waiting challenges in order; declines those that cannot wait. */
  private pumpChallenges(): void {
    this.challengeQueue.sort(challengeOrder(this.config.challenge));
    for (const w of [...this.challengeQueue]) {
      const ctx = this.challengeContext();
      if (ctx === undefined) return;
      const decision = checkChallenge(w.c, this.config.challenge, ctx);
      if (decision.accept) {
        this.dropWaitingChallenge(w.c.id);
        this.accept(w.c);
        continue;
      }
      const canWait = decision.reason === 'later' && !this.stopping && Date.now() < w.until;
      if (canWait) continue;
      this.dropWaitingChallenge(w.c.id);
      if (decision.reason !== undefined) this.decline(w.c, decision.reason, decision.why);
    }
  }

  /** Removes a waiting challenge; true if it was waiting. */
  private dropWaitingChallenge(id: string): boolean {
    const i = this.challengeQueue.findIndex((w) => w.c.id === id);
    if (i < 0) return false;
    clearTimeout(this.challengeQueue[i]?.timer);
    this.challengeQueue.splice(i, 1);
    return true;
  }

  private accept(c: ChallengeJson): void {
    this.stats.accepted++;
    this.hold(c.id);
    this.opponentOf.set(c.id, c.challenger.id.toLowerCase());
    this.log.info(`accepting challenge ${c.id} from ${c.challenger.name} (${c.variant.key} ${c.speed}${c.rated ? ' rated' : ''})`);
    void this.client.request('accept', { args: [c.id] }).then((r) => {
      if (r.isErr) {
        this.log.warn(`accepting ${c.id} failed: ${r.error.message}`);
        this.releaseHold(c.id);
      }
    });
  }

  private decline(c: ChallengeJson, reason: DeclineReason, why: string): void {
    this.stats.declined[reason] = (this.stats.declined[reason] ?? 0) + 1;
    this.log.info(`declining challenge ${c.id} from ${c.challenger.name}: ${reason} (${why})`);
    // lishogi's decline takes no reason (the reason stays in our log).
    void this.client.request('decline', { args: [c.id], ...(this.profile.declineReasons ? { form: { reason } } : {}) }).then((r) => {
      if (r.isErr) this.log.debug(`declining ${c.id} failed: ${r.error.message}`);
    });
  }

  /** Hourly (config `statusCheckS`): if lichess shows us offline, the event stream is dead; reconnect it. */
  private async checkOnline(): Promise<void> {
    const me = this.account;
    if (me === undefined || this.stopping) return;
    const r = await this.client.request<{ id: string; online?: boolean }[]>('usersStatus', { query: { ids: me.id } });
    if (r.isErr) return;
    const mine = r.value.data.find((u) => u.id.toLowerCase() === me.id.toLowerCase());
    if (mine !== undefined && mine.online !== true) {
      this.stats.offlineReconnects++;
      this.log.warn(`${this.profile.name} shows us offline; reconnecting the event stream`);
      this.eventStream?.reconnect(`${this.profile.name} shows us offline`);
    }
  }

  private hold(id: string, ms: number = this.timings.acceptHoldMs): void {
    const timer = setTimeout(() => {
      if (this.holds.delete(id)) {
        this.log.debug(`challenge ${id}: no game started; slot released`);
        this.pump();
      }
    }, ms);
    this.holds.set(id, timer);
  }

  private releaseHold(id: string): void {
    const timer = this.holds.get(id);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.holds.delete(id);
    this.pump();
  }

  // ---- games --------------------------------------------------------------------------------------

  /** Starts the handler of a game, or queues it while every slot is busy. */
  private startGame(id: string, variant: string | undefined): void {
    if (this.stopped || this.games.has(id)) return;
    const held = this.holds.get(id);
    if (held !== undefined) {
      clearTimeout(held);
      this.holds.delete(id);
    } else if (this.busySlots() >= this.config.concurrency) {
      if (!this.waiting.some((w) => w.id === id)) {
        this.waiting.push({ id, ...(variant ? { variant } : {}) });
        this.log.info(`game ${id}: waiting for a free slot (${this.busySlots()}/${this.config.concurrency} busy)`);
      }
      return;
    }
    this.parked.delete(id);
    const idx = this.waiting.findIndex((w) => w.id === id);
    if (idx >= 0) this.waiting.splice(idx, 1);
    const me = this.account;
    if (me === undefined) return;
    const game = new LichessGame({
      client: this.client,
      gameId: id,
      me: { id: me.id, username: me.username },
      config: this.config,
      moveOverheadMs: this.opts.moveOverheadMs,
      ponder: this.opts.ponder ?? false,
      profile: this.profile,
      acquirePlayer: (v) => this.opts.dispatcher.acquire(this.profile.game, v),
      engineName: this.opts.dispatcher.engineName(this.profile.game),
      recordsDir: this.opts.recordsDir !== undefined ? join(this.opts.recordsDir, this.profile.name) : undefined,
      timings: {
        silenceMs: this.timings.gameSilenceMs,
        reconnectMinMs: Math.min(this.timings.reconnectMinMs, 500),
        reconnectMaxMs: this.timings.gameReconnectMaxMs,
        claimMarginMs: this.timings.claimMarginMs,
      },
      log: childLogger(`${this.profile.name}/game`),
      queued: () => this.waiting.length + this.challengeQueue.length,
      ...(this.moveSources ? { moveSources: this.moveSources() } : {}),
      takebacks: { used: () => this.botState.takebacks(id), add: () => this.botState.addTakeback(id) },
      onFull: (full, color) => {
        const opp = color === 'white' ? full.black : full.white;
        const oppId = opp.id?.toLowerCase() ?? '';
        this.opponentOf.set(id, oppId);
        const isBot = opp.title === 'BOT';
        const firstSight = !this.gamesByOpponent.get(oppId)?.includes(full.createdAt);
        if (firstSight) this.gamesByOpponent.set(oppId, [...(this.gamesByOpponent.get(oppId) ?? []), full.createdAt]);
        if (isBot && Date.now() - full.createdAt < DAY_MS) this.botState.addBotGame(id, full.createdAt);
      },
    });
    const done = game.run(variant);
    this.games.set(id, { game, done });
    // A game that lichess starts while we stop (a challenge accepted just before) is resigned if so configured.
    if (this.stopping && this.config.onShutdown === 'resign') void game.shutdown('resign');
    this.stats.peakGames = Math.max(this.stats.peakGames, this.games.size);
    void done.then((end) => this.onGameDone(end));
  }

  private onGameDone(end: GameEnd): void {
    this.games.delete(end.gameId);
    this.opponentOf.delete(end.gameId);
    if (end.status !== 'disconnected') this.botState.forgetGame(end.gameId);
    if (end.status !== 'disconnected') this.finished.push(end);
    else if (end.correspondence && !this.stopping) this.parked.add(end.gameId);
    this.pump();
  }

  private onGameFinish(info: GameEventInfo): void {
    if (this.parked.delete(info.gameId)) {
      // A correspondence game that ended while we were away: connect once to write its records.
      this.startGame(info.gameId, info.variant?.key);
      return;
    }
    const idx = this.waiting.findIndex((w) => w.id === info.gameId);
    if (idx >= 0) this.waiting.splice(idx, 1);
    this.games.get(info.gameId)?.game.finishedByEvent(info);
  }

  /** Starts waiting games while slots are free. */
  private pump(): void {
    while (!this.stopping && this.waiting.length > 0 && this.busySlots() < this.config.concurrency) {
      const next = this.waiting.shift();
      if (next) this.startGame(next.id, next.variant);
    }
    if (this.challengeQueue.length > 0) this.scheduleChallengePump();
  }

  /** Resumes every ongoing game (after a restart), most urgent first. */
  private async resumeOngoing(): Promise<void> {
    const r = await this.client.request<PlayingResponse>('playing', { query: { nb: 50 } });
    if (r.isErr) {
      this.log.warn(`cannot list ongoing games: ${r.error.message}; relying on the event stream`);
      return;
    }
    const games = this.nowPlaying(r.value.data);
    if (games.length > 0) this.log.info(`resuming ${games.length} ongoing game(s)`);
    for (const g of games) {
      // A game whose speed the server does not tell (a lishogi variant on its move) is opened: its gameFull
      // says whether it has a clock, and a correspondence game then leaves while the opponent thinks.
      const correspondence = g.speed === 'correspondence';
      if (correspondence && !g.isMyTurn) {
        this.parked.add(g.gameId);
        continue;
      }
      this.startGame(g.gameId, g.variant.key);
    }
  }

  /** The ongoing games of `/api/account/playing`, read through the profile (lishogi's shapes differ). */
  private nowPlaying(data: PlayingResponse): PlayingGame[] {
    const list: readonly unknown[] = Array.isArray(data.nowPlaying) ? data.nowPlaying : [];
    return list.map((g) => this.profile.playingGame(g)).filter((g): g is PlayingGame => g !== undefined);
  }

  /** Correspondence check-in: connect the parked games where it is our turn. */
  private async checkIn(): Promise<void> {
    if (this.stopping) return;
    const r = await this.client.request<PlayingResponse>('playing', { query: { nb: 50 } });
    if (r.isErr) return;
    for (const g of this.nowPlaying(r.value.data)) {
      if (this.games.has(g.gameId)) continue;
      if (g.isMyTurn || !this.parked.has(g.gameId)) this.startGame(g.gameId, g.variant.key);
    }
  }

  // ---- matchmaking --------------------------------------------------------------------------------

  private startMatchmaking(): void {
    const me = this.account;
    if (me === undefined) return;
    this.matchmaker = new Matchmaker({
      client: this.client,
      config: this.config.matchmaking,
      myId: me.id.toLowerCase(),
      myRating: this.myRating,
      canChallenge: () => {
        if (this.stopping || this.busySlots() >= this.config.concurrency) return false;
        if (!this.config.matchmaking.allowDuringGames && this.busySlots() > 0) return false;
        return this.botState.botGamesToday() < this.config.challenge.botGamesPerDay;
      },
      // Held until the matchmaker releases it (answer, cancel) or the game starts, with a margin for a late gameStart.
      reserve: (id) => this.hold(id, this.config.matchmaking.challengeTimeoutS * 1000 + this.timings.acceptHoldMs),
      release: (id) => this.releaseHold(id),
      isBlocked: (id) =>
        this.matchmakingBlockList.has(id) ||
        (this.config.matchmaking.includeChallengeBlockList &&
          (this.challengeBlockList.has(id) || this.config.challenge.blockList.some((n) => n.toLowerCase() === id))),
      log: childLogger('lichess/matchmaking'),
      ...(this.opts.recordsDir !== undefined ? { stateFile: join(this.opts.recordsDir, 'lichess', 'matchmaking-declines.json') } : {}),
      ...(this.opts.random ? { random: this.opts.random } : {}),
    });
    const mm = this.matchmaker;
    const tick = (): void => void mm.tick();
    this.timers.push(setInterval(tick, this.timings.matchmakingTickMs));
    void sleep(0).then(tick);
  }

  /** The matchmaker, for tests. */
  matchmaking(): Matchmaker | undefined {
    return this.matchmaker;
  }
}
