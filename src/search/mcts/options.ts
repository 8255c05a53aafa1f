/**
 * MCTS parameters with the defaults used in matches, and the self-play variant (root noise and
 * visit-count temperature). Exploration follows Lc0's growing c_puct:
 * `c(N) = cpuctInit + cpuctFactor * ln((N + cpuctBase) / cpuctBase)`; values are in [-1, 1].
 */
import type { GameKind } from '../../core/game.js';

export interface MctsOptions {
  /** c_puct at few visits. */
  readonly cpuctInit: number;
  /** Growth of c_puct with the parent's visits (0: constant c_puct). */
  readonly cpuctFactor: number;
  readonly cpuctBase: number;
  /**
   * First-play urgency: an unvisited child is valued at the parent's Q minus
   * `fpuReduction * sqrt(sum of the priors of the visited children)` (Lc0's reduction FPU).
   */
  readonly fpuReduction: number;
  /** The same at the root (self-play often explores more there). */
  readonly fpuReductionRoot: number;
  /** Softmax temperature applied to the net's priors at expansion (1: as the net says). */
  readonly policyTemperature: number;
  /** Leaves collected per net call (virtual loss keeps them apart). */
  readonly batchSize: number;
  /** A batch is sent early after this many collisions (a leaf already waiting for the net chosen again). */
  readonly maxCollisions: number;
  /** Root Dirichlet noise weight ε (0: none) and concentration α. */
  readonly noiseEpsilon: number;
  readonly noiseAlpha: number;
  /** Play moves by visit count^(1/temperature) for the first `temperaturePlies` plies of the game (0: greedy). */
  readonly temperature: number;
  readonly temperaturePlies: number;
  /** Tree capacity in edges (one per legal move of an expanded node); the search stops when it is full. */
  readonly maxEdges: number;
  /** Seed of the noise and temperature. */
  readonly seed: number;
  /**
   * Lc0's DrawScore: the value in [-1, 1] of a draw by the rules inside the tree (repetition /
   * sennichite draw, fifty-move rule, stalemate, insufficient material) for the side to move at the
   * root; the opponent sees such a draw as its negation. Negative: the root side avoids draws when
   * it is not losing (contempt). 0: draws are worth 0 (plain AlphaZero). Draws are counted per node
   * and the score is added when Q is read, so it follows the current root (tree reuse, self-play)
   * and the raw W/N (self-play value targets) stays unbiased.
   */
  readonly drawScore: number;
  /**
   * Clock games: the share of the time plan's soft budget (src/search/time.ts, alpha-beta's "no
   * new iteration after") the search aims at; it stops there, or earlier once the most visited
   * move cannot be overtaken.
   */
  readonly softTimeShare: number;
  /**
   * Clock games: while the choice is unsettled, the search runs on to this many soft budgets
   * (within the hard limit).
   */
  readonly extendTimeShare: number;
  /**
   * Leaf evaluator only: a leaf gets its value when the search first reaches it and its priors
   * when the search comes back through it. Most leaves are never revisited (56% of the nodes of
   * a 20k-playout chess search from a middlegame, 41% in shogi), and the priors cost more than the
   * value. The tree is the same as with both at once (false), only cheaper to grow.
   */
  readonly deferPriors: boolean;
  /**
   * The mate guard of the MCTS player (src/player/mcts-mate-guard.ts): the longest mate, in plies,
   * looked for at the root before the search (ours) and after each tested move (the opponent's);
   * 0 turns the guard off.
   */
  readonly mateGuardPlies: number;
  /**
   * Mate tests at the leaves (boards with `MctsBoard.provenMate`, shogi), backed up as exact
   * values without the net, so the solver (MCTS-Solver) sees mates beyond the tree, as dlshogi
   * tests each new leaf: 0 none; 1 a leaf not in check whose side to move mates in one is a
   * proven win; 2 also a leaf in check each of whose evasions allows a mate in one is a proven
   * loss. (A mate in three by checks, tried as 3: +80 at 400 playouts, +3 at 10 s + 0.1 s for its
   * cost, docs/experiments/2026-11-30-mcts-leaf-mate.md.)
   */
  readonly leafMatePlies: number;
  /** Node limit of each of the guard's mate searches. */
  readonly mateGuardNodes: number;
  /** Root moves the guard tests after the search, most visited first. */
  readonly mateGuardCandidates: number;
  /**
   * Searches with a playout limit: the root samples this many moves by Gumbel-top-k and shares the
   * playouts among them by Sequential Halving (gumbel.ts; Danihelka et al. 2022), instead of PUCT.
   * Gumbel noise is drawn when `temperature` or `noiseEpsilon` is above 0 (self-play), else the
   * search stays deterministic; it replaces the root's Dirichlet noise.
   * 0 (the default): PUCT at the root. Against PUCT in shogi (docs/experiments/2026-11-27-mcts-solver-gumbel.md, session 12), 16
   * moves gained at 64 playouts a move (+117 [+5, +262]) and lost at 200 and 1000.
   */
  readonly gumbelActions: number;
  /**
   * Search threads over one tree with the CPU networks (threads.ts): the main search and
   * `threads - 1` helpers (the player starts them, src/player/mcts-helpers.ts). The ResNet's
   * batched search, Sequential Halving (`gumbelActions` in node-limited searches) and the runs
   * that are not given the root's position search on one thread whatever this says.
   */
  readonly threads: number;
}

/** Defaults for matches: greedy, no noise. */
export const defaultMctsOptions = (game: GameKind): MctsOptions => ({
  cpuctInit: 1.745,
  cpuctFactor: 3.894,
  cpuctBase: 38739,
  fpuReduction: 0.33,
  fpuReductionRoot: 0.33,
  policyTemperature: 1,
  batchSize: 16,
  maxCollisions: 32,
  noiseEpsilon: 0,
  noiseAlpha: game === 'chess' ? 0.3 : 0.15,
  temperature: 0,
  temperaturePlies: 0,
  maxEdges: 8_000_000,
  seed: 1,
  drawScore: 0,
  softTimeShare: 0.6,
  extendTimeShare: 1,
  deferPriors: true,
  mateGuardPlies: 0,
  leafMatePlies: 0,
  mateGuardNodes: 4000,
  mateGuardCandidates: 4,
  gumbelActions: 0,
  threads: 1,
});

/** Self-play: AlphaZero's root noise (ε 0.25, α 0.3 chess / 0.15 shogi) and temperature 1 for the opening. */
export const selfPlayMctsOptions = (game: GameKind): MctsOptions => ({
  ...defaultMctsOptions(game),
  noiseEpsilon: 0.25,
  temperature: 1,
  temperaturePlies: game === 'chess' ? 30 : 40,
  fpuReductionRoot: 0,
});

/** c_puct for a parent with `n` visits. */
export const cpuct = (o: MctsOptions, n: number): number => o.cpuctInit + o.cpuctFactor * Math.log((n + o.cpuctBase) / o.cpuctBase);
