/**
 * What every engine behind the Player API (alpha-beta, alphabeta-engine.ts; MCTS, mcts-engine.ts)
 * does with one `go` around its own search, written once:
 *
 * - the position: the request's start text and moves parsed once, by the engine's own board
 *   (`fromText` of its adapter over the internal fast board), and checked against the engine's game;
 * - the root: its legal moves, and the answers that need no search: `resign` without a legal move,
 *   `win` when shogi's entering-king declaration is legal (read from that same board:
 *   games/shogi/fast/declaration.ts, not from a position parsed again);
 * - the clock: the plan a `go` with a clock gets (the caller's budget, the Thinker's, else `planTime`
 *   of search/time.ts), and the time the request took to arrive taken off the limits;
 * - the wait an infinite or ponder search owes UCI/USI before it answers (until `stop`, or `ponderhit`);
 * - the answer's texts: a line of moves as text, the position at its end (`pvLeaf`).
 *
 * Control while an engine searches comes through the shared control array (control-words.ts).
 */
import type { GameKind, Side } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import type { FastChessBoard } from '../games/chess/fast/board.js';
import type { FastShogiBoard } from '../games/shogi/fast/board.js';
import { canDeclareWin } from '../games/shogi/fast/declaration.js';
import { planTime, type TimeBudget, type TimePlanInput } from '../search/time.js';
import { SIGNAL_PONDERHIT, SIGNAL_STOP } from './control-words.js';
import type { GoRequest, GoResult } from './player.js';

/** A board whose lines of moves can be written as text (every search board and MCTS board). */
export interface TextBoard {
  make(move: number): void;
  unmake(): void;
  moveToText(move: number): string;
  toText(): string;
}

/** What the prelude needs of an engine's board: the alpha-beta and the MCTS adapters both have it. */
export interface EngineBoard extends TextBoard {
  /** The internal board under the adapter (its legal moves are the adapter's, with the same codes). */
  readonly board: FastChessBoard | FastShogiBoard;
  readonly maxMoves: number;
}

/** The request's position at the root of one `go`. */
export interface Root<B extends EngineBoard> {
  /** The position, parsed once; the search runs on it. */
  readonly board: B;
  /** The legal moves (`legal[0..count)`). */
  readonly legal: Int32Array;
  readonly count: number;
  /** The side to move. */
  readonly side: Side;
  /** Plies played before this position: the start text's move number and the request's moves. */
  readonly plies: number;
  /** When the engine took the request (`performance.now()`): the `time` of its `info` lines counts from here. */
  readonly startedAt: number;
}

/** A root to search, or the answer it has without a search. */
export type Prelude<B extends EngineBoard> = { readonly root: Root<B> } | { readonly answer: GoResult };

/**
 * Parses `request` once with `parse` (the engine's board from start text and moves) and answers what
 * needs no search: no legal move (`resign`), or a legal entering-king declaration (`win`).
 * Err: a request of another game, or a start text or move that does not parse.
 */
export function prelude<B extends EngineBoard>(game: GameKind, request: GoRequest, parse: (request: GoRequest) => Result<B, KishiError>): Result<Prelude<B>, KishiError> {
  if (request.game !== game) return Result.err(new KishiError('ERR_GAME', `this engine plays ${game}, not ${request.game}`));
  const parsed = parse(request);
  if (parsed.isErr) return Result.err(parsed.error);
  const board = parsed.value;
  const startedAt = performance.now();
  const legal = new Int32Array(board.maxMoves);
  const count = board.board.generateMoves(legal);
  if (count === 0) return Result.ok({ answer: { move: 'resign' } });
  // The declaration (CSA 27-point rule) is the side to move's choice at the root only.
  if (game === 'shogi' && canDeclareWin(board.board as FastShogiBoard)) return Result.ok({ answer: { move: 'win' } });
  const side: Side = board.board.turn === 0 ? 'first' : 'second';
  const plies = request.moves.length + (request.start === 'startpos' ? 0 : plyOfText(request.start, game));
  return Result.ok({ root: { board, legal, count, side, plies, startedAt } });
}

