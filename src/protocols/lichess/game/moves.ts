/**
 * Our moves in one lichess game, through the Thinker (src/bot/thinker/): on our turn the move sources
 * (book, online sources, tablebases) first, else the leased Player; the decision is checked against the
 * position the game has reached meanwhile, delayed by the rate-limit delay and the fake think time, and
 * POSTed. Rules kept here (lichess-bot behaviour plus the fixes its users asked for):
 * - a move whose POST failed with an unknown outcome (network, 5xx) is not blindly re-sent: the stream is
 *   reopened, and the fresh `gameFull` decides whether the move is still owed (a stale re-send could be
 *   played in a later position); a 429 on a move is waited out and retried while the position is unchanged;
 * - after our move, a ponder search on the reply the Player expects, when configured (correspondence has
 *   its own switch); it stays while the game is on its way to the guessed position;
 * - a Player that fails is replaced by a fresh one; after three failures in a game we resign.
 */
import type { GameKind } from '../../../core/game.js';
import type { Result } from '../../../core/result.js';
import type { KishiError } from '../../../core/result.js';
import type { GoOverride, LichessConfig } from '../../../config/sections/lichess.js';
import type { PlayerLease } from '../../../bot/dispatcher.js';
import type { Decision, Thinker, Turn } from '../../../bot/thinker/thinker.js';
import type { MoveTime } from '../../../bot/thinker/time-plan.js';
import type { ClockState, GoResult, Player, SearchInfo, SearchLimits } from '../../../player/player.js';
import type { MoveSuggestion } from '../move-sources/move-source.js';
import { fakeThinkMs } from '../move-timing.js';
import type { GameDeps } from './deps.js';
import type { GameLine } from '../game-line.js';
import type { PositionSync } from './position-sync.js';
import type { GameRecorder } from './recorder.js';
import { thinkerPositionOf } from './thinker-position.js';

/** Engine failures in one game (each with a fresh Player) before resigning it. */
const MAX_ENGINE_FAILURES = 3;

/**
 * Of the first-move limit, the share our first move searches: the lag kept back (`engine.moveOverheadMs`)
 * comes off first, and of the rest 80% is searched, the other 20% left for the search to stop, the move to
 * be posted and a busy machine; never the whole limit (the guard stops at the limit itself). With
 * lichess's 5 s window and the default 1 s overhead: 3.2 s.
 */
export const FIRST_MOVE_SHARE = 0.8;

/** The fixed search time of our first move for a first-move limit `deadlineMs`, milliseconds (at least 1). */
export function firstMoveTimeMs(deadlineMs: number, overheadMs: number): number {
  return Math.max(1, Math.floor(Math.max(0, deadlineMs - overheadMs) * FIRST_MOVE_SHARE));
}

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

/** Our move in the making: move sources, the lease, then the Thinker. */
interface PendingSearch {
  /** The moves searched, space-separated; for a ponder search, they end with our move and the guess. */
  readonly key: string;
  readonly ply: number;
  /** Searching on the opponent's time until `ponderhit`. */
  pondering: boolean;
  /** The Player a ponder search runs on. */
  readonly player?: Player;
}

interface ChosenMove {
  readonly key: string;
  readonly ply: number;
  readonly move: string;
  readonly offerDraw: boolean;
  readonly result: GoResult;
}

/** Counters for tests and the soak benchmark. */
export interface MoveStats {
  searches: number;
  ponders: number;
  movesSent: number;
  moveFailures: number;
}

export interface MovesDeps<L extends GameLine> {
  readonly game: GameKind;
  readonly deps: GameDeps;
  readonly sync: PositionSync<L>;
  readonly recorder: GameRecorder;
  readonly thinker: Thinker;
  readonly stats: MoveStats;
  /** Whether the game still goes on for us. */
  readonly live: () => boolean;
  /** Whether moving must wait (a draw acceptance on its way). */
  readonly held: () => boolean;
  /** A move that needs no search (book, online sources, tablebases), if one knows the position. */
  readonly suggest?: (line: L, timeLeftMs: number) => Promise<MoveSuggestion | undefined>;
  /** Leave the game (no Player could be leased). */
  readonly leave: (reason: string) => void;
  /** Reopen the game stream: the fresh `gameFull` tells where the game stands. */
  readonly resync: (why: string) => void;
}

