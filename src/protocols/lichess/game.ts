/**
 * One lichess game, from its game stream to its records. The stream's `gameFull` and `gameState` lines
 * drive the position (`moves` is always the full list: the tail is applied, a shorter list is a takeback);
 * the handler thinks only when it is our turn, through the Player (which searches off the I/O thread), and
 * posts the move. Rules it keeps (lichess-bot behaviour plus the fixes its users asked for):
 * - The game ends only when lichess says so (status other than `started`), never on our own draw
 *   detection (lichess-bot#221).
 * - A move whose POST failed with an unknown outcome (network, 5xx) is not blindly re-sent: the stream is
 *   reopened, and the fresh `gameFull` decides whether the move is still owed (a stale re-send could be
 *   played in a later position). A 429 on a move is waited out and retried while the position is unchanged.
 * - Our first move is made within the abort window; if the opponent makes no first move within
 *   `abortTimeS` the game is aborted; after `opponentGone` the win is claimed when lichess allows it.
 * - Draw offers and resignation follow the eval history (draw-or-resign.ts); takebacks follow `maxTakebacks`.
 * - Chat is sent without waiting for it, so a failed chat post never delays a move (lichess-bot#1240).
 * - Correspondence games disconnect while the opponent thinks; the bot checks back later.
 */
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type winston from 'winston';
import type { Side } from '../../core/game.js';
import type { Result } from '../../core/result.js';
import type { KishiError } from '../../core/result.js';
import type { GoOverride, LichessConfig } from '../../config/sections/lichess.js';
import type { GameLogMove } from '../../records/game-log.js';
import { GameLogWriter } from '../../records/game-log.js';
import type { ClockState, GoRequest, GoResult, SearchInfo, SearchLimits } from '../../player/player.js';
import type { PlayerLease } from '../../bot/dispatcher.js';
import { ChessLine } from './chess-line.js';
import type { GameLine } from './game-line.js';
import { answerChat, capChat, formatGreeting } from './chat.js';
import type { LichessClient } from './client.js';
import { drawConditionHolds, scoreToCp, shouldAcceptDraw, shouldResign } from './draw-or-resign.js';
import type { MoveSourceChain, MoveSuggestion } from './move-sources/move-source.js';
import type { PgnPlyNote } from './pgn-record.js';
import { makePgn, pgnResult, pgnTermination } from './pgn-record.js';
import { savePgn } from './pgn-file.js';
import { fakeThinkMs, staleGameMs } from './move-timing.js';
import { ResilientStream } from './stream.js';
import type { ChatLineEvent, Color, GameEventInfo, GameFullEvent, GameStateEvent, GameStatus, OpponentGoneEvent } from './types.js';
import { isGameOver } from './types.js';
import type { ServerProfile } from './server-profile.js';
import { LICHESS_PROFILE } from './server-profile.js';

/** Timings that tests shrink; production values in the comments. */
export interface GameTimings {
  /** Reconnect a silent game stream (config `gameStreamSilenceMs`, 10 s). */
  readonly silenceMs: number;
  readonly reconnectMinMs: number;
  readonly reconnectMaxMs: number;
  /** Added to lichess's `claimWinInSeconds` before claiming, milliseconds. */
  readonly claimMarginMs: number;
}

export interface GameDeps {
  /** The server (default lichess): how stream lines read, chess or shogi. */
  readonly profile?: ServerProfile;
  readonly client: LichessClient;
  readonly gameId: string;
  /** Our account. */
  readonly me: { readonly id: string; readonly username: string };
  readonly config: LichessConfig;
  readonly moveOverheadMs: number;
  /** Think on the opponent's time (config `engine.ponder`); in correspondence games `correspondence.ponder` decides. */
  readonly ponder?: boolean;
  /** Leases a Player for this game's variant. */
  readonly acquirePlayer: (variant: string) => Promise<Result<PlayerLease, KishiError>>;
  readonly engineName: string;
  /** `records.dir/lichess`, or undefined for no records. */
  readonly recordsDir: string | undefined;
  readonly timings: GameTimings;
  readonly log: winston.Logger;
  /** Challenges waiting, for `!queue`. */
  readonly queued: () => number;
  /** The game's `gameFull` arrived (the bot learns the opponent and the speed). */
  readonly onFull?: (full: GameFullEvent, ourColor: Color) => void;
  /** Book, online sources and tablebases asked before the Player (move-sources/); undefined: none. */
  readonly moveSources?: MoveSourceChain;
  /** Takebacks granted in this game, kept on disk across restarts (bot-state.ts). */
  readonly takebacks?: { used(): number; add(): void };
}

/** How a game handler stopped. */
export interface GameEnd {
  readonly gameId: string;
  /** The lichess status, or `disconnected` (we left: correspondence wait, shutdown, stream gone for good). */
  readonly status: GameStatus | 'disconnected';
  readonly winner?: Color;
  readonly ourColor?: Color;
  readonly plies: number;
  /** A correspondence game left while the opponent thinks. */
  readonly correspondence: boolean;
  readonly opponent?: { readonly id: string; readonly name: string; readonly isBot: boolean };
}

interface PendingSearch {
  /** The moves searched, space-separated; for a ponder search, they end with our move and the guess. */
  readonly key: string;
  readonly ply: number;
  hardStop?: NodeJS.Timeout;
  /** Searching on the opponent's time until `ponderhit`. */
  pondering: boolean;
  readonly player?: { ponderhit(): void; stop(): void };
}

interface ChosenMove {
  readonly key: string;
  readonly ply: number;
  readonly move: string;
  readonly offerDraw: boolean;
  readonly result: GoResult;
}

