/**
 * An efficiently updatable neural network (NNUE; Nasu 2018, "Efficiently Updatable Neural-Network-
 * based Evaluation Functions for Computer Shogi"), in the simple "perspective" form of Stockfish's
 * and bullet's small nets: one feature transformer (F sparse binary inputs -> H) shared by the two
 * perspectives, the side to move's accumulator and the opponent's concatenated, a clipped ReLU
 * (CReLU) or squared clipped ReLU (SCReLU), one linear output.
 *
 * Integer arithmetic, as the trainer's export computes it (bit-exact):
 * - accumulator a = b1 + sum of W1 rows of the active features (int16, weights quantised by QA);
 * - CReLU:  out = (sum_i clamp(a_i, 0, QA) * w2_i + b2) * SCALE / (QA * QB)
 * - SCReLU: out = (trunc(sum_i clamp(a_i, 0, QA)^2 * w2_i / QA) + b2) * SCALE / (QA * QB)
 *   with w2 int16 quantised by QB, b2 by QA * QB, the division truncated toward zero. The sums stay
 *   below 2^53, so doubles compute them exactly.
 *
 * Output buckets (chess; bullet's and Stockfish's "layer stacks"): B output layers (w2, b2), the one
 * used chosen by the number of pieces on the board (`outputBucket`), so that the last layer can weigh
 * the same hidden units differently in the opening, the middlegame and the endgame. B = 1 is the
 * plain net.
 */
import type { GameKind } from '../../core/game.js';

export const ACTIVATIONS = ['crelu', 'screlu'] as const;
export type Activation = (typeof ACTIVATIONS)[number];

/**
 * Input feature sets; a file stores the index (format.ts). `base`: piece-square (chess-features.ts;
 * shogi board + hand counts, shogi-features.ts), file version 1. `king-bucket-9`: shogi only, the
 * base features per bucket of the perspective's own king square (shogi-king-features.ts).
 * `king-zone`: shogi only, the base features plus the pieces next to the own king by offset
 * (shogi-king-zone-features.ts). `king-bucket-4`: chess only, the base features per bucket of the
 * perspective's own king square, mirrored a <-> h (chess-king-features.ts).
 */
export const FEATURE_SETS = ['base', 'king-bucket-9', 'king-zone', 'king-bucket-4'] as const;
export type FeatureSet = (typeof FEATURE_SETS)[number];

export interface NnueNetwork {
  readonly game: GameKind;
  readonly featureSet: FeatureSet;
  readonly features: number;
  readonly hidden: number;
  readonly activation: Activation;
  readonly qa: number;
  readonly qb: number;
  /** Centipawns per unit of the float output. */
  readonly scale: number;
  /** Feature rows: `l1w[f * hidden + i]`. */
  readonly l1w: Int16Array;
  readonly l1b: Int16Array;
  /** Number of output layers B (1: no buckets); chosen per position by `outputBucket`. */
  readonly outputBuckets: number;
  /** Per bucket b at `b * 2H`: the side to move's half first, then the opponent's. */
  readonly l2w: Int16Array;
  /** The output bias of each bucket (int32). */
  readonly l2b: Int32Array;
}

/**
 * The output bucket of a position with `pieces` pieces on the board (kings included): B equal
 * slices of 2..32 pieces, as bullet's `MaterialCount` buckets ((pieces - 2) / 4 for B = 8).
 * Always 0 for a net without buckets.
 */
export const outputBucket = (buckets: number, pieces: number): number => {
  if (buckets === 1) return 0;
  const b = Math.floor(((pieces - 2) * buckets) / 32);
  return b < 0 ? 0 : b >= buckets ? buckets - 1 : b;
};

const generations = new WeakMap<NnueNetwork, number>();

/**
 * Whoever changes a network's integer weights in place (TrainableNetwork.sync) calls this, so that
 * copies made of them (the SIMD kernels' memory) are taken again at the next accumulator reset.
 */
export const markWeightsChanged = (net: NnueNetwork): void => {
  generations.set(net, (generations.get(net) ?? 0) + 1);
};

/** How many times `markWeightsChanged` was called for `net`. */
export const weightsGeneration = (net: NnueNetwork): number => generations.get(net) ?? 0;

/** The SCReLU output in centipawns from its sum of clamp(a)^2 * w2 over both halves (before the division by qa) in `bucket`. */
export const screluOutput = (net: NnueNetwork, squares: number, bucket = 0): number =>
  Math.trunc(((Math.trunc(squares / net.qa) + net.l2b[bucket]!) * net.scale) / (net.qa * net.qb));

/**
 * The output in centipawns from the side to move's view, given the two accumulators
 * (`acc[us..us+H)` and `acc[them..them+H)`; they may live in one array) and the output bucket.
 */
export const networkOutput = (net: NnueNetwork, acc: Int16Array, us: number, them: number, bucket = 0): number => {
  const h = net.hidden;
  const qa = net.qa;
  const w = net.l2w;
  const o = bucket * 2 * h;
  if (net.activation === 'screlu') {
    let s0 = 0;
    let s1 = 0;
    for (let i = 0; i < h; i++) {
      let x = acc[us + i]!;
      x = x < 0 ? 0 : x > qa ? qa : x;
      s0 += x * x * w[o + i]!;
      let y = acc[them + i]!;
      y = y < 0 ? 0 : y > qa ? qa : y;
      s1 += y * y * w[o + h + i]!;
    }
    return screluOutput(net, s0 + s1, bucket);
  }
  let sum = 0;
  for (let i = 0; i < h; i++) {
    let x = acc[us + i]!;
    x = x < 0 ? 0 : x > qa ? qa : x;
    let y = acc[them + i]!;
    y = y < 0 ? 0 : y > qa ? qa : y;
    sum += x * w[o + i]! + y * w[o + h + i]!;
  }
  return Math.trunc(((sum + net.l2b[bucket]!) * net.scale) / (qa * net.qb));
};