export class OurMoves<L extends GameLine> {
  private lease: Promise<Result<PlayerLease, KishiError>> | undefined;
  private search: PendingSearch | undefined;
  private chosen: ChosenMove | undefined;
  private posting: string | undefined;
  private engineFailures = 0;
  /** A resignation is on its way. */
  resigning = false;
  /** Our latest search (chat's `!eval`): the Thinker's progress lines and every decision's info. */
  lastSearch: SearchInfo | undefined;

  constructor(private readonly m: MovesDeps<L>) {}

  private get id(): string {
    return this.m.deps.gameId;
  }

  /** Leases a Player for `variant` unless one is leased. */
  ensurePlayer(variant: string): void {
    this.lease ??= this.m.deps.acquirePlayer(variant);
  }

  /** The lease of this game's Player (for the finished game's log), if any. */
  currentLease(): Promise<Result<PlayerLease, KishiError>> | undefined {
    return this.lease;
  }

  /** On our turn: think, unless a search or a POST for this position is under way, or send the move chosen. */
  maybeThink(): void {
    const line = this.m.sync.line;
    if (!this.m.live() || this.resigning || this.m.held() || line === undefined) return;
    const key = this.m.sync.key();
    if (this.posting === key) return;
    if (this.search?.key === key) return;
    if (this.chosen?.key === key) {
      void this.send(this.chosen);
      return;
    }
    this.dropStaleSearch();
    void this.think(key, line.plies());
  }

  /** `maybeThink` when it is our turn. */
  maybeThinkIfOurTurn(): void {
    if (this.m.sync.ourTurn()) this.maybeThink();
  }

  /** Drops a search about another position; a ponder search stays while the game is on its way to its guess. */
  dropStaleSearch(): void {
    const s = this.search;
    const key = this.m.sync.key();
    if (s === undefined || s.key === key) return;
    if (s.pondering && key !== '' && s.key.startsWith(`${key} `)) return;
    this.search = undefined;
    this.m.thinker.cancel();
  }

  /** The opponent played the move we ponder on: the ponder search goes on, now on our clock. */
  ponderhit(): void {
    const s = this.search;
    if (s === undefined || !s.pondering || s.key !== this.m.sync.key() || s.player === undefined) return;
    s.pondering = false;
    void this.decideWith(s, s.player);
  }

  /** Resigns the game (once; a failed resignation lets us think again). */
  async resign(why: string): Promise<void> {
    if (this.resigning || !this.m.live()) return;
    this.resigning = true;
    const { client, log } = this.m.deps;
    log.info(`game ${this.id}: resigning (${why})`);
    const r = await client.request('resign', { args: [this.id], retryRateLimited: true, stillWanted: () => this.m.live() });
    if (r.isErr && r.error.kind !== 'cancelled') {
      log.warn(`game ${this.id}: resign failed: ${r.error.message}`);
      this.resigning = false;
      this.maybeThinkIfOurTurn();
    }
  }

  /** The game is over for us: stop searching and give the Player back. */
  release(): void {
    const lease = this.lease;
    this.lease = undefined;
    this.search = undefined;
    this.m.thinker.cancel();
    void lease?.then(async (r) => {
      if (r.isOk) await r.value.release();
    });
  }

  // ---- thinking -----------------------------------------------------------------------------------

  /**
   * The clock lichess keeps, and the limits of this game, for the Thinker's time plan of the move at
   * `ply`. Our first move: lichess starts a side's clock only after its first move, and aborts the game
   * when that move does not come within the first-move window; the clock plan would take that limit for
   * the whole game and spend a fortieth of it (40-90 ms, every game opening alike). So the first move is
   * searched for a fixed share of the limit (firstMoveTimeMs), and the limit is the deadline the guard
   * holds.
   */
  private moveTime(ply: number, pondering: boolean): MoveTime {
    const { sync, deps } = this.m;
    const full = sync.full;
    let clock = sync.clockState();
    let deadlineMs: number | undefined;
    let movetimeMs: number | undefined;
    if (full?.clock === undefined) movetimeMs = deps.config.correspondence.moveTimeMs;
    else if (ply < 2) {
      deadlineMs = this.firstMoveLimitMs();
      if (!pondering && clock !== undefined) clock = this.firstMoveClock(clock, deadlineMs);
    }
    // lichess.goOverrides for this game's speed: fixed limits instead of the time plan (not for a
    // ponder search, which runs until ponderhit or stop); the clock still goes along for the guard.
    const override = pondering || full === undefined ? undefined : goOverrideLimits(deps.config.goOverrides, full.speed);
    if (override?.movetimeMs !== undefined) movetimeMs = override.movetimeMs;
    else if (override === undefined && deadlineMs !== undefined && !pondering) movetimeMs = firstMoveTimeMs(deadlineMs, deps.moveOverheadMs);
    const limits: SearchLimits = {
      ...(override?.nodes !== undefined ? { nodes: override.nodes } : {}),
      ...(override?.depth !== undefined ? { depth: override.depth } : {}),
      ...(movetimeMs !== undefined ? { movetimeMs } : {}),
    };
    return {
      ...(clock ? { clock } : {}),
      side: sync.ourColor === 'black' ? 'second' : 'first',
      plies: ply,
      overheadMs: deps.moveOverheadMs,
      ...(deadlineMs !== undefined ? { deadlineMs } : {}),
      ...(Object.keys(limits).length > 0 ? { limits } : {}),
    };
  }

