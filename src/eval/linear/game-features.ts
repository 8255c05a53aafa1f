/** The feature set of each game's linear evaluation. */
import type { GameKind } from '../../core/game.js';
import { CHESS_FEATURES } from './chess-features.js';
import type { FeatureSet } from './feature-registry.js';
import { SHOGI_FEATURES } from './shogi-features.js';

/** The feature set of a game's linear evaluation. */
export const featureSetOf = (game: GameKind): FeatureSet<never> =>
  (game === 'chess' ? CHESS_FEATURES : SHOGI_FEATURES) as unknown as FeatureSet<never>;
