/**
 * Inputs of the chess policy network (policy-network.ts) on the internal board: the side to move's
 * NNUE piece-square features (src/eval/nnue/chess-features.ts) and four keys per legal move, all
 * squares seen from the side to move (mirrored vertically for black, as the features are); "attacked"
 * means attacked by the opponent in the current position:
 *
 * - from-to: `promotion * 4096 + from * 64 + to` (promotion 0 none, 1..4 knight..queen); castling
 *   is keyed by the king's real destination (g- or c-file), not by the "king takes rook" encoding;
 * - piece-to: `20480 + ((piece - 1) * 64 + to) * 3 + safety` (piece 1 pawn .. 6 king);
 * - piece-from: `21632 + ((piece - 1) * 64 + from) * 2 + from attacked` (a threatened piece moving away);
 * - piece-victim: `22400 + ((piece - 1) * 7 + victim) * 3 + safety` (victim 0 none, 1 pawn ..
 *   5 queen; en passant takes a pawn).
 *
 * `safety` is 0 when the opponent does not attack the destination, 1 when it does but the static
 * exchange evaluation of the move is not negative, 2 when the move loses material by it: what the
 * one-ply prior charges a move with, as three buckets, so that a network without the one-ply
 * look-ahead still tells a defended square from a hanging piece (the attacked bit alone did not:
 * session 10 measured both, docs/experiments/2026-11-27-policy-labels-safety-buckets.md).
 *
 * A move's logit is the sum over its keys of `dot(hidden, W[key]) + b[key]`: the factorised policy
 * of Monty and Princhess, whose move embeddings are indexed by from/to squares, pieces and whether
 * those squares are threatened. The attack tests are cached per square for one position
 * (`begin`), so a node costs at most 64 of them.
 */
import { ChessNnue } from '../nnue/chess-nnue.js';
import type { FastChessBoard } from '../../games/chess/fast/board.js';
import { seeGe } from '../../games/chess/fast/see.js';

export const CHESS_POLICY_KEYS = 5 * 4096 + 1152 + 768 + 126;
export const CHESS_KEYS_PER_MOVE = 4;
const PIECE_TO = 5 * 4096;
const PIECE_FROM = PIECE_TO + 1152;
const PIECE_VICTIM = PIECE_FROM + 768;
const KIND_CASTLE = 2;

/** The move keys of one position at a time (attack tests cached per square). */
export class ChessPolicyInput {
  private readonly stamp = new Int32Array(64);
  private readonly attackedBit = new Uint8Array(64);
  private epoch = 0;
  private board: FastChessBoard | undefined;
  private flip = 0;
  private them = 1;

  /** Active features of the side to move's perspective into `out` (32 entries at least); returns the count. */
  static features(board: FastChessBoard, out: Int32Array, scratch: Int32Array): number {
    return ChessNnue.baseFeatures(board, out, scratch);
  }

  /** Starts a position: the keys that follow are for `board` as it is now. */
  begin(board: FastChessBoard): void {
    this.board = board;
    this.flip = board.turn === 0 ? 0 : 56;
    this.them = board.turn ^ 1;
    if (++this.epoch === 0x7fffffff) {
      this.epoch = 1;
      this.stamp.fill(0);
    }
  }

  private attacked(sq: number): number {
    if (this.stamp[sq] !== this.epoch) {
      this.stamp[sq] = this.epoch;
      this.attackedBit[sq] = this.board!.isSquareAttacked(sq, this.them) ? 1 : 0;
    }
    return this.attackedBit[sq]!;
  }

  /** Writes the keys of move `m` (a legal move of the board given to `begin`) at `out[off..off+4)`. */
  keys(m: number, out: Int32Array, off: number): void {
    const flip = this.flip;
    const from = m & 63;
    let to = (m >> 6) & 63;
    if (((m >> 15) & 3) === KIND_CASTLE) to = (from & 56) | (to > from ? 6 : 2);
    const promo = (m >> 12) & 7;
    const piece = ((m >> 20) & 7) - 1;
    const rto = to ^ flip;
    const rfrom = from ^ flip;
    // Castling's destination is never attacked (the king may not pass through check).
    const safety = this.attacked(to) === 0 ? 0 : seeGe(this.board!, m, 0) ? 1 : 2;
    out[off] = (promo === 0 ? 0 : promo - 1) * 4096 + rfrom * 64 + rto;
    out[off + 1] = PIECE_TO + (piece * 64 + rto) * 3 + safety;
    out[off + 2] = PIECE_FROM + (piece * 64 + rfrom) * 2 + this.attacked(from);
    out[off + 3] = PIECE_VICTIM + (piece * 7 + ((m >> 17) & 7)) * 3 + safety;
  }
}
