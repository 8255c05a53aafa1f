/**
 * The squares one colour attacks on the internal chess board, computed in one pass over its piece
 * list, as a set of 0x88 squares (`has(sq)`) that a new position does not need to clear. Pieces
 * block as they stand, and the first occupied square of a slider's ray is marked (the piece there
 * is attacked).
 *
 * Why: the MCTS one-ply prior (src/search/mcts/cpu-evaluator.ts) needs the exchange loss of every
 * legal move. A move whose origin and destination the enemy does not attack cannot be answered on
 * its destination, even through the square it leaves (a slider that would see through the origin
 * attacks the origin now), so its exchange value is what it captures and the exchange evaluation
 * (see.ts) can be skipped.
 */
import { StampedMarks } from '../../../core/stamped-marks.js';
import type { FastChessBoard } from './board.js';
import { BISHOP, KING, KNIGHT, PAWN, ROOK, WHITE } from './piece.js';
import { DIRS, KNIGHT_STEPS } from './tables.js';

export class ChessAttackMap extends StampedMarks {
  constructor() {
    super(128);
  }

  /** Marks every square a piece of colour `by` attacks on `board`, forgetting the previous position. */
  compute(board: FastChessBoard, by: number): void {
    const stamp = this.renew();
    const marks = this.marks;
    const b = board.squares;
    const plist = board.pieceList;
    const end = (by << 4) + board.listSize[by]!;
    const fwd = by === WHITE ? 16 : -16;
    for (let i = by << 4; i < end; i++) {
      const s = plist[i]!;
      const t = b[s]! & 7;
      let x: number;
      if (t === PAWN) {
        x = s + fwd - 1;
        if (!(x & 0x88)) marks[x] = stamp;
        x = s + fwd + 1;
        if (!(x & 0x88)) marks[x] = stamp;
      } else if (t === KNIGHT) {
        for (let k = 0; k < 8; k++) {
          x = s + KNIGHT_STEPS[k]!;
          if (!(x & 0x88)) marks[x] = stamp;
        }
      } else if (t === KING) {
        for (let k = 0; k < 8; k++) {
          x = s + DIRS[k]!;
          if (!(x & 0x88)) marks[x] = stamp;
        }
      } else {
        // DIRS: the four diagonals first, then the four lines.
        const k0 = t === ROOK ? 4 : 0;
        const k1 = t === BISHOP ? 4 : 8;
        for (let k = k0; k < k1; k++) {
          const d = DIRS[k]!;
          for (x = s + d; !(x & 0x88); x += d) {
            marks[x] = stamp;
            if (b[x] !== 0) break;
          }
        }
      }
    }
  }
}
