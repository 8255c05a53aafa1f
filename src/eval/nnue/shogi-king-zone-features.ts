/**
 * The shogi input set `king-zone`: the 2344 base features (shogi-features.ts) plus, per perspective,
 * every piece (either side's, 14 types) standing in the 5x5 zone around that perspective's OWN king,
 * by its offset from the king (24 offsets, the board turned for white as in the base set): 2344 +
 * 2 x 14 x 24 = 3016 features. Additive, unlike HalfKP's king x piece-square product
 * (shogi-king-features.ts), so it adds 672 rows instead of multiplying them: castle shapes, attackers
 * and defenders next to the king, learnt from every position. A piece code has a base row and, in
 * the zone, a zone row; a perspective's "view" is its own king's square (81 views), so every king
 * move changes the mover's view (shogi-nnue.ts then swaps the zone rows around the old and new king
 * squares instead of rebuilding the accumulator). trainer/nnue_train.py (`--features king-zone`) computes
 * the same indices.
 */
import { SHOGI_CODES, SHOGI_FEATURE_OF, SHOGI_FEATURES_COUNT, SHOGI_HAND_CODE_BASE } from './shogi-features.js';

/** Offsets in the zone (5 x 5 less the king's own square). */
const ZONE_OFFSETS = 24;
export const SHOGI_KZ_FEATURES_COUNT = SHOGI_FEATURES_COUNT + 2 * 14 * ZONE_OFFSETS;
export const SHOGI_KZ_VIEWS = 81;
/** Relative square (own side's view) assumed for a perspective without a king: 5i. */
const NO_KING_REL = 76;

/** View of perspective p whose own king stands on dense square `king81` (-1: none): the relative square. */
export const shogiKzView = (p: number, king81: number): number => (king81 < 0 ? NO_KING_REL : p === 0 ? king81 : 80 - king81);

/** Zone row of a piece (side, type 1..14) on relative square `rel` for a king on relative square `k`; -1 outside. */
const zoneFeature = (own: boolean, type: number, rel: number, k: number): number => {
  const dr = Math.floor(rel / 9) - Math.floor(k / 9);
  const dc = (rel % 9) - (k % 9);
  if (dr < -2 || dr > 2 || dc < -2 || dc > 2 || (dr === 0 && dc === 0)) return -1;
  let o = (dr + 2) * 5 + dc + 2;
  if (o > 12) o--;
  return SHOGI_FEATURES_COUNT + ((own ? 0 : 14) + type - 1) * ZONE_OFFSETS + o;
};

/** `SHOGI_KZ_BASE_OF[(p * 81 + view) * SHOGI_CODES + code]`: the base row (the same in every view). */
export const SHOGI_KZ_BASE_OF: Int32Array = (() => {
  const t = new Int32Array(2 * SHOGI_KZ_VIEWS * SHOGI_CODES);
  for (let p = 0; p < 2; p++) for (let v = 0; v < SHOGI_KZ_VIEWS; v++) t.set(SHOGI_FEATURE_OF.subarray(p * SHOGI_CODES, (p + 1) * SHOGI_CODES), (p * SHOGI_KZ_VIEWS + v) * SHOGI_CODES);
  return t;
})();

/** `SHOGI_KZ_ZONE_OF[(p * 81 + view) * SHOGI_CODES + code]`: the zone row, -1 when the piece is outside the zone (or in hand). */
export const SHOGI_KZ_ZONE_OF: Int32Array = (() => {
  const t = new Int32Array(2 * SHOGI_KZ_VIEWS * SHOGI_CODES).fill(-1);
  for (let p = 0; p < 2; p++) {
    for (let k = 0; k < SHOGI_KZ_VIEWS; k++) {
      const dst = (p * SHOGI_KZ_VIEWS + k) * SHOGI_CODES;
      for (let code = 0; code < SHOGI_HAND_CODE_BASE; code++) {
        const side = Math.floor(code / (16 * 81));
        const type = Math.floor(code / 81) % 16;
        if (type < 1 || type > 14) continue;
        const sq = code % 81;
        t[dst + code] = zoneFeature(side === p, type, p === 0 ? sq : 80 - sq, k);
      }
    }
  }
  return t;
})();
