import type { GameKind } from '../../../src/core/game.js';
import type { Activation, FeatureSet, NnueNetwork } from '../../../src/eval/nnue/network.js';
import { featureCount } from '../../../src/eval/nnue/format.js';
import { seededRng } from '../../../src/core/rng.js';

/** A network with seeded random weights in the trained nets' ranges (`buckets` output buckets, chess only). */
export const randomNetwork = (game: GameKind, hidden: number, activation: Activation, seed = 1, featureSet: FeatureSet = 'base', buckets = 1): NnueNetwork => {
  const rng = seededRng(seed);
  const f = featureCount(game, featureSet)!;
  const r = (k: number) => Math.round((rng() * 2 - 1) * k);
  const l1w = new Int16Array(f * hidden).map(() => r(60));
  const l1b = new Int16Array(hidden).map(() => r(100) + 60);
  const l2w = new Int16Array(2 * hidden * buckets).map(() => r(120));
  const l2b = new Int32Array(buckets).map(() => r(5000));
  return { game, featureSet, features: f, hidden, activation, qa: 255, qb: 64, scale: 400, outputBuckets: buckets, l1w, l1b, l2w, l2b };
};
