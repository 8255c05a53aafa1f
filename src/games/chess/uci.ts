/**
 * UCI move text for chess positions, in both castling notations.
 *
 * Internally (chessops, and every `Move` this adapter hands out) castling is "king takes rook":
 * `{ from: king square, to: castling rook square }`, which is unambiguous in Chess960 too.
 * On the wire there are two forms:
 *
 * - `king-to`: the king's from and destination squares, `e1g1` / `e1c1`. Standard UCI.
 * - `king-takes-rook`: the king's square then the rook's, `e1h1` / `e1a1`. UCI_Chess960.
 *
 * Lichess writes king-takes-rook in Chess960 and from-position games (lichess-org/lila#7750) and,
 * in some API outputs, even in standard games (lila#18230, lichess-org/api#533), so parsing
 * accepts both forms in every game and the adapter does not depend on which one arrives.
 *
 * A king-to text means castling only if it is not also a legal ordinary king move (in Chess960
 * `f1g1` with a rook on h1 can be either, and is read as the king step), so king-takes-rook is the
 * only form that always names a castling move. Output in the king-to form therefore falls back to
 * king-takes-rook where king-to would be ambiguous or impossible (the king already stands on its
 * castling square), so that every text parses back to the same move.
 */
import type { Chess } from 'chessops/chess';
import { makeFen } from 'chessops/fen';
import type { CastlingSide, NormalMove, Role, Square } from 'chessops/types';
import { CASTLING_SIDES } from 'chessops/types';
import { charToRole, kingCastlesTo, makeSquare, parseSquare, roleToChar, squareRank } from 'chessops/util';
import { KishiError, Result } from '../../core/result.js';

export const CASTLING_STYLES = ['king-to', 'king-takes-rook'] as const;
/** How castling moves are written: `e1g1` (king-to) or `e1h1` (king-takes-rook). */
export type CastlingStyle = (typeof CASTLING_STYLES)[number];

/** Error codes of move parsing. */
export const MOVE_ERRORS = {
  /** The text is not a UCI move at all (syntax). */
  BadMove: 'ERR_BAD_MOVE',
  /** A well-formed move that is not legal in the position. */
  IllegalMove: 'ERR_ILLEGAL_MOVE',
} as const;

/** Roles a pawn may promote to, in the order legal move lists use. */
export const PROMOTION_ROLES: readonly Role[] = ['queen', 'knight', 'rook', 'bishop'];

const UCI_MOVE = /^([a-h][1-8])([a-h][1-8])([qrbn]?)$/;

const isBackrank = (square: Square): boolean => squareRank(square) === 0 || squareRank(square) === 7;

/** The castling side if `move` (in canonical king-takes-rook form) is a castling move in `pos`. */
export const castlingSideOf = (pos: Chess, move: NormalMove): CastlingSide | undefined => {
  if (!pos.board.king.has(move.from) || !pos.board[pos.turn].has(move.from)) return undefined;
  for (const side of CASTLING_SIDES) {
    if (pos.castles.rook[pos.turn][side] === move.to) return side;
  }
  return undefined;
};

/** Writes a move in UCI; `move` must be legal in `pos` (castling in king-takes-rook form). */
export const makeUciMove = (pos: Chess, move: NormalMove, style: CastlingStyle): string => {
  const promotion = move.promotion ? roleToChar(move.promotion) : '';
  if (style === 'king-to') {
    const side = castlingSideOf(pos, move);
    if (side !== undefined) {
      const kingTo = kingCastlesTo(pos.turn, side);
      // King-to is ambiguous when the king could also step there, and impossible when it is
      // already there; then the rook's square is the only faithful name.
      if (kingTo !== move.from && !pos.dests(move.from).has(kingTo)) {
        return makeSquare(move.from) + makeSquare(kingTo);
      }
    }
  }
  return makeSquare(move.from) + makeSquare(move.to) + promotion;
};

const illegal = (pos: Chess, text: string, why: string): Result<NormalMove, KishiError> =>
  Result.err(
    new KishiError(MOVE_ERRORS.IllegalMove, `illegal move "${text}" in position "${makeFen(pos.toSetup())}": ${why}`),
  );

/**
 * Parses a UCI move and checks that it is legal in `pos`. Castling may be written in either
 * form; the result is always the canonical move (castling as king takes rook).
 */
export const parseUciMove = (pos: Chess, text: string): Result<NormalMove, KishiError> => {
  const m = UCI_MOVE.exec(text);
  if (!m || m[1] === m[2]) {
    return Result.err(
      new KishiError(
        MOVE_ERRORS.BadMove,
        `malformed UCI move "${text}" in position "${makeFen(pos.toSetup())}": expected from and to squares and an optional promotion piece, e.g. "e2e4" or "e7e8q"`,
      ),
    );
  }
  const from = parseSquare(m[1]!)!;
  const to = parseSquare(m[2]!)!;
  const promotion = m[3] ? charToRole(m[3]) : undefined;
  const piece = pos.board.get(from);
  if (!piece) return illegal(pos, text, `there is no piece on ${m[1]}`);
  if (piece.color !== pos.turn) return illegal(pos, text, `the piece on ${m[1]} is ${piece.color}'s but ${pos.turn} is to move`);

  const ctx = pos.ctx();
  const dests = pos.dests(from, ctx);
  if (piece.role === 'king') {
    if (promotion) return illegal(pos, text, 'only pawns promote');
    if (dests.has(to)) return Result.ok({ from, to }); // an ordinary king move or king takes rook
    for (const side of CASTLING_SIDES) {
      const rook = pos.castles.rook[pos.turn][side];
      if (rook === undefined) continue;
      if (rook === to) return illegal(pos, text, `castling with the rook on ${m[2]} is not legal here`);
      if (kingCastlesTo(pos.turn, side) === to) {
        if (dests.has(rook)) return Result.ok({ from, to: rook });
        return illegal(pos, text, `castling with the king to ${m[2]} is not legal here`);
      }
    }
    return illegal(pos, text, `the king on ${m[1]} cannot go to ${m[2]}`);
  }
  if (!dests.has(to)) return illegal(pos, text, `the ${piece.role} on ${m[1]} cannot go to ${m[2]}`);
  const promoting = piece.role === 'pawn' && isBackrank(to);
  if (promoting && !promotion) return illegal(pos, text, 'a pawn reaching the last rank must promote (add q, r, b or n)');
  if (!promoting && promotion) return illegal(pos, text, 'only a pawn reaching the last rank promotes');
  return Result.ok(promotion ? { from, to, promotion } : { from, to });
};
