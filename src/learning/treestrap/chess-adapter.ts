/**
 * The chess side of the trainer: `ChessSearchBoard`s over the fast board with the linear
 * evaluation (feature set `chess-linear-1`).
 */
import type { KishiError, Result } from '../../core/result.js';
import { ChessLinearEval } from '../../eval/linear/chess-eval.js';
import { CHESS_FEATURES } from '../../eval/linear/chess-features.js';
import type { FeatureSet } from '../../eval/linear/feature-registry.js';
import { chessMaterialTheta } from '../../eval/linear/material.js';
import { BISHOP, KNIGHT, PAWN, QUEEN, ROOK } from '../../games/chess/fast/piece.js';
import type { SparseVector } from '../../eval/linear/sparse.js';
import { ChessSearchBoard } from '../../search/alphabeta/chess-board.js';
import type { SearchBoard } from '../../search/alphabeta/search-board.js';
import { LinearTrainingAdapter } from './linear-adapter.js';
import type { GameEnd, TrainingAdapter } from './training-adapter.js';

export class ChessTrainingAdapter extends LinearTrainingAdapter implements TrainingAdapter {
  readonly game = 'chess' as const;
  readonly featureSet = CHESS_FEATURES as unknown as FeatureSet<never>;
  private readonly evaluator: ChessLinearEval;
  private readonly list = new Int32Array(256);

  constructor(theta: Float64Array) {
    super(theta);
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

  /** Mate, stalemate, fifty moves, threefold repetition, insufficient material (no pawn, rook or queen and at most one minor piece). */
  outcome(board: SearchBoard): GameEnd | undefined {
    const b = (board as ChessSearchBoard).board;
    if (board.generate(this.list, false) === 0) {
      return b.inCheck() ? { winner: board.sideToMove() === 0 ? 'second' : 'first', reason: 'checkmate' } : { winner: undefined, reason: 'stalemate' };
    }
    if (b.halfmoveClock >= 100) return { winner: undefined, reason: 'fifty-moves' };
    if (b.isRepetition(2)) return { winner: undefined, reason: 'threefold-repetition' };
    const c = b.pieceCounts;
    if (c[PAWN]! + c[8 | PAWN]! + c[ROOK]! + c[8 | ROOK]! + c[QUEEN]! + c[8 | QUEEN]! === 0 && c[KNIGHT]! + c[8 | KNIGHT]! + c[BISHOP]! + c[8 | BISHOP]! <= 1) {
      return { winner: undefined, reason: 'insufficient-material' };
    }
    return undefined;
  }
}
