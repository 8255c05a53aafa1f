/**
 * Chess network inputs: 768 per perspective, (own/their, piece type, square), the square mirrored
 * vertically for black so that each side sees its pieces moving "up" (the usual 768 encoding).
 *
 * Pieces are addressed by a code `piece * 64 + square` (piece = the fast board's `colour << 3 | type`,
 * square a1 = 0); `CHESS_FEATURE_OF[perspective * 1024 + code]` is the feature index.
 */
export const CHESS_FEATURES_COUNT = 768;

/** Feature of piece code (colour << 3 | type) on square (a1 = 0) for perspective (0 white, 1 black). */
export const chessFeature = (perspective: number, piece: number, sq: number): number => {
  const color = piece >> 3;
  const type = piece & 7;
  const rel = perspective === 0 ? sq : sq ^ 56;
  return ((color === perspective ? 0 : 6) + type - 1) * 64 + rel;
};

export const CHESS_FEATURE_OF: Int32Array = (() => {
  const t = new Int32Array(2 * 1024).fill(-1);
  for (let p = 0; p < 2; p++)
    for (let color = 0; color < 2; color++)
      for (let type = 1; type <= 6; type++)
        for (let sq = 0; sq < 64; sq++) t[p * 1024 + ((color << 3) | type) * 64 + sq] = chessFeature(p, (color << 3) | type, sq);
  return t;
})();
