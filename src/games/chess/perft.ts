/**
 * Perft (performance test, move path enumeration) for chess: the number of leaf nodes of the
 * legal move tree to a fixed depth, compared against published counts to pin move generation
 * (https://www.chessprogramming.org/Perft). Pure code; `kishi perft` prints the results.
 *
 * - `perft` / `divide` run on a copy of the game's chessops position directly: make/unmake by
 *   saving and restoring the fields `Chess.play` changes (instead of a clone per move), and bulk
 *   counting at depth 1 (the number of legal moves, promotions counted four times), as chessops'
 *   own `debug.perft` does but without building its `Map` of destinations.
 * - `chessopsPerft` runs chessops' own `perft` from `chessops/debug`, for comparison.
 * - `perftGameState` walks any `GameState` through `legalMoves`/`play`/`undo` (slow; it checks
 *   the adapter itself, keys and history included).
 *
 * Perft ignores game ends by rule (repetition, fifty moves, insufficient material), as usual.
 */
import type { Chess } from 'chessops/chess';
import { perft as chessopsDebugPerft } from 'chessops/debug';
import { SquareSet } from 'chessops/squareSet';
import type { Color, NormalMove, Square } from 'chessops/types';
import { squareRank } from 'chessops/util';
import type { GameState } from '../../core/game.js';
import type { ChessGame } from './chess-game.js';
import { PROMOTION_ROLES } from './uci.js';

const RANK_1 = SquareSet.fromRank(0);
const RANK_8 = SquareSet.fromRank(7);

/**
 * Everything `Chess.play` changes, saved so that a move can be taken back without cloning. The
 * board's sets are immutable `SquareSet`s that `play` replaces, never mutates, so saving the
 * references is enough; `castles.path` and the (unused) pockets and check counters are untouched.
 */
interface Saved {
  occupied: SquareSet;
  promoted: SquareSet;
  white: SquareSet;
  black: SquareSet;
  pawn: SquareSet;
  knight: SquareSet;
  bishop: SquareSet;
  rook: SquareSet;
  queen: SquareSet;
  king: SquareSet;
  castlingRights: SquareSet;
  whiteA: Square | undefined;
  whiteH: Square | undefined;
  blackA: Square | undefined;
  blackH: Square | undefined;
  turn: Color;
  epSquare: Square | undefined;
  halfmoves: number;
  fullmoves: number;
}

const save = (pos: Chess): Saved => {
  const b = pos.board;
  const rook = pos.castles.rook;
  return {
    occupied: b.occupied,
    promoted: b.promoted,
    white: b.white,
    black: b.black,
    pawn: b.pawn,
    knight: b.knight,
    bishop: b.bishop,
    rook: b.rook,
    queen: b.queen,
    king: b.king,
    castlingRights: pos.castles.castlingRights,
    whiteA: rook.white.a,
    whiteH: rook.white.h,
    blackA: rook.black.a,
    blackH: rook.black.h,
    turn: pos.turn,
    epSquare: pos.epSquare,
    halfmoves: pos.halfmoves,
    fullmoves: pos.fullmoves,
  };
};

const restore = (pos: Chess, s: Saved): void => {
  const b = pos.board;
  b.occupied = s.occupied;
  b.promoted = s.promoted;
  b.white = s.white;
  b.black = s.black;
  b.pawn = s.pawn;
  b.knight = s.knight;
  b.bishop = s.bishop;
  b.rook = s.rook;
  b.queen = s.queen;
  b.king = s.king;
  const rook = pos.castles.rook;
  pos.castles.castlingRights = s.castlingRights;
  rook.white.a = s.whiteA;
  rook.white.h = s.whiteH;
  rook.black.a = s.blackA;
  rook.black.h = s.blackH;
  pos.turn = s.turn;
  pos.epSquare = s.epSquare;
  pos.halfmoves = s.halfmoves;
  pos.fullmoves = s.fullmoves;
};

/** Perft by make/unmake on `pos` (restored on return); depth >= 1. */
const count = (pos: Chess, depth: number): number => {
  const ctx = pos.ctx();
  const pawns = pos.board.pawn;
  let nodes = 0;
  if (depth === 1) {
    const lastRank = pos.turn === 'white' ? RANK_8 : RANK_1;
    for (const from of pos.board[pos.turn]) {
      const dests = pos.dests(from, ctx);
      nodes += dests.size();
      if (pawns.has(from)) nodes += 3 * dests.intersect(lastRank).size();
    }
    return nodes;
  }
  const saved = save(pos);
  const promotionFrom = pos.turn === 'white' ? 6 : 1;
  for (const from of saved[saved.turn]) {
    const dests = pos.dests(from, ctx);
    if (dests.isEmpty()) continue;
    if (pawns.has(from) && squareRank(from) === promotionFrom) {
      for (const to of dests) {
        for (const promotion of PROMOTION_ROLES) {
          pos.play({ from, to, promotion });
          nodes += count(pos, depth - 1);
          restore(pos, saved);
        }
      }
    } else {
      for (const to of dests) {
        pos.play({ from, to });
        nodes += count(pos, depth - 1);
        restore(pos, saved);
      }
    }
  }
  return nodes;
};

/** Perft of a chessops position (not modified: the walk runs on a copy). Depth 0 counts the position itself. */
export const perftPosition = (pos: Readonly<Chess>, depth: number): number =>
  depth < 1 ? 1 : count(pos.clone(), depth);

/** Perft of the game's current position (the game is not modified). */
export const perft = (game: ChessGame, depth: number): number => perftPosition(game.positionView(), depth);

/** One root move of a `divide`: the move, its UCI text in the game's castling style, and its subtree count. */
export interface DivideEntry {
  readonly move: NormalMove;
  readonly uci: string;
  readonly nodes: number;
}

/**
 * Perft split by root move (depth >= 1), in `legalMoves` order; the entries' `nodes` sum to
 * `perft(game, depth)`. Used to find the move where two generators disagree.
 */
export const divide = (game: ChessGame, depth: number): DivideEntry[] => {
  if (depth < 1) return [];
  const root = game.positionView();
  return game.legalMoves().map(move => {
    const child = root.clone();
    child.play(move);
    return { move, uci: game.moveToText(move), nodes: perftPosition(child, depth - 1) };
  });
};

/** chessops' own `debug.perft` on the game's current position, for comparison. */
export const chessopsPerft = (game: ChessGame, depth: number): number => chessopsDebugPerft(game.position(), depth, false);

/**
 * Perft through the `GameState` interface only (`legalMoves`, `play`, `undo`); slow, but it
 * exercises exactly what the search uses. The game is restored before returning.
 */
export const perftGameState = <M>(game: GameState<M>, depth: number): number => {
  if (depth < 1) return 1;
  const moves = game.legalMoves();
  if (depth === 1) return moves.length;
  let nodes = 0;
  for (const move of moves) {
    game.play(move);
    nodes += perftGameState(game, depth - 1);
    game.undo();
  }
  return nodes;
};