/** After accepting a draw, how long to wait for lichess's final state before thinking again, milliseconds. */
const DRAW_ACCEPT_WAIT_MS = 1000;

/** Claims of a win after `opponentGone`, and the wait between refused ones, milliseconds. */
const CLAIM_ATTEMPTS = 5;
const CLAIM_RETRY_MS = 2000;

/** Engine failures in one game (each with a fresh Player) before resigning it. */
const MAX_ENGINE_FAILURES = 3;

const sideOf = (c: Color): Side => (c === 'white' ? 'first' : 'second');
const other = (c: Color): Color => (c === 'white' ? 'black' : 'white');


/** The set (non-zero) limits of `lichess.goOverrides` for a game of `speed`, or undefined when none is set. */
export function goOverrideLimits(overrides: LichessConfig['goOverrides'], speed: string): SearchLimits | undefined {
  const o = (overrides as Readonly<Record<string, GoOverride | undefined>>)[speed];
  if (o === undefined) return undefined;
  const limits: SearchLimits = {
    ...(o.nodes > 0 ? { nodes: o.nodes } : {}),
    ...(o.depth > 0 ? { depth: o.depth } : {}),
    ...(o.movetimeMs > 0 ? { movetimeMs: o.movetimeMs } : {}),
  };
  return Object.keys(limits).length > 0 ? limits : undefined;
}

export class LichessGame {
  private full: GameFullEvent | undefined;
  private line: GameLine | undefined;
  private ourColor: Color | undefined;
  private state: GameStateEvent | undefined;
  private stateAt = 0;
  private ended = false;
  private endInfo: GameEnd | undefined;
  private readonly stream: ResilientStream;
  private lease: Promise<Result<PlayerLease, KishiError>> | undefined;
  private search: PendingSearch | undefined;
  private chosen: ChosenMove | undefined;
  private posting: string | undefined;
  /** Our search per ply (eval history, PGN comments, game log). */
  private readonly searches = new Map<number, SearchInfo & { pvLeaf?: string }>();
  /** The mover's clock after each ply, when the server told us. */
  private readonly clocks = new Map<number, { first: number; second: number }>();
  private readonly drawOffers = new Set<number>();
  private lastSearch: SearchInfo | undefined;
  private takebacksAccepted = 0;
  private theirTakebackFlag = false;
  private theirDrawFlag = false;
  private abortTimer: NodeJS.Timeout | undefined;
  private abortForPly = -1;
  private abortDeadline = 0;
  private claimTimer: NodeJS.Timeout | undefined;
  private disconnectTimer: NodeJS.Timeout | undefined;
  private staleTimer: NodeJS.Timeout | undefined;
  private greeted = false;
  private resigning = false;
  private acceptingDraw = false;
  private engineFailures = 0;
  private gameLog: GameLogWriter | undefined;
  private leaveReason: string | undefined;
  private resolveRun: ((end: GameEnd) => void) | undefined;
  private readonly done: Promise<GameEnd>;
  /** Counters for tests and the soak benchmark. */
  readonly stats = { searches: 0, ponders: 0, movesSent: 0, moveFailures: 0, resyncs: 0 };

  constructor(private readonly deps: GameDeps) {
    this.done = new Promise<GameEnd>((resolve) => (this.resolveRun = resolve));
    this.stream = new ResilientStream({
      name: `game ${deps.gameId}`,
      open: (signal) => deps.client.openStream('streamGame', [deps.gameId], signal),
      onMessage: (m) => this.onMessage(m),
      onOpenError: (e) => (e.kind === 'http' && e.status !== undefined && e.status >= 400 && e.status < 500 && e.status !== 429 ? 'stop' : 'retry'),
      shouldReconnect: () => !this.ended && this.leaveReason === undefined,
      silenceMs: deps.timings.silenceMs,
      backoff: { minMs: deps.timings.reconnectMinMs, maxMs: deps.timings.reconnectMaxMs },
      blockedFor: () => deps.client.blockedFor('streamGame'),
      log: deps.log,
      transcript: deps.client.wire(),
    });
  }

  get id(): string {
    return this.deps.gameId;
  }

  /** Plays the game until lichess ends it or we leave it; never rejects. */
  run(variantHint?: string): Promise<GameEnd> {
    if (variantHint !== undefined) this.ensurePlayer(variantHint);
    void this.stream.start().then(() => {
      // The stream stopped for good without an end (404, not our game): leave.
      if (!this.ended) this.leave(this.leaveReason ?? 'the game stream closed for good');
    });
    return this.done;
  }

  /** Stream statistics (reconnects, keep-alives). */
  streamStats(): ResilientStream['stats'] {
    return this.stream.stats;
  }

  /** The event stream said the game finished (covers a game stream that never delivers the end). */
  finishedByEvent(info: GameEventInfo): void {
    if (this.ended) return;
    const status = info.status?.name ?? 'unknownFinish';
    // A fresh game stream gives the final moves and status (a finished game: gameFull, then close); should
    // it not come within a second, end from the event.
    this.stream.reconnect('the event stream says the game finished');
    setTimeout(() => {
      if (!this.ended) this.end(isGameOver(status) ? status : 'unknownFinish', info.winner);
    }, 1000).unref();
  }

  /** Shutdown: `resign` resigns now; `leave` drops the connection without ending the game (it resumes later). */
  async shutdown(mode: 'resign' | 'leave'): Promise<void> {
    if (this.ended) return;
    if (mode === 'resign' && this.state !== undefined) {
      await this.resign('shutting down');
      return;
    }
    this.leave('shutting down');
  }

  /** Whether a game has started on the board for us (for the bot's slot accounting of correspondence). */
  isCorrespondence(): boolean {
    return this.full !== undefined && this.full.clock === undefined;
  }

