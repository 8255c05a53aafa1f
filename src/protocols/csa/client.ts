/**
 * The CSA client: one connection to a CSA server (shogi-server, floodgate) under an explicit state
 * machine, playing with a `Player`.
 *
 *   connecting → logging-in → waiting → summary → agreeing → playing → game-over → closed
 *                                 ↑__________________________________________|  (x1 mode only)
 *
 * Each received line is handled in one switch on the state (style anchors, convention 9). Rules kept
 * here, from CSA protocol 1.2.1, shogi-server's code and the real-server transcripts in tests/fixtures/csa/:
 * - LOGIN `<user> <gameName>,<secret>` in CSA mode (floodgate pairs only logins with the secret part),
 *   `<user> <secret> x1` in x1 mode followed by `%%GAME <gameName> *`;
 * - AGREE a summary we can play, REJECT one we cannot parse;
 * - a move is sent only on our turn and only once its predecessor has been echoed (never out of turn;
 *   the server would queue it); `%TORYO` to resign, `%KACHI` only when the declaration is legal, never
 *   `%CHUDAN` (the server counts it as an illegal move);
 * - the position and both clocks follow the server's echoes (`,T` in whole units); our turn goes to the
 *   Thinker (src/bot/thinker/) with the server's clock as a `ClockState` and its time-up rule, less a
 *   safety margin plus the measured round trip, as the deadline (clock.ts); the Thinker stops the Player
 *   there and, should it overrun anyway, decides a fallback legal move that goes out before the deadline;
 * - our moves carry the floodgate comment `'* <cp from black's view> <pv from the reply on>`;
 * - after a game (CSA mode) we send LOGOUT and expect the server to close the socket; the caller
 *   reconnects for the next game.
 */
import type { GoResult, Player } from '../../player/player.js';
import { Thinker } from '../../bot/thinker/thinker.js';
import type { Decision, Turn } from '../../bot/thinker/thinker.js';
import { childLogger } from '../../log/logger.js';
import { registerSecret } from '../../log/redact.js';
import type { Transcript } from '../../log/transcript.js';
import { planBudget } from './clock.js';
import { floodgateComment } from './comment.js';
import { CsaGame, END_REASONS, RESULTS } from './csa-game.js';
import type { CsaResult, EndReason, LoggedMove, OwnMoveNote } from './csa-game.js';
import { x1GameCommand } from './login.js';
import { RttEstimate } from './rtt.js';
import { parseUsiMove } from './shogi-rules.js';
import { shogiThinkerPosition } from './thinker-position.js';
import { LineSocket } from './socket.js';
import type { CloseInfo } from './socket.js';
import { parseGameSummary } from './summary.js';
import type { CsaSign, GameSummary } from './summary.js';

export const CLIENT_STATES = ['idle', 'connecting', 'logging-in', 'waiting', 'summary', 'agreeing', 'playing', 'game-over', 'closed'] as const;
export type ClientState = (typeof CLIENT_STATES)[number];

