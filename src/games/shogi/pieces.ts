/**
 * Piece vocabulary of standard shogi over shogiops' role names, and the board geometry the adapter
 * needs: squares, promotion zones, forced promotion.
 *
 * shogiops numbers squares on a 16x16 grid: `square = (file - 1) + 16 * (rank - 1)`, with file 1..9
 * as in USI/CSA and rank 1..9 = USI letters a..i = CSA rank digits 1..9 (rank 1 is gote's back rank).
 */
import type { Color, Piece, Role, Square } from 'shogiops/types';

/** Roles that can stand on a standard board, in a fixed order (index = Zobrist table index). */
export const BOARD_ROLES = [
  'pawn',
  'lance',
  'knight',
  'silver',
  'gold',
  'bishop',
  'rook',
  'king',
  'tokin',
  'promotedlance',
  'promotedknight',
  'promotedsilver',
  'horse',
  'dragon',
] as const satisfies readonly Role[];
export type BoardRole = (typeof BOARD_ROLES)[number];

/** Roles that can be held in hand, in USI/SFEN hand order (R B G S N L P). */
export const HAND_ROLES = [
  'rook',
  'bishop',
  'gold',
  'silver',
  'knight',
  'lance',
  'pawn',
] as const satisfies readonly Role[];
export type HandRole = (typeof HAND_ROLES)[number];

/** How many of each unpromoted kind a standard set has (both sides together). */
export const PIECE_SET: Readonly<Record<HandRole | 'king', number>> = {
  rook: 2,
  bishop: 2,
  gold: 4,
  silver: 4,
  knight: 4,
  lance: 4,
  pawn: 18,
  king: 2,
};

const ROLE_INDEX = new Map<Role, number>(BOARD_ROLES.map((r, i) => [r, i]));
const HAND_INDEX = new Map<Role, number>(HAND_ROLES.map((r, i) => [r, i]));

/** Index of a board role in BOARD_ROLES, or -1. */
export const boardRoleIndex = (role: Role): number => ROLE_INDEX.get(role) ?? -1;
/** Index of a hand role in HAND_ROLES, or -1. */
export const handRoleIndex = (role: Role): number => HAND_INDEX.get(role) ?? -1;
export const isHandRole = (role: unknown): role is HandRole =>
  typeof role === 'string' && HAND_INDEX.has(role as Role);

const PROMOTE: Partial<Record<Role, Role>> = {
  pawn: 'tokin',
  lance: 'promotedlance',
  knight: 'promotedknight',
  silver: 'promotedsilver',
  bishop: 'horse',
  rook: 'dragon',
};
const UNPROMOTE: Partial<Record<Role, Role>> = {
  tokin: 'pawn',
  promotedlance: 'lance',
  promotedknight: 'knight',
  promotedsilver: 'silver',
  horse: 'bishop',
  dragon: 'rook',
};

/** The promoted role, or undefined for roles that cannot promote. */
export const promoteRole = (role: Role): Role | undefined => PROMOTE[role];
/** The role a piece reverts to in hand (the role itself when unpromoted). */
export const unpromoteRole = (role: Role): Role => UNPROMOTE[role] ?? role;
export const isPromotable = (role: Role): boolean => PROMOTE[role] !== undefined;

export const opposite = (color: Color): Color => (color === 'sente' ? 'gote' : 'sente');
export const colorIndex = (color: Color): number => (color === 'sente' ? 0 : 1);

/** 1..9 */
export const fileOf = (sq: Square): number => (sq & 15) + 1;
/** 1..9, rank 1 = USI 'a' (gote's back rank) */
export const rankOf = (sq: Square): number => (sq >> 4) + 1;
/** shogiops square from file and rank, both 1..9. */
export const squareAt = (file: number, rank: number): Square => file - 1 + 16 * (rank - 1);
/** Dense index 0..80 (for tables). */
export const denseIndex = (sq: Square): number => (sq & 15) + 9 * (sq >> 4);

/** Whether `sq` is an integer naming one of the 81 squares of the standard board. */
export const isOnBoard = (sq: unknown): sq is Square =>
  typeof sq === 'number' && Number.isInteger(sq) && sq >= 0 && sq < 144 && (sq & 15) < 9;

/** Relative rank 1..9 seen from `color` (1 = the enemy's back rank). */
export const relativeRank = (color: Color, sq: Square): number =>
  color === 'sente' ? rankOf(sq) : 10 - rankOf(sq);

/** The enemy camp (promotion zone): the three ranks farthest from `color`. */
export const inEnemyCamp = (color: Color, sq: Square): boolean => relativeRank(color, sq) <= 3;

/** Whether a move of `piece` from `from` to `to` may promote. */
export const canPromote = (piece: Piece, from: Square, to: Square): boolean =>
  isPromotable(piece.role) && (inEnemyCamp(piece.color, from) || inEnemyCamp(piece.color, to));

/** Whether `role` of `color` standing on `sq` could never move again (must promote / cannot drop). */
export const isDeadSquare = (role: Role, color: Color, sq: Square): boolean => {
  const r = relativeRank(color, sq);
  if (role === 'pawn' || role === 'lance') return r === 1;
  if (role === 'knight') return r <= 2;
  return false;
};

/** Entering-king points of a role: 5 for rook, bishop and their promotions, 0 for the king, else 1. */
export const declarationValue = (role: Role): number => {
  switch (role) {
    case 'rook':
    case 'bishop':
    case 'dragon':
    case 'horse':
      return 5;
    case 'king':
      return 0;
    default:
      return 1;
  }
};
