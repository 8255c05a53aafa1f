/**
 * The network evaluation on the internal chess board: the accumulator stack kept in step with the
 * board by the search adapter (`make` before the board's `makeMove`, `unmake` after its
 * `unmakeMove`). A move changes at most four piece codes: the mover leaves its square and arrives
 * (promoted) on another, a capture removes the victim (en passant: behind the target square),
 * castling moves the king to the g- or c-file and the rook to the f- or d-file (Chess960 included).
 */
import type { FastChessBoard } from '../../games/chess/fast/board.js';
import { AccumulatorStack } from './accumulator-stack.js';
import { simdSupported } from './simd/simd-kernels.js';
import { CHESS_FEATURE_OF, CHESS_FEATURES_COUNT } from './chess-features.js';
import { type NnueNetwork, outputBucket } from './network.js';

/** Pieces on the board, kings included (the output bucket's measure). */
const piecesOn = (board: FastChessBoard): number => board.listSize[0]! + board.listSize[1]!;

const KIND_CASTLE = 2;
const KIND_EN_PASSANT = 3;
const KING = 6;
const ROOK = 4;

export class ChessNnue {
  readonly stack: AccumulatorStack;
  private readonly codes = new Int32Array(32);

  /** `simd`: use the WebAssembly SIMD kernels where they apply (default: where the runtime supports them; the engine config's `nnueSimd` passes false). */
  constructor(
    readonly net: NnueNetwork,
    simd = simdSupported(),
  ) {
    if (net.game !== 'chess' || net.features !== CHESS_FEATURES_COUNT) throw new Error(`not a chess network (${net.game}, ${net.features} features)`);
    this.stack = new AccumulatorStack(net, CHESS_FEATURE_OF, 1024, 1, undefined, simd);
  }

  /** Piece codes (`piece * 64 + square`) of every piece on the board into `out`; returns the count. */
  static pieceCodes(board: FastChessBoard, out: Int32Array): number {
    let n = 0;
    const s = board.squares;
    for (let sq = 0; sq < 64; sq++) {
      const p = s[((sq >> 3) << 4) | (sq & 7)]!;
      if (p !== 0) out[n++] = p * 64 + sq;
    }
    return n;
  }

  /**
   * The active feature rows of the side to move's perspective into `us` and the opponent's into
   * `them` (the float forward pass of learning, float-network.ts); returns their common count.
   */
  static activeFeatures(board: FastChessBoard, us: Int32Array, them: Int32Array): number {
    const n = ChessNnue.pieceCodes(board, us);
    const pu = board.turn * 1024;
    const pt = (board.turn ^ 1) * 1024;
    for (let k = 0; k < n; k++) {
      const code = us[k]!;
      them[k] = CHESS_FEATURE_OF[pt + code]!;
      us[k] = CHESS_FEATURE_OF[pu + code]!;
    }
    return n;
  }

  /** Full refresh from the board (set-up, or a board changed behind the stack's back). */
  attach(board: FastChessBoard): void {
    this.stack.reset(this.codes, ChessNnue.pieceCodes(board, this.codes));
  }

  /** Records move `m` (fast-board encoding); call before `board.makeMove(m)`. */
  make(board: FastChessBoard, m: number): void {
    const st = this.stack;
    st.push();
    const us = board.turn << 3;
    const from = m & 63;
    const to = (m >> 6) & 63;
    const promo = (m >> 12) & 7;
    const kind = (m >> 15) & 3;
    const captured = (m >> 17) & 7;
    const piece = us | ((m >> 20) & 7);
    if (kind === KIND_CASTLE) {
      const kingSide = to > from;
      const rank = from & 56;
      st.sub(piece * 64 + from);
      st.sub((us | ROOK) * 64 + to);
      st.add((us | KING) * 64 + (rank | (kingSide ? 6 : 2)));
      st.add((us | ROOK) * 64 + (rank | (kingSide ? 5 : 3)));
      return;
    }
    st.sub(piece * 64 + from);
    st.add((promo !== 0 ? us | promo : piece) * 64 + to);
    if (captured !== 0) {
      const them = us ^ 8;
      const at = kind === KIND_EN_PASSANT ? (us === 0 ? to - 8 : to + 8) : to;
      st.sub((them | captured) * 64 + at);
    }
  }

  /** A null move: the accumulators are unchanged. */
  makeNull(): void {
    this.stack.push();
  }

  unmake(): void {
    this.stack.pop();
  }

  /** Centipawns from the side to move's view (not clipped). */
  evaluate(board: FastChessBoard): number {
    return this.stack.evaluate(board.turn, outputBucket(this.net.outputBuckets, piecesOn(board)));
  }

  /**
   * Centipawns from the opponent's view after move `m`, pushed on the accumulators alone (the board
   * is not moved: MCTS's child evaluations).
   */
  evaluateAfter(board: FastChessBoard, m: number): number {
    this.make(board, m);
    const pieces = piecesOn(board) - (((m >> 17) & 7) !== 0 ? 1 : 0);
    const v = this.stack.evaluate(board.turn ^ 1, outputBucket(this.net.outputBuckets, pieces));
    this.unmake();
    return v;
  }
}
