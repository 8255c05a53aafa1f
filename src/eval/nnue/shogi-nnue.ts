/**
 * The network evaluation on the internal shogi board, kept in step by the search adapter (`make`
 * before the board's `makeMove`, `unmake` after `unmakeMove`). A board move removes the mover from
 * its square and adds it (promoted or not) on the target; a capture removes the victim and adds the
 * next "at least k" hand feature of its unpromoted type; a drop removes the top hand feature and
 * adds the piece on the board.
 *
 * With the king-relative set `king-bucket-9` (shogi-king-features.ts) a king move that changes the
 * mover's view (bucket or mirroring) also records the new position's piece codes, from which the
 * stack rebuilds the mover's perspective; with `king-zone` (shogi-king-zone-features.ts) a king
 * move records the rows that change for the mover instead (the zone rows around its old and new
 * squares). The opponent's perspective takes the deltas as usual.
 */
import type { FastShogiBoard } from '../../games/shogi/fast/board.js';
import { SQUARES, TO_81 } from '../../games/shogi/fast/squares.js';
import { AccumulatorStack } from './accumulator-stack.js';
import { simdSupported } from './simd/simd-kernels.js';
import type { NnueNetwork } from './network.js';
import { SHOGI_CODES, SHOGI_FEATURE_OF, SHOGI_HAND_CODE_BASE } from './shogi-features.js';
import { SHOGI_KB_FEATURE_OF, SHOGI_KB_VIEWS, shogiKbView } from './shogi-king-features.js';
import { SHOGI_KZ_BASE_OF, SHOGI_KZ_VIEWS, SHOGI_KZ_ZONE_OF, shogiKzView } from './shogi-king-zone-features.js';
import { featureCount } from './format.js';

const DROP_SHIFT = 17;
const PROMOTE_FLAG = 1 << 16;
const KING = 8;

/** Board code of a cell value (side bit 16/32 | type) on dense square i. */
const boardCode = (cell: number, i: number): number => (((cell & 32) !== 0 ? 16 : 0) + (cell & 15)) * 81 + i;
const handCode = (side: number, type: number, k: number): number => SHOGI_HAND_CODE_BASE + (side * 8 + type) * 19 + k;

export class ShogiNnue {
  readonly stack: AccumulatorStack;
  /** Whether the features depend on the own king's square (`king-bucket-9`, `king-zone`). */
  private readonly kingRelative: boolean;
  /** View of a perspective from its own king's dense square (-1: none). */
  private readonly view: (p: number, king81: number) => number;
  private readonly views: number;
  private readonly table: Int32Array;
  private readonly zoneTable?: Int32Array;
  private readonly codes = new Int32Array(128);
  /** Scratch rows of a king-zone king move. */
  private readonly rows = new Int32Array(64);

  /** `simd`: use the WebAssembly SIMD kernels where they apply (default: where the runtime supports them; the engine config's `nnueSimd` passes false). */
  constructor(
    readonly net: NnueNetwork,
    simd = simdSupported(),
  ) {
    if (net.game !== 'shogi' || net.features !== featureCount('shogi', net.featureSet)) throw new Error(`not a shogi network (${net.game}, ${net.featureSet}, ${net.features} features)`);
    this.kingRelative = net.featureSet !== 'base';
    if (net.featureSet === 'king-bucket-9') {
      this.view = shogiKbView;
      this.views = SHOGI_KB_VIEWS;
      this.table = SHOGI_KB_FEATURE_OF;
    } else if (net.featureSet === 'king-zone') {
      this.view = shogiKzView;
      this.views = SHOGI_KZ_VIEWS;
      this.table = SHOGI_KZ_BASE_OF;
      this.zoneTable = SHOGI_KZ_ZONE_OF;
    } else {
      this.view = () => 0;
      this.views = 1;
      this.table = SHOGI_FEATURE_OF;
    }
    this.stack = new AccumulatorStack(net, this.table, SHOGI_CODES, this.views, this.zoneTable, simd);
  }

  /** The view of perspective p on `board` (0 for the base feature set). */
  viewOf(board: FastShogiBoard, p: number): number {
    if (!this.kingRelative) return 0;
    const k = board.kingSq[p]!;
    return this.view(p, k < 0 ? -1 : TO_81[k]!);
  }

  /** Active codes of the position into `out`; returns the count. */
  static pieceCodes(board: FastShogiBoard, out: Int32Array): number {
    let n = 0;
    const b = board.board;
    for (let sq = 0; sq < b.length; sq++) {
      const i = TO_81[sq]!;
      if (i < 0) continue;
      const cell = b[sq]!;
      if (cell !== 0) out[n++] = boardCode(cell, i);
    }
    for (let side = 0; side < 2; side++) for (let t = 1; t <= 7; t++) for (let k = 1; k <= board.hands[side * 8 + t]!; k++) out[n++] = handCode(side, t, k);
    return n;
  }

  /**
   * The active feature rows of the side to move's perspective into `us` and the opponent's into
   * `them` (the float forward pass of learning, float-network.ts); returns their counts (with
   * `king-zone` they differ: each king has its own zone).
   */
  activeFeatures(board: FastShogiBoard, us: Int32Array, them: Int32Array): [number, number] {
    const codes = this.codes;
    const n = ShogiNnue.pieceCodes(board, codes);
    const pu = (board.turn * this.views + this.viewOf(board, board.turn)) * SHOGI_CODES;
    const pt = ((board.turn ^ 1) * this.views + this.viewOf(board, board.turn ^ 1)) * SHOGI_CODES;
    let nu = 0;
    let nt = 0;
    for (let k = 0; k < n; k++) {
      const code = codes[k]!;
      them[nt++] = this.table[pt + code]!;
      us[nu++] = this.table[pu + code]!;
    }
    const zo = this.zoneTable;
    if (zo !== undefined) {
      for (let k = 0; k < n; k++) {
        const zt = zo[pt + codes[k]!]!;
        if (zt >= 0) them[nt++] = zt;
        const zu = zo[pu + codes[k]!]!;
        if (zu >= 0) us[nu++] = zu;
      }
    }
    return [nu, nt];
  }

