/**
 * The chess linear evaluation H(s) = phi(s)^T theta, evaluated fast: material and piece-square
 * weights are folded into the board's incrementally updated piece-square tables (fixed point,
 * 1/64 centipawn), the remaining features are extracted and dotted each call.
 * `evaluate` equals `CHESS_FEATURES.extract` dotted with theta up to the fixed-point rounding
 * (well under a centipawn; tested).
 */
import type { FastChessBoard } from '../../games/chess/fast/board.js';
import * as pieceModule from '../../games/chess/fast/piece.js';
import * as featuresModule from './chess-features.js';
import { thetaGrain, toGrain } from './grain.js';
import { DotSink, type SparseVector } from './sparse.js';

// Imported constants copied into module scope: under vitest's module transform every use of an
// import is a property read through a getter, several times slower in the hot loops.
const { BLACK, KING, PAWN, WHITE } = pieceModule;
const { CHESS_FEATURES, PHASE_TOTAL, chessMaterialFeature, chessPhase, chessPstEgFeature, chessPstMgFeature, extractChessPositional } = featuresModule;

/** Fixed-point scale of the incremental tables. */
const SCALE = 64;

/** 1 for the features the incremental tables carry (material and piece-square), 0 for the rest. */
const INCREMENTAL = (() => {
  const mark = new Uint8Array(CHESS_FEATURES.size);
  for (let type = PAWN; type < KING; type++) mark[chessMaterialFeature(type)] = 1;
  for (let type = PAWN; type <= KING; type++) {
    for (let sq = 0; sq < 64; sq++) {
      mark[chessPstMgFeature(type, sq)] = 1;
      mark[chessPstEgFeature(type, sq)] = 1;
    }
  }
  return mark;
})();

export class ChessLinearEval {
  readonly featureSet = CHESS_FEATURES;
  /** H(s) is rounded to a multiple of this many centipawns (grain.ts; 1: not rounded here, the search rounds to whole centipawns). */
  grain: number;
  private readonly mg = new Int32Array(16 * 64);
  private readonly eg = new Int32Array(16 * 64);
  private readonly sink: DotSink;
  /** Whether theta weighs any feature beyond the incremental tables (else extraction adds 0). */
  private positional = true;

  /** `theta` is used by reference: after changing it call `refresh` and re-`attach` the boards. */
  constructor(readonly theta: Float64Array) {
    if (theta.length !== CHESS_FEATURES.size) throw new Error(`theta has ${theta.length} entries, expected ${CHESS_FEATURES.size}`);
    this.sink = new DotSink(theta);
    this.grain = thetaGrain(theta);
    this.refresh();
  }

  /** Rebuilds the incremental tables from theta (and notes whether the other features weigh anything). */
  refresh(): void {
    const t = this.theta;
    this.positional = false;
    for (let i = 0; i < t.length; i++) if (t[i] !== 0 && INCREMENTAL[i] === 0) this.positional = true;
    for (let type = PAWN; type <= KING; type++) {
      const mat = type === KING ? 0 : t[chessMaterialFeature(type)]!;
      for (let sq = 0; sq < 64; sq++) {
        // White piece on sq; black piece on sq reads the mirrored square and counts negative.
        this.mg[((WHITE << 3) | type) * 64 + sq] = Math.round((mat + t[chessPstMgFeature(type, sq)]!) * SCALE);
        this.eg[((WHITE << 3) | type) * 64 + sq] = Math.round((mat + t[chessPstEgFeature(type, sq)]!) * SCALE);
        this.mg[((BLACK << 3) | type) * 64 + sq] = -Math.round((mat + t[chessPstMgFeature(type, sq ^ 56)]!) * SCALE);
        this.eg[((BLACK << 3) | type) * 64 + sq] = -Math.round((mat + t[chessPstEgFeature(type, sq ^ 56)]!) * SCALE);
      }
    }
  }

  /** Installs the tables on a board (needed once per board, and again after `refresh`). */
  attach(board: FastChessBoard): void {
    board.setPsqTables(this.mg, this.eg);
  }

  /** H(s) from white's view, centipawns, rounded to the grain (not clipped). The board must be attached. */
  evaluateWhite(board: FastChessBoard): number {
    const phase = chessPhase(board);
    const psq = (board.psqMg * phase + board.psqEg * (PHASE_TOTAL - phase)) / (PHASE_TOTAL * SCALE);
    // A material (or material and piece-square) theta: the other features all weigh 0.
    if (!this.positional) return toGrain(psq, this.grain);
    const sink = this.sink;
    sink.sum = 0;
    extractChessPositional(board, sink, phase);
    return toGrain(psq + sink.sum, this.grain);
  }

  /** phi(s) in full, into `out` (cleared first). */
  features(board: FastChessBoard, out: SparseVector): void {
    out.clear();
    CHESS_FEATURES.extract(board, out);
  }
}
