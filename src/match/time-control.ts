/**
 * Time controls and the match's own clocks. The match measures every move itself (from writing `go`
 * to reading `bestmove`) and never trusts the engines' reports.
 *
 * A time control is any combination of
 * - a clock: `base` ms for the first session, `inc` ms Fischer increment after each move,
 *   `byoyomi` ms per move once the main time is spent (shogi), and `moves` per session
 *   (`40/60`: 60 s per 40 moves; 0 = sudden death, the base is given once);
 * - hard limits per move: `movetime`, `nodes`, `depth` (sent to the engine as `go movetime|nodes|depth`).
 *
 * Clock rules, as cutechess-cli and shogi servers apply them:
 * 1. The side to move may think `remaining + byoyomi + margin` ms; beyond that it loses on time.
 * 2. After the move, remaining = max(0, remaining - elapsed) + increment; byoyomi never accumulates.
 * 3. With `moves` per session, each time a side completes a session the base is added again.
 * A bare `movetime` (no clock) is also enforced: a move may take `movetime + margin` ms.
 * With a time unit (shogi servers: 1000 ms), a move is charged its time rounded down to whole units,
 * as shogi-server charges seconds; USI engines written for servers (gpsusi) count on that and use
 * their byoyomi to the last millisecond.
 */
import { KishiError, Result } from '../core/result.js';
import type { ClockState } from '../player/player.js';
import type { Side } from '../core/game.js';

export interface TimeControl {
  /** Main time per session, ms; undefined: no clock. */
  readonly baseMs?: number;
  /** Fischer increment, ms. */
  readonly incMs: number;
  /** Byoyomi per move after the main time, ms. */
  readonly byoyomiMs: number;
  /** Moves per session (0: sudden death). */
  readonly movesPerSession: number;
  /** `go movetime` limit, ms. */
  readonly movetimeMs?: number;
  /** `go nodes` limit. */
  readonly nodes?: number;
  /** `go depth` limit. */
  readonly depth?: number;
  /** Slack allowed past the limit before a loss on time, ms (cutechess `timemargin`). */
  readonly marginMs: number;
  /** Moves are charged in whole units of this many ms, rounded down (undefined or 1: exact). */
  readonly unitMs?: number;
}

/** No limits at all (not playable on its own: see {@link hasLimit}). */
export const NO_TIME_CONTROL: TimeControl = { incMs: 0, byoyomiMs: 0, movesPerSession: 0, marginMs: 0 };

/** Whether the control has a clock (main time or byoyomi). */
export const hasClock = (tc: TimeControl): boolean => tc.baseMs !== undefined || tc.byoyomiMs > 0;

/** Whether any search would end: a clock or a hard limit. */
export const hasLimit = (tc: TimeControl): boolean =>
  hasClock(tc) || tc.movetimeMs !== undefined || tc.nodes !== undefined || tc.depth !== undefined;

/**
 * Parses cutechess's clock syntax, times in seconds: `60` (60 s), `10+0.1` (Fischer),
 * `40/60` or `40/60+0.5` (moves per session), `inf` or `` (no clock). Byoyomi and hard limits
 * are separate options.
 */
export function parseClockText(text: string): Result<Pick<TimeControl, 'baseMs' | 'incMs' | 'movesPerSession'>, KishiError> {
  const t = text.trim();
  if (t === '' || t === 'inf') return Result.ok({ incMs: 0, movesPerSession: 0 });
  const m = /^(?:(\d+)\/)?(\d+(?:\.\d+)?)(?::(\d+(?:\.\d+)?))?(?:\+(\d+(?:\.\d+)?))?$/.exec(t);
  if (!m) {
    return Result.err(new KishiError('ERR_TIME_CONTROL', `bad time control ${JSON.stringify(text)} (expected [moves/]seconds[+increment], e.g. 10+0.1 or 40/60)`));
  }
  // `m:ss` minutes form (cutechess accepts 1:30 for 90 s).
  const seconds = m[3] !== undefined ? Number(m[2]) * 60 + Number(m[3]) : Number(m[2]);
  return Result.ok({
    baseMs: Math.round(seconds * 1000),
    incMs: m[4] !== undefined ? Math.round(Number(m[4]) * 1000) : 0,
    movesPerSession: m[1] !== undefined ? Number(m[1]) : 0,
  });
}

