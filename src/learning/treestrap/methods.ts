/**
 * The learning methods of Veness, Silver, Uther and Blair, "Bootstrapping from Game Tree Search"
 * (NIPS 2009), and their step sizes.
 *
 * - `treestrap-ab`: after an alpha-beta search (training mode, table cleared first), every table
 *   entry reachable from the root and searched at least `d` plies deep is pulled towards the
 *   bounds it violates (DeltaFromTransTbl, the paper's Algorithm 2).
 * - `treestrap-minimax`: a full-width minimax search; every interior node is pulled towards its
 *   exact minimax value (Algorithm 1).
 * - `rootstrap-ab`: the alpha-beta search again, but only the root is updated.
 *
 * Step sizes are the paper's (section 6.0.1), on the same scale: the paper's evaluations are in
 * centipawns with mates at +-9999 and heuristic values clipped to +-9900, and so are ours (the
 * learning targets are mapped with `toTrainingScore`), so the numbers carry over unchanged.
 */

export const TREESTRAP_METHODS = ['treestrap-ab', 'treestrap-minimax', 'rootstrap-ab'] as const;
export type TreestrapMethod = (typeof TREESTRAP_METHODS)[number];

export const INIT_KINDS = ['random', 'material'] as const;
export type InitKind = (typeof INIT_KINDS)[number];

/** The paper's step sizes: 1e-5 (RootStrap), 1e-6 (TreeStrap minimax), 5e-7 (TreeStrap alpha-beta). */
export const PAPER_STEP_SIZES: Readonly<Record<TreestrapMethod, number>> = {
  'treestrap-ab': 5e-7,
  'treestrap-minimax': 1e-6,
  'rootstrap-ab': 1e-5,
};

/** The paper's minimum search depth of an updated entry (d = 1). */
export const PAPER_MIN_DEPTH = 1;

/** Half-width of the uniform distribution of the initial random weights, centipawns ("small random values"). */
export const RANDOM_INIT_SCALE = 1;

/**
 * Features whose weights stay at their initial values by default: `tempo` (+1 when the first
 * player is to move). The search's bounds are biased towards the side to move (in a position
 * inside an exchange the side to move can recapture; quiescence lets it stand pat or capture), and
 * a side-to-move feature soaks that bias up: trained freely it grew to a pawn's worth (chess, from
 * random weights) and to 5 pawns (shogi, from material) within a few games, and a large constant
 * bonus for the side to move makes the search prefer lines by the parity of their length.
 * Meep's five feature groups had no such feature.
 */
export const DEFAULT_FROZEN: readonly string[] = ['tempo'];

/**
 * The network's counterpart of `tempo` (`--model nnue`): the output bias b2. The network's output is
 * from the side to move's view, so from the first player's view b2 is exactly a side-to-move bonus,
 * and the bounds' side-to-move bias pulls it the same way (2 games of TreeStrap from the shipped
 * chess net moved it by 20 centipawns).
 */
export const NNUE_DEFAULT_FROZEN: readonly string[] = ['b2'];
