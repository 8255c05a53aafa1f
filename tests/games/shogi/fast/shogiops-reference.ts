/**
 * Test helpers: shogiops as the reference move generator for the internal board.
 */
import { parseSfen } from 'shogiops/sfen';
import type { Role } from 'shogiops/types';
import { makeUsi } from 'shogiops/util';
import type { Context } from 'shogiops/variant/position';
import type { Shogi } from 'shogiops/variant/shogi';
import { pieceCanPromote, pieceForcePromote } from 'shogiops/variant/util';

const canPromote = pieceCanPromote('standard');
const forcePromote = pieceForcePromote('standard');

/** A shogiops position from SFEN (strict), throwing on bad input (tests only). */
export const shogiopsFromSfen = (sfen: string): Shogi => parseSfen('standard', sfen, true).unwrap() as Shogi;

/**
 * Every legal move of a shogiops position as USI, with the promotion options of shogiops' rules:
 * a move may promote when it starts or ends in the zone and the piece is promotable, and must
 * when the piece would otherwise have no move later.
 */
export const shogiopsLegalUsi = (pos: Shogi, ctx: Context = pos.ctx()): string[] => {
  const out: string[] = [];
  for (const [from, dests] of pos.allMoveDests(ctx)) {
    const piece = pos.board.get(from)!;
    for (const to of dests) {
      if (canPromote(piece, from, to, pos.board.get(to))) {
        out.push(makeUsi({ from, to, promotion: true }));
        if (!forcePromote(piece, to)) out.push(makeUsi({ from, to }));
      } else out.push(makeUsi({ from, to }));
    }
  }
  for (const [name, dests] of pos.allDropDests(ctx)) {
    const role = name.split(' ')[1] as Role;
    for (const to of dests) out.push(makeUsi({ role, to }));
  }
  return out;
};
