/**
 * The shogi rules of the fake CSA server, from shogiops and the CSA protocol text alone: never from the
 * client's own rules (src/protocols/csa, src/games/shogi), so that a rules bug in the client shows up in
 * the tests as a disagreement with this server instead of being shared by both sides.
 * - positions: CSA `PI`/`P1`..`P9`/`P+`/`P-` lines read by shogiops' `parseCsaHeader`, plus `P+00AL` /
 *   `P-00AL` (all remaining pieces, kings excepted, to that hand: CSA standard file format, which shogiops
 *   does not read);
 * - moves: `+7776FU` strictly: the sign of the side to move, the piece named as it stands after the move
 *   (the piece on the square, or its promoted form for a promotion), and legal for shogiops;
 * - the entering-king declaration of `Declaration:Jishogi 1.1` (the 27-point rule, as shogi-server checks it).
 */
import { makeCsaHeader, parseCsaHeader, parseCsaMoveOrDrop } from 'shogiops/notation/csa';
import { makeSfen } from 'shogiops/sfen';
import type { MoveOrDrop, Role } from 'shogiops/types';
import { isDrop, makeSquareName } from 'shogiops/util';
import { Shogi } from 'shogiops/variant/shogi';
import { promote, unpromote } from 'shogiops/variant/util';

/** The even-game start position as CSA rows (`P1`..`P9`), as shogi-server sends it. */
export const STANDARD_ROWS: readonly string[] = makeCsaHeader(Shogi.default()).split('\n').slice(0, 9);

/** A full set, kings excepted (what `00AL` distributes). */
const FULL_SET: readonly [Role, number][] = [
  ['rook', 2],
  ['bishop', 2],
  ['gold', 4],
  ['silver', 4],
  ['knight', 4],
  ['lance', 4],
  ['pawn', 18],
];

const base = (role: Role): Role => unpromote('standard')(role) ?? role;

/** The SFEN of a CSA position block (moves after it are not read here). */
export function csaPositionToSfen(lines: readonly string[]): string {
  const al = lines.find((l) => /^P[+-]00AL$/.test(l.trim()));
  const pos = parseCsaHeader(lines.filter((l) => l !== al).join('\n')).unwrap() as Shogi;
  if (al !== undefined) {
    const hand = pos.hands.color(al.trim()[1] === '+' ? 'sente' : 'gote');
    for (const [role, total] of FULL_SET) {
      let used = pos.hands.color('sente').get(role) + pos.hands.color('gote').get(role);
      for (const [, piece] of pos.board) if (base(piece.role) === role) used++;
      hand.set(role, hand.get(role) + total - used);
    }
  }
  return makeSfen(pos);
}

/** CSA piece names. */
const ROLES: Record<string, Role> = {
  FU: 'pawn',
  KY: 'lance',
  KE: 'knight',
  GI: 'silver',
  KI: 'gold',
  KA: 'bishop',
  HI: 'rook',
  OU: 'king',
  TO: 'tokin',
  NY: 'promotedlance',
  NK: 'promotedknight',
  NG: 'promotedsilver',
  UM: 'horse',
  RY: 'dragon',
};

/** A CSA move (`+7776FU`, `-0034KA`) checked strictly against the position; undefined when it is not one. */
export function parseCsaMove(pos: Shogi, text: string): MoveOrDrop | undefined {
  const m = /^([+-])(\d\d)(\d\d)([A-Z]{2})$/.exec(text);
  if (!m || m[1] !== (pos.turn === 'sente' ? '+' : '-')) return undefined;
  const md = parseCsaMoveOrDrop(pos, text.slice(1));
  if (md === undefined) return undefined;
  if (!isDrop(md)) {
    const piece = pos.board.get(md.from);
    const named = ROLES[m[4]!];
    if (piece === undefined || named === undefined) return undefined;
    if (named !== piece.role && named !== promote('standard')(piece.role)) return undefined;
  }
  return pos.isLegal(md) ? md : undefined;
}

/**
 * Whether the side to move may declare a win (CSA `Declaration:Jishogi 1.1`): its king in the enemy camp
 * (the three far ranks) and not in check, at least 10 other own pieces there, and those pieces plus the
 * hand worth at least 28 points for sente, 27 for gote (rook and bishop, promoted or not, 5; others 1).
 */
export function canDeclareWin(pos: Shogi): boolean {
  const side = pos.turn;
  const inCamp = (sq: number): boolean => (side === 'sente' ? 'abc' : 'ghi').includes(makeSquareName(sq).slice(-1));
  const points = (role: Role): number => (base(role) === 'rook' || base(role) === 'bishop' ? 5 : 1);
  let kingIn = false;
  let count = 0;
  let score = 0;
  for (const [sq, piece] of pos.board) {
    if (piece.color !== side || !inCamp(sq)) continue;
    if (piece.role === 'king') kingIn = true;
    else {
      count++;
      score += points(piece.role);
    }
  }
  const hand = pos.hands.color(side);
  for (const [role] of FULL_SET) score += hand.get(role) * points(role);
  return kingIn && !pos.isCheck() && count >= 10 && score >= (side === 'sente' ? 28 : 27);
}