  // ---- stream input -------------------------------------------------------------------------------

  private onMessage(m: unknown): void {
    if (this.ended) return;
    const ev = (this.deps.profile ?? LICHESS_PROFILE).gameStreamEvent(m);
    if (ev === undefined) return;
    switch (ev.type) {
      case 'gameFull':
        this.onFull(ev);
        break;
      case 'gameState':
        this.onState(ev);
        break;
      case 'chatLine':
        this.onChat(ev);
        break;
      case 'opponentGone':
        this.onOpponentGone(ev);
        break;
    }
  }

  private onFull(full: GameFullEvent): void {
    const log = this.deps.log;
    const me = this.deps.me.id.toLowerCase();
    if (this.full === undefined) {
      const color: Color | undefined = full.white.id?.toLowerCase() === me ? 'white' : full.black.id?.toLowerCase() === me ? 'black' : undefined;
      if (color === undefined) {
        this.leave(`not our game (${full.white.name} vs ${full.black.name})`);
        return;
      }
      const line = this.profile().createLine(full.variant.key, full.initialFen);
      if (line.isErr) {
        log.error(`game ${this.id}: ${line.error.message}`);
        this.leave(line.error.message);
        return;
      }
      this.full = full;
      this.ourColor = color;
      this.line = line.value;
      this.ensurePlayer(full.variant.key);
      this.openRecords(full, color);
      this.deps.onFull?.(full, color);
      log.info(
        `game ${this.id}: ${full.white.name} vs ${full.black.name}, ${full.variant.key} ${full.speed}${full.rated ? ' rated' : ''}, we play ${color}`,
      );
    } else {
      this.stats.resyncs++;
      this.full = full;
    }
    // A fresh snapshot: a move whose POST had an unknown outcome is re-sent only if this state still owes it.
    this.onState(full.state);
  }

  private onState(state: GameStateEvent): void {
    const line = this.line;
    const color = this.ourColor;
    if (line === undefined || color === undefined) return;
    const prev = line.plies();
    const moves = state.moves.trim() === '' ? [] : state.moves.trim().split(/\s+/);
    const synced = line.sync(moves);
    if (synced.isErr) {
      this.deps.log.error(`game ${this.id}: cannot follow the server's moves: ${synced.error.message}`);
      return;
    }
    this.state = state;
    this.stateAt = Date.now();
    const plies = line.plies();
    if (plies < prev) this.onTakeback(plies);
    if (plies > 0 && plies !== prev) {
      this.clocks.set(plies - 1, { first: state.wtime, second: state.btime });
    }
    for (let ply = Math.min(prev, plies); ply < plies; ply++) this.logMove(ply);

    if (isGameOver(state.status)) {
      this.end(state.status, state.winner);
      return;
    }
    if (!this.greeted) {
      this.greeted = true;
      if (plies < 2) this.greet();
    }
    const ourTurn = line.turn() === color;
    if (ourTurn) this.ponderhit();
    this.answerOffers(state, color);
    this.updateAbortTimer(plies, ourTurn);
    this.armStaleTimer(state, line.turn());
    if (ourTurn) {
      clearTimeout(this.disconnectTimer);
      this.disconnectTimer = undefined;
      this.maybeThink();
    } else {
      this.dropStaleSearch();
      this.armCorrespondenceDisconnect();
    }
  }

  private onTakeback(plies: number): void {
    for (const ply of [...this.searches.keys()]) if (ply >= plies) this.searches.delete(ply);
    for (const ply of [...this.clocks.keys()]) if (ply >= plies) this.clocks.delete(ply);
    this.gameLog?.takeback(plies);
    this.dropStaleSearch();
  }

  private onChat(chat: ChatLineEvent): void {
    const reply = answerChat(chat, {
      me: this.deps.me.username,
      engineName: this.deps.engineName,
      lastSearch: () => this.lastSearch,
      extendAbort: (ms) => this.extendAbort(ms),
      queued: this.deps.queued,
    });
    if (reply) this.chat(reply.room, reply.text);
  }

  private onOpponentGone(ev: OpponentGoneEvent): void {
    clearTimeout(this.claimTimer);
    this.claimTimer = undefined;
    if (!ev.gone || !this.deps.config.claimVictory) return;
    const wait = (ev.claimWinInSeconds ?? 0) * 1000 + this.deps.timings.claimMarginMs;
    this.claimTimer = setTimeout(() => this.claimVictory(CLAIM_ATTEMPTS), wait);
  }

  /** Claims the win; lichess may still say it is too early, so a refused claim is tried again a little later. */
  private claimVictory(attemptsLeft: number): void {
    if (this.ended) return;
    this.deps.log.info(`game ${this.id}: the opponent left; claiming the win`);
    void this.deps.client.request('claimVictory', { args: [this.id], retryRateLimited: true, stillWanted: () => !this.ended }).then((r) => {
      if (r.isOk || this.ended || r.error.kind === 'cancelled') return;
      this.deps.log.warn(`game ${this.id}: claim-victory failed: ${r.error.message}`);
      if (attemptsLeft > 1) this.claimTimer = setTimeout(() => this.claimVictory(attemptsLeft - 1), CLAIM_RETRY_MS);
    });
  }

  // ---- thinking and moving ------------------------------------------------------------------------

  private key(): string {
    return this.line?.moves().join(' ') ?? '';
  }

  private ensurePlayer(variant: string): void {
    this.lease ??= this.deps.acquirePlayer(variant);
  }

  private maybeThink(): void {
    if (this.ended || this.resigning || this.acceptingDraw || this.line === undefined) return;
    const key = this.key();
    if (this.posting === key) return;
    if (this.search?.key === key) return;
    if (this.chosen?.key === key) {
      void this.send(this.chosen);
      return;
    }
    this.dropStaleSearch();
    void this.think(key, this.line.plies());
  }

