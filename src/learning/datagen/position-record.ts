/**
 * The fixed-size records of `kishi datagen` (layout in README.md beside this file): one position,
 * its search score from the side to move's view and the game result from the same view.
 *
 * Chess records are 32 bytes in the spirit of marlinformat (occupancy bitboard plus one nibble per
 * piece); shogi records are 64 bytes (81-bit occupancy, 5-bit piece codes, hand counts). Castling
 * and en passant rights are not kept: the network's features do not see them.
 */
import { KishiError, Result } from '../../core/result.js';
import type { GameKind } from '../../core/game.js';

/** Record sizes by game, bytes. */
export const RECORD_BYTES: Readonly<Record<GameKind, number>> = { chess: 32, shogi: 64 };
/** Bytes of a record that describe the position (hashed for deduplication). */
export const POSITION_BYTES: Readonly<Record<GameKind, number>> = { chess: 25, shogi: 51 };

/** Game result from the side to move's view, as stored. */
export const RESULT_LOSS = 0;
export const RESULT_DRAW = 1;
export const RESULT_WIN = 2;

/** A decoded chess record. `pieces[sq]` (a1 = 0) is the internal piece code `color << 3 | type`, 0 empty. */
export interface ChessRecord {
  readonly pieces: Uint8Array;
  /** 0 white, 1 black. */
  readonly stm: number;
  readonly halfmove: number;
  readonly fullmove: number;
  readonly score: number;
  readonly result: number;
}

/** A decoded shogi record. `pieces[i]` (dense SFEN order, i = rank * 9 + column) is `sideBit(16|32) | type`, 0 empty. */
export interface ShogiRecord {
  readonly pieces: Uint8Array;
  /** `hands[side * 7 + type - 1]`, types 1..7 (pawn .. gold). */
  readonly hands: Uint8Array;
  /** 0 black (sente), 1 white. */
  readonly stm: number;
  readonly ply: number;
  readonly score: number;
  readonly result: number;
}

const clampScore = (s: number): number => Math.max(-32767, Math.min(32767, Math.round(s)));

/** Writes a chess record at `out[off..off+32)`. `pieces` as in `ChessRecord`. */
export const encodeChessRecord = (
  out: Uint8Array,
  off: number,
  pieces: ArrayLike<number>,
  stm: number,
  halfmove: number,
  fullmove: number,
  score: number,
  result: number,
): void => {
  out.fill(0, off, off + 32);
  let nib = 0;
  for (let sq = 0; sq < 64; sq++) {
    const p = pieces[sq]!;
    if (p === 0) continue;
    out[off + (sq >> 3)]! |= 1 << (sq & 7);
    if (nib >= 32) throw new Error('more than 32 pieces');
    out[off + 8 + (nib >> 1)]! |= (p & 15) << ((nib & 1) * 4);
    nib++;
  }
  out[off + 24] = stm;
  out[off + 25] = Math.min(255, halfmove);
  const fm = Math.min(65535, fullmove);
  out[off + 26] = fm & 255;
  out[off + 27] = fm >> 8;
  const s = clampScore(score);
  out[off + 28] = s & 255;
  out[off + 29] = (s >> 8) & 255;
  out[off + 30] = result;
};

const readI16 = (b: Uint8Array, o: number): number => ((b[o]! | (b[o + 1]! << 8)) << 16) >> 16;

/** Decodes the chess record at `off`; `ERR_RECORD` for a piece code or field out of range. */
export const decodeChessRecord = (b: Uint8Array, off: number): Result<ChessRecord, KishiError> => {
  const pieces = new Uint8Array(64);
  let nib = 0;
  for (let sq = 0; sq < 64; sq++) {
    if ((b[off + (sq >> 3)]! & (1 << (sq & 7))) === 0) continue;
    if (nib >= 32) return Result.err(new KishiError('ERR_RECORD', `chess record at byte ${off}: more than 32 pieces`));
    const p = (b[off + 8 + (nib >> 1)]! >> ((nib & 1) * 4)) & 15;
    const type = p & 7;
    if (type < 1 || type > 6) return Result.err(new KishiError('ERR_RECORD', `chess record at byte ${off}: bad piece code ${p} on square ${sq}`));
    pieces[sq] = p;
    nib++;
  }
  const stm = b[off + 24]!;
  const result = b[off + 30]!;
  if (stm > 1 || result > 2) return Result.err(new KishiError('ERR_RECORD', `chess record at byte ${off}: side ${stm} / result ${result} out of range`));
  return Result.ok({ pieces, stm, halfmove: b[off + 25]!, fullmove: b[off + 26]! | (b[off + 27]! << 8), score: readI16(b, off + 28), result });
};

