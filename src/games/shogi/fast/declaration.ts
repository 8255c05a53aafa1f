/**
 * The entering-king declaration (CSA 27-point rule) on the internal board, for the engines' root:
 * the same rule as `canDeclare` of ../entering-king.ts (shogi-server's `Board#good_kachi?`), read
 * from the board the search already holds instead of a shogiops position parsed again from its SFEN.
 * tests/games/shogi/fast/declaration.test.ts checks the two agree.
 */
import { DECLARATION_MIN_PIECES, DECLARATION_THRESHOLD } from '../entering-king.js';
import type { FastShogiBoard } from './board.js';
import { BISHOP, BLACK, BLACK_BIT, COLOR_MASK, DRAGON, HORSE, KING, ROOK, TYPE_MASK, WHITE_BIT } from './pieces.js';
import { RANK_OF, SQUARES } from './squares.js';

/** Declaration points of a piece type: rook, bishop, dragon and horse 5, the king 0, every other piece 1. */
const points = (type: number): number => (type === ROOK || type === BISHOP || type === DRAGON || type === HORSE ? 5 : type === KING ? 0 : 1);

/** Whether the side to move may declare a win now (the time condition is the server's). */
export function canDeclareOnBoard(board: FastShogiBoard): boolean {
  const side = board.turn;
  const king = board.kingSquare(side);
  if (king < 0 || board.inCheck()) return false;
  // The enemy camp: ranks a-c for black, g-i for white.
  const inCamp = (sq: number): boolean => (side === BLACK ? RANK_OF[sq]! <= 2 : RANK_OF[sq]! >= 6);
  if (!inCamp(king)) return false;
  const own = side === BLACK ? BLACK_BIT : WHITE_BIT;
  let pieces = 0;
  let total = 0;
  for (const sq of SQUARES) {
    const cell = board.pieceAt(sq);
    if ((cell & COLOR_MASK) !== own || !inCamp(sq)) continue;
    const type = cell & TYPE_MASK;
    if (type === KING) continue;
    pieces++;
    total += points(type);
  }
  if (pieces < DECLARATION_MIN_PIECES) return false;
  for (let type = 1; type < KING; type++) total += board.handCount(side, type) * points(type);
  return total >= DECLARATION_THRESHOLD[side === BLACK ? 'sente' : 'gote'];
}
