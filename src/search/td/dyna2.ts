/**
 * Dyna-2's first phase at one root (Silver, Sutton and Müller 2012, sections 5 and 6): the
 * short-term memory is reset (or decayed) for the new root, TD search learns it from simulated
 * games, and the alpha-beta phase then searches a `ShortTermEvalBoard` that adds it to the
 * long-term evaluation. The long-term memory is not touched here: it keeps learning between games
 * (online TD-Leaf) as without Dyna-2.
 */
import type { Rng } from '../../core/rng.js';
import type { SparseVector } from '../../eval/linear/sparse.js';
import type { SearchBoard } from '../alphabeta/search-board.js';
import { ShortTermMemory } from './short-term-memory.js';
import { ShortTermEvalBoard } from './short-term-board.js';
import { QuietLeaf } from './quiet-leaf.js';
import { tdPosition } from './td-position.js';
import { QUIET_LEAF_NODES, TdSearch, type TdLimits, type TdSearchParams, type TdSearchStats } from './td-search.js';

/** Features named in the summary. */
const SUMMARY_FEATURES = 3;

export class Dyna2 {
  readonly memory: ShortTermMemory;
  private readonly td: TdSearch;
  /** The quiet variant's leaf search (`params.quiet`). */
  private readonly quiet?: QuietLeaf;

  constructor(
    readonly params: TdSearchParams,
    /** Names of the linear features, by index (the feature set's `names`). */
    private readonly names: readonly string[],
    rng: Rng,
  ) {
    this.memory = new ShortTermMemory(names.length);
    this.td = new TdSearch(this.memory, params, rng);
    if (params.quiet === true) this.quiet = new QuietLeaf(QUIET_LEAF_NODES);
  }

  /** Forgets the short-term memory entirely (a new game). */
  clear(): void {
    this.memory.newRoot(0);
  }

  /**
   * TD search from `board`'s position (left as it was), then the board the alpha-beta phase
   * searches and a one-line summary of what was learned.
   */
  think(board: SearchBoard, features: (out: SparseVector) => void, limits: TdLimits): { board: ShortTermEvalBoard; stats: TdSearchStats; summary: string } {
    this.memory.newRoot(this.params.carry);
    const stats = this.td.run(tdPosition(board, features, this.quiet), limits);
    return { board: new ShortTermEvalBoard(board, this.memory, features), stats, summary: this.summary(stats) };
  }

  /**
   * TD search alone's move (`search: td`, after `think`): the greedy move at `board` over the long-term
   * plus the short-term value, and its successor's value for the first player (a win probability).
   */
  bestMove(board: SearchBoard, features: (out: SparseVector) => void): { move: number; value: number } | undefined {
    return this.td.bestMove(tdPosition(board, features, this.quiet));
  }

  /** `td search: N simulations, P plies, T ms; F features touched; largest: name +w, ...` */
  summary(stats: TdSearchStats): string {
    const largest = this.memory
      .largest(SUMMARY_FEATURES)
      .map(({ index, weight }) => `${this.names[index] ?? index} ${weight >= 0 ? '+' : ''}${weight.toFixed(1)}`)
      .join(', ');
    const avg = stats.simulations > 0 ? (stats.plies / stats.simulations).toFixed(1) : '0';
    return (
      `td search: ${stats.simulations} simulations of ${avg} plies in ${Math.round(stats.timeMs)} ms; ` +
      `${this.memory.touched} features touched; largest: ${largest === '' ? 'none' : largest}`
    );
  }
}
