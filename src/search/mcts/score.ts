/**
 * Reporting MCTS values in engine-protocol units: a Q in [-1, 1] as centipawns, with Lc0's
 * mapping `cp = 111.714640912 * tan(1.5620688421 * q)` (0.5 -> about 110 cp, 0.9 -> about 700 cp),
 * and as a winrate.
 */

/** Largest magnitude reported, below the mate scores protocols reserve. */
const CP_LIMIT = 20000;
/** Lc0's constants: `cp = SCALE * tan(SLOPE * q)`. */
const SCALE = 111.714640912;
const SLOPE = 1.5620688421;

/** Centipawns for a Q in [-1, 1] (side to move's view). */
export const qToCentipawns = (q: number): number => {
  const cp = SCALE * Math.tan(SLOPE * Math.max(-1, Math.min(1, q)));
  return Math.round(Math.max(-CP_LIMIT, Math.min(CP_LIMIT, cp)));
};

/** The inverse: the Q in [-1, 1] of a centipawn score. */
export const centipawnsToQ = (cp: number): number => Math.atan(cp / SCALE) / SLOPE;
