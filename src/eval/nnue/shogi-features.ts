/**
 * Shogi network inputs per perspective: board piece-square (own/their x 14 types x 81 squares, the
 * board turned 180 degrees for white) plus hand counts as "at least k" features (own/their x pawn
 * 1..18, lance, knight, silver, gold 1..4, bishop, rook 1..2): 2268 + 76 = 2344.
 *
 * Codes: a board piece is `(side * 16 + type) * 81 + square` (side 0 black, 1 white; type 1..14;
 * square dense SFEN order 0..80), below `SHOGI_HAND_CODE_BASE`; the k-th piece of hand type t
 * (1..7) of side s is `SHOGI_HAND_CODE_BASE + (s * 8 + t) * 19 + k`. `SHOGI_FEATURE_OF[p *
 * SHOGI_CODES + code]` is the feature index (-1 for a code that never occurs).
 */
export const SHOGI_BOARD_FEATURES = 2 * 14 * 81;
/** Maximum pieces of each hand type 1..7 (pawn, lance, knight, silver, bishop, rook, gold). */
export const HAND_MAX = [0, 18, 4, 4, 4, 2, 2, 4];
const HAND_OFFSET = [0, 0, 18, 22, 26, 30, 32, 34];
export const HAND_FEATURES_PER_SIDE = 38;
export const SHOGI_FEATURES_COUNT = SHOGI_BOARD_FEATURES + 2 * HAND_FEATURES_PER_SIDE;
export const SHOGI_HAND_CODE_BASE = 32 * 81;
export const SHOGI_CODES = SHOGI_HAND_CODE_BASE + 16 * 19;

/** Feature of a board piece (side, type 1..14, dense square) for a perspective. */
export const shogiBoardFeature = (perspective: number, side: number, type: number, sq: number): number => {
  const rel = perspective === 0 ? sq : 80 - sq;
  return ((side === perspective ? 0 : 14) + type - 1) * 81 + rel;
};

/** Feature of the k-th (1-based) piece of hand type t of `side` for a perspective. */
export const shogiHandFeature = (perspective: number, side: number, t: number, k: number): number =>
  SHOGI_BOARD_FEATURES + (side === perspective ? 0 : HAND_FEATURES_PER_SIDE) + HAND_OFFSET[t]! + k - 1;

export const SHOGI_FEATURE_OF: Int32Array = (() => {
  const t = new Int32Array(2 * SHOGI_CODES).fill(-1);
  for (let p = 0; p < 2; p++) {
    for (let side = 0; side < 2; side++) {
      for (let type = 1; type <= 14; type++) for (let sq = 0; sq < 81; sq++) t[p * SHOGI_CODES + (side * 16 + type) * 81 + sq] = shogiBoardFeature(p, side, type, sq);
      for (let ht = 1; ht <= 7; ht++) for (let k = 1; k <= HAND_MAX[ht]!; k++) t[p * SHOGI_CODES + SHOGI_HAND_CODE_BASE + (side * 8 + ht) * 19 + k] = shogiHandFeature(p, side, ht, k);
    }
  }
  return t;
})();
