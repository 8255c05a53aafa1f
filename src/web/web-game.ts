/**
 * One game on the local page: a person against Kishi's Player. The server side is authoritative:
 * it holds the position (the rules adapters of src/games), the clock (game-clock.ts), asks the leased
 * Player for Kishi's moves with the clock and the chosen strength limits, checks every move the page
 * sends, and writes the game log like the online front-ends do (src/records/game-log.ts), so finished
 * games feed TD-Leaf through the lease. Transport-free: events go to `emit`, requests come as method
 * calls that answer a `Result` (a refused request leaves the game as it was).
 *
 * Kishi's turn goes through the bot's Thinker (src/bot/thinker/thinker.ts), as a lichess or CSA game's
 * does: one time plan per move, the stop before the flag falls, the fallback move for an illegal or
 * missing answer, and the draw and resignation policy (`lichess.drawOrResign`): Kishi accepts a draw
 * only when its recent scores are near zero with few pieces left, offers one with its move on the
 * same condition, and resigns after a run of lost scores when that is enabled.
 */
import type { PlayerLease } from '../bot/dispatcher.js';
import type { DrawOrResignConfig } from '../config/sections/draw-or-resign.js';
import type { GameKind, GameState, Side } from '../core/game.js';
import { otherSide } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import { ChessGame } from '../games/chess/index.js';
import { ShogiGame } from '../games/shogi/index.js';
import type { SearchInfo, SearchLimits } from '../player/player.js';
import { gameStatePosition, piecesOnBoard } from '../bot/thinker/game-state-position.js';
import { Thinker } from '../bot/thinker/thinker.js';
import type { Decision, ThinkerLog } from '../bot/thinker/thinker.js';
import type { GameLogWriter } from '../records/game-log.js';
import { GameClock } from './game-clock.js';
import type { ClockView, TimeControl } from './game-clock.js';
import type { RecordData, WebResult } from './game-records.js';
import { moveTimeCap } from './messages.js';

/** What the page is told. */
export type WebEvent =
  | { readonly t: 'state'; readonly state: GameSnapshot }
  | { readonly t: 'info'; readonly ply: number; readonly info: SearchInfo }
  | { readonly t: 'notice'; readonly text: string };

/** The whole game as the page draws it. */
export interface GameSnapshot {
  readonly id: string;
  readonly game: GameKind;
  readonly humanSide: Side;
  readonly engine: string;
  readonly limits: SearchLimits;
  readonly control: TimeControl;
  /** UCI (chess) or USI (shogi) from the initial position. */
  readonly moves: readonly string[];
  /** FEN/SFEN of the current position. */
  readonly position: string;
  readonly turn: Side;
  readonly clock: ClockView;
  readonly result?: WebResult;
  readonly takebacksLeft: number;
  /** Kishi offers a draw with its last move (the policy's draw condition); the person's next move declines it. */
  readonly drawOffered: boolean;
  /** Kishi's search behind the last move on the board, when that move was Kishi's, for the engine panel. */
  readonly lastInfo?: SearchInfo;
  /** Per ply: the score of Kishi's search for the move played there (Kishi's view), null for the person's moves. */
  readonly evals: readonly (SearchInfo['score'] | null)[];
}

export interface WebGameOptions {
  readonly id: string;
  readonly game: GameKind;
  readonly humanSide: Side;
  readonly humanName: string;
  readonly control: TimeControl;
  readonly limits: SearchLimits;
  readonly lease: PlayerLease;
  readonly policy: DrawOrResignConfig;
  readonly maxTakebacks: number;
  /** Network lag kept back per move, ms (config `engine.moveOverheadMs`, as the Player plans with it); default 0. */
  readonly moveOverheadMs?: number;
  /** Where the Thinker says what it does (stops, fallbacks); default nowhere. */
  readonly diagnostics?: ThinkerLog;
  /** The game log (already opened with its header), when games are logged. */
  readonly log?: GameLogWriter;
  readonly emit: (event: WebEvent) => void;
  /** Called once when the game is over (after the log's result line); the server writes records and frees the slot. */
  readonly onEnd?: (game: WebGame) => void;
  /** Milliseconds; `Date.now` unless a test drives the time. */
  readonly now?: () => number;
}

/** The game log's `status` words (lichess's, which the learners' filters read) for our end reasons. */
const LOG_STATUS: Record<string, string> = {
  checkmate: 'mate',
  timeout: 'outoftime',
  'draw-agreed': 'draw',
  abandoned: 'aborted',
};

/**
 * The clocks run from this ply on: like lichess, each side's first move is untimed, so the person's
 * clock does not run while they find the board (and Kishi's first move is bounded by its main time).
 */
