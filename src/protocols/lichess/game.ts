/**
 * One lichess game, from its game stream to its records: the protocol state machine, over parts with one
 * concept each (game/):
 * - position sync (position-sync.ts): `gameFull` and `gameState` drive the line (`ChessLine`, chessops);
 * - our moves (moves.ts): thinking through the Thinker (src/bot/thinker/) with the leased Player, which
 *   searches off the I/O thread, the move sources, pondering, POSTing the move, resigning;
 * - offers (offers.ts): draw and takeback answers, the abort of a game the opponent never starts, the
 *   claim of the win after `opponentGone`;
 * - the recorder (recorder.ts, pgn.ts): the game log and the PGN;
 * - the chat (game-chat.ts): greetings and answers, never holding up a move (lichess-bot#1240).
 * Rules kept here (lichess-bot behaviour plus the fixes its users asked for):
 * - The game ends only when lichess says so (status other than `started`), never on our own draw
 *   detection (lichess-bot#221).
 * - Our first move is made within the abort window (moves.ts); a real-time game with no update for the
 *   mover's clock + increment + 60 s is stuck and left.
 * - Correspondence games disconnect while the opponent thinks; the bot checks back later.
 */
import type { Result } from '../../core/result.js';
import type { KishiError } from '../../core/result.js';
import type { PlayerLease } from '../../bot/dispatcher.js';
import { Thinker } from '../../bot/thinker/thinker.js';
import { ChessLine } from './chess-line.js';
import type { GameDeps, GameEnd, GameRules } from './game/deps.js';
import type { GameLine } from './game-line.js';
import { GameChat } from './game/game-chat.js';
import { OurMoves } from './game/moves.js';
import { Offers } from './game/offers.js';
import { writePgn } from './game/pgn.js';
import { PositionSync } from './game/position-sync.js';
import { GameRecorder } from './game/recorder.js';
import { staleGameMs } from './move-timing.js';
import { ResilientStream } from './stream.js';
import type { Color, GameEventInfo, GameFullEvent, GameStateEvent, GameStatus, GameStreamEvent } from './types.js';
import { isGameOver } from './types.js';
import { GAME_SILENCE_MARGIN_MS, LICHESS_PROFILE } from './server-profile.js';

export type { GameDeps, GameEnd, GameRules, GameTimings } from './game/deps.js';
export { goOverrideLimits } from './game/moves.js';

export class LichessGame {
  private readonly sync: PositionSync<GameLine>;
  /** The profile's reading of a game-stream line (lishogi's shapes normalised into lichess's). */
  private readonly readLine: (line: unknown) => GameStreamEvent | undefined;
  private ended = false;
  private endInfo: GameEnd | undefined;
  private readonly stream: ResilientStream;
  private readonly thinker: Thinker;
  private readonly moves: OurMoves<GameLine>;
  private readonly offers: Offers;
  private readonly recorder: GameRecorder;
  private readonly chat: GameChat;
  /** The game is adjourned (lishogi `paused`): left parked, not over. */
  private paused = false;
  private disconnectTimer: NodeJS.Timeout | undefined;
  private staleTimer: NodeJS.Timeout | undefined;
  private greeted = false;
  private leaveReason: string | undefined;
  private resolveRun: ((end: GameEnd) => void) | undefined;
  private readonly done: Promise<GameEnd>;
  /** Counters for tests and the soak benchmark. */
  readonly stats = { searches: 0, ponders: 0, movesSent: 0, moveFailures: 0, resyncs: 0 };

