/**
 * The king-relative shogi input set `king-bucket-9` (HalfKP-style, coarsened): a perspective's
 * board-hand features (shogi-features.ts) repeated for 9 buckets of its OWN king's square, and
 * mirrored left-right when that king stands right of the centre file (file 1-4 side from its own
 * view), so the buckets cover one half of the board. HalfKP (Nasu's NNUE, YaneuraOu's
 * halfkp_256x2-32-32) uses all 81 king squares; with about a million training positions most of its
 * 81 x 1548 rows would rarely be seen, so the king squares are grouped by where castles stand:
 *
 * | rank from own side | files 9-8 / 1-2 | files 7-6 / 3-4 | file 5 |
 * |---|---|---|---|
 * | 1 (own back rank) | bucket 0 | 1 | 2 |
 * | 2 | 3 | 4 | 5 |
 * | 3 and beyond | 6 | 7 | 8 |
 *
 * A perspective's "view" is `bucket * 2 + mirrored` (18 views; file 5 is never mirrored); the
 * feature of piece code c in view v is `bucket * 2344 + board-hand feature of c` with the square
 * mirrored in mirrored views. Only a king move changes a view (the accumulator stack then rebuilds
 * that perspective). trainer/nnue_train.py (`--features king-bucket-9`) computes the same indices.
 */
import { SHOGI_BOARD_FEATURES, SHOGI_CODES, SHOGI_FEATURE_OF, SHOGI_FEATURES_COUNT } from './shogi-features.js';

export const SHOGI_KB_BUCKETS = 9;
export const SHOGI_KB_FEATURES_COUNT = SHOGI_KB_BUCKETS * SHOGI_FEATURES_COUNT;
export const SHOGI_KB_VIEWS = 2 * SHOGI_KB_BUCKETS;
/** Relative square (own side's view, dense SFEN order) assumed for a perspective without a king: 5i. */
const NO_KING_REL = 76;

/** View of each own-king square relative to its perspective (row 8 = own back rank). */
const VIEW_OF_REL: Int8Array = (() => {
  const t = new Int8Array(81);
  for (let rel = 0; rel < 81; rel++) {
    const r = Math.floor(rel / 9);
    const c = rel % 9;
    const m = Math.min(c, 8 - c);
    const rz = r === 8 ? 0 : r === 7 ? 1 : 2;
    const mz = m <= 1 ? 0 : m <= 3 ? 1 : 2;
    t[rel] = (rz * 3 + mz) * 2 + (c > 4 ? 1 : 0);
  }
  return t;
})();

/** View of perspective p (0 black, 1 white) whose own king stands on dense square `king81` (-1: none). */
export const shogiKbView = (p: number, king81: number): number => VIEW_OF_REL[king81 < 0 ? NO_KING_REL : p === 0 ? king81 : 80 - king81]!;

/** A board-hand feature mirrored left-right (hand features are unchanged). */
const mirrorFeature = (f: number): number => {
  if (f >= SHOGI_BOARD_FEATURES) return f;
  const rel = f % 81;
  return f - rel + (rel - (rel % 9)) + 8 - (rel % 9);
};

/** `SHOGI_KB_FEATURE_OF[(p * SHOGI_KB_VIEWS + view) * SHOGI_CODES + code]`: feature row (-1: never occurs). */
export const SHOGI_KB_FEATURE_OF: Int32Array = (() => {
  const t = new Int32Array(2 * SHOGI_KB_VIEWS * SHOGI_CODES).fill(-1);
  for (let p = 0; p < 2; p++) {
    for (let view = 0; view < SHOGI_KB_VIEWS; view++) {
      const bucket = view >> 1;
      const mirrored = (view & 1) !== 0;
      const dst = (p * SHOGI_KB_VIEWS + view) * SHOGI_CODES;
      for (let code = 0; code < SHOGI_CODES; code++) {
        const f = SHOGI_FEATURE_OF[p * SHOGI_CODES + code]!;
        if (f >= 0) t[dst + code] = bucket * SHOGI_FEATURES_COUNT + (mirrored ? mirrorFeature(f) : f);
      }
    }
  }
  return t;
})();
