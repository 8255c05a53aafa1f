/**
 * Entering-king declaration (nyugyoku sengen) under the CSA 27-point rule, `Declaration:Jishogi 1.1`
 * in a Game_Summary, as shogi-server's `Board#good_kachi?` checks it:
 *
 * 1. the declaring side is the side to move, and it is not in check;
 * 2. its king stands in the enemy camp (the three farthest ranks);
 * 3. at least 10 other pieces of its own stand in that zone;
 * 4. points of its pieces in the zone plus all its pieces in hand, king excluded, with rook, bishop,
 *    dragon and horse worth 5 and every other piece 1, reach 28 for sente or 27 for gote.
 *
 * The remaining-time condition of the CSA rule is the server's business.
 */
import type { Color } from 'shogiops/types';
import type { Shogi } from 'shogiops/variant/shogi';
import { HAND_ROLES, declarationValue, inEnemyCamp } from './pieces.js';

/** Points needed to declare: sente 28, gote 27. */
export const DECLARATION_THRESHOLD: Readonly<Record<Color, number>> = { sente: 28, gote: 27 };
/** Pieces other than the king that must stand in the enemy camp. */
export const DECLARATION_MIN_PIECES = 10;

/** What the declaration rule looks at, for one side. */
export interface DeclarationStatus {
  readonly kingInZone: boolean;
  /** Own pieces in the enemy camp, king excluded. */
  readonly piecesInZone: number;
  /** Points of those pieces plus all pieces in hand. */
  readonly points: number;
}

export function declarationStatus(pos: Shogi, color: Color): DeclarationStatus {
  let kingInZone = false;
  let piecesInZone = 0;
  let points = 0;
  for (const sq of pos.board.color(color)) {
    if (!inEnemyCamp(color, sq)) continue;
    const role = pos.board.getRole(sq)!;
    if (role === 'king') kingInZone = true;
    else {
      piecesInZone++;
      points += declarationValue(role);
    }
  }
  const hand = pos.hands.color(color);
  for (const role of HAND_ROLES) points += hand.get(role) * declarationValue(role);
  return { kingInZone, piecesInZone, points };
}

/** Whether the side to move may declare a win now (time condition excluded). */
export function canDeclare(pos: Shogi): boolean {
  const color = pos.turn;
  if (pos.isCheck(color)) return false;
  const s = declarationStatus(pos, color);
  return s.kingInZone && s.piecesInZone >= DECLARATION_MIN_PIECES && s.points >= DECLARATION_THRESHOLD[color];
}
