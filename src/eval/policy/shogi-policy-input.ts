/**
 * Inputs of the shogi policy network (policy-network.ts) on the internal board: the side to move's
 * NNUE features (board pieces and hand counts, src/eval/nnue/shogi-features.ts) and four keys per
 * legal move, squares (dense 0..80, SFEN order) seen from the side to move (turned 180 degrees for
 * white, as the features are); "attacked" means attacked by the opponent in the current position;
 * `piece` is the mover before promotion (1..14), `type` a dropped piece (1..7); `safety` is 0 when
 * the opponent does not attack the destination, 1 when it does but the static exchange evaluation
 * of the move is not negative, 2 when the move loses material by it (as in chess-policy-input.ts):
 *
 * - move: board `(from * 81 + to) * 2 + promotes`; drop `13122 + (type - 1) * 81 + to`;
 * - piece-to: board `13689 + (((piece - 1) * 81 + to) * 2 + promotes) * 3 + safety`; drop
 *   `20493 + ((type - 1) * 81 + to) * 3 + safety`;
 * - piece-from: board `22194 + ((piece - 1) * 81 + from) * 2 + from attacked`; drop
 *   `24462 + (type - 1) * 3 + safety`;
 * - piece-victim: board `24483 + ((piece - 1) * 15 + victim) * 3 + safety` (victim 0 none,
 *   1..14); drop `25113 + type - 1`.
 *
 * Drops and promotions are keys of their own, so the policy covers every legal move. The attack
 * tests are cached per square for one position (`begin`).
 */
import { ShogiNnue } from '../nnue/shogi-nnue.js';
import { SHOGI_CODES, SHOGI_FEATURE_OF } from '../nnue/shogi-features.js';
import type { FastShogiBoard } from '../../games/shogi/fast/board.js';
import { seeGe } from '../../games/shogi/fast/see.js';
import { TO_81 } from '../../games/shogi/fast/squares.js';

const DROP_BASE = 81 * 81 * 2;
const PIECE_TO = DROP_BASE + 7 * 81;
const DROP_TO = PIECE_TO + 14 * 81 * 2 * 3;
const PIECE_FROM = DROP_TO + 7 * 81 * 3;
const DROP_FROM = PIECE_FROM + 14 * 81 * 2;
const PIECE_VICTIM = DROP_FROM + 7 * 3;
const DROP_VICTIM = PIECE_VICTIM + 14 * 15 * 3;
export const SHOGI_POLICY_KEYS = DROP_VICTIM + 7;
export const SHOGI_KEYS_PER_MOVE = 4;
const DROP_SHIFT = 17;
const PROMOTE_FLAG = 1 << 16;
const BOARD_CELLS = 131;

/** The move keys of one position at a time (attack tests cached per square). */
export class ShogiPolicyInput {
  private readonly stamp = new Int32Array(BOARD_CELLS);
  private readonly attackedBit = new Uint8Array(BOARD_CELLS);
  private epoch = 0;
  private board: FastShogiBoard | undefined;
  private white = false;
  private themBit = 32;

  /** Active features of the side to move's perspective into `out` (40 + 76 entries at least); returns the count. */
  static features(board: FastShogiBoard, out: Int32Array, _scratch: Int32Array): number {
    // The base feature set (board piece-square and hands, 2344 rows) from the mover's side, whatever
    // feature set the value network uses.
    const n = ShogiNnue.pieceCodes(board, out);
    const pu = board.turn * SHOGI_CODES;
    for (let k = 0; k < n; k++) out[k] = SHOGI_FEATURE_OF[pu + out[k]!]!;
    return n;
  }

  /** Starts a position: the keys that follow are for `board` as it is now. */
  begin(board: FastShogiBoard): void {
    this.board = board;
    this.white = board.turn !== 0;
    this.themBit = board.turn === 0 ? 32 : 16;
    if (++this.epoch === 0x7fffffff) {
      this.epoch = 1;
      this.stamp.fill(0);
    }
  }

  /** Whether internal square `sq` is attacked by the opponent (0 or 1). */
  private attacked(sq: number): number {
    if (this.stamp[sq] !== this.epoch) {
      this.stamp[sq] = this.epoch;
      this.attackedBit[sq] = this.board!.attacked(sq, this.themBit) ? 1 : 0;
    }
    return this.attackedBit[sq]!;
  }

  /** Writes the keys of move `m` (a legal move of the board given to `begin`) at `out[off..off+4)`. */
  keys(m: number, out: Int32Array, off: number): void {
    const toSq = (m >>> 8) & 0xff;
    let to = TO_81[toSq]!;
    if (this.white) to = 80 - to;
    const safety = this.attacked(toSq) === 0 ? 0 : seeGe(this.board!, m, 0) ? 1 : 2;
    const drop = m >>> DROP_SHIFT;
    if (drop !== 0) {
      out[off] = DROP_BASE + (drop - 1) * 81 + to;
      out[off + 1] = DROP_TO + ((drop - 1) * 81 + to) * 3 + safety;
      out[off + 2] = DROP_FROM + (drop - 1) * 3 + safety;
      out[off + 3] = DROP_VICTIM + drop - 1;
      return;
    }
    const fromSq = m & 0xff;
    let from = TO_81[fromSq]!;
    if (this.white) from = 80 - from;
    const promotes = (m & PROMOTE_FLAG) !== 0 ? 1 : 0;
    const cells = this.board!.board;
    const piece = (cells[fromSq]! & 15) - 1;
    const victim = cells[toSq]! & 15;
    out[off] = (from * 81 + to) * 2 + promotes;
    out[off + 1] = PIECE_TO + ((piece * 81 + to) * 2 + promotes) * 3 + safety;
    out[off + 2] = PIECE_FROM + (piece * 81 + from) * 2 + this.attacked(fromSq);
    out[off + 3] = PIECE_VICTIM + (piece * 15 + victim) * 3 + safety;
  }
}
