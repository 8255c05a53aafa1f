/**
 * What the chess and shogi adapters of the linear evaluation share (chess-adapter.ts,
 * shogi-adapter.ts): H(s) = theta . phi(s), so the gradient is phi(s); the engine plays theta; the
 * model is the weights JSON of the feature set.
 */
import type { FeatureSet } from '../../eval/linear/feature-registry.js';
import type { SparseVector } from '../../eval/linear/sparse.js';
import { serializeWeights, type WeightsProvenance } from '../../eval/linear/weights.js';
import type { SearchBoard } from '../../search/alphabeta/search-board.js';
import type { EnginePlayer, ModelFile, TrainingAdapter } from './training-adapter.js';

export abstract class LinearTrainingAdapter implements Pick<TrainingAdapter, 'theta' | 'gradient' | 'enginePlayer' | 'modelFiles'> {
  abstract readonly featureSet: FeatureSet<never>;

  constructor(readonly theta: Float64Array) {}

  /** phi(s) of the board's current position (first player's view) into `out`, cleared first. */
  abstract features(board: SearchBoard, out: SparseVector): void;

  gradient(board: SearchBoard, out: SparseVector): number {
    this.features(board, out);
    return out.dot(this.theta);
  }

  enginePlayer(theta: Float64Array): EnginePlayer {
    return { theta };
  }

  modelFiles(theta: Float64Array, provenance: WeightsProvenance): readonly ModelFile[] {
    return [{ suffix: '.json', data: serializeWeights(this.featureSet, theta, provenance) }];
  }
}
