/**
 * Precomputed 0x88 tables for the internal move generator.
 *
 * The board is a 0x88 mailbox: square `rank * 16 + file`; a square is off the board when
 * `sq & 0x88` is non-zero. The difference of two on-board squares lies in -119..119, so tables
 * indexed by `to - from + 119` tell which pieces can attack along that vector (ATTACK) and the
 * unit step of the ray (STEP), as in many 0x88 engines (see chessprogramming.org, "0x88").
 */
import { KING, KNIGHT, PAWN } from './piece.js';

/** Converts a 0..63 square (a1 = 0) to its 0x88 square. */
export const to88 = (sq: number): number => sq + (sq & 56);
/** Converts a 0x88 square to its 0..63 square. */
export const to64 = (sq: number): number => (sq + (sq & 7)) >> 1;

/** Diagonal steps (indices 0-3) then orthogonal steps (4-7). */
export const DIRS = Int8Array.from([15, 17, -15, -17, 1, -1, 16, -16]);
/** Knight steps. */
export const KNIGHT_STEPS = Int8Array.from([14, 18, 31, 33, -14, -18, -31, -33]);

// ATTACK bits: which attacker class can hit `to` from `from` on an empty board.
/** ATTACK bit: a white pawn on `from` attacks `to`. */
export const ATT_WHITE_PAWN = 1;
/** ATTACK bit: a black pawn on `from` attacks `to`. */
export const ATT_BLACK_PAWN = 2;
/** ATTACK bit: knight. */
export const ATT_KNIGHT = 4;
/** ATTACK bit: bishop (if nothing stands between). */
export const ATT_BISHOP = 8;
/** ATTACK bit: rook (if nothing stands between). */
export const ATT_ROOK = 16;
/** ATTACK bit: queen (if nothing stands between). */
export const ATT_QUEEN = 32;
/** ATTACK bit: king. */
export const ATT_KING = 64;

/** ATTACK[to - from + 119]: ATT_* bits of the attackers that can reach `to` from `from`. */
export const ATTACK = new Uint8Array(240);
/** STEP[to - from + 119]: the unit ray step from `from` towards `to` when they share a line, else 0. */
export const STEP = new Int8Array(240);
/** ATT_OF_PIECE[piece code]: the ATTACK bit of that piece (pawns by colour). */
export const ATT_OF_PIECE = new Uint8Array(16);

const init = (): void => {
  for (let from = 0; from < 128; from++) {
    if (from & 0x88) continue;
    for (let k = 0; k < 8; k++) {
      const d = DIRS[k]!;
      const slider = k < 4 ? ATT_BISHOP : ATT_ROOK;
      for (let to = from + d, n = 1; !(to & 0x88); to += d, n++) {
        const i = to - from + 119;
        ATTACK[i] |= slider | ATT_QUEEN | (n === 1 ? ATT_KING : 0);
        if (n === 1 && (d === 15 || d === 17)) ATTACK[i] |= ATT_WHITE_PAWN;
        if (n === 1 && (d === -15 || d === -17)) ATTACK[i] |= ATT_BLACK_PAWN;
        STEP[i] = d;
      }
    }
    for (let k = 0; k < 8; k++) {
      const to = from + KNIGHT_STEPS[k]!;
      if (!(to & 0x88)) ATTACK[to - from + 119] |= ATT_KNIGHT;
    }
  }
  const byType = [0, 0, ATT_KNIGHT, ATT_BISHOP, ATT_ROOK, ATT_QUEEN, ATT_KING];
  for (let type = KNIGHT; type <= KING; type++) {
    ATT_OF_PIECE[type] = byType[type]!;
    ATT_OF_PIECE[8 | type] = byType[type]!;
  }
  ATT_OF_PIECE[PAWN] = ATT_WHITE_PAWN;
  ATT_OF_PIECE[8 | PAWN] = ATT_BLACK_PAWN;
};
init();