  constructor(private readonly deps: GameDeps) {
    this.done = new Promise<GameEnd>((resolve) => (this.resolveRun = resolve));
    const live = (): boolean => !this.ended;
    const profile = deps.profile ?? LICHESS_PROFILE;
    this.readLine = profile.gameStreamEvent;
    const rules: GameRules = deps.rules ?? { game: profile.game, server: profile.name, createLine: profile.createLine };
    this.sync = new PositionSync<GameLine>(deps.me.id, rules.createLine, profile.clockState);
    this.stream = new ResilientStream({
      name: `game ${deps.gameId}`,
      open: (signal) => deps.client.openStream('streamGame', [deps.gameId], signal),
      onMessage: (m) => this.onMessage(m),
      onOpenError: (e) => (e.kind === 'http' && e.status !== undefined && e.status >= 400 && e.status < 500 && e.status !== 429 ? 'stop' : 'retry'),
      shouldReconnect: () => !this.ended && this.leaveReason === undefined,
      silenceMs: deps.timings.silenceMs,
      // The bot game stream's keep-alives come on a fixed cadence (stream.ts): a stall is seen one cadence
      // plus the margin after the last keep-alive, not after the last move, and the stream reopens at once;
      // on our turn the search and the POST of our move go on meanwhile (moves.ts keeps the position's
      // search through the fresh gameFull), so a stall costs our clock only while we wait for a reply.
      silenceFrom: 'keepAlive',
      // A message is proof of life: the verdict waits at least the margin past it (GAME_SILENCE_MARGIN_MS;
      // a fifth of the threshold when that is less, as in the tests' and the soak's shrunk times), so that
      // a keep-alive late by a busy server or network while moves flow is no stall.
      messageGraceMs: Math.min(GAME_SILENCE_MARGIN_MS, Math.floor(deps.timings.silenceMs / 5)),
      reopenSilentAtOnce: true,
      backoff: { minMs: deps.timings.reconnectMinMs, maxMs: deps.timings.reconnectMaxMs },
      blockedFor: () => deps.client.blockedFor('streamGame'),
      log: deps.log,
      transcript: deps.client.wire(),
    });
    this.thinker = new Thinker({
      game: rules.game,
      log: deps.log,
      logPrefix: `game ${deps.gameId}: `,
      // Half the move overhead for the Player to answer the guard's `stop` (the Player API promises 50 ms).
      graceMs: Math.max(20, Math.min(500, Math.floor(deps.moveOverheadMs / 2))),
      drawOrResign: deps.config.drawOrResign,
      onInfo: (info) => (this.moves.lastSearch = info),
    });
    this.recorder = new GameRecorder({
      game: rules.game,
      server: rules.server,
      gameId: deps.gameId,
      url: `${deps.client.baseUrl}/${deps.gameId}`,
      engineName: deps.engineName,
      dir: deps.recordsDir,
      enabled: deps.config.records.gameLog,
      log: deps.log,
    });
    const sources = deps.moveSources;
    this.moves = new OurMoves<GameLine>({
      game: rules.game,
      deps,
      sync: this.sync,
      recorder: this.recorder,
      thinker: this.thinker,
      stats: this.stats,
      live,
      held: () => this.offers.acceptingDraw,
      // The move sources know chess positions only.
      ...(sources ? { suggest: async (line: GameLine, timeLeftMs: number) => (line instanceof ChessLine ? sources.suggest({ gameId: deps.gameId, line, timeLeftMs }) : undefined) } : {}),
      leave: (reason) => this.leave(reason),
      resync: (why) => this.stream.reconnect(why),
    });
    this.offers = new Offers({
      client: deps.client,
      gameId: deps.gameId,
      config: deps.config,
      log: deps.log,
      claimMarginMs: deps.timings.claimMarginMs,
      ...(deps.takebacks ? { takebacks: deps.takebacks } : {}),
      live,
      acceptsDraw: () => this.thinker.acceptsDraw(this.sync.line?.pieceCount() ?? 32),
      resumeThinking: () => this.moves.maybeThinkIfOurTurn(),
    });
    this.chat = new GameChat({
      client: deps.client,
      gameId: deps.gameId,
      log: deps.log,
      greeting: deps.config.greeting,
      names: () => this.sync.names(deps.me.username),
      oneRoom: profile.oneChatRoom,
    });
  }

  get id(): string {
    return this.deps.gameId;
  }

  /** Plays the game until lichess ends it or we leave it; never rejects. */
  run(variantHint?: string): Promise<GameEnd> {
    if (variantHint !== undefined) this.moves.ensurePlayer(variantHint);
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
    if (mode === 'resign' && this.sync.state !== undefined) {
      await this.moves.resign('shutting down');
      return;
    }
    this.leave('shutting down');
  }