  private dropStaleSearch(): void {
    const s = this.search;
    const key = this.key();
    if (s === undefined || s.key === key) return;
    // A ponder search stays while the game is still on its way to the guessed position.
    if (s.pondering && key !== '' && s.key.startsWith(`${key} `)) return;
    clearTimeout(s.hardStop);
    this.search = undefined;
    void this.lease?.then((r) => {
      if (r.isOk) r.value.player.stop();
    });
  }

  private profile(): ServerProfile {
    return this.deps.profile ?? LICHESS_PROFILE;
  }

  private clockState(): ClockState | undefined {
    const st = this.state;
    const full = this.full;
    if (st === undefined || full?.clock === undefined || this.ourColor === undefined) return undefined;
    // Our clock has run since the server sent the state (lichess and lishogi start it after two plies).
    const running = (this.line?.plies() ?? 0) >= 2;
    return this.profile().clockState({ state: st, full, ourColor: this.ourColor, elapsedMs: running ? Date.now() - this.stateAt : 0 });
  }

  /** The opponent played the move we ponder on: the ponder search goes on, now on our clock. */
  private ponderhit(): void {
    const s = this.search;
    if (s === undefined || !s.pondering || s.key !== this.key()) return;
    s.pondering = false;
    this.armHardStop(s, this.hardLimitMs(s.ply));
    s.player?.ponderhit();
  }

  /** The longest a search may run before the guard stops it, milliseconds. */
  private hardLimitMs(ply: number): number {
    const clock = this.clockState();
    if (this.full?.clock === undefined) return this.deps.config.correspondence.moveTimeMs * 1.5 + 1000;
    if (ply < 2) return this.firstMoveLimitMs();
    // Main time plus the byoyomi period (shogi): what may pass before the clock flags us.
    const ours = (this.ourColor === 'white' ? (clock?.firstMs ?? 0) : (clock?.secondMs ?? 0)) + (clock?.byoyomiMs ?? 0);
    return Math.max(20, (ours - this.deps.moveOverheadMs) * 0.8);
  }

  /**
   * The clock the Player plans our first move from: lichess starts a side's clock only after its first
   * move, and aborts the game when that move does not come within the first-move window; so our time is
   * that limit, without increment, and the Player's own time manager plans within it (a movetime would
   * make it search the whole limit, and the guard would race it at the same instant).
   */
  private firstMoveClock(clock: ClockState): ClockState {
    const limit = this.firstMoveLimitMs();
    return this.ourColor === 'white' ? { ...clock, firstMs: limit, firstIncMs: 0, byoyomiMs: 0 } : { ...clock, secondMs: limit, secondIncMs: 0, byoyomiMs: 0 };
  }

  /** Our first move: within `firstMoveMs` and the abort window lichess gives (`expiration`). */
  private firstMoveLimitMs(): number {
    const window = this.state?.expiration?.millisToMove;
    const cap = window !== undefined ? Math.max(100, window - Date.now() + this.stateAt - this.deps.moveOverheadMs) : Infinity;
    return Math.max(50, Math.min(this.deps.config.firstMoveMs, cap));
  }

  private armHardStop(pending: PendingSearch, hardMs: number): void {
    clearTimeout(pending.hardStop);
    // A guard only: the Player plans its own time from the clock; this stops a search that overruns it.
    pending.hardStop = setTimeout(() => {
      if (this.search === pending && !pending.pondering) {
        this.deps.log.warn(`game ${this.id}: search overran ${Math.round(hardMs)} ms; stopping it`);
        pending.player?.stop();
      }
    }, hardMs);
  }