export const CLOCK_STARTS_AT_PLY = 2;

const refuse = (code: string, message: string): Result<never, KishiError> => Result.err(new KishiError(code, message));

/** Kishi stops searching this long before its flag would fall, ms: the answer still reaches the board in time. */
const FLAG_MARGIN_MS = 300;

/** How long a stopped Player may still take to answer before the Thinker plays a fallback move, ms (within FLAG_MARGIN_MS). */
const GRACE_MS = 200;

const SILENT: ThinkerLog = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

export class WebGame {
  readonly startedAt = new Date();
  private readonly state: GameState<unknown>;
  private readonly clock: GameClock;
  private readonly moves: string[] = [];
  private readonly moveMs: number[] = [];
  /** Kishi's turns: the time plan, the guard, the fallback move and the draw and resignation policy. */
  private readonly thinker: Thinker;
  /** Kishi's search for the move at each ply it played (the engine panel of that position). */
  private readonly infos = new Map<number, SearchInfo>();
  private result: WebResult | undefined;
  private takebacksLeft: number;
  private drawOffered = false;
  private flagTimer: NodeJS.Timeout | undefined;
  /** Bumped by every change that voids a running search (takeback, game end). */
  private generation = 0;
  private thinking: Promise<void> = Promise.resolve();
  private readonly now: () => number;
  private lastPress: number;

  constructor(private readonly opts: WebGameOptions) {
    this.state = (opts.game === 'chess' ? ChessGame.standard() : ShogiGame.startpos()) as GameState<unknown>;
    this.clock = new GameClock(opts.control);
    this.takebacksLeft = opts.maxTakebacks;
    this.now = opts.now ?? Date.now;
    this.lastPress = this.now();
    this.thinker = new Thinker({
      game: opts.game,
      log: opts.diagnostics ?? SILENT,
      logPrefix: `web game ${opts.id}: `,
      graceMs: GRACE_MS,
      drawOrResign: opts.policy,
      // Only the search deciding Kishi's move reports (a stopped one is forgotten by the Thinker).
      onInfo: (info) => this.opts.emit({ t: 'info', ply: this.moves.length, info }),
    });
  }

  get id(): string {
    return this.opts.id;
  }

  get game(): GameKind {
    return this.opts.game;
  }

  over(): boolean {
    return this.result !== undefined;
  }

  /** Starts the game (the clocks start with ply CLOCK_STARTS_AT_PLY); Kishi thinks at once when it has the first move. */
  start(): void {
    const now = this.now();
    this.lastPress = now;
    this.startClockWhenDue(now);
    this.emitState();
    if (this.state.turn() !== this.opts.humanSide) this.think();
  }

  snapshot(): GameSnapshot {
    // The search behind the last move on the board: none after a takeback to the person's own move.
    const lastInfo = this.infos.get(this.moves.length - 1);
    return {
      id: this.opts.id,
      game: this.opts.game,
      humanSide: this.opts.humanSide,
      engine: this.opts.lease.player.name,
      limits: this.opts.limits,
      control: this.opts.control,
      moves: [...this.moves],
      position: this.state.toText(),
      turn: this.state.turn(),
      clock: this.clock.view(this.now()),
      ...(this.result ? { result: this.result } : {}),
      takebacksLeft: this.takebacksLeft,
      drawOffered: this.drawOffered,
      ...(lastInfo ? { lastInfo } : {}),
      evals: this.moves.map((_, ply) => this.infos.get(ply)?.score ?? null),
    };
  }

  /** Kishi's search for its move at `ply` (0-based), when that move was Kishi's and is still on the board. */
  infoAt(ply: number): SearchInfo | undefined {
    return this.infos.get(ply);
  }

  /** Starts the side to move's clock once the untimed first moves are played (and the clock is not running). */
  private startClockWhenDue(now: number): void {
    if (this.clock.runningSide() !== undefined || this.moves.length < CLOCK_STARTS_AT_PLY) return;
    this.clock.start(this.state.turn(), now);
  }

  /** The data the PGN/CSA/KIF writers take. */
  recordData(): RecordData {
    const bot = 'Kishi';
    const names = this.opts.humanSide === 'first' ? { first: this.opts.humanName, second: bot } : { first: bot, second: this.opts.humanName };
    return {
      game: this.opts.game,
      names,
      control: this.opts.control,
      moves: [...this.moves],
      moveMs: [...this.moveMs],
      ...(this.result ? { result: this.result } : {}),
      startedAt: this.startedAt,
    };
  }

