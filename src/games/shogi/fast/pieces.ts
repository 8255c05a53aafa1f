/**
 * Piece, side and hand encoding of the internal shogi board (see board.ts).
 *
 * A board cell holds one byte: `0` for an empty square, `WALL` for the padding around the 9x9
 * board, otherwise `sideBit | pieceType`. Black (sente, moves first) has bit `BLACK_BIT` (16),
 * white (gote) has `WHITE_BIT` (32), so `cell & ownBit` is non-zero exactly for own pieces and
 * walls (the squares a move can never go to), and `(cell & 48) === enemyBit` tests for an enemy.
 *
 * Piece types: the six promotable ones are 1..6 and promote by adding `PROMOTED` (8); gold and
 * king (7, 8) never promote, so `type <= 6` means "can promote" and `type > 8` means "promoted".
 */

/** Side to move: 0 = black (sente, `b` in SFEN, `+` in CSA), 1 = white (gote). */
export type FastSide = 0 | 1;
/** Black, sente: moves first, towards rank a; core `Side` 'first'. */
export const BLACK: FastSide = 0;
/** White, gote; core `Side` 'second'. */
export const WHITE: FastSide = 1;

/** An empty board cell. */
export const EMPTY = 0;
/** Colour bit of black pieces in a board cell. */
export const BLACK_BIT = 16;
/** Colour bit of white pieces in a board cell. */
export const WHITE_BIT = 32;
/** Padding cell: carries both colour bits, so it is never empty, own or enemy. */
export const WALL = 48;
/** Mask of the colour bits. */
export const COLOR_MASK = 48;
/** Mask of the piece type. */
export const TYPE_MASK = 15;

/** Pawn (FU). Types 1..7 are also the droppable hand types. */
export const PAWN = 1;
/** Lance (KY). */
export const LANCE = 2;
/** Knight (KE). */
export const KNIGHT = 3;
/** Silver (GI). */
export const SILVER = 4;
/** Bishop (KA). */
export const BISHOP = 5;
/** Rook (HI). */
export const ROOK = 6;
/** Gold (KI), never promotes. */
export const GOLD = 7;
/** King (OU), never promotes, never in hand. */
export const KING = 8;
/** Tokin, promoted pawn (TO) = PAWN + PROMOTED. */
export const PRO_PAWN = 9;
/** Promoted lance (NY). */
export const PRO_LANCE = 10;
/** Promoted knight (NK). */
export const PRO_KNIGHT = 11;
/** Promoted silver (NG). */
export const PRO_SILVER = 12;
/** Horse, promoted bishop (UM). */
export const HORSE = 13;
/** Dragon, promoted rook (RY). */
export const DRAGON = 14;
/** Added to a promotable type (1..6) to promote it. */
export const PROMOTED = 8;

/** Piece types that can be held in hand and dropped, in SFEN hand order (R B G S N L P). */
export const HAND_TYPES_SFEN_ORDER: readonly number[] = [ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN];

/** The colour bit of a side. */
export const sideBit = (side: FastSide): number => (side === BLACK ? BLACK_BIT : WHITE_BIT);

/** The board cell value of a piece of `type` owned by `side`. */
export const pieceCode = (side: FastSide, type: number): number => sideBit(side) | type;

/** The type a captured piece of `type` takes in hand (promoted pieces revert). */
export const handTypeOf = (type: number): number => (type > KING ? type - PROMOTED : type);

/** SFEN letters by piece type (upper case, without the `+` of promoted types). */
const SFEN_LETTER = ['', 'P', 'L', 'N', 'S', 'B', 'R', 'G', 'K', 'P', 'L', 'N', 'S', 'B', 'R'];

/** The SFEN token of a board cell value (`+p`, `K`, ...); '' for empty or wall. */
export const pieceToSfen = (code: number): string => {
  const type = code & TYPE_MASK;
  const side = code & COLOR_MASK;
  if (type === 0 || type > DRAGON || (side !== BLACK_BIT && side !== WHITE_BIT)) return '';
  const letter = side === BLACK_BIT ? SFEN_LETTER[type]! : SFEN_LETTER[type]!.toLowerCase();
  return type > KING ? `+${letter}` : letter;
};

/** The USI letter of a droppable piece type (`P`, `L`, `N`, `S`, `G`, `B`, `R`). */
export const dropLetter = (type: number): string => SFEN_LETTER[type] ?? '';

/** The droppable piece type for a USI drop letter, or 0. */
export const dropTypeOf = (letter: string): number => {
  switch (letter) {
    case 'P':
      return PAWN;
    case 'L':
      return LANCE;
    case 'N':
      return KNIGHT;
    case 'S':
      return SILVER;
    case 'G':
      return GOLD;
    case 'B':
      return BISHOP;
    case 'R':
      return ROOK;
    default:
      return 0;
  }
};

/** How many pieces of each hand type a standard set has (index = piece type), for validation. */
export const PIECE_SET_COUNT: readonly number[] = [0, 18, 4, 4, 4, 2, 2, 4, 2];