/** The logging the client needs; a winston logger fits. */
export interface CsaLog {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface CsaClientOptions {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  /** The secret part of the password (floodgate's trip); registered for masking. */
  readonly secret: string;
  /** The game name (`floodgate-300-10F`): the CSA-mode password is `<gameName>,<secret>`. */
  readonly gameName: string;
  /** Extended mode: `LOGIN <user> <secret> x1`, then `%%GAME <gameName> *`; the connection survives games. */
  readonly x1: boolean;
  readonly connectTimeoutMs: number;
  /** Blank line after this long without sending, ms (40 000). */
  readonly keepAliveMs: number;
  /** Never two blank lines closer than this, ms (30 000). */
  readonly minBlankGapMs: number;
  /** A keep-alive without any answer for this long means the server is gone, ms. */
  readonly replyTimeoutMs: number;
  /** Safety margin per move on top of the round trip, ms (at least 1000 on real servers). */
  readonly safetyMarginMs: number;
  /** Send the floodgate comment with our moves. */
  readonly comments: boolean;
  /** Think on the opponent's time when the Player suggested a ponder move. */
  readonly ponder: boolean;
  /** Network lag the time plan keeps back per move on top of the budget's margin, ms; default 0 (the CSA bot passes 0: `safetyMarginMs` and the round trip are its lag). */
  readonly moveOverheadMs?: number;
  /** After a game, wait this long for the server to close the socket before closing it ourselves, ms. */
  readonly closeWaitMs: number;
  readonly transcript?: Transcript;
  readonly log?: CsaLog;
  /** These credentials logged in before in this process: a refusal is then most likely our own dropped session. */
  readonly loggedInBefore?: boolean;
}

/** Defaults for a real server; tests shrink the times. */
export const DEFAULT_CLIENT_TIMING = {
  connectTimeoutMs: 20_000,
  keepAliveMs: 40_000,
  minBlankGapMs: 30_000,
  replyTimeoutMs: 30_000,
  safetyMarginMs: 1500,
  closeWaitMs: 3000,
} as const;

/** A game that ended, for records and logs. */
export interface FinishedGame {
  readonly game: CsaGame;
  /** Our result; `aborted` when the connection was lost before a result line. */
  readonly result: 'win' | 'loss' | 'draw' | 'aborted';
  readonly reason: EndReason | 'DISCONNECTED' | undefined;
  readonly csaResult: CsaResult | undefined;
  readonly endedAt: Date;
}

export interface CsaClientHooks {
  /** A game started (after START). */
  onGameStart?(game: CsaGame): void;
  /** A move (or %TORYO / %KACHI) was echoed and applied: the last entry of `game.logMoves`. */
  onMove?(game: CsaGame, move: LoggedMove): void;
  /** A game ended (result line, or the connection was lost mid-game). Errors thrown here are logged. */
  onGameEnd?(finished: FinishedGame): void;
  /** x1 mode: whether to ask for another game on the same connection. */
  wantMoreGames?(): boolean;
}

/** How a session (one connection) ended. */
export interface SessionEnd {
  /**
   * `refused`: LOGIN:incorrect (do not retry blindly); `rejected`: the server answered our request for a
   * game with `##[ERROR]` (a permanent error: the same request gets the same answer; `message` is the
   * server's line); `connect-failed`; `closed`: the connection ended.
   */
  readonly kind: 'refused' | 'rejected' | 'connect-failed' | 'closed';
  readonly games: number;
  /** The connection ended while a game was on (the game is lost or aborted). */
  readonly duringGame: boolean;
  /** Whether we were logged in at some point. */
  readonly loggedIn: boolean;
  readonly closeReason?: CloseInfo['reason'];
  readonly message: string;
  /** The Player failed (threw or died) during the session: do not reuse it. */
  readonly playerFailed: boolean;
}

const MOVE_LINE = /^([+-]\d{4}[A-Z]{2})(?:,T(\d+))?(?:,.*)?$/;
const SPECIAL_LINE = /^(%[A-Z_]+)(?:,T(\d+))?$/;

export class CsaClient {
  private state: ClientState = 'idle';
  private socket: LineSocket | undefined;
  private readonly log: CsaLog;
  private readonly rtt = new RttEstimate();
  private summaryLines: string[] = [];
  private game: CsaGame | undefined;
  private games = 0;
  private loggedIn = false;
  /** Thinks, ponders and stops in time for us (src/bot/thinker/). */
  private readonly thinker: Thinker;
  private awaitingEcho: (OwnMoveNote & { readonly sentAt: number }) | undefined;
  private lastResult: GoResult | undefined;
  private stopRequested: 'none' | 'graceful' | 'now' = 'none';
  private finishTimer: NodeJS.Timeout | undefined;
  private closeTimer: NodeJS.Timeout | undefined;
  private loginSentAt = 0;
  private resolveRun: ((end: SessionEnd) => void) | undefined;
  private refused = false;
  /** The server's `##[ERROR]` line that refused our request for a game, if any. */
  private rejectedBy: string | undefined;
  private playerFailed = false;

  constructor(
    private readonly opts: CsaClientOptions,
    private readonly player: Player,
    private readonly hooks: CsaClientHooks = {},
  ) {
    this.log = opts.log ?? childLogger('csa/client');
    registerSecret(opts.secret);
    // Half the safety margin for the Player to answer the guard's `stop` (the Player API promises 50 ms).
    const graceMs = Math.max(20, Math.min(500, Math.floor(opts.safetyMarginMs / 2)));
    this.thinker = new Thinker({ game: 'shogi', log: this.log, graceMs });
  }