  /**
   * The person's move `text` (UCI/USI) at ply `ply` (the number of moves the page had seen, so a
   * move sent from a stale page is refused rather than played on another position).
   */
  humanMove(ply: number, text: string): Result<void, KishiError> {
    if (this.result) return refuse('ERR_GAME_OVER', 'the game is over');
    if (ply !== this.moves.length) return refuse('ERR_STALE', `the move was made on ply ${ply}, the game is at ply ${this.moves.length}`);
    if (this.state.turn() !== this.opts.humanSide) return refuse('ERR_NOT_YOUR_TURN', 'it is not your turn');
    const move = this.state.parseMove(text);
    if (move.isErr) return refuse('ERR_ILLEGAL_MOVE', move.error.message);
    // Moving on declines Kishi's draw offer.
    this.drawOffered = false;
    if (!this.play(move.value, undefined)) return Result.ok(undefined);
    this.think();
    return Result.ok(undefined);
  }

  resign(): Result<void, KishiError> {
    if (this.result) return refuse('ERR_GAME_OVER', 'the game is over');
    this.end({ winner: otherSide(this.opts.humanSide), reason: 'resign' });
    return Result.ok(undefined);
  }

  /** The person offers a draw, or accepts Kishi's: Kishi agrees when its policy does, else the game goes on. */
  offerDraw(): Result<boolean, KishiError> {
    if (this.result) return refuse('ERR_GAME_OVER', 'the game is over');
    if (this.drawOffered || this.thinker.acceptsDraw(piecesOnBoard(this.state.toText()))) {
      this.end({ winner: undefined, reason: 'draw-agreed' });
      return Result.ok(true);
    }
    this.opts.emit({ t: 'notice', text: 'Kishi declines the draw offer' });
    return Result.ok(false);
  }

  /**
   * Takes back the person's last move (and Kishi's reply to it, or its search in progress), so it is
   * the person's turn again. The clocks keep their times; a takeback gives nobody time back.
   */
  async takeback(): Promise<Result<void, KishiError>> {
    if (this.result) return refuse('ERR_GAME_OVER', 'the game is over');
    if (this.takebacksLeft <= 0) return refuse('ERR_NO_TAKEBACK', 'no takebacks left in this game');
    const humanMoves = this.moves.filter((_, i) => this.sideAt(i) === this.opts.humanSide).length;
    if (humanMoves === 0) return refuse('ERR_NO_TAKEBACK', 'nothing to take back');
    this.generation++;
    this.thinker.cancel();
    await this.thinking;
    if (this.result) return refuse('ERR_GAME_OVER', 'the game is over');
    let plies = 0;
    do {
      this.state.undo();
      this.moves.pop();
      this.moveMs.pop();
      // The taken-back ply's search must not stay in the engine panel (it was a line from another position).
      this.infos.delete(this.moves.length);
      plies++;
    } while (this.state.turn() !== this.opts.humanSide);
    this.takebacksLeft--;
    this.drawOffered = false;
    // Kishi's scores of the plies taken back no longer count for the draw and resignation policy.
    this.thinker.takeback(this.moves.length);
    this.opts.log?.takeback(this.moves.length);
    const now = this.now();
    this.clock.stop(now);
    this.startClockWhenDue(now);
    this.lastPress = now;
    this.armFlag();
    this.opts.emit({ t: 'notice', text: `took back ${plies} ${plies === 1 ? 'move' : 'moves'}` });
    this.emitState();
    return Result.ok(undefined);
  }

  /** The page left for good or the server stops: the game ends unfinished. */
  async abandon(): Promise<void> {
    if (!this.result) this.end({ winner: undefined, reason: 'abandoned' });
    await this.thinking;
  }

  private sideAt(ply: number): Side {
    // Both games start with the first side to move from the initial position.
    return ply % 2 === 0 ? 'first' : 'second';
  }

  /** Plays a legal move, charges the clock, logs it; false when the game ended with it (or on time before it). */
  private play(move: unknown, info: SearchInfo | undefined, pvLeaf?: string): boolean {
    const now = this.now();
    const side = this.state.turn();
    if (!this.clock.press(now)) {
      this.end({ winner: otherSide(side), reason: 'timeout' });
      return false;
    }
    const position = this.state.toText();
    const text = this.state.moveToText(move);
    this.state.play(move);
    if (info) this.infos.set(this.moves.length, info);
    this.moves.push(text);
    this.moveMs.push(now - this.lastPress);
    this.lastPress = now;
    const clock = this.clock.snapshot(now);
    this.opts.log?.move({
      ply: this.moves.length - 1,
      side,
      move: text,
      ours: side !== this.opts.humanSide,
      position,
      clockMs: clock,
      ...(info
        ? {
            search: {
              score: info.score,
              depth: info.depth,
              ...(info.seldepth !== undefined ? { seldepth: info.seldepth } : {}),
              nodes: info.nodes,
              nps: info.nps,
              timeMs: info.timeMs,
              pv: info.pv,
              ...(pvLeaf !== undefined ? { pvLeaf } : {}),
            },
          }
        : {}),
    });
    const outcome = this.state.outcome();
    if (outcome) {
      this.end({ winner: outcome.winner, reason: outcome.reason });
      return false;
    }
    this.startClockWhenDue(now);
    this.armFlag();
    this.emitState();
    return true;
  }

