/**
 * CSA move text <-> shogiops moves.
 *
 * A CSA move names the piece *after* the move: `+7776FU`, a drop `-0034KA`, a promotion `+8822UM`
 * (the bishop on 88 becomes a horse). Reading one therefore needs the board: promotion = an
 * unpromoted piece on the from-square and its promoted name in the text.
 *
 * shogiops has `parseCsaMoveOrDrop`, but it is not usable for input from a server: its regex is not
 * anchored (`xx+7776FUyy` parses), it ignores the sign, and it sets `promotion` whenever the name
 * differs from the piece on the from-square (so `+7776KI` for a pawn becomes a "promotion", and a move
 * from an empty square too). Conversion is therefore done here, strictly.
 */
import type { Shogi } from 'shogiops/variant/shogi';
import type { MoveOrDrop, Role, Square } from 'shogiops/types';
import { BOARD_ROLES, fileOf, isHandRole, promoteRole, rankOf, squareAt } from './pieces.js';
import type { BoardRole } from './pieces.js';

export const ROLE_TO_CSA: Readonly<Record<BoardRole, string>> = {
  pawn: 'FU',
  lance: 'KY',
  knight: 'KE',
  silver: 'GI',
  gold: 'KI',
  bishop: 'KA',
  rook: 'HI',
  king: 'OU',
  tokin: 'TO',
  promotedlance: 'NY',
  promotedknight: 'NK',
  promotedsilver: 'NG',
  horse: 'UM',
  dragon: 'RY',
};
export const CSA_TO_ROLE: ReadonlyMap<string, BoardRole> = new Map(
  BOARD_ROLES.map((r) => [ROLE_TO_CSA[r], r]),
);

/** A syntactically valid CSA move, not yet checked against a position. */
export interface CsaMoveSyntax {
  /** `+` sente (black), `-` gote (white). */
  readonly sign: '+' | '-';
  /** undefined for a drop (`00`). */
  readonly from: Square | undefined;
  readonly to: Square;
  /** The piece after the move. */
  readonly role: BoardRole;
  /** Seconds from a `,T<n>` suffix, when present. */
  readonly time: number | undefined;
}

const CSA_MOVE_RE = /^([+-])([0-9])([0-9])([1-9])([1-9])([A-Z]{2})(?:,T(\d{1,9}))?$/;

/** `77` style name of a shogiops square. */
export const csaSquare = (sq: Square): string => `${fileOf(sq)}${rankOf(sq)}`;

/** Parses CSA move syntax (optionally with the server's `,T<seconds>` suffix); a string is the reason it is malformed. */
export function parseCsaMoveSyntax(text: string): CsaMoveSyntax | string {
  const m = CSA_MOVE_RE.exec(text);
  if (!m) return 'expected [+-]<from><to><piece> such as +7776FU or -0034KA';
  const role = CSA_TO_ROLE.get(m[6]!);
  if (role === undefined) return `unknown piece "${m[6]}"`;
  const fromFile = Number(m[2]);
  const fromRank = Number(m[3]);
  const to = squareAt(Number(m[4]), Number(m[5]));
  const time = m[7] === undefined ? undefined : Number(m[7]);
  const sign = m[1] as '+' | '-';
  if (fromFile === 0 && fromRank === 0) {
    if (!isHandRole(role)) return `${m[6]} cannot be dropped`;
    return { sign, from: undefined, to, role, time };
  }
  if (fromFile === 0 || fromRank === 0) return `bad from-square "${m[2]}${m[3]}"`;
  const from = squareAt(fromFile, fromRank);
  if (from === to) return 'from and to are the same square';
  return { sign, from, to, role, time };
}

/**
 * Turns CSA syntax into a move in `pos` (a string is the reason it does not fit the position).
 * Checks the sign against the side to move and the piece name against the piece on the from-square;
 * full legality is left to the caller.
 */
export function resolveCsaMove(pos: Shogi, syn: CsaMoveSyntax): MoveOrDrop | string {
  const color = syn.sign === '+' ? 'sente' : 'gote';
  if (color !== pos.turn) return `it is ${pos.turn === 'sente' ? '+ (sente)' : '- (gote)'} to move`;
  if (syn.from === undefined) return { role: syn.role, to: syn.to };
  const piece = pos.board.get(syn.from);
  if (piece === undefined) return `no piece on ${csaSquare(syn.from)}`;
  if (piece.color !== color) return `the piece on ${csaSquare(syn.from)} belongs to the opponent`;
  if (piece.role === syn.role) return { from: syn.from, to: syn.to, promotion: false };
  if (promoteRole(piece.role) === syn.role) return { from: syn.from, to: syn.to, promotion: true };
  return `${csaSquare(syn.from)} holds ${ROLE_TO_CSA[piece.role as BoardRole] ?? piece.role}, which cannot become ${ROLE_TO_CSA[syn.role]}`;
}

/**
 * CSA text of a move in `pos` (sign, squares, the piece after the move), e.g. `+8822UM`.
 * The move must come from this position: a normal move needs the piece on its from-square.
 */
export function makeCsaMove(pos: Shogi, md: MoveOrDrop): string {
  const sign = pos.turn === 'sente' ? '+' : '-';
  if ('role' in md) return `${sign}00${csaSquare(md.to)}${ROLE_TO_CSA[md.role as BoardRole]}`;
  const role = pos.board.getRole(md.from);
  if (role === undefined) throw new Error(`makeCsaMove: no piece on ${csaSquare(md.from)}`);
  const after: Role = md.promotion ? (promoteRole(role) ?? role) : role;
  return `${sign}${csaSquare(md.from)}${csaSquare(md.to)}${ROLE_TO_CSA[after as BoardRole]}`;
}