  /** The current state (for tests and status lines). */
  get currentState(): ClientState {
    return this.state;
  }

  /** The game in progress, if any. */
  get currentGame(): CsaGame | undefined {
    return this.game;
  }

  /** Connects, logs in and plays until the connection ends; never rejects. */
  async run(): Promise<SessionEnd> {
    this.setState('connecting');
    this.log.info(`connecting to ${this.opts.host}:${this.opts.port}`);
    const started = Date.now();
    const sock = await LineSocket.connect({
      host: this.opts.host,
      port: this.opts.port,
      connectTimeoutMs: this.opts.connectTimeoutMs,
      keepAliveMs: this.opts.keepAliveMs,
      minBlankGapMs: this.opts.minBlankGapMs,
      replyTimeoutMs: this.opts.replyTimeoutMs,
      ...(this.opts.transcript ? { transcript: this.opts.transcript } : {}),
    });
    if (sock.isErr) {
      this.setState('closed');
      this.log.warn(sock.error.message);
      return { kind: 'connect-failed', games: 0, duringGame: false, loggedIn: false, message: sock.error.message, playerFailed: false };
    }
    this.rtt.add(Date.now() - started);
    if (this.stopRequested !== 'none') {
      sock.value.close();
      this.setState('closed');
      return { kind: 'closed', games: 0, duringGame: false, loggedIn: false, message: 'stopped before login', playerFailed: false };
    }
    this.socket = sock.value;
    const done = new Promise<SessionEnd>((resolve) => (this.resolveRun = resolve));
    this.socket.onLine((line) => this.onLine(line));
    this.socket.onClose((info) => this.onClose(info));
    this.setState('logging-in');
    const password = this.opts.x1 ? this.opts.secret : `${this.opts.gameName},${this.opts.secret}`;
    const shown = this.opts.x1 ? '***' : `${this.opts.gameName},***`;
    const suffix = this.opts.x1 ? ' x1' : '';
    this.loginSentAt = Date.now();
    this.send(`LOGIN ${this.opts.user} ${password}${suffix}`, `LOGIN ${this.opts.user} ${shown}${suffix}`);
    return done;
  }

  /**
   * Asks the session to end. `graceful`: finish the game in progress first (a waiting login is ended at
   * once with LOGOUT); otherwise the connection is closed now, which loses a game in progress.
   */
  stop(graceful: boolean): void {
    this.stopRequested = graceful ? 'graceful' : 'now';
    if (!this.socket) return;
    if (!graceful || this.state === 'logging-in' || this.state === 'connecting') {
      this.cancelSearch();
      this.socket.close();
      return;
    }
    if (this.state === 'waiting') {
      this.send('LOGOUT');
      this.armCloseTimer();
    }
  }

  private setState(s: ClientState): void {
    if (this.state !== s) this.log.debug(`state ${this.state} -> ${s}`);
    this.state = s;
  }

  private send(line: string, shown?: string): void {
    this.socket?.send(line, shown);
  }

  // ---------------------------------------------------------------------------------------------
  // Received lines, one switch on the state.

  private onLine(line: string): void {
    if (line === '') {
      const rtt = this.socket?.takePingRtt();
      if (rtt !== undefined) this.rtt.add(rtt);
      return; // keep-alive answer
    }
    switch (this.state) {
      case 'logging-in':
        return this.onLoggingIn(line);
      case 'waiting':
        return this.onWaiting(line);
      case 'summary':
        return this.onSummaryLine(line);
      case 'agreeing':
        return this.onAgreeing(line);
      case 'playing':
        return this.onPlaying(line);
      case 'game-over':
        if (line === 'LOGOUT:completed') this.log.debug('logged out');
        else this.log.debug(`after the game: ${line}`);
        return;
      default:
        this.log.warn(`unexpected line in state ${this.state}: ${JSON.stringify(line)}`);
    }
  }