  /** Kishi's turn: one search through the Thinker with the clock and the strength limits, a stop before its flag falls. */
  private think(): void {
    if (this.result || this.state.turn() === this.opts.humanSide) return;
    const generation = ++this.generation;
    const side = this.state.turn();
    // Before the clocks run (the first moves), the main time and one byoyomi period still bound the search.
    const msToFlag = this.clock.msToFlag(this.now()) ?? this.clock.timeLeft(side, this.now()) + this.opts.control.byoyomiMs;
    // The limits (nodes, depth) set the strength; the clock still bounds the search.
    const strength = this.opts.limits.nodes !== undefined || this.opts.limits.depth !== undefined;
    const decided = this.thinker.think(this.opts.lease.player, {
      request: { game: this.opts.game, variant: 'standard', start: 'startpos', moves: [...this.moves] },
      position: gameStatePosition(this.state),
      time: {
        clock: this.clock.state(this.now()),
        side,
        plies: this.moves.length,
        overheadMs: this.opts.moveOverheadMs ?? 0,
        deadlineMs: Math.max(10, msToFlag - FLAG_MARGIN_MS),
        ...(strength ? { limits: { ...this.opts.limits, movetimeMs: moveTimeCap(this.clock.timeLeft(side, this.now()), this.opts.control) } } : {}),
      },
    });
    this.thinking = decided.then((d) => {
      if (generation === this.generation && !this.result) this.onDecision(d);
    });
  }

  /** Plays what the Thinker decided for Kishi's turn. */
  private onDecision(d: Decision): void {
    switch (d.kind) {
      case 'cancelled':
        return;
      case 'declare':
        this.end({ winner: this.state.turn(), reason: 'entering-king' });
        return;
      case 'resign':
        this.end({ winner: this.opts.humanSide, reason: 'resign' });
        return;
      case 'failed':
        this.opts.emit({ t: 'notice', text: `Kishi's engine failed: ${d.error.message}` });
        this.end({ winner: undefined, reason: 'abandoned' });
        return;
      case 'move': {
        const move = this.state.parseMove(d.move);
        // The Thinker decides legal moves only; a position without one ended the game before this turn.
        if (move.isErr) return;
        if (d.fallback === 'illegal') this.opts.emit({ t: 'notice', text: `Kishi answered an illegal move; it plays ${d.move} instead` });
        else if (d.fallback === 'overrun') this.opts.emit({ t: 'notice', text: `Kishi did not answer in time; it plays ${d.move}` });
        // Kishi offers a draw with its move when the policy's draw condition holds (lichess-bot's offer_draw).
        this.drawOffered = d.offerDraw;
        if (this.play(move.value, d.fallback === undefined ? d.result.info : undefined, d.result.pvLeaf) && this.drawOffered) {
          this.opts.emit({ t: 'notice', text: 'Kishi offers a draw' });
        }
        return;
      }
    }
  }

  private armFlag(): void {
    clearTimeout(this.flagTimer);
    const ms = this.clock.msToFlag(this.now());
    if (ms === undefined || this.result) return;
    this.flagTimer = setTimeout(() => {
      if (this.result) return;
      if (this.clock.flagged(this.now())) {
        const side = this.clock.runningSide()!;
        this.end({ winner: otherSide(side), reason: 'timeout' });
      } else this.armFlag();
    }, ms + 5);
  }

  private end(result: WebResult): void {
    if (this.result) return;
    this.result = result;
    this.generation++;
    clearTimeout(this.flagTimer);
    this.clock.stop(this.now());
    this.thinker.cancel();
    this.opts.log?.finish({ winner: result.winner ?? null, status: LOG_STATUS[result.reason] ?? result.reason, plies: this.moves.length, endedAt: new Date().toISOString() });
    if (this.opts.log) this.opts.lease.gameRecorded?.(this.opts.log.file);
    this.emitState();
    this.opts.onEnd?.(this);
  }

  private emitState(): void {
    this.opts.emit({ t: 'state', state: this.snapshot() });
  }
}
