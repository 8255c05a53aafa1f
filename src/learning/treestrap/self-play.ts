/**
 * One training game of self-play (Veness et al. 2009, section 6.0.1): from a book opening, both
 * sides are the learner; every move is a learning step (search, update theta) followed by the
 * search's best move, played greedily.
 *
 * The rules are read from the fast boards through the training adapter (mate, stalemate, fifty
 * moves, threefold repetition, insufficient material; sennichite and perpetual check), plus a ply
 * cap that ends long games as draws; the chessops/shogiops adapters would cost more per ply than
 * a small search. Thinking is limited per move
 * (depth and/or nodes), or by Fischer clocks as in the paper (1 min + 1 s there): the time of the
 * learning update is charged to the clock too. A side whose clock runs out is not forfeited (the
 * game is for learning): it plays on with what planning gives from zero time plus increment.
 */
import type { Side } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import type { Opening } from '../../books/openings.js';
import type { ClockState } from '../../player/player.js';
import { planTime } from '../../search/time.js';
import type { GameEnd, TrainingAdapter } from './training-adapter.js';
import type { StepLimits, TrainingSearch } from './training-search.js';
import { addStats, emptyStats, type UpdateStats } from './update-rule.js';

export interface MoveLimits {
  readonly depth?: number;
  readonly nodes?: number;
  /** Fischer clock: main time and increment per side, ms. */
  readonly clock?: { readonly baseMs: number; readonly incMs: number };
}

export interface SelfPlaySettings {
  readonly limits: MoveLimits;
  /** Plies (from the game start, book included) after which the game is a draw. */
  readonly maxPlies: number;
}

export interface TrainingGameResult {
  readonly opening: string;
  /** `1-0`, `0-1`, `1/2-1/2` from the first player's view. */
  readonly result: string;
  readonly winner: Side | undefined;
  readonly reason: string;
  /** Plies played after the book. */
  readonly plies: number;
  /** Learning steps (searches). */
  readonly searches: number;
  readonly nodes: number;
  /** Entries/nodes visited, violated (weights moved) and squared error over the game's steps. */
  readonly stats: UpdateStats;
  readonly searchMs: number;
  readonly updateMs: number;
  readonly moves: readonly string[];
}

/** Plays one game; theta (shared with `search.adapter`) learns as it goes. */
export const playTrainingGame = (
  search: TrainingSearch,
  adapter: TrainingAdapter,
  opening: Opening,
  settings: SelfPlaySettings,
): Result<TrainingGameResult, KishiError> => {
  const b = adapter.board(opening.start, opening.moves);
  if (b.isErr) return Result.err(new KishiError(b.error.code, `${opening.source}: ${b.error.message}`));
  const board = b.value;
  search.newGame();

  const clock = settings.limits.clock;
  const remaining: Record<Side, number> = { first: clock?.baseMs ?? 0, second: clock?.baseMs ?? 0 };
  const stats = emptyStats();
  const moves: string[] = [];
  let nodes = 0;
  let searchMs = 0;
  let updateMs = 0;
  let end: GameEnd | undefined;
  const bookPlies = opening.moves.length;
  for (;;) {
    const over = adapter.outcome(board);
    if (over !== undefined) {
      end = over;
      break;
    }
    const side: Side = board.sideToMove() === 0 ? 'first' : 'second';
    if (bookPlies + moves.length >= settings.maxPlies) {
      end = { winner: undefined, reason: 'max-plies' };
      break;
    }
    const limits: { -readonly [K in keyof StepLimits]: StepLimits[K] } = {};
    if (settings.limits.depth !== undefined) limits.depth = settings.limits.depth;
    if (settings.limits.nodes !== undefined) limits.nodes = settings.limits.nodes;
    if (clock !== undefined) {
      const cs: ClockState = { firstMs: remaining.first, secondMs: remaining.second, firstIncMs: clock.incMs, secondIncMs: clock.incMs, byoyomiMs: 0 };
      const budget = planTime({ game: adapter.game, clock: cs, side, plies: bookPlies + moves.length, moveOverheadMs: 0 });
      limits.softMs = budget.softMs;
      limits.hardMs = budget.hardMs;
    }
    const t0 = performance.now();
    const r = search.step(board, limits);
    const elapsed = performance.now() - t0;
    if (clock !== undefined) remaining[side] = Math.max(0, remaining[side] - elapsed) + clock.incMs;
    nodes += r.nodes;
    searchMs += r.searchMs;
    updateMs += r.updateMs;
    addStats(stats, r.stats);
    if (r.bestMove === 0) throw new Error(`no move from the search in ${board.toText()}, which the rules do not call over`);
    const text = board.moveToText(r.bestMove);
    board.make(r.bestMove);
    moves.push(text);
  }
  const result = end.winner === undefined ? '1/2-1/2' : end.winner === 'first' ? '1-0' : '0-1';
  return Result.ok({
    opening: opening.source,
    result,
    winner: end.winner,
    reason: end.reason,
    plies: moves.length,
    searches: moves.length,
    nodes,
    stats,
    searchMs,
    updateMs,
    moves,
  });
};