  private onLoggingIn(line: string): void {
    if (line === `LOGIN:${this.opts.user} OK`) {
      this.rtt.add(Date.now() - this.loginSentAt);
      this.loggedIn = true;
      this.log.info(`logged in as ${this.opts.user}${this.opts.x1 ? ' (x1)' : ''}; waiting for a game of ${this.opts.gameName}`);
      this.setState('waiting');
      if (this.stopRequested === 'graceful') {
        this.send('LOGOUT');
        this.armCloseTimer();
      } else if (this.opts.x1) {
        this.send(x1GameCommand(this.opts.gameName));
      }
      return;
    }
    if (line === 'LOGIN:incorrect') {
      // shogi-server checks no password: it refuses a malformed LOGIN (ours is checked before it is sent,
      // login.ts) or a name another connection still holds, such as our own previous one after a restart.
      this.refused = true;
      this.log.warn(`login refused for ${this.opts.user}: another connection (perhaps our previous one) still holds the name`);
      this.socket?.close();
      return;
    }
    this.log.warn(`unexpected line while logging in: ${JSON.stringify(line)}`);
  }

  private onWaiting(line: string): void {
    if (line === 'BEGIN Game_Summary') {
      this.summaryLines = [line];
      this.setState('summary');
      return;
    }
    if (line === 'LOGOUT:completed') {
      this.log.info('logged out');
      this.setState('game-over');
      this.armCloseTimer();
      return;
    }
    if (line.startsWith('##[')) {
      if (!line.startsWith('##[ERROR]')) {
        this.log.debug(`server: ${line}`);
        return;
      }
      // The server refused our request for a game (x1 %%GAME, or the game name of a CSA-mode login: a bad
      // game name, a colour on floodgate, a handicap game without a colour). Asking again gets the same
      // answer: the session ends as `rejected` and the bot stops (game-server.ts).
      this.rejectedBy = line;
      this.log.error(`server: ${line}; disconnecting`);
      this.socket?.close();
      return;
    }
    if (line.startsWith('REJECT:')) {
      this.log.info(`game rejected: ${line}`);
      return;
    }
    this.log.warn(`unexpected line while waiting for a game: ${JSON.stringify(line)}`);
  }

  private onSummaryLine(line: string): void {
    this.summaryLines.push(line);
    if (line !== 'END Game_Summary') return;
    const parsed = parseGameSummary(this.summaryLines);
    if (parsed.isErr) {
      this.log.error(`cannot play this game, rejecting it: ${parsed.error.message}`);
      this.send('REJECT');
      this.setState('waiting');
      return;
    }
    const s = parsed.value;
    const ourName = s.yourTurn === '+' ? s.blackName : s.whiteName;
    if (ourName !== this.opts.user) this.log.warn(`the summary names us ${ourName}, we logged in as ${this.opts.user}`);
    const game = CsaGame.fromSummary(s);
    if (game.isErr) {
      this.log.error(`cannot set up game ${s.gameId}, rejecting it: ${game.error.message}`);
      this.send('REJECT');
      this.setState('waiting');
      return;
    }
    this.game = game.value;
    this.setState('agreeing');
    // Forget the previous game before agreeing; the Player's newGame runs while the opponent agrees.
    void this.thinker.newGame(this.player);
    this.send('AGREE');
  }

  private onAgreeing(line: string): void {
    const game = this.game!;
    if (line.startsWith('START:')) {
      const id = line.slice('START:'.length);
      if (id !== game.summary.gameId) this.log.warn(`START for ${id}, but the summary was for ${game.summary.gameId}`);
      this.setState('playing');
      const s = game.summary;
      const opp = game.us === '+' ? s.whiteName : s.blackName;
      this.log.info(`game ${s.gameId} started: we are ${game.us === '+' ? 'black (sente)' : 'white (gote)'} against ${opp}, ${timeControlText(s)}`);
      try {
        this.hooks.onGameStart?.(game);
      } catch (e) {
        this.log.error(`onGameStart failed: ${String(e)}`);
      }
      // One blank line now measures the round trip before the first budget (allowed: none in the last 30 s).
      this.socket?.ping();
      if (game.isOurTurn()) this.startOurTurn(Date.now());
      return;
    }
    if (line.startsWith('REJECT:')) {
      this.log.info(`game ${game.summary.gameId} was rejected: ${line}`);
      this.game = undefined;
      this.setState('waiting');
      return;
    }
    this.log.warn(`unexpected line while waiting for START: ${JSON.stringify(line)}`);
  }

