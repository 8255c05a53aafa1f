/**
 * Shogi features of the linear evaluation (feature set `shogi-linear-1`, about 1330 features, about
 * 100-150 active per position): material on the board and in hand, piece-square tables, promoted
 * pieces (own material and table entries), king safety and mobility.
 *
 * Every feature is counted from black's (sente's) view: a black piece adds +v to its feature, a
 * white piece adds -v to the feature of the square rotated by 180 degrees, so one weight serves
 * both sides and H(s) = phi(s)^T theta is sente's score in centipawns (a pawn = 100).
 *
 * Groups:
 *   material.{pawn..dragon}                      pieces on the board (13 types, no king), count(b) - count(w)
 *   hand.{pawn..rook}                            pieces in hand, count(b) - count(w)
 *   hand.{type}.ge{k}                            [black holds >= k] - [white holds >= k] (diminishing returns)
 *   pst.{pawn..dragon,king}.{9a..1i}             one per piece on the board, from its owner's side
 *   king.near.{own,enemy}.{type}                 pieces within two squares (Chebyshev) of each king
 *   king.attacked.{0..8}, king.escape.{0..8}     adjacent squares attacked by the enemy / free and safe
 *   mobility.{lance,bishop,rook,horse,dragon}.{k} one-hot number of reachable squares
 *   tempo                                        +1 black to move, -1 white to move
 */
import type { FastShogiBoard } from '../../games/shogi/fast/board.js';
import * as piecesModule from '../../games/shogi/fast/pieces.js';
import * as squaresModule from '../../games/shogi/fast/squares.js';
import { FeatureRegistry, type FeatureSet } from './feature-registry.js';
import type { FeatureSink } from './sparse.js';

// Imported constants copied into module scope: under vitest's module transform every use of an
// import is a property read through a getter, several times slower in the hot loops.
const { BISHOP, BLACK, BLACK_BIT, DRAGON, GOLD, HORSE, KING, LANCE, PAWN, ROOK, WHITE_BIT } = piecesModule;
const { DIRS, SQUARES, TO_81, squareName } = squaresModule;

export const SHOGI_FEATURE_SET_VERSION = 'shogi-linear-1';

/** Feature names of the board piece types, indexed by type (1..14). */
export const SHOGI_TYPE_NAMES = [
  '',
  'pawn',
  'lance',
  'knight',
  'silver',
  'bishop',
  'rook',
  'gold',
  'king',
  'tokin',
  'prolance',
  'proknight',
  'prosilver',
  'horse',
  'dragon',
];
/** The 13 non-king board types in feature order. */
const BOARD_TYPES = [1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14];
/** Feature slot (0..12) of each non-king type; -1 for the king. */
const SLOT_OF = new Int8Array(16).fill(-1);
BOARD_TYPES.forEach((t, i) => (SLOT_OF[t] = i));
/** Hand types 1..7 and the most of each a side can hold. */
const HAND_MAX = [0, 18, 4, 4, 4, 2, 2, 4];
/** Mobility groups: type -> maximum. */
const MOB_TYPES = [LANCE, BISHOP, ROOK, HORSE, DRAGON];
const MOB_MAX = [8, 16, 16, 20, 20];

const reg = new FeatureRegistry();
const F_MATERIAL = reg.group('material', 13, (i) => SHOGI_TYPE_NAMES[BOARD_TYPES[i]!]!);
const F_HAND = reg.group('hand', 7, (i) => SHOGI_TYPE_NAMES[i + 1]!);
/** hand.<type>.ge<k>: F_HAND_GE[type] + k - 1. */
const F_HAND_GE = [0, 0, 0, 0, 0, 0, 0, 0];
for (let t = PAWN; t <= GOLD; t++) F_HAND_GE[t] = reg.group(`hand.${SHOGI_TYPE_NAMES[t]}`, HAND_MAX[t]!, (k) => `ge${k + 1}`);
/** pst.<type>.<square>: F_PST + (type - 1) * 81 + dense square from the owner's side. */
const F_PST = reg.group('pst', 14 * 81, (i) => `${SHOGI_TYPE_NAMES[Math.floor(i / 81) + 1]}.${squareName(SQUARES[i % 81]!)}`);
const F_NEAR_OWN = reg.group('king.near.own', 13, (i) => SHOGI_TYPE_NAMES[BOARD_TYPES[i]!]!);
const F_NEAR_ENEMY = reg.group('king.near.enemy', 13, (i) => SHOGI_TYPE_NAMES[BOARD_TYPES[i]!]!);
const F_KING_ATTACKED = reg.group('king.attacked', 9);
const F_KING_ESCAPE = reg.group('king.escape', 9);
const F_MOB = new Int32Array(16);
MOB_TYPES.forEach((t, i) => (F_MOB[t] = reg.group(`mobility.${SHOGI_TYPE_NAMES[t]}`, MOB_MAX[i]! + 1)));
const F_TEMPO = reg.single('tempo');