  private firstMoveClock(clock: ClockState, limit: number): ClockState {
    return this.m.sync.ourColor === 'white' ? { ...clock, firstMs: limit, firstIncMs: 0, byoyomiMs: 0 } : { ...clock, secondMs: limit, secondIncMs: 0, byoyomiMs: 0 };
  }

  /** Our first move: within `firstMoveMs` and the abort window lichess gives (`expiration`). */
  private firstMoveLimitMs(): number {
    const { sync, deps } = this.m;
    const window = sync.state?.expiration?.millisToMove;
    const cap = window !== undefined ? Math.max(100, window - Date.now() + sync.stateAt - deps.moveOverheadMs) : Infinity;
    return Math.max(50, Math.min(deps.config.firstMoveMs, cap));
  }

  /** Our move at the current position: the move sources first, then the Thinker with the leased Player. */
  private async think(key: string, ply: number): Promise<void> {
    const line = this.m.sync.line;
    if (this.m.sync.full === undefined || line === undefined || this.lease === undefined) return;
    const pending: PendingSearch = { key, ply, pondering: false };
    this.search = pending;
    if (this.m.suggest) {
      const suggested = await this.m.suggest(line, this.m.sync.ourTimeMs()).catch(() => undefined);
      if (this.search !== pending || !this.m.live()) return;
      if (suggested !== undefined) {
        this.search = undefined;
        const result: GoResult = { move: suggested.resign ? 'resign' : suggested.move, ...(suggested.info ? { info: suggested.info } : {}) };
        this.onDecision(key, ply, this.m.thinker.decide(ply, thinkerPositionOf(line), result, suggested.offerDraw === true));
        return;
      }
    }
    const player = await this.leasedPlayer(pending);
    if (player === undefined) return;
    await this.decideWith(pending, player);
  }

  /** The Player of this game's lease, or undefined when the search went stale or no Player could be had. */
  private async leasedPlayer(pending: PendingSearch): Promise<Player | undefined> {
    const lease = this.lease;
    if (lease === undefined) return undefined;
    const leased = await lease;
    if (leased.isErr) {
      this.m.deps.log.error(`game ${this.id}: no engine: ${leased.error.message}`);
      if (this.search === pending) this.search = undefined;
      this.m.leave(leased.error.message);
      return undefined;
    }
    return this.search === pending && this.m.live() ? leased.value.player : undefined;
  }

  /** Asks the Thinker for our move (a ponder search on these moves goes on as ours) and carries it out. */
  private async decideWith(pending: PendingSearch, player: Player): Promise<void> {
    const line = this.m.sync.line;
    const full = this.m.sync.full;
    if (line === undefined || full === undefined) return;
    const turn: Turn = {
      request: { game: this.m.game, variant: full.variant.key, start: full.initialFen, moves: [...line.moves()] },
      position: thinkerPositionOf(line),
      time: this.moveTime(pending.ply, false),
    };
    if (this.m.thinker.current()?.pondering !== true) this.m.stats.searches++;
    const decision = await this.m.thinker.think(player, turn);
    if (this.search !== pending) return;
    this.search = undefined;
    if (!this.m.live() || this.m.sync.key() !== pending.key) return;
    if (decision.kind === 'failed') {
      this.onEngineFailure(decision.error);
      return;
    }
    this.onDecision(pending.key, pending.ply, decision);
  }

  private onEngineFailure(error: Error): void {
    this.engineFailures++;
    this.m.deps.log.error(`game ${this.id}: the engine failed (${this.engineFailures}): ${error.message}`);
    const broken = this.lease;
    this.lease = undefined;
    void broken?.then((r) => (r.isOk ? r.value.release(true) : undefined));
    if (this.engineFailures >= MAX_ENGINE_FAILURES) {
      // A fresh engine failed too: resigning is cleaner than losing on time.
      void this.resign('the engine keeps failing');
      return;
    }
    const full = this.m.sync.full;
    if (this.m.live() && full) {
      this.ensurePlayer(full.variant.key);
      this.maybeThink();
    }
  }

