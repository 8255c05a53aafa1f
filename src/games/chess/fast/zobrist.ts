/**
 * Zobrist keys of the internal chess board, as pairs of 32-bit halves (`lo`, `hi`) so that the
 * hot path never touches BigInt. Keys come from a fixed-seed generator, so hashes are stable
 * across runs and processes (transposition tables and tests can rely on exact values).
 */

/** splitmix32-style generator: deterministic 32-bit words from a seed. */
const makeRandom = (seed: number): (() => number) => {
  let state = seed | 0;
  return () => {
    state = (state + 0x9e3779b9) | 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) | 0;
  };
};

const random = makeRandom(0x4b697368); // "Kish"

const fill = (n: number): Int32Array => {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = random();
  return a;
};

/** Piece-square keys, indexed by `piece * 64 + square` (piece code 0..15, square 0..63). Piece 0 and 7/8/15 are unused. */
export const Z_PIECE_LO = fill(16 * 64);
export const Z_PIECE_HI = fill(16 * 64);
/** Key xored in when black is to move. */
export const Z_SIDE_LO = random();
export const Z_SIDE_HI = random();
/** Castling keys indexed by the 4-bit castling-rights mask (entry 0 is zero). */
export const Z_CASTLE_LO = fill(16);
export const Z_CASTLE_HI = fill(16);
Z_CASTLE_LO[0] = 0;
Z_CASTLE_HI[0] = 0;
/** En passant keys by file (0..7). */
export const Z_EP_LO = fill(8);
export const Z_EP_HI = fill(8);