  /** Searches the current position, or with `ponderMoves` the position after our move and the guessed reply. */
  private async think(key: string, ply: number, ponderMoves?: readonly string[]): Promise<void> {
    const full = this.full;
    const line = this.line;
    if (full === undefined || line === undefined || this.lease === undefined) return;
    const pondering = ponderMoves !== undefined;
    let pending: PendingSearch = { key: pondering ? ponderMoves.join(' ') : key, ply: pondering ? ponderMoves.length : ply, pondering };
    this.search = pending;
    if (!pondering && this.deps.moveSources) {
      const suggested = await this.askMoveSources(this.deps.moveSources);
      if (this.search !== pending || this.ended) return;
      if (suggested !== undefined) {
        this.search = undefined;
        const result: GoResult = { move: suggested.resign ? 'resign' : suggested.move, ...(suggested.info ? { info: suggested.info } : {}) };
        this.onSearchDone(key, ply, result, suggested.offerDraw === true);
        return;
      }
    }
    const leased = await this.lease;
    if (leased.isErr) {
      this.deps.log.error(`game ${this.id}: no engine: ${leased.error.message}`);
      if (this.search === pending) this.search = undefined;
      this.leave(leased.error.message);
      return;
    }
    if (this.search !== pending || this.ended) return;
    const player = leased.value.player;
    pending = { ...pending, player };
    this.search = pending;
    let clock = this.clockState();
    let movetimeMs: number | undefined;
    if (full.clock === undefined) movetimeMs = this.deps.config.correspondence.moveTimeMs;
    else if (ply < 2 && !pondering && clock !== undefined) clock = this.firstMoveClock(clock);
    // lichess.goOverrides for this game's speed: fixed limits instead of the time plan (not for a
    // ponder search, which runs until ponderhit or stop); the clock still goes along for the hard stop.
    const override = pondering ? undefined : goOverrideLimits(this.deps.config.goOverrides, full.speed);
    if (override?.movetimeMs !== undefined) movetimeMs = override.movetimeMs;
    const limits = {
      ...(override?.nodes !== undefined ? { nodes: override.nodes } : {}),
      ...(override?.depth !== undefined ? { depth: override.depth } : {}),
      ...(movetimeMs !== undefined ? { movetimeMs } : {}),
    };
    const request: GoRequest = {
      game: this.profile().game,
      variant: full.variant.key,
      start: full.initialFen,
      moves: pondering ? [...ponderMoves] : [...line.moves()],
      ...(clock ? { clock } : {}),
      ...(Object.keys(limits).length > 0 ? { limits } : {}),
      ...(pondering ? { ponder: true } : {}),
    };
    if (!pondering) this.armHardStop(pending, this.hardLimitMs(ply));
    this.stats.searches++;
    if (pondering) this.stats.ponders++;
    let result: GoResult;
    try {
      result = await player.go(request, (info) => {
        if (this.search === pending) this.lastSearch = info;
      });
    } catch (e) {
      clearTimeout(pending.hardStop);
      if (this.search === pending) this.search = undefined;
      this.engineFailures++;
      this.deps.log.error(`game ${this.id}: the engine failed (${this.engineFailures}): ${(e as Error).message}`);
      const broken = this.lease;
      this.lease = undefined;
      void broken.then((r) => (r.isOk ? r.value.release(true) : undefined));
      if (this.engineFailures >= MAX_ENGINE_FAILURES) {
        // A fresh engine failed too: resigning is cleaner than losing on time.
        void this.resign('the engine keeps failing');
        return;
      }
      if (!this.ended && this.full) {
        this.ensurePlayer(this.full.variant.key);
        this.maybeThink();
      }
      return;
    }
    clearTimeout(pending.hardStop);
    if (this.search !== pending) return;
    this.search = undefined;
    // A ponder search answers only after ponderhit (then its key is the position now) or stop (stale).
    if (this.ended || pending.pondering || this.key() !== pending.key) return;
    this.onSearchDone(pending.key, pending.ply, result);
  }

  /** After our move went out: ponder on the reply the engine expects, when configured. */
  private startPonder(chosen: ChosenMove): void {
    const guess = chosen.result.ponder;
    const line = this.line;
    // Correspondence (no clock) has its own switch, as in lichess-bot: the ponder search runs while we
    // stay on the game's stream (disconnectTimeS), then moveTimeMs from ponderhit; leaving stops it.
    const enabled = this.isCorrespondence() ? this.deps.config.correspondence.ponder : this.deps.ponder === true && this.full?.clock !== undefined;
    if (!enabled || guess === undefined || line === undefined) return;
    // The state with our move may or may not have arrived; the reply must not have.
    const key = this.key();
    if (this.search !== undefined || this.ended || (key !== chosen.key && key !== [chosen.key, chosen.move].filter(Boolean).join(' '))) return;
    const probe = this.profile().createLine(this.full?.variant.key ?? 'standard', this.full?.initialFen ?? 'startpos');
    if (probe.isErr) return;
    const moves = [...line.moves(), chosen.move, guess];
    if (probe.value.sync(moves).isErr) return;
    void this.think(chosen.key, chosen.ply, moves);
  }

  /** A move from the book or an online source, if one knows the position (never rejects). */
  private async askMoveSources(sources: MoveSourceChain): Promise<MoveSuggestion | undefined> {
    const line = this.line;
    if (!(line instanceof ChessLine) || this.ourColor === undefined) return undefined;
    const clock = this.clockState();
    const timeLeftMs = clock === undefined ? Number.POSITIVE_INFINITY : this.ourColor === 'white' ? clock.firstMs : clock.secondMs;
    return sources.suggest({ gameId: this.id, line, timeLeftMs }).catch(() => undefined);
  }

  private onSearchDone(key: string, ply: number, result: GoResult, offerDrawAnyway = false): void {
    const line = this.line;
    if (line === undefined) return;
    if (result.info) {
      this.lastSearch = result.info;
      this.searches.set(ply, { ...result.info, ...(result.pvLeaf !== undefined ? { pvLeaf: result.pvLeaf } : {}) });
    }
    const cfg = this.deps.config.drawOrResign;
    const scores = this.scoreHistory();
    if (result.move === 'resign' || shouldResign(scores, cfg)) {
      void this.resign(result.move === 'resign' ? 'the engine or the tablebase resigned' : `scores ${scores.slice(-cfg.resignMoves).join(', ')}`);
      return;
    }
    if (!line.isLegal(result.move)) {
      this.deps.log.error(`game ${this.id}: the engine chose ${JSON.stringify(result.move)}, which is not legal in ${line.fen()}`);
      return;
    }
    const offerDraw = offerDrawAnyway || drawConditionHolds(scores, line.pieceCount(), cfg);
    if (offerDraw) this.drawOffers.add(ply);
    const chosen: ChosenMove = { key, ply, move: result.move, offerDraw, result };
    this.chosen = chosen;
    const clock = this.clockState();
    const ours = clock === undefined ? 0 : this.ourColor === 'white' ? clock.firstMs : clock.secondMs;
    const delay =
      this.deps.config.rateLimitingDelayMs +
      (this.deps.config.fakeThinkTime && this.full?.clock ? fakeThinkMs(ply, this.full.clock.initial, Math.max(0, ours - this.deps.moveOverheadMs)) : 0);
    if (delay <= 0) {
      void this.send(chosen);
      return;
    }
    // Sent after the delay unless a fresh state already made us send it (maybeThink) or moved on.
    const sentBefore = this.stats.movesSent;
    setTimeout(() => {
      if (!this.ended && this.chosen === chosen && this.stats.movesSent === sentBefore) void this.send(chosen);
    }, delay);
  }

