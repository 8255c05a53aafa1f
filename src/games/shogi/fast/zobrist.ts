/**
 * Zobrist keys of the internal shogi board, as two 32-bit halves (JS has no fast 64-bit ints).
 *
 * Keys are fixed (a seeded generator), so hashes are reproducible between runs and processes.
 * Hands are hashed by count: `HAND_*[(side * 8 + type) * HAND_SLOTS + count]`, and count 0 has key
 * 0, so an empty hand adds nothing and a capture or drop XORs out the old count and in the new.
 */
import { BOARD_SIZE } from './squares.js';

/** Number of hand counts with a key (0..18: at most 18 pawns exist). */
export const HAND_SLOTS = 19;

/** splitmix32: small, fast, good enough for key generation. */
const makeRng = (seed: number): (() => number) => {
  let s = seed | 0;
  return () => {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) | 0;
  };
};

const rng = makeRng(0x4b495348); // "KISH"

/** Key of a piece (board cell value 0..63) on a square: `PIECE_*[code * BOARD_SIZE + square]`. */
export const PIECE_HI: Int32Array = new Int32Array(64 * BOARD_SIZE);
export const PIECE_LO: Int32Array = new Int32Array(64 * BOARD_SIZE);
/** Key of a hand count, see the module comment. */
export const HAND_HI: Int32Array = new Int32Array(2 * 8 * HAND_SLOTS);
export const HAND_LO: Int32Array = new Int32Array(2 * 8 * HAND_SLOTS);
/** XORed in when white is to move. */
export const SIDE_HI: number = rng();
export const SIDE_LO: number = rng();

for (let i = 0; i < PIECE_HI.length; i++) {
  PIECE_HI[i] = rng();
  PIECE_LO[i] = rng();
}
for (let i = 0; i < HAND_HI.length; i++) {
  if (i % HAND_SLOTS === 0) continue;
  HAND_HI[i] = rng();
  HAND_LO[i] = rng();
}