/** Writes a shogi record at `out[off..off+64)`. `pieces` (81, dense) and `hands` (14) as in `ShogiRecord`. */
export const encodeShogiRecord = (
  out: Uint8Array,
  off: number,
  pieces: ArrayLike<number>,
  hands: ArrayLike<number>,
  stm: number,
  ply: number,
  score: number,
  result: number,
): void => {
  out.fill(0, off, off + 64);
  let bit = 11 * 8;
  for (let i = 0; i < 81; i++) {
    const p = pieces[i]!;
    if (p === 0) continue;
    out[off + (i >> 3)]! |= 1 << (i & 7);
    if (bit >= 36 * 8) throw new Error('more than 40 pieces on the board');
    // 5-bit code: bit 4 = white, bits 0..3 = type (1..14), least significant bit first.
    const code = ((p & 32) !== 0 ? 16 : 0) | (p & 15);
    for (let k = 0; k < 5; k++, bit++) if ((code >> k) & 1) out[off + (bit >> 3)]! |= 1 << (bit & 7);
  }
  for (let i = 0; i < 14; i++) out[off + 36 + i] = hands[i]!;
  out[off + 50] = stm;
  const pl = Math.min(65535, ply);
  out[off + 52] = pl & 255;
  out[off + 53] = pl >> 8;
  const s = clampScore(score);
  out[off + 54] = s & 255;
  out[off + 55] = (s >> 8) & 255;
  out[off + 56] = result;
};

/** Decodes the shogi record at `off`; `ERR_RECORD` for a piece code or field out of range. */
export const decodeShogiRecord = (b: Uint8Array, off: number): Result<ShogiRecord, KishiError> => {
  const pieces = new Uint8Array(81);
  let bit = 11 * 8;
  for (let i = 0; i < 81; i++) {
    if ((b[off + (i >> 3)]! & (1 << (i & 7))) === 0) continue;
    if (bit >= 36 * 8) return Result.err(new KishiError('ERR_RECORD', `shogi record at byte ${off}: more than 40 pieces`));
    let code = 0;
    for (let k = 0; k < 5; k++, bit++) if ((b[off + (bit >> 3)]! >> (bit & 7)) & 1) code |= 1 << k;
    const type = code & 15;
    if (type < 1 || type > 14) return Result.err(new KishiError('ERR_RECORD', `shogi record at byte ${off}: bad piece code ${code} at square ${i}`));
    pieces[i] = ((code & 16) !== 0 ? 32 : 16) | type;
  }
  const hands = b.slice(off + 36, off + 50);
  const stm = b[off + 50]!;
  const result = b[off + 56]!;
  if (stm > 1 || result > 2) return Result.err(new KishiError('ERR_RECORD', `shogi record at byte ${off}: side ${stm} / result ${result} out of range`));
  return Result.ok({ pieces, hands, stm, ply: b[off + 52]! | (b[off + 53]! << 8), score: readI16(b, off + 54), result });
};

/**
 * A 52-bit deduplication key of the record's position bytes (two FNV-1a hashes): equal positions
 * (same pieces, hands and side to move) give equal keys whatever the score or move counters.
 */
export const positionKey = (b: Uint8Array, off: number, game: GameKind): number => {
  const n = POSITION_BYTES[game];
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < n; i++) {
    // The side-to-move byte (chess 24, shogi 50) is the last one hashed.
    const v = b[off + i]!;
    h1 = Math.imul(h1 ^ v, 0x01000193);
    h2 = Math.imul(h2 ^ v, 0x5bd1e995) ^ (h2 >>> 13);
  }
  return (h1 >>> 0) * 1048576 + ((h2 >>> 0) & 0xfffff);
};
