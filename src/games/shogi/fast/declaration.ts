/**
 * The entering-king declaration (nyugyoku sengen, CSA 27-point rule, `Declaration:Jishogi 1.1`) on the
 * internal board, for the search: the same four conditions as `canDeclare` of
 * `src/games/shogi/entering-king.ts` (shogi-server's `Board#good_kachi?`), which stays the reference
 * (tests/games/shogi/fast/declaration.test.ts compares the two):
 *
 * 1. the declaring side is the side to move, and it is not in check;
 * 2. its king stands in the enemy camp (the three farthest ranks);
 * 3. at least 10 other pieces of its own stand in that zone;
 * 4. points of its pieces in the zone plus all its pieces in hand, with rook, bishop, dragon and
 *    horse worth 5 and every other piece 1, reach 28 for sente or 27 for gote.
 *
 * The king test comes first, so the common case (king at home) costs one table read.
 */
import { DECLARATION_MIN_PIECES, DECLARATION_THRESHOLD } from '../entering-king.js';
import type { FastShogiBoard } from './board.js';
import { BISHOP, BLACK, BLACK_BIT, COLOR_MASK, DRAGON, HORSE, KING, ROOK, TYPE_MASK, WHITE_BIT } from './pieces.js';
import { RANK_OF, SQUARES } from './squares.js';

/** Points needed to declare, by side (black = sente 28, white = gote 27). */
const THRESHOLD = [DECLARATION_THRESHOLD.sente, DECLARATION_THRESHOLD.gote] as const;
/** Own pieces other than the king that must stand in the enemy camp. */
const MIN_PIECES = DECLARATION_MIN_PIECES;

/** Declaration points of a piece type (1..14): 5 for rook, bishop, dragon, horse; 0 for the king; else 1. */
const POINTS = new Uint8Array(16);
for (let t = 1; t <= DRAGON; t++) POINTS[t] = t === KING ? 0 : t === ROOK || t === BISHOP || t === HORSE || t === DRAGON ? 5 : 1;

/** Whether `rank` (0 = rank a, sente's far end) lies in the enemy camp of `side`. */
const inCamp = (side: number, rank: number): boolean => (side === BLACK ? rank <= 2 : rank >= 6);

/** Whether the side to move may declare a win now (the time condition is the server's). */
export function canDeclareWin(board: FastShogiBoard): boolean {
  const us = board.turn;
  const k = board.kingSq[us]!;
  if (k < 0 || !inCamp(us, RANK_OF[k]!)) return false;
  const own = us === BLACK ? BLACK_BIT : WHITE_BIT;
  const cells = board.board;
  let pieces = 0;
  let points = 0;
  for (const sq of SQUARES) {
    const c = cells[sq]!;
    if ((c & COLOR_MASK) !== own || !inCamp(us, RANK_OF[sq]!)) continue;
    const t = c & TYPE_MASK;
    if (t === KING) continue;
    pieces++;
    points += POINTS[t]!;
  }
  if (pieces < MIN_PIECES) return false;
  const hands = board.hands;
  for (let t = 1; t < KING; t++) points += hands[us * 8 + t]! * POINTS[t]!;
  return points >= THRESHOLD[us]! && !board.inCheck();
}
