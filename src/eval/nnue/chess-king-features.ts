/**
 * The king-relative chess input set `king-bucket-4`: a perspective's 768 piece-square features
 * (chess-features.ts) mirrored a <-> h when its OWN king stands on files e-h, and repeated for 4
 * buckets of that king's square (from its own side, after the mirroring):
 *
 * | own king | bucket |
 * |---|---|
 * | rank 1, files a-b | 0 |
 * | rank 1, files c-d | 1 |
 * | rank 2 | 2 |
 * | ranks 3-8 | 3 |
 *
 * Horizontal mirroring and a few king buckets are the input sets of bullet's and most small-data
 * engines' nets (Stockfish's HalfKA with its 32 mirrored king squares is the large-data end): where
 * the king stands, castled short, long or walked out, changes what each piece is worth, and the
 * mirroring makes the position and its mirror image one input. The trainer learns the 768 shared
 * rows as a factoriser, so every bucket starts from what all positions teach.
 *
 * A perspective's "view" is `bucket * 2 + mirrored` (8 views); the feature of piece code c
 * (`piece * 64 + square`) in view v is `bucket * 768 + base feature of c`, its square's file
 * mirrored in mirrored views. Only a king move changes a view (chess-nnue.ts then rebuilds that
 * perspective). trainer/nnue_train.py (`--features king-bucket-4`) computes the same indices.
 */
import { CHESS_FEATURES_COUNT, chessFeature } from './chess-features.js';

export const CHESS_KB_BUCKETS = 4;
export const CHESS_KB_FEATURES_COUNT = CHESS_KB_BUCKETS * CHESS_FEATURES_COUNT;
export const CHESS_KB_VIEWS = 2 * CHESS_KB_BUCKETS;
/** Piece codes per perspective and view (`piece * 64 + square`, piece = colour << 3 | type). */
export const CHESS_CODES = 1024;

/** View of each own-king square relative to its perspective (a1 = 0 from its own side). */
const VIEW_OF_REL: Int8Array = (() => {
  const t = new Int8Array(64);
  for (let rel = 0; rel < 64; rel++) {
    const file = rel & 7;
    const rank = rel >> 3;
    const mirrored = file >= 4;
    const f = mirrored ? 7 - file : file;
    const bucket = rank === 0 ? (f < 2 ? 0 : 1) : rank === 1 ? 2 : 3;
    t[rel] = bucket * 2 + (mirrored ? 1 : 0);
  }
  return t;
})();

/** View of perspective p (0 white, 1 black) whose own king stands on square `king` (a1 = 0). */
export const chessKbView = (p: number, king: number): number => VIEW_OF_REL[p === 0 ? king : king ^ 56]!;

/** `CHESS_KB_FEATURE_OF[(p * CHESS_KB_VIEWS + view) * CHESS_CODES + code]`: feature row (-1: no such piece). */
export const CHESS_KB_FEATURE_OF: Int32Array = (() => {
  const t = new Int32Array(2 * CHESS_KB_VIEWS * CHESS_CODES).fill(-1);
  for (let p = 0; p < 2; p++) {
    for (let view = 0; view < CHESS_KB_VIEWS; view++) {
      const base = (view >> 1) * CHESS_FEATURES_COUNT;
      const flip = (view & 1) !== 0 ? 7 : 0;
      const dst = (p * CHESS_KB_VIEWS + view) * CHESS_CODES;
      for (let color = 0; color < 2; color++)
        for (let type = 1; type <= 6; type++)
          for (let sq = 0; sq < 64; sq++) t[dst + ((color << 3) | type) * 64 + sq] = base + chessFeature(p, (color << 3) | type, sq ^ flip);
    }
  }
  return t;
})();
