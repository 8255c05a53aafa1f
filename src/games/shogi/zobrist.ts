/**
 * Zobrist keys for standard shogi: one 64-bit key per (colour, board role, square), one per
 * (colour, hand role, count) for the hands, and one for gote to move.
 *
 * Hands are hashed with count-indexed keys (the key of "3 pawns" replaces the key of "2 pawns"),
 * so a hand's contribution depends only on its contents; count 0 has key 0.
 * Keys come from splitmix64 with a fixed seed, so they are the same in every process.
 * Each 64-bit key is stored as two 32-bit halves so the incremental updates in play/undo are plain
 * number XORs; `toBigKey` joins the halves into the bigint the GameState interface returns.
 */
import type { Board } from 'shogiops/board';
import type { Hands } from 'shogiops/hands';
import type { Color, Role, Square } from 'shogiops/types';
import {
  BOARD_ROLES,
  HAND_ROLES,
  boardRoleIndex,
  colorIndex,
  denseIndex,
  handRoleIndex,
} from './pieces.js';

/** The seed of the key table ("KISHI-ZB" in ASCII). Changing it changes every key. */
export const ZOBRIST_SEED = 0x4b495348_492d5a42n;

const MASK64 = (1n << 64n) - 1n;
/** Counts 0..MAX_HAND_COUNT have keys; 18 pawns is the most any hand can hold. */
export const MAX_HAND_COUNT = 18;

const NUM_ROLES = BOARD_ROLES.length;
const NUM_HAND_ROLES = HAND_ROLES.length;

function splitmix64(seed: bigint): () => bigint {
  let state = seed & MASK64;
  return () => {
    state = (state + 0x9e3779b97f4a7c15n) & MASK64;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    return z ^ (z >> 31n);
  };
}

const next = splitmix64(ZOBRIST_SEED);
const fill = (hi: Int32Array, lo: Int32Array, i: number): void => {
  const k = next();
  hi[i] = Number(k >> 32n) | 0;
  lo[i] = Number(k & 0xffffffffn) | 0;
};

/** Board keys, index ((color * 14 + role) * 81 + dense square). */
export const PIECE_HI = new Int32Array(2 * NUM_ROLES * 81);
export const PIECE_LO = new Int32Array(2 * NUM_ROLES * 81);
/** Hand keys, index ((color * 7 + handRole) * 19 + count); count 0 stays 0. */
export const HAND_HI = new Int32Array(2 * NUM_HAND_ROLES * (MAX_HAND_COUNT + 1));
export const HAND_LO = new Int32Array(2 * NUM_HAND_ROLES * (MAX_HAND_COUNT + 1));
for (let i = 0; i < PIECE_HI.length; i++) fill(PIECE_HI, PIECE_LO, i);
for (let i = 0; i < HAND_HI.length; i++) {
  if (i % (MAX_HAND_COUNT + 1) !== 0) fill(HAND_HI, HAND_LO, i);
}
const sideKey = next();
/** XORed in when gote is to move. */
export const SIDE_HI = Number(sideKey >> 32n) | 0;
export const SIDE_LO = Number(sideKey & 0xffffffffn) | 0;

export const pieceKeyIndex = (color: Color, role: Role, sq: Square): number =>
  (colorIndex(color) * NUM_ROLES + boardRoleIndex(role)) * 81 + denseIndex(sq);

export const handKeyIndex = (color: Color, role: Role, count: number): number =>
  (colorIndex(color) * NUM_HAND_ROLES + handRoleIndex(role)) * (MAX_HAND_COUNT + 1) + count;

/** Joins two 32-bit halves into an unsigned 64-bit bigint. */
export const toBigKey = (hi: number, lo: number): bigint =>
  (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);

/** The key of a position computed from scratch, as [hi, lo]. */
export function computeKey(board: Board, hands: Hands, turn: Color): [number, number] {
  let hi = 0;
  let lo = 0;
  for (const [sq, piece] of board) {
    const i = pieceKeyIndex(piece.color, piece.role, sq);
    hi ^= PIECE_HI[i]!;
    lo ^= PIECE_LO[i]!;
  }
  for (const color of ['sente', 'gote'] as const) {
    const hand = hands.color(color);
    for (const role of HAND_ROLES) {
      const n = hand.get(role);
      if (n > 0) {
        const i = handKeyIndex(color, role, n);
        hi ^= HAND_HI[i]!;
        lo ^= HAND_LO[i]!;
      }
    }
  }
  if (turn === 'gote') {
    hi ^= SIDE_HI;
    lo ^= SIDE_LO;
  }
  return [hi, lo];
}
