/**
 * How each piece moves, as tables indexed by board cell value (pieces.ts), for move generation
 * and attack detection on the mailbox board (squares.ts).
 *
 * Directions are the indices of `DIRS`; white's moves are black's rotated by 180 degrees
 * (`d ^ 4`), which is the same as mirroring because every shogi piece is left-right symmetric.
 */
import {
  BISHOP,
  BLACK_BIT,
  DRAGON,
  GOLD,
  HORSE,
  KING,
  KNIGHT,
  LANCE,
  PAWN,
  PRO_KNIGHT,
  PRO_LANCE,
  PRO_PAWN,
  PRO_SILVER,
  ROOK,
  SILVER,
  WHITE_BIT,
} from './pieces.js';
import { DIRS } from './squares.js';

/** Black's one-step directions per piece type (slides excluded). */
const BLACK_STEPS: Record<number, readonly number[]> = {
  [PAWN]: [0],
  [SILVER]: [0, 1, 7, 3, 5],
  [GOLD]: [0, 1, 7, 2, 6, 4],
  [PRO_PAWN]: [0, 1, 7, 2, 6, 4],
  [PRO_LANCE]: [0, 1, 7, 2, 6, 4],
  [PRO_KNIGHT]: [0, 1, 7, 2, 6, 4],
  [PRO_SILVER]: [0, 1, 7, 2, 6, 4],
  [KING]: [0, 1, 2, 3, 4, 5, 6, 7],
  [HORSE]: [0, 2, 4, 6],
  [DRAGON]: [1, 3, 5, 7],
};
/** Black's sliding directions per piece type. */
const BLACK_SLIDES: Record<number, readonly number[]> = {
  [LANCE]: [0],
  [BISHOP]: [1, 3, 5, 7],
  [ROOK]: [0, 2, 4, 6],
  [HORSE]: [1, 3, 5, 7],
  [DRAGON]: [0, 2, 4, 6],
};
/** Knight jumps of black: two ranks up, one file either way. */
const BLACK_KNIGHT = [-21, -19];

/**
 * Bit `d` set when the piece reaches the adjacent square in direction `d` (steps and the first
 * square of slides). Knights are not included.
 */
export const NEAR_ATTACKS: Uint8Array = new Uint8Array(64);
/** Bit `d` set when the piece slides in direction `d`. */
export const SLIDE_ATTACKS: Uint8Array = new Uint8Array(64);

/**
 * Non-sliding moves of each piece code for generation, flattened: entries
 * `STEP_BEGIN[code] .. STEP_END[code]` of `STEP_OFFSET` (square offset) and `STEP_LINE` (direction
 * index & 3, the line it moves along, or 4 for a knight jump, which no pin line allows).
 */
export const STEP_BEGIN: Int32Array = new Int32Array(64);
export const STEP_END: Int32Array = new Int32Array(64);
export const STEP_OFFSET: Int32Array = new Int32Array(64 * 8);
export const STEP_LINE: Int32Array = new Int32Array(64 * 8);
/** Sliding directions of each piece code, flattened like the steps into `SLIDE_DIR`. */
export const SLIDE_BEGIN: Int32Array = new Int32Array(64);
export const SLIDE_END: Int32Array = new Int32Array(64);
export const SLIDE_DIR: Int32Array = new Int32Array(64 * 4);

{
  let steps = 0;
  let slides = 0;
  for (const bit of [BLACK_BIT, WHITE_BIT]) {
    const flip = bit === BLACK_BIT ? 0 : 4;
    for (let type = 1; type <= 14; type++) {
      const code = bit | type;
      STEP_BEGIN[code] = steps;
      for (const d0 of BLACK_STEPS[type] ?? []) {
        const d = d0 ^ flip;
        NEAR_ATTACKS[code]! |= 1 << d;
        STEP_OFFSET[steps] = DIRS[d]!;
        STEP_LINE[steps] = d & 3;
        steps++;
      }
      if (type === KNIGHT) {
        for (const off of BLACK_KNIGHT) {
          STEP_OFFSET[steps] = flip === 0 ? off : -off;
          STEP_LINE[steps] = 4;
          steps++;
        }
      }
      STEP_END[code] = steps;
      SLIDE_BEGIN[code] = slides;
      for (const d0 of BLACK_SLIDES[type] ?? []) {
        const d = d0 ^ flip;
        NEAR_ATTACKS[code]! |= 1 << d;
        SLIDE_ATTACKS[code]! |= 1 << d;
        SLIDE_DIR[slides++] = d;
      }
      SLIDE_END[code] = slides;
    }
  }
}