  private onPlaying(line: string): void {
    const game = this.game!;
    const mv = MOVE_LINE.exec(line);
    if (mv) return this.onMoveEcho(game, mv[1]!, mv[2] === undefined ? undefined : Number(mv[2]));
    const sp = SPECIAL_LINE.exec(line);
    if (sp) return this.onSpecial(game, sp[1]!, sp[2] === undefined ? undefined : Number(sp[2]));
    if (line.startsWith('#')) {
      const word = line.slice(1);
      if ((RESULTS as readonly string[]).includes(word)) {
        game.result = word as CsaResult;
        this.finishGame();
        return;
      }
      if ((END_REASONS as readonly string[]).includes(word)) {
        game.reason = word as EndReason;
        this.cancelSearch();
        this.log.info(`game ${game.summary.gameId}: #${word}`);
        // Servers other than shogi-server may end with #CHUDAN alone: do not wait for a result forever.
        if (word === 'CHUDAN') this.finishTimer = setTimeout(() => this.finishGame(), 2000);
        return;
      }
      this.log.warn(`unknown game-end line ${JSON.stringify(line)}`);
      return;
    }
    if (line.startsWith('##[')) {
      this.log.debug(`server: ${line}`);
      return;
    }
    this.log.warn(`unexpected line during the game: ${JSON.stringify(line)}`);
  }

  private onMoveEcho(game: CsaGame, csa: string, time: number | undefined): void {
    const mover = game.turn();
    if (csa[0] !== mover) {
      this.log.error(`the server sent ${csa} but it is ${mover}'s turn; ignoring it`);
      return;
    }
    let own: (OwnMoveNote & { sentAt: number }) | undefined;
    if (mover === game.us) {
      if (this.awaitingEcho?.csa === csa) {
        own = this.awaitingEcho;
        this.rtt.add(Date.now() - own.sentAt);
      } else {
        this.log.error(`the server played ${csa} for us, but we sent ${this.awaitingEcho?.csa ?? 'nothing'}`);
      }
      this.awaitingEcho = undefined;
    }
    const before = game.clock.remaining(mover);
    const applied = game.applyEcho(csa, time, own);
    if (applied.isErr) {
      this.log.error(`cannot follow the server's move ${csa}: ${applied.error.message}; the game can no longer be followed`);
      return;
    }
    this.log.debug(`${csa},T${time ?? '?'} (clock ${before} -> ${game.clock.remaining(mover)} units)`);
    this.notifyMove(game);
    // After the Max_Moves-th move the server ends the game (#MAX_MOVES): nothing more to think about.
    const max = game.summary.maxMoves;
    if (max !== undefined && game.plies() >= max) return;
    if (mover === game.them) this.startOurTurn(Date.now());
    else this.maybePonder(game);
  }

  private onSpecial(game: CsaGame, word: string, time: number | undefined): void {
    const last = game.recordMoves[game.recordMoves.length - 1];
    // shogi-server echoes a declaration twice (`%KACHI,T0` then `%KACHI`): record it once.
    if (!(word === '%KACHI' && time === undefined && last?.csa === '%KACHI')) {
      game.applySpecial(word, time, this.awaitingEcho?.csa === word ? this.awaitingEcho.result : undefined);
      this.notifyMove(game);
    }
    if (this.awaitingEcho?.csa === word) this.awaitingEcho = undefined;
    this.cancelSearch();
  }

  // ---------------------------------------------------------------------------------------------
  // Our moves.

