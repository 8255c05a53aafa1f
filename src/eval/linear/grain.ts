/**
 * The grain of the linear evaluation: H(s) rounded to a multiple of `grain` centipawns before the
 * search sees it (Stockfish's classical evaluation did the same). Alpha-beta at a fixed budget
 * searches much smaller trees when many positions score the same (more cut-offs, fewer
 * re-searches): with the material-only weights, whose scores are multiples of 100, Kishi completes
 * depth 5-6 at 3000 nodes in chess openings, and only depth 3-5 once the weights carry a few
 * centipawns of positional detail. A coarse grain keeps part of that speed and drops differences
 * too small to matter. Learning (phi(s) . theta) is never rounded.
 *
 * The grain belongs to a set of weights: a weights file may name it (`manifest.evalGrain`, see
 * weights.ts), and the loader attaches it to the theta array it returns, so every evaluation built
 * on that array uses it. Weights without one (the material files, weights made in memory) keep
 * grain 1: the search's own rounding to whole centipawns, as before.
 * Pure.
 */

/** The grain the learned weights ship with, centipawns: it divides every material value (chess 100..900, shogi multiples of 50), so material-only scores stay exact. */
export const EVAL_GRAIN = 10;

const grains = new WeakMap<Float64Array, number>();

/** Attaches a grain to a theta array (1 or less: none). */
export const setThetaGrain = (theta: Float64Array, grain: number): void => {
  if (grain > 1) grains.set(theta, grain);
  else grains.delete(theta);
};

/** The grain attached to a theta array, 1 when none. */
export const thetaGrain = (theta: Float64Array): number => grains.get(theta) ?? 1;

/** `value` rounded to the nearest multiple of `grain` (grain <= 1: returned unchanged). */
export const toGrain = (value: number, grain: number): number => (grain > 1 ? Math.round(value / grain) * grain : value);