  attach(board: FastShogiBoard): void {
    this.stack.reset(this.codes, ShogiNnue.pieceCodes(board, this.codes), this.viewOf(board, 0), this.viewOf(board, 1));
  }

  /** Records move `m`; call before `board.makeMove(m)`. */
  make(board: FastShogiBoard, m: number): void {
    const st = this.stack;
    st.push();
    const us = board.turn;
    const to = (m >>> 8) & 255;
    const drop = m >>> DROP_SHIFT;
    if (drop !== 0) {
      st.sub(handCode(us, drop, board.hands[us * 8 + drop]!));
      st.add(((us === 0 ? 0 : 16) + drop) * 81 + TO_81[to]!);
      return;
    }
    const from = m & 255;
    const b = board.board;
    const pc = b[from]!;
    const fromCode = boardCode(pc, TO_81[from]!);
    const toCode = boardCode((m & PROMOTE_FLAG) !== 0 ? pc + 8 : pc, TO_81[to]!);
    st.sub(fromCode);
    st.add(toCode);
    const captured = b[to]!;
    let capCode = -1;
    let handAdd = -1;
    if (captured !== 0) {
      capCode = boardCode(captured, TO_81[to]!);
      st.sub(capCode);
      let ct = captured & 15;
      if (ct > KING) ct -= 8;
      handAdd = handCode(us, ct, board.hands[us * 8 + ct]! + 1);
      st.add(handAdd);
    }
    if (this.kingRelative && (pc & 15) === KING) {
      const view = this.view(us, TO_81[to]!);
      if (this.zoneTable !== undefined) {
        this.zoneMove(board, us, TO_81[from]!, TO_81[to]!, fromCode, toCode, capCode, handAdd);
      } else if (view !== this.view(us, TO_81[from]!)) {
        // The position after the move: this one's codes with the king moved and the capture taken.
        const codes = this.codes;
        let n = 0;
        const count = ShogiNnue.pieceCodes(board, codes);
        for (let k = 0; k < count; k++) {
          const c = codes[k]!;
          if (c !== fromCode && c !== capCode) codes[n++] = c;
        }
        codes[n++] = toCode;
        if (handAdd >= 0) codes[n++] = handAdd;
        st.refreshAt(us, view, codes, n);
      }
    }
  }

  /**
   * king-zone, a king move of `us` from dense square f to t: the mover's perspective changes by the
   * move's base rows, minus the zone rows (old view) of the pieces around f, plus the zone rows (new
   * view) of the pieces around t after the move; the other rows stay (far cheaper than a refresh).
   */
  private zoneMove(board: FastShogiBoard, us: number, f: number, t: number, fromCode: number, toCode: number, capCode: number, handAdd: number): void {
    const rows = this.rows;
    const baseOf = this.table;
    const zo = this.zoneTable!;
    const vf = this.view(us, f);
    const vt = this.view(us, t);
    const pb = us * this.views * SHOGI_CODES;
    let n = 0;
    rows[n++] = -(baseOf[pb + fromCode]! + 1);
    rows[n++] = baseOf[pb + toCode]! + 1;
    if (capCode >= 0) {
      rows[n++] = -(baseOf[pb + capCode]! + 1);
      rows[n++] = baseOf[pb + handAdd]! + 1;
    }
    const b = board.board;
    for (let pass = 0; pass < 2; pass++) {
      // Pass 0: the zone around f before the move; pass 1: around t after it (f is empty then, t holds the king).
      const c = pass === 0 ? f : t;
      const zb = (us * this.views + (pass === 0 ? vf : vt)) * SHOGI_CODES;
      const r0 = Math.floor(c / 9);
      const c0 = c % 9;
      for (let r = Math.max(0, r0 - 2); r <= Math.min(8, r0 + 2); r++) {
        for (let col = Math.max(0, c0 - 2); col <= Math.min(8, c0 + 2); col++) {
          const i = r * 9 + col;
          if (i === c || (pass === 1 && i === f)) continue;
          const cell = b[SQUARES[i]!]!;
          if (cell === 0) continue;
          const z = zo[zb + boardCode(cell, i)]!;
          if (z >= 0) rows[n++] = pass === 0 ? -(z + 1) : z + 1;
        }
      }
    }
    this.stack.moveView(us, vt, rows, n);
  }

  makeNull(): void {
    this.stack.push();
  }

  unmake(): void {
    this.stack.pop();
  }

  /** Centipawns from the side to move's view (not clipped). */
  evaluate(board: FastShogiBoard): number {
    return this.stack.evaluate(board.turn);
  }

  /**
   * Centipawns from the opponent's view after move `m`, pushed on the accumulators alone (the board
   * is not moved: MCTS's child evaluations).
   */
  evaluateAfter(board: FastShogiBoard, m: number): number {
    this.make(board, m);
    const v = this.stack.evaluate(board.turn ^ 1);
    this.unmake();
    return v;
  }
}