  /** A real-time game with no update for the mover's clock + increment + 60 s is stuck: leave it (lichess-bot). */
  private armStaleTimer(state: GameStateEvent, mover: Color): void {
    clearTimeout(this.staleTimer);
    if (this.full?.clock === undefined) return;
    const ms = staleGameMs(mover === 'white' ? state.wtime : state.btime, mover === 'white' ? state.winc : state.binc);
    this.staleTimer = setTimeout(() => this.leave(`no update from lichess for ${Math.round(ms / 1000)} s`), Math.min(ms, 2_000_000_000));
  }

  /** Our scores in ply order (plies still on the board). */
  private scoreHistory(): number[] {
    return [...this.searches.entries()].sort((a, b) => a[0] - b[0]).map(([, info]) => scoreToCp(info.score));
  }

  private async send(chosen: ChosenMove): Promise<void> {
    if (this.posting === chosen.key) return;
    this.posting = chosen.key;
    const r = await this.deps.client.request('move', {
      args: [this.id, chosen.move],
      query: { offeringDraw: chosen.offerDraw },
      retryRateLimited: true,
      retryUnknown: false,
      stillWanted: () => !this.ended && this.key() === chosen.key,
    });
    if (this.posting === chosen.key) this.posting = undefined;
    if (r.isOk) {
      this.stats.movesSent++;
      this.deps.log.debug(`game ${this.id}: played ${chosen.move}${chosen.offerDraw ? ' offering a draw' : ''}`);
      this.startPonder(chosen);
      return;
    }
    const err = r.error;
    if (err.kind === 'cancelled') return;
    this.stats.moveFailures++;
    this.deps.log.warn(`game ${this.id}: move ${chosen.move} failed: ${err.message}; resynchronising`);
    // Unknown outcome or "not your turn": ask the server where the game stands; the gameFull decides.
    this.stream.reconnect('resynchronising after a failed move');
  }

  private async resign(why: string): Promise<void> {
    if (this.resigning || this.ended) return;
    this.resigning = true;
    this.deps.log.info(`game ${this.id}: resigning (${why})`);
    const r = await this.deps.client.request('resign', { args: [this.id], retryRateLimited: true, stillWanted: () => !this.ended });
    if (r.isErr && r.error.kind !== 'cancelled') {
      this.deps.log.warn(`game ${this.id}: resign failed: ${r.error.message}`);
      this.resigning = false;
      this.maybeThinkIfOurTurn();
    }
  }

  private maybeThinkIfOurTurn(): void {
    if (this.line && this.ourColor && this.line.turn() === this.ourColor) this.maybeThink();
  }

  // ---- offers, abort, correspondence --------------------------------------------------------------

  private answerOffers(state: GameStateEvent, color: Color): void {
    const line = this.line;
    if (line === undefined) return;
    // Offers are answered once each, when their flag rises (lila sends the flags only while true).
    const theirDraw = (color === 'white' ? state.bdraw : state.wdraw) === true;
    const newDraw = theirDraw && !this.theirDrawFlag;
    this.theirDrawFlag = theirDraw;
    if (newDraw) {
      const accept = shouldAcceptDraw(this.scoreHistory(), line.pieceCount(), this.deps.config.drawOrResign);
      this.deps.log.info(`game ${this.id}: the opponent offers a draw; ${accept ? 'accepting' : 'declining'}`);
      // While an acceptance is on its way we do not move (the move would fail or decline the draw).
      if (accept) this.acceptingDraw = true;
      void this.deps.client.request('draw', { args: [this.id, accept ? 'yes' : 'no'], stillWanted: () => !this.ended }).then((r) => {
        if (r.isErr) this.deps.log.warn(`game ${this.id}: draw answer failed: ${r.error.message}`);
        if (!accept) return;
        // Accepted: the final gameState is on its way. Should the draw not happen after all (the offer was
        // withdrawn), think after a short wait rather than hang on a state that never comes.
        const resume = (): void => {
          this.acceptingDraw = false;
          this.maybeThinkIfOurTurn();
        };
        if (r.isErr) resume();
        else setTimeout(resume, DRAW_ACCEPT_WAIT_MS);
      });
    }
    const theirTakeback = (color === 'white' ? state.btakeback : state.wtakeback) === true;
    const newTakeback = theirTakeback && !this.theirTakebackFlag;
    this.theirTakebackFlag = theirTakeback;
    if (newTakeback) {
      const accept = (this.deps.takebacks?.used() ?? this.takebacksAccepted) < this.deps.config.maxTakebacks;
      if (accept) {
        this.takebacksAccepted++;
        this.deps.takebacks?.add();
      }
      this.deps.log.info(`game ${this.id}: the opponent asks for a takeback; ${accept ? 'accepting' : 'declining'}`);
      void this.deps.client.request('takeback', { args: [this.id, accept ? 'yes' : 'no'], stillWanted: () => !this.ended }).then((r) => {
        if (r.isErr) this.deps.log.warn(`game ${this.id}: takeback answer failed: ${r.error.message}`);
      });
    }
  }

  private updateAbortTimer(plies: number, ourTurn: boolean): void {
    if (plies >= 2 || ourTurn) {
      clearTimeout(this.abortTimer);
      this.abortTimer = undefined;
      this.abortForPly = -1;
      return;
    }
    if (this.abortForPly === plies) return;
    this.abortForPly = plies;
    this.scheduleAbort(Date.now() + this.deps.config.abortTimeS * 1000);
  }

