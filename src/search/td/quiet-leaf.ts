/**
 * The quiescence leaf of a position, for TD search's quiet variant (`tdQuiet`): the principal line
 * of the engine's quiescence search (src/search/alphabeta/quiescence.ts, with its static-exchange pruning) over
 * the long-term evaluation, as TD-Leaf resolves its leaves (Baxter, Tridgell and Weaver 2000). In
 * Go, the paper's game, a position's static value is its value; in chess and shogi a position in the
 * middle of an exchange is not, and TD search over such values learns the exchange's parity (for
 * example a large `tempo` weight: the side to move "wins" whatever hangs) instead of the position.
 * A node budget bounds each line; past it the line found so far is kept.
 */
import { QuiescenceSearch } from '../alphabeta/quiescence.js';
import type { SearchBoard } from '../alphabeta/search-board.js';

export class QuietLeaf extends QuiescenceSearch {
  constructor(
    /** Quiescence nodes per line at most. */
    private readonly budget: number,
  ) {
    super();
    // Losing captures are skipped (static exchange), as the tournament search does: a line of them
    // is not what the game would play, and without it chess leaves cost several times more.
    this.seePruning = true;
  }

  protected poll(): void {
    if (this.nodes >= this.budget) this.stopped = true;
  }

  /** The quiescence line from `board`'s position (the board is left as it was); empty when quiet. */
  line(board: SearchBoard): number[] {
    return this.principalLine(board, this.budget);
  }
}
