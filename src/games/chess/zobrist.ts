/**
 * Zobrist keys for chess positions, built on Polyglot's random table (see polyglot-random.ts), so
 * that for standard chess `key()` is the Polyglot book key whenever the en passant rule below
 * agrees with Polyglot's.
 *
 * A key covers the board, the side to move, castling rights and the en passant square; it never
 * covers the move clocks. Keys are kept as two 32-bit halves (`hi`, `lo`) so that incremental
 * updates stay on small integers; `toBigInt` joins them for the `GameState.key()` interface.
 *
 * Two conventions differ from plain Polyglot, both so that equal keys mean "the same position" in
 * the sense of the repetition rule:
 *
 * - En passant: the file is included only when an en passant capture is actually legal
 *   (`legalEpSquare`). Polyglot includes it as soon as a pawn of the side to move stands next to
 *   the pushed pawn, even when that pawn is pinned; `polyglotKey` implements Polyglot's rule for
 *   book look-ups.
 * - Castling: a right is keyed by colour and side (a-side = long, h-side = short), as Polyglot
 *   does. In Chess960 that does not name the rook's file; within one game a castling rook never
 *   moves while it keeps its right, so equal keys still imply equal rights there (and the
 *   repetition check compares the rights themselves anyway).
 */
import type { Chess } from 'chessops/chess';
import { pawnAttacks } from 'chessops/attacks';
import type { Piece, Role, Square } from 'chessops/types';
import { opposite } from 'chessops/util';
import { POLYGLOT_RANDOM } from './polyglot-random.js';

const HI = new Int32Array(781);
const LO = new Int32Array(781);
for (let i = 0; i < 781; i++) {
  const v = POLYGLOT_RANDOM[i]!;
  HI[i] = Number(v >> 32n) | 0;
  LO[i] = Number(v & 0xffffffffn) | 0;
}

const ROLE_INDEX: Readonly<Record<Role, number>> = {
  pawn: 0,
  knight: 1,
  bishop: 2,
  rook: 3,
  queen: 4,
  king: 5,
};

const CASTLING_OFFSET = 768;
const EP_OFFSET = 772;
const TURN_OFFSET = 780;

/** A 64-bit key as two signed 32-bit halves. */
export interface KeyParts {
  hi: number;
  lo: number;
}

/** Index into the Polyglot table of `piece` standing on `square` (a1 = 0, as in chessops). */
export const pieceIndex = (piece: Piece, square: Square): number =>
  64 * (2 * ROLE_INDEX[piece.role] + (piece.color === 'white' ? 1 : 0)) + square;

/** Index of an en passant square (only its file matters). */
export const epIndex = (square: Square): number => EP_OFFSET + (square & 7);

/** Index of the side-to-move entry, XORed in when white is to move. */
export const TURN_INDEX = TURN_OFFSET;

/** XORs table entry `index` into `key` in place. */
export const xorEntry = (key: KeyParts, index: number): void => {
  key.hi ^= HI[index]!;
  key.lo ^= LO[index]!;
};

/** XORs the castling part of `pos` (its current rights) into `key` in place. */
export const xorCastling = (key: KeyParts, pos: Chess): void => {
  const rook = pos.castles.rook;
  if (rook.white.h !== undefined) xorEntry(key, CASTLING_OFFSET);
  if (rook.white.a !== undefined) xorEntry(key, CASTLING_OFFSET + 1);
  if (rook.black.h !== undefined) xorEntry(key, CASTLING_OFFSET + 2);
  if (rook.black.a !== undefined) xorEntry(key, CASTLING_OFFSET + 3);
};

/** Joins two 32-bit halves into an unsigned 64-bit bigint. */
export const toBigInt = (hi: number, lo: number): bigint =>
  (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);

/**
 * The en passant square of `pos` if a capture onto it is legal right now, else undefined.
 * (chessops keeps `epSquare` after every double push, capturable or not.)
 */
export const legalEpSquare = (pos: Chess): Square | undefined => {
  const ep = pos.epSquare;
  if (ep === undefined) return undefined;
  const capturers = pos.board.pieces(pos.turn, 'pawn').intersect(pawnAttacks(opposite(pos.turn), ep));
  if (capturers.isEmpty()) return undefined;
  const ctx = pos.ctx();
  for (const from of capturers) {
    if (pos.dests(from, ctx).has(ep)) return ep;
  }
  return undefined;
};

const keyWithoutEp = (pos: Chess): KeyParts => {
  const key: KeyParts = { hi: 0, lo: 0 };
  for (const [square, piece] of pos.board) xorEntry(key, pieceIndex(piece, square));
  xorCastling(key, pos);
  if (pos.turn === 'white') xorEntry(key, TURN_INDEX);
  return key;
};

/** The key of `pos` computed from scratch (en passant only when legally capturable). */
export const zobristParts = (pos: Chess): KeyParts => {
  const key = keyWithoutEp(pos);
  const ep = legalEpSquare(pos);
  if (ep !== undefined) xorEntry(key, epIndex(ep));
  return key;
};

/** The key of `pos` computed from scratch, as a bigint. */
export const zobristKey = (pos: Chess): bigint => {
  const key = zobristParts(pos);
  return toBigInt(key.hi, key.lo);
};

/**
 * The exact Polyglot book key of `pos`: en passant counts whenever a pawn of the side to move
 * stands next to the pawn that just made a double push, legal capture or not.
 */
export const polyglotKey = (pos: Chess): bigint => {
  const key = keyWithoutEp(pos);
  const ep = pos.epSquare;
  if (ep !== undefined && pos.board.pieces(pos.turn, 'pawn').intersects(pawnAttacks(opposite(pos.turn), ep))) {
    xorEntry(key, epIndex(ep));
  }
  return toBigInt(key.hi, key.lo);
};
