/**
 * Options and limits of the alpha-beta search.
 *
 * Modes: `tournament` uses every enhancement (aspiration windows, null-move pruning, late-move
 * reductions, delta pruning in quiescence); `training` is Meep's training search for TreeStrap:
 * transposition table, killers, history, check extension and a full quiescence search (captures,
 * promotions, check evasions), with no pruning that depends on the evaluation weights.
 *
 * Limits: `depth` (plies) or `probability` (Giraffe's probability-limited search: a node is a leaf
 * when its probability of lying on the principal variation drops below a threshold; children split
 * the parent's probability uniformly or by a pluggable move-probability function).
 */
import type { SearchBoard } from './search-board.js';
import type { SearchTuning } from './tuning.js';

export const SEARCH_MODES = ['tournament', 'training'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export const LIMIT_KINDS = ['depth', 'probability'] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];

/**
 * Move probabilities for probability-limited search: fills `out[0..count)` with P(move | position)
 * for `moves[0..count)` (summing to 1). Uniform when absent. Later: the policy net.
 */
export type MoveProbabilities = (board: SearchBoard, moves: Int32Array, count: number, out: Float64Array) => void;

export interface SearchOptions {
  readonly mode: SearchMode;
  readonly limit: LimitKind;
  /** Extend moves that give check by one ply (depth-limited search; probability search extends by itself). */
  readonly checkExtension: boolean;
  readonly aspiration: boolean;
  readonly nullMove: boolean;
  /** Reverse futility pruning near the horizon (static evaluation far above beta). */
  readonly futility: boolean;
  readonly lateMoveReductions: boolean;
  /** Quiescence: skip captures that cannot raise alpha even winning the piece (uses nominal piece values). */
  readonly deltaPruning: boolean;
  /**
   * Quiescence: skip captures of a cheaper piece onto a square the opponent defends (a cheap
   * static-exchange test with nominal piece values).
   */
  readonly badCapturePruning: boolean;
  /**
   * Static exchange evaluation (`SearchBoard.see`): losing captures ordered last, skipped in
   * quiescence, and moves losing material pruned near the horizon.
   */
  readonly seePruning: boolean;
  /** Capture history, continuation history (one and two plies back) and counter moves in ordering. */
  readonly extendedHistory: boolean;
  /**
   * Move-count (late-move) pruning, futility pruning of quiet moves and history pruning near the
   * horizon; razoring; internal iterative reduction; history and "improving" in the reductions.
   */
  readonly quietPruning: boolean;
  /**
   * Singular extension of the table move, with multi-cut and negative extensions. Off in both
   * modes: at 20k nodes per move it lost (-28 +/- 56 Elo in 100 chess games against the same search
   * without it); kept as a switch to retest at longer searches, where engines gain from it.
   */
  readonly singularExtension: boolean;
  /**
   * Mate in one at the nodes of the main search (`SearchBoard.mateIn1`, shogi): a node not in
   * check, without a table entry, that has a mating move returns the mate score at once, as
   * YaneuraOu's `mate_1ply` does. No effect on boards without the test.
   */
  readonly mateIn1: boolean;
  /** Correction history: the static evaluation corrected by past search results at similar positions (`correctionKey`). */
  readonly correctionHistory: boolean;
  /**
   * Remember static evaluations by position key within a search (iterative deepening evaluates
   * most positions again). Changes no result, only the time; off in training, where the search
   * is a measuring instrument for weights that change between searches.
   */
  readonly evalCache: boolean;
  /**
   * The margins of the reductions, pruning and extensions above (tuning.ts; the engine config's `searchTuning`
   * overrides them); absent: the defaults of the board's game.
   */
  readonly tuning?: SearchTuning;
  /**
   * Probability search: a move of probability p costs log(1/p) / log(b) plies, so that a position
   * with b moves spends one ply per move (and a check with 3 replies a third of one). Iteration d
   * searches to probability b^-d. Default 30 (chess) / 80 (shogi).
   */
  readonly probabilityBranching?: number;
  readonly moveProbabilities?: MoveProbabilities;
}

/** Option presets per mode; `overrides` change single switches. */
export const searchOptions = (mode: SearchMode = 'tournament', overrides: Partial<SearchOptions> = {}): SearchOptions => {
  const tournament = mode === 'tournament';
  return {
    mode,
    limit: 'depth',
    checkExtension: true,
    aspiration: tournament,
    nullMove: tournament,
    futility: tournament,
    lateMoveReductions: tournament,
    deltaPruning: tournament,
    badCapturePruning: tournament,
    seePruning: tournament,
    extendedHistory: tournament,
    quietPruning: tournament,
    singularExtension: false,
    correctionHistory: tournament,
    mateIn1: tournament,
    evalCache: tournament,
    ...overrides,
  };
};

/** Limits of one search; the first reached stops it. */
export interface AbLimits {
  /** Maximum iteration (plies, or probability exponent for probability search). */
  readonly depth?: number;
  /** Node budget; with it (and no time limit) the search is deterministic. */
  readonly nodes?: number;
  /**
   * Target thinking time in ms: a new iteration is not started after the tuning's `timeSoftRatio`
   * of it (chess 1.0, shogi 0.55), scaled by the stability of the best move, a dropping score and
   * the share of nodes the best move took.
   */
  readonly softMs?: number;
  /**
   * Search until `hardMs` (pure byoyomi: the period is lost when unused); the soft limit and the
   * early stops for a single legal move are ignored.
   */
  readonly useAllTime?: boolean;
  /** Abort after this many ms. */
  readonly hardMs?: number;
  /**
   * Shared control words: `[0] !== 0` stops the search; while `ponder` is set, time limits wait
   * until `[1] !== 0` (ponderhit) and count from then.
   */
  readonly signal?: Int32Array;
  readonly ponder?: boolean;
  /**
   * Lazy SMP helper number (1, 2, ...; absent for the main search): odd helpers start one
   * iteration deeper, so that the threads' iterations interleave.
   */
  readonly helperId?: number;
  /** Number of principal variations to search and report (MultiPV); 1 when absent. */
  readonly multiPv?: number;
  /** Keep iterating after a mate is proven (normally the search stops once the mate is certain). */
  readonly noEarlyMateStop?: boolean;
}
