/**
 * Inputs of the shogi policy network (policy-network.ts) on the internal board: the side to move's
 * NNUE features (board pieces and hand counts, src/eval/nnue/shogi-features.ts) and three keys per
 * legal move, squares (dense 0..80, SFEN order) seen from the side to move (turned 180 degrees for
 * white, as the features are):
 *
 * - move: a board move `(from * 81 + to) * 2 + promotes`; a drop `13122 + (type - 1) * 81 + to`;
 * - piece-to: a board move `13689 + ((piece - 1) * 81 + to) * 2 + promotes` (piece 1..14, the mover
 *   before promotion); a drop `15957 + (type - 1) * 81 + to`;
 * - piece-victim: a board move `16524 + (piece - 1) * 15 + victim` (victim type 0 none, 1..14); a
 *   drop `16734 + type - 1`.
 *
 * Drops and promotions are keys of their own, so the policy covers every legal move.
 */
import { ShogiNnue } from '../nnue/shogi-nnue.js';
import type { FastShogiBoard } from '../../games/shogi/fast/board.js';
import { TO_81 } from '../../games/shogi/fast/squares.js';

const DROP_BASE = 81 * 81 * 2;
const PIECE_TO = DROP_BASE + 7 * 81;
const DROP_TO = PIECE_TO + 14 * 81 * 2;
const PIECE_VICTIM = DROP_TO + 7 * 81;
const DROP_VICTIM = PIECE_VICTIM + 14 * 15;
export const SHOGI_POLICY_KEYS = DROP_VICTIM + 7;
export const SHOGI_KEYS_PER_MOVE = 3;
const DROP_SHIFT = 17;
const PROMOTE_FLAG = 1 << 16;

/** Active features of the side to move's perspective into `out` (40 + 76 entries at least); returns the count. */
export const shogiPolicyFeatures = (board: FastShogiBoard, out: Int32Array, scratch: Int32Array): number =>
  ShogiNnue.activeFeatures(board, out, scratch);

/** Writes the keys of move `m` (a legal move of `board`) at `out[off..off+3)`. */
export const shogiMoveKeys = (board: FastShogiBoard, m: number, out: Int32Array, off: number): void => {
  const white = board.turn !== 0;
  let to = TO_81[(m >>> 8) & 0xff]!;
  if (white) to = 80 - to;
  const drop = m >>> DROP_SHIFT;
  if (drop !== 0) {
    out[off] = DROP_BASE + (drop - 1) * 81 + to;
    out[off + 1] = DROP_TO + (drop - 1) * 81 + to;
    out[off + 2] = DROP_VICTIM + drop - 1;
    return;
  }
  const fromSq = m & 0xff;
  let from = TO_81[fromSq]!;
  if (white) from = 80 - from;
  const promotes = (m & PROMOTE_FLAG) !== 0 ? 1 : 0;
  const cells = board.board;
  const piece = cells[fromSq]! & 15;
  const victim = cells[(m >>> 8) & 0xff]! & 15;
  out[off] = (from * 81 + to) * 2 + promotes;
  out[off + 1] = PIECE_TO + ((piece - 1) * 81 + to) * 2 + promotes;
  out[off + 2] = PIECE_VICTIM + (piece - 1) * 15 + victim;
};
