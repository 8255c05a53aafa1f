/**
 * USI move text <-> shogiops moves, syntax only (legality is the game's business).
 *
 * shogiops' `parseUsi` accepts variant syntax we must refuse for standard shogi (16x16 squares such
 * as `10a`, lion mid-steps, `=`/`?` suffixes, `T*` drops), so the strict 9x9 grammar is here:
 * `7g7f`, `8h2b+`, `B*3d`.
 */
import type { MoveOrDrop } from 'shogiops/types';
import { HAND_ROLES, fileOf, rankOf, squareAt } from './pieces.js';
import type { HandRole } from './pieces.js';

const DROP_LETTER: Readonly<Record<HandRole, string>> = {
  rook: 'R',
  bishop: 'B',
  gold: 'G',
  silver: 'S',
  knight: 'N',
  lance: 'L',
  pawn: 'P',
};
const LETTER_DROP = new Map<string, HandRole>(HAND_ROLES.map((r) => [DROP_LETTER[r], r]));

const MOVE_RE = /^([1-9])([a-i])([1-9])([a-i])(\+?)$/;
const DROP_RE = /^([RBGSNLP])\*([1-9])([a-i])$/;

const rankFromLetter = (c: string): number => c.charCodeAt(0) - 96;

/** `7g` style name of a shogiops square. */
export const usiSquare = (sq: number): string => `${fileOf(sq)}${String.fromCharCode(96 + rankOf(sq))}`;

/** Parses USI move syntax; undefined when the text is not a well-formed standard-shogi move. */
export function parseUsiMove(text: string): MoveOrDrop | undefined {
  const m = MOVE_RE.exec(text);
  if (m) {
    const from = squareAt(Number(m[1]), rankFromLetter(m[2]!));
    const to = squareAt(Number(m[3]), rankFromLetter(m[4]!));
    if (from === to) return undefined;
    return { from, to, promotion: m[5] === '+' };
  }
  const d = DROP_RE.exec(text);
  if (d) return { role: LETTER_DROP.get(d[1]!)!, to: squareAt(Number(d[2]), rankFromLetter(d[3]!)) };
  return undefined;
}

/** USI text of a move (`7g7f`, `8h2b+`, `B*3d`). */
export function makeUsiMove(md: MoveOrDrop): string {
  if ('role' in md) return `${DROP_LETTER[md.role as HandRole] ?? '?'}*${usiSquare(md.to)}`;
  return `${usiSquare(md.from)}${usiSquare(md.to)}${md.promotion ? '+' : ''}`;
}
