/**
 * One training game of self-play (Veness et al. 2009, section 6.0.1): from a book opening, both
 * sides are the learner; every move is a learning step (search, update theta) followed by the
 * search's best move, played greedily.
 *
 * The rules come from the game adapters (src/games via match/game-factory: mate, stalemate,
 * repetition, fifty moves, insufficient material, sennichite, perpetual check, entering-king
 * declaration), plus a ply cap that ends long games as draws. Thinking is limited per move
 * (depth and/or nodes), or by Fischer clocks as in the paper (1 min + 1 s there): the time of the
 * learning update is charged to the clock too. A side whose clock runs out is not forfeited (the
 * game is for learning): it plays on with what planning gives from zero time plus increment.
 */
import type { GameKind, Side } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import { createGame } from '../../match/game-factory.js';
import type { Opening } from '../../match/openings.js';
import type { ClockState } from '../../player/player.js';
import { planTime } from '../../search/time.js';
import type { TrainingAdapter } from './training-adapter.js';
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

interface Declaring {
  canDeclareWin(): boolean;
}

/** Plays one game; theta (shared with `search.adapter`) learns as it goes. */
export const playTrainingGame = (
  search: TrainingSearch,
  adapter: TrainingAdapter,
  opening: Opening,
  settings: SelfPlaySettings,
): Result<TrainingGameResult, KishiError> => {
  const game = adapter.game;
  const rules = createGame(game, 'standard', opening.start);
  if (rules.isErr) return Result.err(rules.error);
  const state = rules.value;
  for (const text of opening.moves) {
    const m = state.parseMove(text);
    if (m.isErr) return Result.err(new KishiError('ERR_OPENING', `${opening.source}: ${m.error.message}`));
    state.play(m.value);
  }
  const b = adapter.board(opening.start, opening.moves);
  if (b.isErr) return Result.err(b.error);
  const board = b.value;
  search.newGame();

  const clock = settings.limits.clock;
  const remaining: Record<Side, number> = { first: clock?.baseMs ?? 0, second: clock?.baseMs ?? 0 };
  const stats = emptyStats();
  const moves: string[] = [];
  let nodes = 0;
  let searchMs = 0;
  let updateMs = 0;
  let end: { winner: Side | undefined; reason: string } | undefined;
  const bookPlies = opening.moves.length;
  for (;;) {
    const outcome = state.outcome();
    if (outcome !== undefined) {
      end = { winner: outcome.winner, reason: outcome.reason };
      break;
    }
    const side = state.turn();
    if (game === 'shogi' && typeof (state as unknown as Partial<Declaring>).canDeclareWin === 'function' && (state as unknown as Declaring).canDeclareWin()) {
      end = { winner: side, reason: 'entering-king' };
      break;
    }
    if (bookPlies + moves.length >= settings.maxPlies) {
      end = { winner: undefined, reason: 'max-plies' };
      break;
    }
    const limits: { -readonly [K in keyof StepLimits]: StepLimits[K] } = {};
    if (settings.limits.depth !== undefined) limits.depth = settings.limits.depth;
    if (settings.limits.nodes !== undefined) limits.nodes = settings.limits.nodes;
    if (clock !== undefined) {
      const cs: ClockState = { firstMs: remaining.first, secondMs: remaining.second, firstIncMs: clock.incMs, secondIncMs: clock.incMs, byoyomiMs: 0 };
      const budget = planTime({ game: game as GameKind, clock: cs, side, plies: bookPlies + moves.length, moveOverheadMs: 0 });
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
    const m = state.parseMove(text);
    if (m.isErr) throw new Error(`the search's move ${text} is illegal for the rules in ${state.toText()}: ${m.error.message}`);
    state.play(m.value);
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
