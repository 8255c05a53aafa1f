/**
 * One CSA game as the client follows it: the position, the server's clock, and what goes into the
 * record and the game log. Moves enter only when the server echoes them (`+7776FU,T3`), so the position
 * and the clocks are always the server's. Pure bookkeeping: no I/O, no timers.
 */
import { KishiError, Result } from '../../core/result.js';
import type { Side } from '../../core/game.js';
import type { GoResult, SearchInfo } from '../../player/player.js';
import { CsaClock } from './clock.js';
import type { RecordMove } from './record.js';
import type { ShogiPosition } from './shogi-rules.js';
import { STARTPOS_SFEN, parseCsaMove, playMove, positionFromSfen, toSfen, turnSign } from './shogi-rules.js';
import type { CsaSign, GameSummary } from './summary.js';

/** Game-end reasons the server sends before the result line. */
export const END_REASONS = [
  'RESIGN',
  'TIME_UP',
  'ILLEGAL_MOVE',
  'SENNICHITE',
  'OUTE_SENNICHITE',
  'JISHOGI',
  'MAX_MOVES',
  'CHUDAN',
  'ILLEGAL_ACTION',
] as const;
export type EndReason = (typeof END_REASONS)[number];

/** Result lines, from our point of view. */
export const RESULTS = ['WIN', 'LOSE', 'DRAW', 'CENSORED'] as const;
export type CsaResult = (typeof RESULTS)[number];

/** One move as the game log records it (src/records/game-log.ts `move` lines). */
export interface LoggedMove {
  /** 0-based ply since the start position. */
  readonly ply: number;
  readonly side: Side;
  /** USI, or `resign` / `win` for %TORYO / %KACHI. */
  readonly move: string;
  readonly csa: string;
  readonly ours: boolean;
  /** SFEN before the move. */
  readonly position: string;
  /** Time the server charged, ms. */
  readonly timeMs?: number;
  /** Both clocks after the move, ms, as the server keeps them. */
  readonly clockMs: { readonly first: number; readonly second: number };
  readonly info?: SearchInfo;
  readonly pvLeaf?: string;
}

/** What we sent with a move, kept until its echo arrives. */
export interface OwnMoveNote {
  readonly csa: string;
  readonly comment?: string;
  readonly result?: GoResult;
}

export class CsaGame {
  readonly us: CsaSign;
  readonly them: CsaSign;
  readonly clock: CsaClock;
  readonly position: ShogiPosition;
  /** Every move from the start position in USI (the Position block's moves included). */
  readonly usiMoves: string[] = [];
  readonly recordMoves: RecordMove[] = [];
  readonly logMoves: LoggedMove[] = [];
  readonly startedAt = new Date();
  /** Reason line (`#RESIGN`…) once received. */
  reason: EndReason | undefined;
  result: CsaResult | undefined;

  private constructor(
    readonly summary: GameSummary,
    position: ShogiPosition,
  ) {
    this.us = summary.yourTurn;
    this.them = summary.yourTurn === '+' ? '-' : '+';
    this.clock = new CsaClock(summary.time);
    this.position = position;
  }

  /**
   * Sets up the game from the summary, replaying the moves already played. Their `T` times go into the
   * record and the game log but not onto the clocks: shogi-server sets both players' time back to
   * `Total_Time` when it sends START (`Game#start` in its game.rb), so a floodgate buoy game or a `%%FORK`
   * starts with full clocks however long the moves of its Position block took.
   */
  static fromSummary(summary: GameSummary): Result<CsaGame, KishiError> {
    const pos = positionFromSfen(summary.startSfen);
    if (pos.isErr) return Result.err(pos.error);
    const game = new CsaGame(summary, pos.value);
    for (const m of summary.moves) {
      const r = game.apply(m.csa, m.time, undefined, false);
      if (r.isErr) return Result.err(r.error);
    }
    return Result.ok(game);
  }

  /** The side to move now. */
  turn(): CsaSign {
    return turnSign(this.position);
  }

  isOurTurn(): boolean {
    return this.turn() === this.us;
  }

  /** Plies played since the start position (the Position block's moves included). */
  plies(): number {
    return this.usiMoves.length;
  }

  /** The GoRequest start: `startpos` for the even-game position, else its SFEN. */
  startText(): string {
    return this.summary.startSfen === STARTPOS_SFEN ? 'startpos' : this.summary.startSfen;
  }

  sfen(): string {
    return toSfen(this.position);
  }

  /**
   * Applies a move echoed by the server (`+7776FU` and its `T`), checking it is legal; `own` carries what
   * we sent with it when it is ours.
   */
  applyEcho(csa: string, time: number | undefined, own?: OwnMoveNote): Result<string, KishiError> {
    return this.apply(csa, time, own, true);
  }

  private apply(csa: string, time: number | undefined, own: OwnMoveNote | undefined, charge: boolean): Result<string, KishiError> {
    const mover = this.turn();
    const m = parseCsaMove(this.position, csa);
    if (m.isErr) return Result.err(m.error);
    const before = this.sfen();
    playMove(this.position, m.value);
    this.usiMoves.push(m.value.usi);
    if (time !== undefined && charge) this.clock.charge(mover, time);
    this.recordMoves.push({ csa, ...(time !== undefined ? { time } : {}), ...(own?.comment !== undefined ? { comment: own.comment } : {}) });
    this.log(mover, m.value.usi, csa, before, time, own?.result);
    return Result.ok(m.value.usi);
  }

  private log(mover: CsaSign, move: string, csa: string, position: string, time: number | undefined, result: GoResult | undefined): void {
    const unitMs = this.clock.rule(mover).unitMs;
    this.logMoves.push({
      ply: this.logMoves.length,
      side: mover === '+' ? 'first' : 'second',
      move,
      csa,
      ours: mover === this.us,
      position,
      ...(time !== undefined ? { timeMs: time * unitMs } : {}),
      clockMs: { first: this.clock.remainingMs('+'), second: this.clock.remainingMs('-') },
      ...(result?.info !== undefined ? { info: result.info } : {}),
      ...(result?.pvLeaf !== undefined ? { pvLeaf: result.pvLeaf } : {}),
    });
  }

  /** Records a special move (`%TORYO`, `%KACHI`) with its time when the server gave one. */
  applySpecial(line: string, time: number | undefined, result?: GoResult): void {
    const mover = this.turn();
    this.recordMoves.push({ csa: line, ...(time !== undefined ? { time } : {}) });
    const move = line === '%TORYO' ? 'resign' : line === '%KACHI' ? 'win' : line;
    this.log(mover, move, line, this.sfen(), time, result);
  }
}
