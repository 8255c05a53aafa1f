/**
 * Move encoding of the internal shogi board: one small non-negative integer per move, the same
 * integer for the same USI string in any position, so moves can be compared with `===`, stored
 * in typed arrays (killers, history, transposition table) and checked against a generated list.
 *
 * bits 0..7   from square (internal index, squares.ts); 0 for a drop
 * bits 8..15  to square
 * bit  16     promotion
 * bits 17..19 dropped piece type (1..7, pieces.ts); 0 for a board move
 *
 * `NULL_MOVE` (0) is never a real move (square 0 is a wall).
 */
import { dropLetter, dropTypeOf } from './pieces.js';
import { parseSquareName, squareName } from './squares.js';

/** Move code of a null move (also "no move"). */
export const NULL_MOVE = 0;
/** Promotion bit of a move code. */
export const PROMOTE_FLAG = 1 << 16;
/** Shift of the dropped piece type in a move code. */
export const DROP_SHIFT = 17;

/** Encodes a board move. */
export const makeBoardMove = (from: number, to: number, promote: boolean): number =>
  from | (to << 8) | (promote ? PROMOTE_FLAG : 0);
/** Encodes a drop of piece `type` (1..7) on `to`. */
export const makeDrop = (type: number, to: number): number => (type << DROP_SHIFT) | (to << 8);

/** From square of a board move (0 for drops). */
export const moveFrom = (m: number): number => m & 0xff;
/** To square of any move. */
export const moveTo = (m: number): number => (m >>> 8) & 0xff;
/** Whether the move promotes. */
export const movePromotes = (m: number): boolean => (m & PROMOTE_FLAG) !== 0;
/** Dropped piece type (1..7), or 0 for a board move. */
export const moveDropType = (m: number): number => m >>> DROP_SHIFT;
/** Whether the move is a drop. */
export const isDropMove = (m: number): boolean => m >>> DROP_SHIFT !== 0;

/** USI text of a move code (`7g7f`, `8h2b+`, `P*5e`); `0000` for the null move. */
export const moveToUsi = (m: number): string => {
  if (m === NULL_MOVE) return '0000';
  const drop = m >>> DROP_SHIFT;
  const to = squareName((m >>> 8) & 0xff);
  if (drop !== 0) return `${dropLetter(drop)}*${to}`;
  return squareName(m & 0xff) + to + ((m & PROMOTE_FLAG) !== 0 ? '+' : '');
};

/**
 * Move code of a USI string, checking only the syntax (the board's `parseUsi` also checks
 * legality). Returns undefined for malformed text.
 */
export const parseUsiSyntax = (usi: string): number | undefined => {
  if (usi.length === 4 && usi[1] === '*') {
    const type = dropTypeOf(usi[0]!);
    const to = parseSquareName(usi, 2);
    return type !== 0 && to >= 0 ? makeDrop(type, to) : undefined;
  }
  if (usi.length !== 4 && !(usi.length === 5 && usi[4] === '+')) return undefined;
  const from = parseSquareName(usi, 0);
  const to = parseSquareName(usi, 2);
  if (from < 0 || to < 0 || from === to) return undefined;
  return makeBoardMove(from, to, usi.length === 5);
};