  private scheduleAbort(deadline: number): void {
    clearTimeout(this.abortTimer);
    this.abortDeadline = deadline;
    this.abortTimer = setTimeout(
      () => {
        if (this.ended) return;
        this.deps.log.info(`game ${this.id}: the opponent made no first move in time; aborting`);
        void this.deps.client.request('abort', { args: [this.id], retryRateLimited: true, stillWanted: () => !this.ended }).then((r) => {
          if (r.isErr) this.deps.log.warn(`game ${this.id}: abort failed: ${r.error.message}`);
        });
      },
      Math.max(0, deadline - Date.now()),
    );
  }

  private extendAbort(ms: number): boolean {
    if (this.abortTimer === undefined) return false;
    this.scheduleAbort(this.abortDeadline + ms);
    return true;
  }

  private armCorrespondenceDisconnect(): void {
    if (!this.isCorrespondence() || this.disconnectTimer !== undefined) return;
    this.disconnectTimer = setTimeout(() => {
      if (!this.ended && this.line && this.ourColor && this.line.turn() !== this.ourColor) this.leave('correspondence: waiting for the opponent');
    }, this.deps.config.correspondence.disconnectTimeS * 1000);
  }

  // ---- chat ---------------------------------------------------------------------------------------

  private chat(room: 'player' | 'spectator', text: string): void {
    if (text.trim() === '') return;
    void this.deps.client.request('chat', { args: [this.id], form: { room, text: capChat(text) } }).then((r) => {
      if (r.isErr) this.deps.log.debug(`game ${this.id}: chat failed: ${r.error.message}`);
    });
  }

  private names(): { me: string; opponent: string } {
    const full = this.full;
    const opponent = full === undefined ? '' : this.ourColor === 'white' ? full.black.name : full.white.name;
    return { me: this.deps.me.username, opponent };
  }

  private greet(): void {
    const g = this.deps.config.greeting;
    this.chat('player', formatGreeting(g.hello, this.names()));
    this.chat('spectator', formatGreeting(g.helloSpectators, this.names()));
  }

  // ---- records ------------------------------------------------------------------------------------

  private openRecords(full: GameFullEvent, color: Color): void {
    const dir = this.deps.recordsDir;
    if (dir === undefined || !this.deps.config.records.gameLog) return;
    try {
      mkdirSync(dir, { recursive: true });
      const player = (p: GameFullEvent['white']): { name: string; rating?: number; title?: string | null } => ({
        name: p.name,
        ...(p.rating !== undefined ? { rating: p.rating } : {}),
        ...(p.title !== undefined ? { title: p.title } : {}),
      });
      this.gameLog = GameLogWriter.open(join(dir, `${this.id}.jsonl`), {
        type: 'header',
        version: 1,
        game: this.profile().game,
        variant: full.variant.key,
        server: this.profile().name,
        gameId: this.id,
        url: `${this.deps.client.baseUrl}/${this.id}`,
        start: full.initialFen,
        ourSide: sideOf(color),
        players: { first: player(full.white), second: player(full.black) },
        ...(full.clock
          ? { clock: { initialMs: full.clock.initial, incrementMs: full.clock.increment, ...(full.clock.byoyomi ? { byoyomiMs: full.clock.byoyomi } : {}) } }
          : {}),
        ...(full.daysPerTurn !== undefined ? { daysPerTurn: full.daysPerTurn } : {}),
        rated: full.rated,
        speed: full.speed,
        engine: this.deps.engineName,
        startedAt: new Date(full.createdAt).toISOString(),
      });
      this.restore(this.gameLog.recoveredMoves());
    } catch (e) {
      this.deps.log.warn(`game ${this.id}: cannot open the game log: ${(e as Error).message}`);
    }
  }

  /** After a restart: our earlier searches come back from the game log (eval history, PGN comments). */
  private restore(moves: readonly GameLogMove[]): void {
    for (const m of moves) {
      if (m.search) this.searches.set(m.ply, { ...m.search, nps: m.search.nps ?? 0, pv: [...m.search.pv] } as SearchInfo & { pvLeaf?: string });
      if (m.clockMs) this.clocks.set(m.ply, { ...m.clockMs });
      if (m.offeredDraw) this.drawOffers.add(m.ply);
    }
  }

  private logMove(ply: number): void {
    const line = this.line;
    const color = this.ourColor;
    if (line === undefined || color === undefined || this.gameLog === undefined) return;
    const mover: Color = ply % 2 === 0 ? line.firstMover() : other(line.firstMover());
    const search = this.searches.get(ply);
    const clock = this.clocks.get(ply);
    try {
      this.gameLog.move({
        ply,
        side: sideOf(mover),
        move: line.moves()[ply] ?? '',
        ours: mover === color,
        position: line.fenAt(ply),
        ...(clock ? { clockMs: clock } : {}),
        ...(search && mover === color
          ? {
              search: {
                score: search.score,
                depth: search.depth,
                ...(search.seldepth !== undefined ? { seldepth: search.seldepth } : {}),
                nodes: search.nodes,
                nps: search.nps,
                timeMs: search.timeMs,
                pv: search.pv,
                ...(search.pvLeaf !== undefined ? { pvLeaf: search.pvLeaf } : {}),
              },
            }
          : {}),
        ...(this.drawOffers.has(ply) ? { offeredDraw: true } : {}),
      });
    } catch (e) {
      this.deps.log.warn(`game ${this.id}: game log write failed: ${(e as Error).message}`);
    }
  }

