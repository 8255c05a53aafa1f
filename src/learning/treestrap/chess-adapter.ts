/**
 * The chess side of the trainer: `ChessSearchBoard`s over the fast board with the linear
 * evaluation (feature set `chess-linear-1`).
 */
import type { KishiError, Result } from '../../core/result.js';
import { ChessLinearEval } from '../../eval/linear/chess-eval.js';
import { CHESS_FEATURES } from '../../eval/linear/chess-features.js';
import type { FeatureSet } from '../../eval/linear/feature-registry.js';
import { chessMaterialTheta } from '../../eval/linear/material.js';
import type { SparseVector } from '../../eval/linear/sparse.js';
import { ChessSearchBoard } from '../../search/alphabeta/chess-board.js';
import type { SearchBoard } from '../../search/alphabeta/search-board.js';
import type { TrainingAdapter } from './training-adapter.js';

export class ChessTrainingAdapter implements TrainingAdapter {
  readonly game = 'chess' as const;
  readonly featureSet = CHESS_FEATURES as unknown as FeatureSet<never>;
  private readonly evaluator: ChessLinearEval;

  constructor(readonly theta: Float64Array) {
    this.evaluator = new ChessLinearEval(theta);
  }

  board(start: string, moves: readonly string[]): Result<SearchBoard, KishiError> {
    return ChessSearchBoard.fromText(start, moves, this.evaluator);
  }

  features(board: SearchBoard, out: SparseVector): void {
    this.evaluator.features((board as ChessSearchBoard).board, out);
  }

  refresh(boards: readonly SearchBoard[]): void {
    this.evaluator.refresh();
    for (const b of boards) this.evaluator.attach((b as ChessSearchBoard).board);
  }

  materialTheta(): Float64Array {
    return chessMaterialTheta();
  }
}
