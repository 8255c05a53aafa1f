/**
 * Inputs of the chess policy network (policy-network.ts) on the internal board: the side to move's
 * NNUE piece-square features (src/eval/nnue/chess-features.ts) and three keys per legal move, all
 * squares seen from the side to move (mirrored vertically for black, as the features are):
 *
 * - from-to: `promotion * 4096 + from * 64 + to` (promotion 0 none, 1..4 knight..queen); castling
 *   is keyed by the king's real destination (g- or c-file), not by the "king takes rook" encoding;
 * - piece-to: `20480 + (piece - 1) * 64 + to` (piece 1 pawn .. 6 king);
 * - piece-victim: `20864 + (piece - 1) * 7 + victim` (victim 0 none, 1 pawn .. 5 queen; en passant
 *   takes a pawn).
 *
 * A move's logit is the sum over its keys of `dot(hidden, W[key]) + b[key]`: the factorised
 * policy of Monty and Princhess, whose move embeddings are indexed by from/to squares and pieces.
 */
import { ChessNnue } from '../nnue/chess-nnue.js';
import type { FastChessBoard } from '../../games/chess/fast/board.js';

export const CHESS_POLICY_KEYS = 5 * 4096 + 6 * 64 + 6 * 7;
export const CHESS_KEYS_PER_MOVE = 3;
const PIECE_TO = 5 * 4096;
const PIECE_VICTIM = PIECE_TO + 6 * 64;
const KIND_CASTLE = 2;

/** Active features of the side to move's perspective into `out` (32 entries at least); returns the count. */
export const chessPolicyFeatures = (board: FastChessBoard, out: Int32Array, scratch: Int32Array): number =>
  ChessNnue.activeFeatures(board, out, scratch);

/** Writes the keys of move `m` (a legal move of `board`, side to move `turn`) at `out[off..off+3)`. */
export const chessMoveKeys = (turn: number, m: number, out: Int32Array, off: number): void => {
  const flip = turn === 0 ? 0 : 56;
  const from = m & 63;
  let to = (m >> 6) & 63;
  if (((m >> 15) & 3) === KIND_CASTLE) to = (from & 56) | (to > from ? 6 : 2);
  const promo = (m >> 12) & 7;
  const piece = (m >> 20) & 7;
  const rto = to ^ flip;
  out[off] = (promo === 0 ? 0 : promo - 1) * 4096 + (from ^ flip) * 64 + rto;
  out[off + 1] = PIECE_TO + (piece - 1) * 64 + rto;
  out[off + 2] = PIECE_VICTIM + (piece - 1) * 7 + ((m >> 17) & 7);
};