/** A short human form: `10+0.1`, `40/60`, `byo 5`, `nodes 1000`, ... */
export function formatTimeControl(tc: TimeControl): string {
  const parts: string[] = [];
  const s = (ms: number): string => String(ms / 1000);
  if (tc.baseMs !== undefined) {
    parts.push(`${tc.movesPerSession > 0 ? `${tc.movesPerSession}/` : ''}${s(tc.baseMs)}${tc.incMs > 0 ? `+${s(tc.incMs)}` : ''}`);
  }
  if (tc.byoyomiMs > 0) parts.push(`byoyomi ${s(tc.byoyomiMs)}`);
  if (tc.movetimeMs !== undefined) parts.push(`movetime ${s(tc.movetimeMs)}`);
  if (tc.nodes !== undefined) parts.push(`nodes ${tc.nodes}`);
  if (tc.depth !== undefined) parts.push(`depth ${tc.depth}`);
  if (tc.unitMs !== undefined && tc.unitMs > 1) parts.push(`charged in ${s(tc.unitMs)} s units`);
  return parts.length > 0 ? parts.join(', ') : 'none';
}

/** The PGN `TimeControl` tag (PGN standard section 9.6): `40/60:0+0.1` style is not standard, so `moves/seconds`, `seconds+inc`, or `-`. */
export function pgnTimeControl(tc: TimeControl): string {
  if (tc.baseMs === undefined) return tc.movetimeMs !== undefined ? `*${tc.movetimeMs / 1000}` : '-';
  const base = tc.baseMs / 1000;
  if (tc.movesPerSession > 0) return `${tc.movesPerSession}/${base}`;
  return tc.incMs > 0 ? `${base}+${tc.incMs / 1000}` : String(base);
}

/** Outcome of charging a move to a clock. */
export type ChargeResult = { readonly ok: true } | { readonly ok: false; readonly allowedMs: number };

/** One side's clock. Mutable. */
export class SideClock {
  private remaining: number;
  private moves = 0;

  constructor(readonly tc: TimeControl) {
    this.remaining = tc.baseMs ?? 0;
  }

  /** Main time left, ms. */
  remainingMs(): number {
    return this.remaining;
  }

  /** Moves made on this clock. */
  movesMade(): number {
    return this.moves;
  }

  /** Moves to the next session end (0: sudden death), as UCI `movestogo`. */
  movesToGo(): number {
    return this.tc.movesPerSession > 0 ? this.tc.movesPerSession - (this.moves % this.tc.movesPerSession) : 0;
  }

  /** A move's time as charged: rounded down to whole time units. */
  chargedMs(elapsedMs: number): number {
    const unit = this.tc.unitMs ?? 1;
    return unit > 1 ? Math.floor(elapsedMs / unit) * unit : elapsedMs;
  }

  /**
   * How long the side may think before losing on time, ms, measured (so with a time unit, up to
   * the end of the last unit that still charges within the allowance); undefined when nothing
   * limits it in time (nodes or depth only).
   */
  deadlineMs(): number | undefined {
    const allowed = this.allowanceMs();
    const unit = this.tc.unitMs ?? 1;
    return allowed === undefined || unit <= 1 ? allowed : Math.floor(allowed / unit) * unit + unit - 1;
  }

  /**
   * How long the side may think on this move before losing on time, ms, margin included, in
   * charged time; undefined when nothing limits it in time (nodes or depth only).
   */
  allowanceMs(): number | undefined {
    if (hasClock(this.tc)) {
      const clock = this.remaining + this.tc.byoyomiMs + this.tc.marginMs;
      // A movetime on top of a clock caps the move further.
      return this.tc.movetimeMs !== undefined ? Math.min(clock, this.tc.movetimeMs + this.tc.marginMs) : clock;
    }
    if (this.tc.movetimeMs !== undefined) return this.tc.movetimeMs + this.tc.marginMs;
    return undefined;
  }

  /** Charges a move that took `elapsedMs` (rules 1-3 of the module comment). */
  charge(elapsedMs: number): ChargeResult {
    const allowed = this.allowanceMs();
    const charged = this.chargedMs(elapsedMs);
    if (allowed !== undefined && charged > allowed) return { ok: false, allowedMs: allowed };
    this.moves++;
    if (hasClock(this.tc)) {
      this.remaining = Math.max(0, this.remaining - charged) + this.tc.incMs;
      if (this.tc.movesPerSession > 0 && this.moves % this.tc.movesPerSession === 0) this.remaining += this.tc.baseMs ?? 0;
    }
    return { ok: true };
  }
}

/** The `ClockState` (Player API shape) the engines are told, from both clocks. */
export function clockState(clocks: Readonly<Record<Side, SideClock>>, toMove: Side): ClockState | undefined {
  const first = clocks.first;
  const second = clocks.second;
  if (!hasClock(first.tc) && !hasClock(second.tc)) return undefined;
  const mover = clocks[toMove];
  const movesToGo = mover.movesToGo();
  return {
    firstMs: first.remainingMs(),
    secondMs: second.remainingMs(),
    firstIncMs: first.tc.incMs,
    secondIncMs: second.tc.incMs,
    byoyomiMs: mover.tc.byoyomiMs,
    ...(movesToGo > 0 ? { movesToGo } : {}),
  };
}
