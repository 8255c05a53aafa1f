/**
 * The shogi side of the trainer: `ShogiSearchBoard`s over the fast board with the linear
 * evaluation (feature set `shogi-linear-1`).
 */
import type { KishiError, Result } from '../../core/result.js';
import type { FeatureSet } from '../../eval/linear/feature-registry.js';
import { shogiMaterialTheta } from '../../eval/linear/material.js';
import { ShogiLinearEval } from '../../eval/linear/shogi-eval.js';
import { SHOGI_FEATURES } from '../../eval/linear/shogi-features.js';
import type { SparseVector } from '../../eval/linear/sparse.js';
import type { SearchBoard } from '../../search/alphabeta/search-board.js';
import { ShogiSearchBoard } from '../../search/alphabeta/shogi-board.js';
import type { TrainingAdapter } from './training-adapter.js';

export class ShogiTrainingAdapter implements TrainingAdapter {
  readonly game = 'shogi' as const;
  readonly featureSet = SHOGI_FEATURES as unknown as FeatureSet<never>;
  private readonly evaluator: ShogiLinearEval;

  constructor(readonly theta: Float64Array) {
    this.evaluator = new ShogiLinearEval(theta);
  }

  board(start: string, moves: readonly string[]): Result<SearchBoard, KishiError> {
    return ShogiSearchBoard.fromText(start, moves, this.evaluator);
  }

  features(board: SearchBoard, out: SparseVector): void {
    this.evaluator.features((board as ShogiSearchBoard).board, out);
  }

  /** The shogi evaluation reads theta directly: nothing to rebuild. */
  refresh(): void {}

  materialTheta(): Float64Array {
    return shogiMaterialTheta();
  }
}