  /** Our turn began at `receivedAt` (the opponent's move or START reached us then). */
  private startOurTurn(receivedAt: number): void {
    const game = this.game!;
    const budget = planBudget(game.clock, game.us, this.opts.safetyMarginMs, this.rtt.value());
    const plies = game.plies();
    const turn: Turn = {
      request: { game: 'shogi', variant: 'standard', start: game.startText(), moves: [...game.usiMoves] },
      position: shogiThinkerPosition(game.position),
      // The server's clock as a ClockState and its time-up rule as the deadline: the Thinker plans from both.
      time: { clock: budget.clock, side: game.us === '+' ? 'first' : 'second', plies, overheadMs: this.opts.moveOverheadMs ?? 0, deadlineMs: budget.hardMs },
      startedAt: receivedAt,
    };
    this.log.debug(`our turn: deadline ${budget.hardMs} ms (margin ${budget.marginMs} ms)`);
    void this.thinker.think(this.player, turn).then((d) => this.play(game, plies, d));
  }

  /** Carries out the Thinker's decision for the turn at `plies`, if the game is still there. */
  private play(game: CsaGame, plies: number, d: Decision): void {
    if (this.game !== game || this.state !== 'playing' || game.plies() !== plies) return;
    switch (d.kind) {
      case 'cancelled':
        return;
      case 'failed':
        this.playerFailed = true;
        this.log.error(`the player failed: ${d.error.message}; sending a fallback move`);
        return this.play(game, plies, d.fallback);
      case 'resign':
        return this.sendSpecial('%TORYO', d.result);
      case 'declare':
        return this.sendSpecial('%KACHI', d.result);
      case 'move': {
        const m = parseUsiMove(game.position, d.move);
        if (m.isErr) return this.log.error(`cannot send ${d.move}: ${m.error.message}`);
        if (d.fallback !== undefined) {
          this.lastResult = undefined;
          return this.sendMove(m.value.csa, undefined, undefined);
        }
        const comment = this.opts.comments ? floodgateComment(game.position, m.value.usi, d.result.info, game.us) : undefined;
        this.lastResult = d.result;
        return this.sendMove(m.value.csa, comment, d.result);
      }
    }
  }

  /** Stops and forgets the current search (its answer will be ignored). */
  private cancelSearch(): void {
    this.thinker.cancel();
  }

  private sendMove(csa: string, comment: string | undefined, result: GoResult | undefined): void {
    const game = this.game!;
    if (!game.isOurTurn() || this.awaitingEcho !== undefined || this.state !== 'playing') {
      this.log.error(`refusing to send ${csa} out of turn`);
      return;
    }
    this.awaitingEcho = { csa, sentAt: Date.now(), ...(comment !== undefined ? { comment } : {}), ...(result ? { result } : {}) };
    this.send(comment !== undefined ? `${csa},${comment}` : csa);
  }

  private sendSpecial(word: '%TORYO' | '%KACHI', result?: GoResult): void {
    const game = this.game!;
    if (!game.isOurTurn() || this.awaitingEcho !== undefined || this.state !== 'playing') return;
    this.awaitingEcho = { csa: word, sentAt: Date.now(), ...(result ? { result } : {}) };
    this.send(word);
  }

  /** After our move's echo: think on the opponent's time about the reply the Player expects. */
  private maybePonder(game: CsaGame): void {
    if (!this.opts.ponder || this.stopRequested !== 'none') return;
    const guess = this.lastResult?.ponder;
    this.lastResult = undefined;
    if (guess === undefined || parseUsiMove(game.position, guess).isErr) return;
    const budget = planBudget(game.clock, game.us, this.opts.safetyMarginMs, this.rtt.value());
    this.thinker.ponder(this.player, {
      request: { game: 'shogi', variant: 'standard', start: game.startText(), moves: [...game.usiMoves, guess] },
      time: { clock: budget.clock, side: game.us === '+' ? 'first' : 'second', plies: game.plies() + 1, overheadMs: this.opts.moveOverheadMs ?? 0 },
    });
  }

  // ---------------------------------------------------------------------------------------------
  // The end of a game and of the connection.

