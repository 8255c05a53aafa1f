/** The training adapter of a game. */
import type { GameKind } from '../../core/game.js';
import { ChessTrainingAdapter } from './chess-adapter.js';
import { ShogiTrainingAdapter } from './shogi-adapter.js';
import type { TrainingAdapter } from './training-adapter.js';

export const createTrainingAdapter = (game: GameKind, theta: Float64Array): TrainingAdapter =>
  game === 'chess' ? new ChessTrainingAdapter(theta) : new ShogiTrainingAdapter(theta);
