/**
 * DeltaFromTransTbl (Veness et al. 2009, Algorithm 2): after an alpha-beta search, walk the
 * transposition table from the root, and for every entry searched at least `minDepth` plies deep
 * add the one-sided bound update eta * (delta_a + delta_b) * phi(s) to Delta theta. Entries
 * shallower than `minDepth` are skipped together with their subtrees, as in the paper.
 *
 * The traversal is the search's own `walkTable` (src/search/alphabeta/tree-walk.ts: each position
 * once, every successor tried in generation order), or, with `walk: 'searched'`, the same walk
 * over the successors the search made (searched-walk.ts; the same entries, several times faster);
 * this module supplies what to do at an entry. Bounds are
 * mapped to the paper's scale first (`toTrainingScore`: mate +-9999, evaluations clipped to
 * +-9900; a missing bound is +-Infinity). RootStrap(alpha-beta) is the same walk stopped after
 * the root (`rootOnly`).
 */
import { SparseVector } from '../../eval/linear/sparse.js';
import { toTrainingScore } from '../../search/alphabeta/score.js';
import type { SearchBoard } from '../../search/alphabeta/search-board.js';
import { walkTable, type TableNode } from '../../search/alphabeta/tree-walk.js';
import type { TranspositionTable } from '../../search/alphabeta/tt.js';
import { RecordingBoard } from './recording-board.js';
import { walkSearched } from './searched-walk.js';
import type { TrainingAdapter } from './training-adapter.js';
import { firstPlayerBounds, type DeltaAccumulator } from './update-rule.js';

export interface TableDeltaOptions {
  /** The paper's d: entries searched shallower are skipped (with their subtrees). */
  readonly minDepth: number;
  readonly eta: number;
  /** RootStrap: update the root entry only. */
  readonly rootOnly?: boolean;
  /** `all` (default): try every successor, Algorithm 2 verbatim; `searched`: the moves the search made (`board` must be a RecordingBoard). */
  readonly walk?: TableWalk;
  /**
   * `all` (the paper): every entry is updated; `quiet`: entries in check or reached by a capture
   * or promotion are passed over (walked through, not updated); `calm`: the quiet ones whose
   * stored best move is not a capture or promotion either (see `UPDATE_SETS`). Both need the
   * `searched` walk.
   */
  readonly update?: UpdateSet;
}

/**
 * Which entries update theta. `all` is the paper. `quiet` and `calm` are ours: the one-sided bounds
 * of an entry where the side to move can win material at once (a refutation node of the search:
 * most cut nodes are positions after a bad move, refuted by a capture) lie a piece or more above
 * H(s) from the mover's view, a gain no static feature sees; summed over a tree they bias the
 * targets towards the side to move (the `tempo` weight soaks up a pawn and more when trained) and
 * push features that merely correlate with "can capture now" to large values. `calm` leaves out
 * such entries as well: those whose best move (the table move) is a capture or promotion.
 */
export const UPDATE_SETS = ['all', 'quiet', 'calm'] as const;
export type UpdateSet = (typeof UPDATE_SETS)[number];

export const TABLE_WALKS = ['all', 'searched'] as const;
export type TableWalk = (typeof TABLE_WALKS)[number];

/** One visited entry, for tests and diagnostics. */
export interface TableDeltaVisit {
  readonly ply: number;
  readonly depth: number;
  /** Bounds on the training scale, first player's view. */
  readonly lower: number;
  readonly upper: number;
  /** H(s) (first player's view), before the update. */
  readonly h: number;
  /** delta_a + delta_b (0: the weights did not move for this entry). */
  readonly error: number;
}

const scratch = new SparseVector(512);

/**
 * Adds the updates of the entries reachable from `board`'s position (the search's root) to `acc`.
 * `theta` is read, not changed (apply `acc` afterwards). Returns the number of entries visited.
 */
export const deltaFromTransTbl = (
  board: SearchBoard,
  tt: TranspositionTable,
  adapter: TrainingAdapter,
  acc: DeltaAccumulator,
  options: TableDeltaOptions,
  onVisit?: (v: TableDeltaVisit) => void,
): number => {
  const quietOnly = options.update === 'quiet' || options.update === 'calm';
  const calm = options.update === 'calm';
  const visit = (node: TableNode, noisy = false): void => {
    if (quietOnly && noisy) return;
    if (calm && node.move !== 0 && node.board.tacticalOrder(node.move) > 0) return;
    const h = adapter.gradient(node.board, scratch);
    const b = firstPlayerBounds(toTrainingScore(node.lower), toTrainingScore(node.upper), node.sign);
    const error = acc.visit(scratch, h, b.lower, b.upper, options.eta);
    onVisit?.({ ply: node.ply, depth: node.depth, lower: b.lower, upper: b.upper, h, error });
  };
  const walkOptions = { minDepth: options.minDepth, ...(options.rootOnly === true ? { maxNodes: 1 } : {}) };
  if (options.walk === 'searched') {
    if (!(board instanceof RecordingBoard)) throw new Error("walk 'searched' needs the RecordingBoard the search ran on");
    return walkSearched(board, tt, visit, walkOptions);
  }
  if (quietOnly) throw new Error(`update '${options.update}' needs the 'searched' walk`);
  const inner = board instanceof RecordingBoard ? board.inner : board;
  return walkTable(inner, tt, visit, { ...walkOptions, children: 'all' });
};