  private finishGame(): void {
    const game = this.game;
    if (!game || this.state === 'game-over') return;
    if (this.finishTimer) clearTimeout(this.finishTimer);
    this.cancelSearch();
    this.awaitingEcho = undefined;
    this.setState('game-over');
    this.games++;
    const r = game.result;
    const result = r === 'WIN' ? 'win' : r === 'LOSE' ? 'loss' : r === undefined ? 'aborted' : 'draw';
    this.log.info(`game ${game.summary.gameId} over: ${r ?? 'no result'}${game.reason ? ` by ${game.reason}` : ''} after ${game.plies()} moves`);
    if (r === 'LOSE' && game.reason === 'TIME_UP') this.log.error(`we lost game ${game.summary.gameId} on time`);
    this.report({ game, result, reason: game.reason, csaResult: r, endedAt: new Date() });
    this.game = undefined;
    // USI engines like to hear the result (`gameover`); other Players have no such method.
    const p = this.player as Player & { gameOver?: (r: 'win' | 'lose' | 'draw') => void };
    if (result !== 'aborted') p.gameOver?.(result === 'loss' ? 'lose' : result);
    if (this.opts.x1 && this.stopRequested === 'none' && (this.hooks.wantMoreGames?.() ?? true)) {
      this.setState('waiting');
      this.send(x1GameCommand(this.opts.gameName));
      return;
    }
    // CSA mode: the server closes the socket after a game; LOGOUT is harmless (it may race the close,
    // and the reset it then meets is no error).
    this.socket?.expectClose();
    this.send('LOGOUT');
    this.armCloseTimer();
  }

  private notifyMove(game: CsaGame): void {
    const last = game.logMoves[game.logMoves.length - 1];
    if (!last || !this.hooks.onMove) return;
    try {
      this.hooks.onMove(game, last);
    } catch (e) {
      this.log.error(`writing the game log failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private report(finished: FinishedGame): void {
    try {
      this.hooks.onGameEnd?.(finished);
    } catch (e) {
      this.log.error(`writing the game's records failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private armCloseTimer(): void {
    if (this.closeTimer) return;
    this.closeTimer = setTimeout(() => this.socket?.close(), this.opts.closeWaitMs);
  }

  private onClose(info: CloseInfo): void {
    if (this.closeTimer) clearTimeout(this.closeTimer);
    if (this.finishTimer) clearTimeout(this.finishTimer);
    const why = `${info.reason}${info.error ? `: ${info.error.message}` : ''}`;
    const wasPlaying = this.state === 'playing' || this.state === 'agreeing' || this.state === 'summary';
    const game = this.game;
    if (wasPlaying && game) {
      this.cancelSearch();
      const silent = info.reason === 'silent' ? ' (the server stopped answering keep-alives)' : '';
      this.log.warn(`connection lost during game ${game.summary.gameId} after ${game.plies()} moves (${why})${silent}`);
      if (this.state === 'playing') {
        this.games++;
        this.report({ game, result: 'aborted', reason: 'DISCONNECTED', csaResult: undefined, endedAt: new Date() });
      }
      this.game = undefined;
    } else if (this.state === 'game-over') {
      this.log.debug(`connection closed after the game (${why})`);
    } else if (!this.refused && this.rejectedBy === undefined) {
      const silent = info.reason === 'silent' ? '; the server stopped answering keep-alives' : '';
      this.log.warn(`connection closed while ${this.state} (${why}${silent})`);
    }
    this.setState('closed');
    this.resolveRun?.({
      kind: this.refused ? 'refused' : this.rejectedBy !== undefined ? 'rejected' : 'closed',
      games: this.games,
      duringGame: wasPlaying,
      loggedIn: this.loggedIn,
      closeReason: info.reason,
      message: this.refused ? 'login refused' : (this.rejectedBy ?? why),
      playerFailed: this.playerFailed,
    });
    this.resolveRun = undefined;
  }
}

/** `300+10F`, `600 byoyomi 10`, in the summary's units. */
export function timeControlText(s: GameSummary): string {
  const fmt = (side: CsaSign): string => {
    const r = side === '+' ? s.time.black : s.time.white;
    const u = r.unitMs === 1000 ? 's' : `×${r.unitMs}ms`;
    return r.increment > 0
      ? `${r.totalTime}+${r.increment}F (${u})`
      : `${r.totalTime} byoyomi ${r.byoyomi} (${u})`;
  };
  const b = fmt('+');
  const w = fmt('-');
  return b === w ? b : `black ${b}, white ${w}`;
}
