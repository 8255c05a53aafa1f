/**
 * Move encoding of the internal chess board: one non-negative integer below 2^23, so that move
 * lists fit an `Int32Array` and moves can be stored in transposition tables as they are.
 *
 * | bits  | field                                                                   |
 * |-------|-------------------------------------------------------------------------|
 * | 0-5   | from square (0..63, a1 = 0, b1 = 1, ..., h8 = 63, as in chessops)      |
 * | 6-11  | to square; for castling the square of the castling rook (king takes rook) |
 * | 12-14 | promotion piece type (KNIGHT..QUEEN), 0 if none                         |
 * | 15-16 | kind: 0 normal, 1 pawn double push, 2 castling, 3 en passant            |
 * | 17-19 | captured piece type (PAWN..QUEEN), 0 if none; PAWN for en passant       |
 * | 20-22 | moving piece type (PAWN..KING)                                          |
 *
 * Everything above bit 14 is derived from the position, so two encodings of the same move in the
 * same position are always equal, and `0` (`NO_MOVE`) is never a move.
 */

/** The null value for "no move" (a1a1 is never a move). */
export const NO_MOVE = 0;

// Move kinds (bits 15-16).
/** Move kind: any move that is not one of the three below (promotions included). */
export const MOVE_NORMAL = 0;
/** Move kind: a pawn's two-square advance. */
export const MOVE_DOUBLE_PUSH = 1;
/** Move kind: castling, encoded king takes own rook. */
export const MOVE_CASTLE = 2;
/** Move kind: en passant capture (to = the empty target square). */
export const MOVE_EN_PASSANT = 3;

/** Encodes a move; see the module comment for the fields. */
export const encodeMove = (
  from: number,
  to: number,
  promotion: number,
  kind: number,
  captured: number,
  piece: number,
): number => from | (to << 6) | (promotion << 12) | (kind << 15) | (captured << 17) | (piece << 20);

/** From square (0..63). */
export const moveFrom = (m: number): number => m & 63;
/** To square (0..63); the rook's square for castling. */
export const moveTo = (m: number): number => (m >> 6) & 63;
/** Promotion piece type, 0 if none. */
export const movePromotion = (m: number): number => (m >> 12) & 7;
/** Move kind: MOVE_NORMAL, MOVE_DOUBLE_PUSH, MOVE_CASTLE or MOVE_EN_PASSANT. */
export const moveKind = (m: number): number => (m >> 15) & 3;
/** Captured piece type (PAWN for en passant), 0 if the move is not a capture. */
export const moveCaptured = (m: number): number => (m >> 17) & 7;
/** Type of the moving piece (KING for castling). */
export const movePiece = (m: number): number => (m >> 20) & 7;
/** Whether the move captures (en passant included). */
export const isCapture = (m: number): boolean => (m & (7 << 17)) !== 0;
/** Whether the move promotes. */
export const isPromotion = (m: number): boolean => (m & (7 << 12)) !== 0;
/** Whether the move is castling. */
export const isCastle = (m: number): boolean => ((m >> 15) & 3) === MOVE_CASTLE;
/** Whether the move is an en passant capture. */
export const isEnPassant = (m: number): boolean => ((m >> 15) & 3) === MOVE_EN_PASSANT;
/** Captures and promotions: what quiescence search looks at. */
export const isTactical = (m: number): boolean => (m & ((7 << 17) | (7 << 12))) !== 0;
/** The from/to/promotion part (bits 0-14): identifies a move within a position, e.g. for history tables. */
export const moveKey = (m: number): number => m & 0x7fff;
