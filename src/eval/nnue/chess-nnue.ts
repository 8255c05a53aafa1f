/**
 * The network evaluation on the internal chess board: the accumulator stack kept in step with the
 * board by the search adapter (`make` before the board's `makeMove`, `unmake` after its
 * `unmakeMove`). A move changes at most four piece codes: the mover leaves its square and arrives
 * (promoted) on another, a capture removes the victim (en passant: behind the target square),
 * castling moves the king to the g- or c-file and the rook to the f- or d-file (Chess960 included).
 *
 * With the king-relative set `king-bucket-4` (chess-king-features.ts) a king move that changes the
 * mover's view (bucket or mirroring) also records the new position's piece codes, from which the
 * stack rebuilds the mover's perspective; the opponent's perspective takes the deltas as usual.
 */
import type { FastChessBoard } from '../../games/chess/fast/board.js';
import { AccumulatorStack } from './accumulator-stack.js';
import { simdSupported } from './simd/simd-kernels.js';
import { CHESS_FEATURE_OF } from './chess-features.js';
import { CHESS_CODES, CHESS_KB_FEATURE_OF, CHESS_KB_VIEWS, chessKbView } from './chess-king-features.js';
import { featureCount } from './format.js';
import { type NnueNetwork, outputBucket } from './network.js';

/** Pieces on the board, kings included (the output bucket's measure). */
const piecesOn = (board: FastChessBoard): number => board.listSize[0]! + board.listSize[1]!;

/** Square (a1 = 0) of a 0x88 square. */
const sq64 = (sq88: number): number => ((sq88 >> 4) << 3) | (sq88 & 7);

const KIND_CASTLE = 2;
const KIND_EN_PASSANT = 3;
const KING = 6;
const ROOK = 4;

export class ChessNnue {
  readonly stack: AccumulatorStack;
  /** Whether the features depend on the own king's square (`king-bucket-4`). */
  private readonly kingRelative: boolean;
  private readonly views: number;
  private readonly table: Int32Array;
  private readonly codes = new Int32Array(32);
  /** The codes a move removes and adds (at most 2 each: castling, a capture). */
  private readonly subs = new Int32Array(2);
  private readonly adds = new Int32Array(2);

  /** `simd`: use the WebAssembly SIMD kernels where they apply (default: where the runtime supports them; the engine config's `nnueSimd` passes false). */
  constructor(
    readonly net: NnueNetwork,
    simd = simdSupported(),
  ) {
    if (net.game !== 'chess' || net.features !== featureCount('chess', net.featureSet)) throw new Error(`not a chess network (${net.game}, ${net.featureSet}, ${net.features} features)`);
    this.kingRelative = net.featureSet === 'king-bucket-4';
    this.views = this.kingRelative ? CHESS_KB_VIEWS : 1;
    this.table = this.kingRelative ? CHESS_KB_FEATURE_OF : CHESS_FEATURE_OF;
    this.stack = new AccumulatorStack(net, this.table, CHESS_CODES, this.views, undefined, simd);
  }

  /** The view of perspective p on `board` (0 for the base feature set). */
  viewOf(board: FastChessBoard, p: number): number {
    return this.kingRelative ? chessKbView(p, sq64(board.pieceList[16 * p]!)) : 0;
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
   * The `base` feature rows (chess-features.ts) of the side to move's perspective into `us` and the
   * opponent's into `them` (the policy's inputs); returns their common count.
   */
  static baseFeatures(board: FastChessBoard, us: Int32Array, them: Int32Array): number {
    return ChessNnue.rows(board, us, them, CHESS_FEATURE_OF, board.turn * CHESS_CODES, (board.turn ^ 1) * CHESS_CODES);
  }

  /**
   * This network's feature rows of the side to move's perspective into `us` and the opponent's
   * into `them` (the float forward pass of learning, float-network.ts); returns their common count.
   */
  activeFeatures(board: FastChessBoard, us: Int32Array, them: Int32Array): number {
    const pu = (board.turn * this.views + this.viewOf(board, board.turn)) * CHESS_CODES;
    const pt = ((board.turn ^ 1) * this.views + this.viewOf(board, board.turn ^ 1)) * CHESS_CODES;
    return ChessNnue.rows(board, us, them, this.table, pu, pt);
  }

  private static rows(board: FastChessBoard, us: Int32Array, them: Int32Array, table: Int32Array, pu: number, pt: number): number {
    const n = ChessNnue.pieceCodes(board, us);
    for (let k = 0; k < n; k++) {
      const code = us[k]!;
      them[k] = table[pt + code]!;
      us[k] = table[pu + code]!;
    }
    return n;
  }

  /** Full refresh from the board (set-up, or a board changed behind the stack's back). */
  attach(board: FastChessBoard): void {
    this.stack.reset(this.codes, ChessNnue.pieceCodes(board, this.codes), this.viewOf(board, 0), this.viewOf(board, 1));
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
    const subs = this.subs;
    const adds = this.adds;
    let ns = 0;
    let kingTo = to;
    if (kind === KIND_CASTLE) {
      const kingSide = to > from;
      const rank = from & 56;
      kingTo = rank | (kingSide ? 6 : 2);
      subs[ns++] = piece * 64 + from;
      subs[ns++] = (us | ROOK) * 64 + to;
      adds[0] = (us | KING) * 64 + kingTo;
      adds[1] = (us | ROOK) * 64 + (rank | (kingSide ? 5 : 3));
    } else {
      subs[ns++] = piece * 64 + from;
      adds[0] = (promo !== 0 ? us | promo : piece) * 64 + to;
      if (captured !== 0) {
        const at = kind === KIND_EN_PASSANT ? (us === 0 ? to - 8 : to + 8) : to;
        subs[ns++] = ((us ^ 8) | captured) * 64 + at;
      }
    }
    const na = kind === KIND_CASTLE ? 2 : 1;
    for (let k = 0; k < ns; k++) st.sub(subs[k]!);
    for (let k = 0; k < na; k++) st.add(adds[k]!);
    if (this.kingRelative && (piece & 7) === KING) {
      const side = board.turn;
      const view = chessKbView(side, kingTo);
      // The position after the move: this one's codes less the removed, plus the added.
      if (view !== chessKbView(side, from)) {
        const codes = this.codes;
        const count = ChessNnue.pieceCodes(board, codes);
        let n = 0;
        for (let k = 0; k < count; k++) {
          const c = codes[k]!;
          if (c !== subs[0] && (ns < 2 || c !== subs[1])) codes[n++] = c;
        }
        for (let k = 0; k < na; k++) codes[n++] = adds[k]!;
        st.refreshAt(side, view, codes, n);
      }
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