/** The parts of a clock plan the engines need besides the budget. */
export interface ClockPlan {
  /** The soft and hard limits of this move. */
  readonly budget: TimeBudget;
  /** What the plan was made from (alpha-beta asks `byoyomiOnly` of it). */
  readonly input: TimePlanInput;
}

/**
 * The plan of a `go` that has a clock and no fixed limit (no `movetime`, `nodes`, `depth` or
 * `infinite`): the caller's budget when it made one (the Thinker's), else the plan from the clock
 * (UCI/USI). Undefined when fixed limits or no clock decide.
 */
export function clockPlan(game: GameKind, request: GoRequest, root: Root<EngineBoard>, moveOverheadMs: number): ClockPlan | undefined {
  const limits = request.limits ?? {};
  if (request.clock === undefined || limits.movetimeMs !== undefined || limits.nodes !== undefined || limits.depth !== undefined || limits.infinite === true) return undefined;
  const input: TimePlanInput = { game, clock: request.clock, side: root.side, plies: root.plies, moveOverheadMs };
  return { budget: request.budget ?? planTime(input), input };
}

/** Time limits of a search, milliseconds. */
export interface TimeLimits {
  readonly hardMs?: number;
  readonly softMs?: number;
  readonly extendMs?: number;
}

/**
 * `limits` less the time the request took to reach the search (GoRequest.sentAt: the clock ran
 * meanwhile): the hard limit by all of it, each softer one by at most half of itself. A ponder
 * search keeps its limits (its clock starts at ponderhit).
 */
export function lessArrivalLag<L extends TimeLimits>(request: GoRequest, limits: L): L {
  const lag = request.sentAt !== undefined ? Math.max(0, Date.now() - request.sentAt) : 0;
  if (lag === 0 || limits.hardMs === undefined || request.ponder === true) return limits;
  const hardMs = Math.max(1, limits.hardMs - lag);
  const cut = (ms: number): number => Math.max(1, Math.min(ms, hardMs) - Math.min(lag, ms / 2));
  return {
    ...limits,
    hardMs,
    ...(limits.softMs !== undefined ? { softMs: cut(limits.softMs) } : {}),
    ...(limits.extendMs !== undefined ? { extendMs: cut(limits.extendMs) } : {}),
  };
}

/**
 * UCI/USI: an infinite search answers only after `stop`, a ponder search only after `stop` or
 * `ponderhit`, even when the search ended by itself (a mate found, the depth exhausted). Blocks the
 * (worker) thread; wakes on `Atomics.notify` or every 5 ms.
 */
export function holdAnswer(request: GoRequest, signal: Int32Array): void {
  const ponder = request.ponder === true;
  if (!ponder && request.limits?.infinite !== true) return;
  const released = (): boolean => Atomics.load(signal, SIGNAL_STOP) !== 0 || (ponder && Atomics.load(signal, SIGNAL_PONDERHIT) !== 0);
  while (!released()) Atomics.wait(signal, SIGNAL_STOP, 0, 5);
}

/** The moves of `line` (played one after the other from the board's position) as text. */
export function lineText(board: TextBoard, line: readonly number[]): string[] {
  const out: string[] = [];
  for (const m of line) {
    out.push(board.moveToText(m));
    board.make(m);
  }
  for (let i = 0; i < line.length; i++) board.unmake();
  return out;
}

/** The position (FEN/SFEN) at the end of `line` from the board's position. */
export function lineLeaf(board: TextBoard, line: readonly number[]): string {
  for (const m of line) board.make(m);
  const text = board.toText();
  for (let i = 0; i < line.length; i++) board.unmake();
  return text;
}

/** Plies implied by the move number of a FEN/SFEN (for time planning); 0 if absent. */
export const plyOfText = (text: string, game: GameKind): number => {
  const parts = text.trim().split(/\s+/);
  if (game === 'chess') {
    const full = Number(parts[5]);
    return Number.isFinite(full) && full > 0 ? (full - 1) * 2 + (parts[1] === 'b' ? 1 : 0) : 0;
  }
  const n = Number(parts[3]);
  return Number.isFinite(n) && n > 0 ? n - 1 : 0;
};
