/**
 * The shogi linear evaluation H(s) = phi(s)^T theta: features extracted and dotted each call.
 */
import type { FastShogiBoard } from '../../games/shogi/fast/board.js';
import { SHOGI_FEATURES } from './shogi-features.js';
import { thetaGrain, toGrain } from './grain.js';
import { DotSink, type SparseVector } from './sparse.js';

export class ShogiLinearEval {
  readonly featureSet = SHOGI_FEATURES;
  /** H(s) is rounded to a multiple of this many centipawns (grain.ts; 1: not rounded here). */
  grain: number;
  private readonly sink: DotSink;

  /** `theta` is used by reference (changes take effect at once). */
  constructor(readonly theta: Float64Array) {
    if (theta.length !== SHOGI_FEATURES.size) throw new Error(`theta has ${theta.length} entries, expected ${SHOGI_FEATURES.size}`);
    this.sink = new DotSink(theta);
    this.grain = thetaGrain(theta);
  }

  /** Nothing is cached; kept for symmetry with the chess evaluation. */
  refresh(): void {}

  /** H(s) from black's (sente's) view, centipawns, rounded to the grain (not clipped). */
  evaluateBlack(board: FastShogiBoard): number {
    const sink = this.sink;
    sink.sum = 0;
    SHOGI_FEATURES.extract(board, sink);
    return toGrain(sink.sum, this.grain);
  }

  /** phi(s) in full, into `out` (cleared first). */
  features(board: FastShogiBoard, out: SparseVector): void {
    out.clear();
    SHOGI_FEATURES.extract(board, out);
  }
}
