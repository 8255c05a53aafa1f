/**
 * Piece and colour codes of the internal chess board (`FastChessBoard`).
 *
 * A piece is one small integer: `color << 3 | type`, so white pieces are 1..6 and black pieces
 * 9..14; 0 is an empty square. Plain numeric constants (not `as const` objects) so that V8 can
 * treat them as small integers in the move generator's hot loops.
 */

/** Colour of white (moves first). */
export const WHITE = 0;
/** Colour of black. */
export const BLACK = 1;

// Piece type codes (`piece & 7`); 0 means no piece / no promotion.
/** Piece type: pawn. */
export const PAWN = 1;
/** Piece type: knight. */
export const KNIGHT = 2;
/** Piece type: bishop. */
export const BISHOP = 3;
/** Piece type: rook. */
export const ROOK = 4;
/** Piece type: queen. */
export const QUEEN = 5;
/** Piece type: king. */
export const KING = 6;

/** Piece code of an empty square. */
export const EMPTY = 0;

/** The piece code for `color` (0 white, 1 black) and `type` (PAWN..KING). */
export const makePiece = (color: number, type: number): number => (color << 3) | type;
/** Colour (0 white, 1 black) of a non-empty piece code. */
export const pieceColor = (piece: number): number => piece >> 3;
/** Type (PAWN..KING) of a piece code; 0 for an empty square. */
export const pieceType = (piece: number): number => piece & 7;

/** Lowercase letters indexed by piece type, as used in FEN and UCI promotions. */
export const TYPE_CHARS = ' pnbrqk';
