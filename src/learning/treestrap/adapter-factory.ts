/** The training adapter of a game: the linear evaluation, or a network (`--model nnue`). */
import type { GameKind } from '../../core/game.js';
import type { NnueManifest } from '../../eval/nnue/format.js';
import type { TrainableNetwork } from '../../eval/nnue/trainable.js';
import { ChessTrainingAdapter } from './chess-adapter.js';
import { NnueTrainingAdapter } from './nnue-adapter.js';
import { ShogiTrainingAdapter } from './shogi-adapter.js';
import type { TrainingAdapter } from './training-adapter.js';

/** The start network of a `--model nnue` run and its manifest. */
export interface StartNetwork {
  readonly start: TrainableNetwork;
  readonly manifest: NnueManifest;
}

/** `theta` is used by reference: the linear weights, or the network's float master copy when `network` is given. */
export const createTrainingAdapter = (game: GameKind, theta: Float64Array, network?: StartNetwork): TrainingAdapter => {
  if (network !== undefined) return new NnueTrainingAdapter(network.start, theta, network.manifest);
  return game === 'chess' ? new ChessTrainingAdapter(theta) : new ShogiTrainingAdapter(theta);
};