  /** Whether a game has started on the board for us (for the bot's slot accounting of correspondence). */
  isCorrespondence(): boolean {
    return this.sync.isCorrespondence();
  }

  // ---- stream input -------------------------------------------------------------------------------

  private onMessage(m: unknown): void {
    if (this.ended) return;
    const ev = this.readLine(m);
    if (ev === undefined) return;
    switch (ev.type) {
      case 'gameFull':
        this.onFull(ev);
        break;
      case 'gameState':
        this.onState(ev);
        break;
      case 'chatLine':
        this.chat.answer(ev, {
          me: this.deps.me.username,
          engineName: this.deps.engineName,
          lastSearch: () => this.moves.lastSearch,
          extendAbort: (ms) => this.offers.extendAbort(ms),
          queued: this.deps.queued,
        });
        break;
      case 'opponentGone':
        this.offers.opponentGone(ev);
        break;
    }
  }

  private onFull(full: GameFullEvent): void {
    const begun = this.sync.begin(full);
    if (begun.isErr) {
      if (begun.error.code !== 'ERR_NOT_OUR_GAME') this.deps.log.error(`game ${this.id}: ${begun.error.message}`);
      this.leave(begun.error.message);
      return;
    }
    if (begun.value.first) {
      const color = this.sync.ourColor!;
      this.moves.ensurePlayer(full.variant.key);
      // After a restart the game log gives back our earlier searches: their scores count for the policy.
      for (const m of this.recorder.open(full, color)) if (m.search) this.thinker.noteScore(m.ply, m.search.score);
      this.deps.onFull?.(full, color);
      this.deps.log.info(
        `game ${this.id}: ${full.white.name} vs ${full.black.name}, ${full.variant.key} ${full.speed}${full.rated ? ' rated' : ''}, we play ${color}`,
      );
    } else {
      this.stats.resyncs++;
    }
    // A fresh snapshot: a move whose POST had an unknown outcome is re-sent only if this state still owes it.
    this.onState(full.state);
  }

  private onState(state: GameStateEvent): void {
    const line = this.sync.line;
    const color = this.sync.ourColor;
    if (line === undefined || color === undefined) return;
    const synced = this.sync.apply(state);
    if (synced.isErr) {
      this.deps.log.error(`game ${this.id}: cannot follow the server's moves: ${synced.error.message}`);
      return;
    }
    const { prev, plies } = synced.value;
    if (plies < prev) this.onTakeback(plies);
    if (plies > 0 && plies !== prev) this.recorder.noteClock(plies - 1, state.wtime, state.btime);
    for (let ply = Math.min(prev, plies); ply < plies; ply++) {
      const mover = this.sync.moverAt(ply);
      this.recorder.logMove(line, ply, mover, mover === color);
    }

    if (isGameOver(state.status)) {
      this.end(state.status, state.winner);
      return;
    }
    if (state.status === 'paused') {
      // lishogi: adjourned (scalashogi `Status.Paused`), by agreement or by the server (`Finisher.forcePause`
      // of a tournament game after a restart; WandererXII/lishogi@acb3b122 modules/round). Not over: neither
      // side may move (`Game.playable` is false), the clocks are stopped, and only both players' resume
      // offers bring it back `started`, which the bot stream does not announce. Leave it parked, as a
      // correspondence game waiting for the opponent: the check-in reopens it once it is our move again.
      this.paused = true;
      this.leave('adjourned (paused): parked until it resumes');
      return;
    }
    if (!this.greeted) {
      this.greeted = true;
      if (plies < 2) this.chat.hello();
    }
    const ourTurn = line.turn() === color;
    if (ourTurn) this.moves.ponderhit();
    this.offers.answer(state, color);
    this.offers.updateAbort(plies, ourTurn);
    this.armStaleTimer(state, line.turn());
    if (ourTurn) {
      clearTimeout(this.disconnectTimer);
      this.disconnectTimer = undefined;
      this.moves.maybeThink();
    } else {
      this.moves.dropStaleSearch();
      this.armCorrespondenceDisconnect();
    }
  }