  /** After our move went out: ponder on the reply the engine expects, when configured. */
  private startPonder(chosen: ChosenMove): void {
    const { sync, deps } = this.m;
    const guess = chosen.result.ponder;
    const line = sync.line;
    const full = sync.full;
    // Correspondence (no clock) has its own switch, as in lichess-bot: the ponder search runs while we
    // stay on the game's stream (disconnectTimeS), then moveTimeMs from ponderhit; leaving stops it.
    const enabled = sync.isCorrespondence() ? deps.config.correspondence.ponder : deps.ponder === true && full?.clock !== undefined;
    if (!enabled || guess === undefined || line === undefined || full === undefined || this.lease === undefined) return;
    // The state with our move may or may not have arrived; the reply must not have.
    const key = sync.key();
    if (this.search !== undefined || !this.m.live() || (key !== chosen.key && key !== [chosen.key, chosen.move].filter(Boolean).join(' '))) return;
    const moves = [...line.moves().slice(0, chosen.ply), chosen.move, guess];
    if (!sync.canFollow(moves)) return;
    const pending: PendingSearch = { key: moves.join(' '), ply: moves.length, pondering: true };
    this.search = pending;
    void this.leasedPlayer(pending).then((player) => {
      if (player === undefined || this.search !== pending) return;
      this.search = { ...pending, player };
      this.m.stats.searches++;
      this.m.stats.ponders++;
      this.m.thinker.ponder(player, {
        request: { game: this.m.game, variant: full.variant.key, start: full.initialFen, moves },
        time: this.moveTime(moves.length, true),
      });
    });
  }

  /** Carries out the Thinker's decision on our move at `ply`. */
  private onDecision(key: string, ply: number, d: Decision): void {
    const { sync, deps, recorder } = this.m;
    if ((d.kind === 'move' || d.kind === 'resign') && d.result !== undefined) {
      if (d.result.info) this.lastSearch = d.result.info;
      recorder.noteSearch(ply, d.result);
    }
    if (d.kind === 'resign') {
      void this.resign(d.why);
      return;
    }
    if (d.kind !== 'move') {
      if (d.kind !== 'cancelled') deps.log.error(`game ${this.id}: cannot carry out the decision ${d.kind} here`);
      return;
    }
    if (d.offerDraw) recorder.noteDrawOffer(ply);
    const chosen: ChosenMove = { key, ply, move: d.move, offerDraw: d.offerDraw, result: d.result };
    this.chosen = chosen;
    const initial = sync.full?.clock?.initial;
    const delay =
      deps.config.rateLimitingDelayMs +
      (deps.config.fakeThinkTime && initial !== undefined ? fakeThinkMs(ply, initial, Math.max(0, sync.ourTimeMs() - deps.moveOverheadMs)) : 0);
    if (delay <= 0) {
      void this.send(chosen);
      return;
    }
    // Sent after the delay unless a fresh state already made us send it (maybeThink) or moved on.
    const sentBefore = this.m.stats.movesSent;
    setTimeout(() => {
      if (this.m.live() && this.chosen === chosen && this.m.stats.movesSent === sentBefore) void this.send(chosen);
    }, delay);
  }

  private async send(chosen: ChosenMove): Promise<void> {
    if (this.posting === chosen.key) return;
    this.posting = chosen.key;
    const { client, log } = this.m.deps;
    const r = await client.request('move', {
      args: [this.id, chosen.move],
      query: { offeringDraw: chosen.offerDraw },
      retryRateLimited: true,
      retryUnknown: false,
      stillWanted: () => this.m.live() && this.m.sync.key() === chosen.key,
    });
    if (this.posting === chosen.key) this.posting = undefined;
    if (r.isOk) {
      this.m.stats.movesSent++;
      log.debug(`game ${this.id}: played ${chosen.move}${chosen.offerDraw ? ' offering a draw' : ''}`);
      this.startPonder(chosen);
      return;
    }
    const err = r.error;
    if (err.kind === 'cancelled') return;
    this.m.stats.moveFailures++;
    log.warn(`game ${this.id}: move ${chosen.move} failed: ${err.message}; resynchronising`);
    // Unknown outcome or "not your turn": ask the server where the game stands; the gameFull decides.
    this.m.resync('resynchronising after a failed move');
  }
}