/** Index of `material.<type>` (board type, not the king). */
export const shogiMaterialFeature = (type: number): number => F_MATERIAL + SLOT_OF[type]!;
/** Index of `hand.<type>` (1..7). */
export const shogiHandFeature = (type: number): number => F_HAND + type - 1;

/** NEAR[TO_81[sq] * 24 + j]: the squares within Chebyshev distance 2 of `sq` (the 5x5 block), -1 off the board. */
const NEAR = new Int16Array(81 * 24).fill(-1);
for (let i = 0; i < 81; i++) {
  const r = Math.floor(i / 9);
  const c = i % 9;
  let j = 0;
  for (let dr = -2; dr <= 2; dr++) {
    for (let dc = -2; dc <= 2; dc++) {
      if (dr === 0 && dc === 0) continue;
      const rr = r + dr;
      const cc = c + dc;
      if (rr >= 0 && rr < 9 && cc >= 0 && cc < 9) NEAR[i * 24 + j] = SQUARES[rr * 9 + cc]!;
      j++;
    }
  }
}

/**
 * Appends phi(s). `board` cells: 0 empty, 48 wall, else colour bit | type.
 */
const extractShogi = (board: FastShogiBoard, out: FeatureSink): void => {
  const b = board.board;
  // 1. Pieces on the board: material, piece-square tables, mobility of the long-range pieces.
  for (let i = 0; i < 81; i++) {
    const sq = SQUARES[i]!;
    const p = b[sq]!;
    if (p === 0) continue;
    const t = p & 15;
    const black = (p & 48) === BLACK_BIT;
    const sign = black ? 1 : -1;
    if (t !== KING) out.add(F_MATERIAL + SLOT_OF[t]!, sign);
    out.add(F_PST + (t - 1) * 81 + (black ? i : 80 - i), sign);
    if (t === LANCE || t === BISHOP || t === ROOK || t === HORSE || t === DRAGON) {
      const own = p & 48;
      let mob = 0;
      if (t === LANCE) {
        const d = black ? -10 : 10;
        for (let s = sq + d; ; s += d) {
          const q = b[s]!;
          if (q === 0) mob++;
          else {
            if ((q & 48) !== own && q !== 48) mob++;
            break;
          }
        }
      } else {
        const first = t === BISHOP || t === HORSE ? 1 : 0;
        for (let k = first; k < 8; k += 2) {
          const d = DIRS[k]!;
          for (let s = sq + d; ; s += d) {
            const q = b[s]!;
            if (q === 0) mob++;
            else {
              if ((q & 48) !== own && q !== 48) mob++;
              break;
            }
          }
        }
        if (t > KING) {
          // Horse and dragon also step one square in the other four directions.
          for (let k = 1 - first; k < 8; k += 2) {
            const q = b[sq + DIRS[k]!]!;
            if (q === 0 || ((q & 48) !== own && q !== 48)) mob++;
          }
        }
      }
      out.add(F_MOB[t]! + mob, sign);
    }
  }
  // 2. Hands.
  const h = board.hands;
  for (let t = PAWN; t <= GOLD; t++) {
    const nb = h[t]!;
    const nw = h[8 + t]!;
    if (nb !== nw) out.add(F_HAND + t - 1, nb - nw);
    const base = F_HAND_GE[t]! - 1;
    const hi = nb > nw ? nb : nw;
    for (let k = 1; k <= hi; k++) out.add(base + k, (nb >= k ? 1 : 0) - (nw >= k ? 1 : 0));
  }
  // 3. King safety, per king.
  for (let side = 0; side < 2; side++) {
    const k = board.kingSq[side]!;
    if (k < 0) continue;
    const sign = side === BLACK ? 1 : -1;
    const own = side === BLACK ? BLACK_BIT : WHITE_BIT;
    const enemy = own ^ 48;
    const nb = TO_81[k]! * 24;
    for (let j = nb; j < nb + 24; j++) {
      const s = NEAR[j]!;
      if (s < 0) continue;
      const q = b[s]!;
      if (q === 0) continue;
      const t = q & 15;
      if (t === KING) continue;
      out.add(((q & 48) === own ? F_NEAR_OWN : F_NEAR_ENEMY) + SLOT_OF[t]!, sign);
    }
    let attacked = 0;
    let escape = 0;
    for (let d = 0; d < 8; d++) {
      const s = k + DIRS[d]!;
      const q = b[s]!;
      if (q === 48) continue;
      const hit = board.attacked(s, enemy);
      if (hit) attacked++;
      else if ((q & 48) !== own) escape++;
    }
    out.add(F_KING_ATTACKED + attacked, sign);
    out.add(F_KING_ESCAPE + escape, sign);
  }
  out.add(F_TEMPO, board.turn === BLACK ? 1 : -1);
};

/** The shogi feature set. */
export const SHOGI_FEATURES: FeatureSet<FastShogiBoard> = reg.build('shogi', SHOGI_FEATURE_SET_VERSION, extractShogi);