  private writeRecords(status: GameStatus, winner: Color | undefined): void {
    const full = this.full;
    const line = this.line;
    const dir = this.deps.recordsDir;
    if (full === undefined || line === undefined || dir === undefined) return;
    try {
      this.gameLog?.finish({
        winner: winner === undefined ? null : sideOf(winner),
        status,
        plies: line.plies(),
        endedAt: new Date().toISOString(),
      });
    } catch (e) {
      this.deps.log.warn(`game ${this.id}: game log finish failed: ${(e as Error).message}`);
    }
    // PGN is chess's record; a shogi game keeps its game log (USI moves, SFEN positions).
    if (!this.deps.config.records.pgn || !(line instanceof ChessLine)) return;
    try {
      const notes: (PgnPlyNote | undefined)[] = [];
      for (let ply = 0; ply < line.plies(); ply++) {
        const mover: Color = ply % 2 === 0 ? line.firstMover() : other(line.firstMover());
        const clock = this.clocks.get(ply);
        const search = mover === this.ourColor ? this.searches.get(ply) : undefined;
        notes.push({
          ...(clock ? { clockMs: mover === 'white' ? clock.first : clock.second } : {}),
          ...(search ? { search, pvSan: pvToSan(line, ply, search.pv) } : {}),
        });
      }
      const tc = full.clock
        ? `${Math.round(full.clock.initial / 1000)}+${Math.round(full.clock.increment / 1000)}`
        : full.daysPerTurn !== undefined
          ? `1/${full.daysPerTurn * 86400}`
          : '-';
      const pgn = makePgn({
        event: `${full.rated ? 'Rated' : 'Casual'} ${full.speed} game`,
        site: `${this.deps.client.baseUrl}/${this.id}`,
        date: new Date(full.createdAt),
        white: { name: full.white.name, ...(full.white.rating !== undefined ? { rating: full.white.rating } : {}), title: full.white.title ?? null },
        black: { name: full.black.name, ...(full.black.rating !== undefined ? { rating: full.black.rating } : {}), title: full.black.title ?? null },
        result: pgnResult(status, winner),
        variant: full.variant.key,
        initialFen: full.initialFen,
        timeControl: tc,
        termination: pgnTermination(status),
        sans: line.sans(),
        startFullmoves: line.startFullmoves(),
        firstMover: line.firstMover(),
        notes,
      });
      void savePgn({ client: this.deps.client, dir, gameId: this.id, ...this.names(), records: this.deps.config.records, pgn, log: this.deps.log });
    } catch (e) {
      this.deps.log.warn(`game ${this.id}: PGN write failed: ${(e as Error).message}`);
    }
  }

  // ---- ending -------------------------------------------------------------------------------------

  private clearTimers(): void {
    clearTimeout(this.abortTimer);
    clearTimeout(this.claimTimer);
    clearTimeout(this.disconnectTimer);
    clearTimeout(this.staleTimer);
    if (this.search) clearTimeout(this.search.hardStop);
    this.abortTimer = this.claimTimer = this.disconnectTimer = undefined;
  }

  private releasePlayer(): void {
    const lease = this.lease;
    this.lease = undefined;
    const searching = this.search !== undefined;
    this.search = undefined;
    void lease?.then(async (r) => {
      if (r.isErr) return;
      if (searching) r.value.player.stop();
      await r.value.release();
    });
  }

  private opponent(): GameEnd['opponent'] {
    const full = this.full;
    if (full === undefined || this.ourColor === undefined) return undefined;
    const p = this.ourColor === 'white' ? full.black : full.white;
    return { id: p.id?.toLowerCase() ?? '', name: p.name, isBot: p.title === 'BOT' || p.aiLevel !== undefined };
  }

  /** Lichess ended the game. */
  private end(status: GameStatus, winner: Color | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.clearTimers();
    const lease = this.lease;
    this.releasePlayer();
    const ours = this.ourColor;
    this.deps.log.info(
      `game ${this.id}: over (${status}${winner ? `, ${winner} wins` : ''})${ours && winner ? (winner === ours ? ' - we won' : ' - we lost') : ''}`,
    );
    if (this.line && this.line.plies() > 0) {
      const g = this.deps.config.greeting;
      this.chat('player', formatGreeting(g.goodbye, this.names()));
      this.chat('spectator', formatGreeting(g.goodbyeSpectators, this.names()));
    }
    this.writeRecords(status, winner);
    // The finished game log goes back to the dispatcher (online learning, src/bot/dispatcher.ts).
    const logFile = this.gameLog?.file;
    if (logFile !== undefined) void lease?.then((r) => r.isOk && r.value.gameRecorded?.(logFile));
    this.stream.stop();
    this.endInfo = {
      gameId: this.id,
      status,
      ...(winner ? { winner } : {}),
      ...(ours ? { ourColor: ours } : {}),
      plies: this.line?.plies() ?? 0,
      correspondence: false,
      ...(this.opponent() ? { opponent: this.opponent() } : {}),
    };
    this.resolveRun?.(this.endInfo);
  }

  /** We leave without the game ending (correspondence wait, shutdown, a stream closed for good). */
  private leave(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.leaveReason = reason;
    this.clearTimers();
    this.releasePlayer();
    this.deps.log.info(`game ${this.id}: leaving (${reason})`);
    this.stream.stop();
    this.endInfo = {
      gameId: this.id,
      status: 'disconnected',
      ...(this.ourColor ? { ourColor: this.ourColor } : {}),
      plies: this.line?.plies() ?? 0,
      correspondence: this.isCorrespondence(),
      ...(this.opponent() ? { opponent: this.opponent() } : {}),
    };
    this.resolveRun?.(this.endInfo);
  }
}

/** A principal variation (UCI, from the position before `ply`) in SAN, as far as it stays legal. */
function pvToSan(line: ChessLine, ply: number, pv: readonly string[]): string[] {
  const probe = ChessLine.create(line.variant, line.fenAt(ply));
  if (probe.isErr) return [];
  for (const m of pv) if (probe.value.play(m).isErr) break;
  return [...probe.value.sans()];
}