  private onTakeback(plies: number): void {
    this.recorder.takeback(plies);
    this.thinker.takeback(plies);
    this.moves.dropStaleSearch();
  }

  // ---- timers -------------------------------------------------------------------------------------

  /** A real-time game with no update for the mover's clock + increment + 60 s is stuck: leave it (lichess-bot). */
  private armStaleTimer(state: GameStateEvent, mover: Color): void {
    clearTimeout(this.staleTimer);
    if (this.sync.full?.clock === undefined) return;
    const ms = staleGameMs(mover === 'white' ? state.wtime : state.btime, mover === 'white' ? state.winc : state.binc);
    this.staleTimer = setTimeout(() => this.leave(`no update from lichess for ${Math.round(ms / 1000)} s`), Math.min(ms, 2_000_000_000));
  }

  private armCorrespondenceDisconnect(): void {
    if (!this.isCorrespondence() || this.disconnectTimer !== undefined) return;
    this.disconnectTimer = setTimeout(() => {
      if (!this.ended && this.sync.line && this.sync.ourColor && !this.sync.ourTurn()) this.leave('correspondence: waiting for the opponent');
    }, this.deps.config.correspondence.disconnectTimeS * 1000);
  }

  private clearTimers(): void {
    this.offers.clear();
    clearTimeout(this.disconnectTimer);
    clearTimeout(this.staleTimer);
    this.disconnectTimer = undefined;
  }

  // ---- ending -------------------------------------------------------------------------------------

  private writeRecords(status: GameStatus, winner: Color | undefined): void {
    const { full, line } = this.sync;
    const dir = this.deps.recordsDir;
    if (full === undefined || line === undefined || dir === undefined) return;
    this.recorder.finish(status, winner, line.plies());
    // A PGN for chess; a shogi line has its own records.
    if (!this.deps.config.records.pgn || !(line instanceof ChessLine)) return;
    writePgn({
      client: this.deps.client,
      gameId: this.id,
      dir,
      records: this.deps.config.records,
      log: this.deps.log,
      full,
      line,
      ourColor: this.sync.ourColor,
      recorder: this.recorder,
      names: this.sync.names(this.deps.me.username),
      status,
      winner,
    });
  }

  /** Lichess ended the game. */
  private end(status: GameStatus, winner: Color | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.clearTimers();
    const lease: Promise<Result<PlayerLease, KishiError>> | undefined = this.moves.currentLease();
    this.moves.release();
    const ours = this.sync.ourColor;
    this.deps.log.info(
      `game ${this.id}: over (${status}${winner ? `, ${winner} wins` : ''})${ours && winner ? (winner === ours ? ' - we won' : ' - we lost') : ''}`,
    );
    if (this.sync.plies() > 0) this.chat.goodbye();
    this.writeRecords(status, winner);
    // The finished game log goes back to the dispatcher (online learning, src/bot/dispatcher.ts).
    const logFile = this.recorder.file;
    if (logFile !== undefined) void lease?.then((r) => r.isOk && r.value.gameRecorded?.(logFile));
    this.stream.stop();
    const opponent = this.sync.opponent();
    this.endInfo = {
      gameId: this.id,
      status,
      ...(winner ? { winner } : {}),
      ...(ours ? { ourColor: ours } : {}),
      plies: this.sync.plies(),
      correspondence: false,
      ...(opponent ? { opponent } : {}),
    };
    this.resolveRun?.(this.endInfo);
  }

  /** We leave without the game ending (correspondence wait, shutdown, a stream closed for good). */
  private leave(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.leaveReason = reason;
    this.clearTimers();
    this.moves.release();
    this.deps.log.info(`game ${this.id}: leaving (${reason})`);
    this.stream.stop();
    const opponent = this.sync.opponent();
    this.endInfo = {
      gameId: this.id,
      status: 'disconnected',
      ...(this.sync.ourColor ? { ourColor: this.sync.ourColor } : {}),
      plies: this.sync.plies(),
      correspondence: this.isCorrespondence() || this.paused,
      ...(opponent ? { opponent } : {}),
    };
    this.resolveRun?.(this.endInfo);
  }
}
