/**
 * The shogi side of the trainer: `ShogiSearchBoard`s over the fast board with the linear
 * evaluation (feature set `shogi-linear-1`).
 */
import type { Side } from '../../core/game.js';
import type { KishiError, Result } from '../../core/result.js';
import { MAX_MOVES } from '../../games/shogi/fast/board.js';
import { Repetition } from '../../games/shogi/fast/repetition.js';
import type { FeatureSet } from '../../eval/linear/feature-registry.js';
import { shogiMaterialTheta } from '../../eval/linear/material.js';
import { ShogiLinearEval } from '../../eval/linear/shogi-eval.js';
import { SHOGI_FEATURES } from '../../eval/linear/shogi-features.js';
import type { SparseVector } from '../../eval/linear/sparse.js';
import type { SearchBoard } from '../../search/alphabeta/search-board.js';
import { ShogiSearchBoard } from '../../search/alphabeta/shogi-board.js';
import { LinearTrainingAdapter } from './linear-adapter.js';
import type { GameEnd, TrainingAdapter } from './training-adapter.js';

export class ShogiTrainingAdapter extends LinearTrainingAdapter implements TrainingAdapter {
  readonly game = 'shogi' as const;
  readonly featureSet = SHOGI_FEATURES as unknown as FeatureSet<never>;
  private readonly evaluator: ShogiLinearEval;
  private readonly list = new Int32Array(MAX_MOVES);

  constructor(theta: Float64Array) {
    super(theta);
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

  /**
   * No legal move (checkmate: shogi has no stalemate), and the fourth occurrence of a position
   * (sennichite; perpetual check loses for the checking side). The entering-king declaration is
   * not looked for: such games end at the ply cap.
   */
  outcome(board: SearchBoard): GameEnd | undefined {
    const b = (board as ShogiSearchBoard).board;
    const mover: Side = board.sideToMove() === 0 ? 'first' : 'second';
    const other: Side = mover === 'first' ? 'second' : 'first';
    if (board.generate(this.list, false) === 0) return { winner: other, reason: 'checkmate' };
    switch (b.repetition(3)) {
      case Repetition.Draw:
        return { winner: undefined, reason: 'sennichite' };
      case Repetition.Win:
        return { winner: mover, reason: 'perpetual-check' };
      case Repetition.Loss:
        return { winner: other, reason: 'perpetual-check' };
      default:
        return undefined;
    }
  }
}
