/**
 * The quiescence leaf of a position, for TD search's quiet variant (`tdQuiet`): the principal line
 * of the engine's quiescence search (src/search/alphabeta/quiescence.ts, with its static-exchange pruning) over
 * the long-term evaluation, as TD-Leaf resolves its leaves (Baxter, Tridgell and Weaver 2000). In
 * Go, the paper's game, a position's static value is its value; in chess and shogi a position in the
 * middle of an exchange is not, and TD search over such values learns the exchange's parity (for
 * example a large `tempo` weight: the side to move "wins" whatever hangs) instead of the position.
 * A node budget bounds each line; past it the line found so far is kept.
 */
import * as scoreModule from '../alphabeta/score.js';
import { QuiescenceSearch } from '../alphabeta/quiescence.js';
import type { SearchBoard } from '../alphabeta/search-board.js';

const { MATE, MAX_PLY } = scoreModule;

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
    if (this.lists.length === 0 || this.lists[0]!.length !== board.maxMoves) {
      this.lists = Array.from({ length: MAX_PLY + 1 }, () => new Int32Array(board.maxMoves));
      this.scores = Array.from({ length: MAX_PLY + 1 }, () => new Int32Array(board.maxMoves));
    }
    this.board = board;
    this.nodes = 0;
    this.nodeLimit = this.budget;
    this.stopped = false;
    const pv: number[][] = [];
    this.qPv = pv;
    this.quiesce(-MATE - 1, MATE + 1, 0, board.inCheck());
    this.qPv = undefined;
    // A stopped search unwinds with partial lines; its first moves are still a legal sequence.
    return pv[0] ?? [];
  }
}
