/**
 * The squares one side attacks on the internal shogi board, computed in one pass over the 81
 * squares, as a set of mailbox cells (`has(sq)`, squares.ts) that a new position does not need to
 * clear. Pieces block as they stand, and the first occupied cell of a slide is marked (the piece
 * there is attacked).
 *
 * Why: the MCTS one-ply prior (src/search/mcts/cpu-evaluator.ts) needs the exchange loss of every
 * legal move, drops included. A move or drop whose destination (and, for a board move, origin) the
 * enemy does not attack cannot be answered on its destination, even through the square a piece
 * leaves (a lance, rook or bishop that would see through the origin attacks the origin now), so
 * its exchange value is what it captures and promotes, and the exchange evaluation (see.ts) can be
 * skipped.
 */
import { StampedMarks } from '../../../core/stamped-marks.js';
import { SLIDE_BEGIN, SLIDE_DIR, SLIDE_END, STEP_BEGIN, STEP_END, STEP_OFFSET } from './attack-tables.js';
import type { FastShogiBoard } from './board.js';
import { COLOR_MASK } from './pieces.js';
import { BOARD_SIZE, DIRS, SQUARES } from './squares.js';

export class ShogiAttackMap extends StampedMarks {
  constructor() {
    super(BOARD_SIZE);
  }

  /** Marks every cell a piece with colour bit `bit` (pieces.ts) attacks on `board`, forgetting the previous position. */
  compute(board: FastShogiBoard, bit: number): void {
    const stamp = this.renew();
    const marks = this.marks;
    const b = board.board;
    for (let i = 0; i < 81; i++) {
      const s = SQUARES[i]!;
      const p = b[s]!;
      if ((p & COLOR_MASK) !== bit) continue;
      // Steps and knight jumps stay inside the padded array (squares.ts); marks on walls are never read.
      for (let j = STEP_BEGIN[p]!; j < STEP_END[p]!; j++) marks[s + STEP_OFFSET[j]!] = stamp;
      for (let j = SLIDE_BEGIN[p]!; j < SLIDE_END[p]!; j++) {
        const d = DIRS[SLIDE_DIR[j]!]!;
        let x = s + d;
        while (b[x] === 0) {
          marks[x] = stamp;
          x += d;
        }
        marks[x] = stamp;
      }
    }
  }
}
