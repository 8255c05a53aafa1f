/**
 * `ChessGame`: the chess implementation of `GameState`, over chessops (pure code, no I/O).
 *
 * - Starts: the standard position, a Chess960 start by Scharnagl number, or any FEN (X-FEN and
 *   Shredder-FEN castling as chessops reads them). `chess960` is a property of the game, not of
 *   the position: it picks the default UCI castling notation, and without it castling rights are
 *   kept only for a king on e1/e8 with rooks on the corners (standard chess, as python-chess does).
 * - Moves are chessops `NormalMove`s; castling is always king-takes-rook internally (see uci.ts).
 * - History: every position played through is kept, so `undo`, repetition and `clone` work;
 *   positions are never mutated once made (`play` builds the next one from a clone), so clones
 *   share history entries safely.
 * - Keys: Zobrist keys over Polyglot's table, updated incrementally in `play` and restored by
 *   `undo` (see zobrist.ts for the en passant and castling conventions).
 * - Outcome, in this order: checkmate, stalemate, insufficient material (chessops' rule, as on
 *   lichess: neither side can possibly mate), fifty-move rule (halfmove clock >= 100, checked
 *   after mate so that a mate on the 100th halfmove stands: checkmate ends the game at once, FIDE
 *   Laws 5.1.1, and lichess agrees), threefold repetition (board, side to move, castling rights,
 *   and the en passant square only when an en passant capture is legal). The fifty-move and
 *   threefold draws count as reached, not merely claimable, as engines treat them.
 */
import { boardEquals } from 'chessops/board';
import { castlingSide, Chess } from 'chessops/chess';
import { INITIAL_FEN, makeFen, parseFen } from 'chessops/fen';
import type { Setup } from 'chessops/setup';
import { SquareSet } from 'chessops/squareSet';
import type { Move, NormalMove, Square } from 'chessops/types';
import { isDrop } from 'chessops/types';
import { kingCastlesTo, makeUci, opposite, rookCastlesTo, squareRank } from 'chessops/util';
import type { GameState, Outcome, Side } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import { chess960Fen } from './chess960.js';
import type { CastlingStyle } from './uci.js';
import { makeUciMove, parseUciMove, PROMOTION_ROLES } from './uci.js';
import type { KeyParts } from './zobrist.js';
import {
  epIndex,
  legalEpSquare,
  pieceIndex,
  toBigInt,
  TURN_INDEX,
  xorCastling,
  xorEntry,
  zobristKey,
  zobristParts,
} from './zobrist.js';

/** Error codes for building a game from text. */
export const SETUP_ERRORS = {
  /** The FEN text cannot be parsed. */
  Fen: 'ERR_FEN',
  /** The FEN parses but is not a legal chess position (kings, pawns on the back rank, ...). */
  Position: 'ERR_POSITION',
  /** A Chess960 start-position number outside 0..959. */
  Chess960: 'ERR_CHESS960',
} as const;

/** Options of a chess game. */
export interface ChessGameOptions {
  /** Chess960 rules for castling notation and FEN castling rights; default false. */
  readonly chess960?: boolean;
  /** How `moveToText` writes castling; default `king-takes-rook` in Chess960, else `king-to`. */
  readonly castling?: CastlingStyle;
}

const FEN_ERROR_TEXT: Readonly<Record<string, string>> = {
  ERR_FEN: 'malformed FEN (too many fields?)',
  ERR_BOARD: 'bad piece placement field (expected 8 ranks of 8 squares separated by "/", pieces from PNBRQKpnbrqk)',
  ERR_POCKETS: 'bad pockets field',
  ERR_TURN: 'bad side-to-move field (expected "w" or "b")',
  ERR_CASTLING: 'bad castling field (expected "-", KQkq, or rook files A-H/a-h, at most two per side)',
  ERR_EP_SQUARE: 'bad en passant field (expected "-" or a square such as e3)',
  ERR_REMAINING_CHECKS: 'unexpected fields after the fullmove number (or a bad three-check field)',
  ERR_HALFMOVES: 'bad halfmove clock (expected a number 0..9999)',
  ERR_FULLMOVES: 'bad fullmove number (expected a number 1..9999)',
};

const POSITION_ERROR_TEXT: Readonly<Record<string, string>> = {
  ERR_EMPTY: 'the board is empty',
  ERR_KINGS: 'each side needs exactly one king',
  ERR_OPPOSITE_CHECK: 'the side not to move is in check',
  ERR_PAWNS_ON_BACKRANK: 'there are pawns on the first or last rank',
  ERR_VARIANT: 'not a standard chess position',
};

/** Castling rights of standard chess: king on e1/e8, rooks on the corners. */
const standardCastlingRights = (setup: Setup): SquareSet => {
  let rights = SquareSet.empty();
  for (const [color, king, a, h] of [
    ['white', 4, 0, 7],
    ['black', 60, 56, 63],
  ] as const) {
    if (setup.board.kingOf(color) !== king) continue;
    if (setup.castlingRights.has(a)) rights = rights.with(a);
    if (setup.castlingRights.has(h)) rights = rights.with(h);
  }
  return rights;
};

const sideOf = (color: 'white' | 'black'): Side => (color === 'white' ? 'first' : 'second');

/** One ply of history: the position before the move, its key and legal en passant square. */
interface Ply {
  readonly pos: Chess;
  readonly hi: number;
  readonly lo: number;
  readonly ep: Square | undefined;
  readonly move: NormalMove;
}

/** A chess game: a chessops position plus its history, keys and notation settings. */
export class ChessGame implements GameState<Move> {
  readonly kind = 'chess' as const;
  /** Whether this game follows Chess960 conventions (see `ChessGameOptions`). */
  readonly chess960: boolean;
  /** How `moveToText` writes castling. */
  readonly castling: CastlingStyle;

  private pos: Chess;
  private hi: number;
  private lo: number;
  /** The en passant square of `pos` when a capture onto it is legal. */
  private ep: Square | undefined;
  private readonly history: Ply[];

  private constructor(pos: Chess, options: ChessGameOptions, from?: ChessGame) {
    this.chess960 = options.chess960 ?? false;
    this.castling = options.castling ?? (this.chess960 ? 'king-takes-rook' : 'king-to');
    this.pos = pos;
    if (from) {
      this.hi = from.hi;
      this.lo = from.lo;
      this.ep = from.ep;
      this.history = from.history.slice();
    } else {
      const key = zobristParts(pos);
      this.hi = key.hi;
      this.lo = key.lo;
      this.ep = legalEpSquare(pos);
      this.history = [];
    }
  }

  /** The standard start position. */
  static standard(options: ChessGameOptions = {}): ChessGame {
    return ChessGame.fromFen(INITIAL_FEN, options).unwrap();
  }

  /** Chess960 start position number `n` (0..959, Scharnagl numbering; 518 is the standard one). */
  static fromChess960(n: number, options: Omit<ChessGameOptions, 'chess960'> = {}): Result<ChessGame, KishiError> {
    const fen = chess960Fen(n);
    if (fen === undefined) {
      return Result.err(
        new KishiError(SETUP_ERRORS.Chess960, `Chess960 start position number must be an integer 0..959, got ${n}`),
      );
    }
    return ChessGame.fromFen(fen, { ...options, chess960: true });
  }

  /**
   * A game from a FEN; `startpos` means the standard start position. Returns ERR_FEN when the text
   * does not parse and ERR_POSITION when it is not a legal position, quoting the FEN either way.
   */
  static fromFen(fen: string, options: ChessGameOptions = {}): Result<ChessGame, KishiError> {
    const text = fen.trim();
    const parsed = parseFen(text === 'startpos' ? INITIAL_FEN : text);
    if (parsed.isErr) {
      const why = FEN_ERROR_TEXT[parsed.error.message] ?? parsed.error.message;
      return Result.err(new KishiError(SETUP_ERRORS.Fen, `invalid FEN "${fen}": ${why}`));
    }
    const setup = parsed.value;
    if (setup.pockets !== undefined || setup.remainingChecks !== undefined) {
      return Result.err(
        new KishiError(SETUP_ERRORS.Fen, `invalid FEN "${fen}": pockets or remaining checks are not part of standard chess`),
      );
    }
    if (!options.chess960) setup.castlingRights = standardCastlingRights(setup);
    const pos = Chess.fromSetup(setup);
    if (pos.isErr) {
      const why = POSITION_ERROR_TEXT[pos.error.message] ?? pos.error.message;
      return Result.err(new KishiError(SETUP_ERRORS.Position, `illegal position in FEN "${fen}": ${why}`));
    }
    return Result.ok(new ChessGame(pos.value, options));
  }

  /** A game starting from a copy of a chessops position. */
  static fromPosition(pos: Chess, options: ChessGameOptions = {}): ChessGame {
    return new ChessGame(pos.clone(), options);
  }

  turn(): Side {
    return sideOf(this.pos.turn);
  }

  plies(): number {
    return this.history.length;
  }

  /** The halfmove clock (plies since the last capture or pawn move, FEN's fifth field). */
  halfmoveClock(): number {
    return this.pos.halfmoves;
  }

  /** The moves played since the start position, oldest first. */
  moves(): NormalMove[] {
    return this.history.map(ply => ply.move);
  }

  /** FEN of the position this game started from. */
  startFen(): string {
    const first = this.history[0];
    return makeFen((first ? first.pos : this.pos).toSetup());
  }

  /** A copy of the current chessops position (safe to mutate). */
  position(): Chess {
    return this.pos.clone();
  }

  /**
   * The current chessops position itself, for fast read-only access (evaluation, encoders).
   * Never mutate it: positions are shared with the history and with clones.
   */
  positionView(): Readonly<Chess> {
    return this.pos;
  }

  legalMoves(): NormalMove[] {
    const pos = this.pos;
    const ctx = pos.ctx();
    const moves: NormalMove[] = [];
    const promotionFrom = pos.turn === 'white' ? 6 : 1;
    for (const from of pos.board[pos.turn]) {
      const dests = pos.dests(from, ctx);
      if (dests.isEmpty()) continue;
      if (pos.board.pawn.has(from) && squareRank(from) === promotionFrom) {
        for (const to of dests) for (const promotion of PROMOTION_ROLES) moves.push({ from, to, promotion });
      } else {
        for (const to of dests) moves.push({ from, to });
      }
    }
    return moves;
  }

  /** Whether `move` is legal here, in the canonical form `legalMoves` returns (castling as king takes rook). */
  isLegal(move: Move): boolean {
    if (isDrop(move)) return false;
    const pos = this.pos;
    const piece = pos.board.get(move.from);
    if (!piece || piece.color !== pos.turn) return false;
    const rank = squareRank(move.to);
    const promoting = piece.role === 'pawn' && (rank === 0 || rank === 7);
    if (promoting !== (move.promotion !== undefined)) return false;
    if (promoting && !PROMOTION_ROLES.includes(move.promotion!)) return false;
    return pos.dests(move.from).has(move.to);
  }

  play(move: Move): void {
    if (isDrop(move)) throw new Error(`ChessGame.play: there are no drops in chess (${JSON.stringify(move)})`);
    const pos = this.pos;
    const turn = pos.turn;
    const piece = pos.board.get(move.from);
    if (!piece || piece.color !== turn) {
      throw new Error(`ChessGame.play: no ${turn} piece on the from square of ${makeUci(move)} in ${this.toText()}`);
    }
    const key: KeyParts = { hi: this.hi, lo: this.lo };
    if (this.ep !== undefined) xorEntry(key, epIndex(this.ep));
    xorCastling(key, pos);
    const side = castlingSide(pos, move);
    if (side !== undefined) {
      const rookFrom = pos.castles.rook[turn][side];
      if (rookFrom === undefined) {
        throw new Error(`ChessGame.play: castling ${makeUci(move)} without the right in ${this.toText()}`);
      }
      const rook = { role: 'rook', color: turn } as const;
      xorEntry(key, pieceIndex(piece, move.from));
      xorEntry(key, pieceIndex(piece, kingCastlesTo(turn, side)));
      xorEntry(key, pieceIndex(rook, rookFrom));
      xorEntry(key, pieceIndex(rook, rookCastlesTo(turn, side)));
    } else {
      xorEntry(key, pieceIndex(piece, move.from));
      const captured = pos.board.get(move.to);
      if (captured) xorEntry(key, pieceIndex(captured, move.to));
      else if (piece.role === 'pawn' && move.to === pos.epSquare) {
        xorEntry(key, pieceIndex({ role: 'pawn', color: opposite(turn) }, move.to + (turn === 'white' ? -8 : 8)));
      }
      const placed = move.promotion ? { role: move.promotion, color: turn } : piece;
      xorEntry(key, pieceIndex(placed, move.to));
    }
    const next = pos.clone();
    next.play(move);
    xorCastling(key, next);
    xorEntry(key, TURN_INDEX);
    const ep = legalEpSquare(next);
    if (ep !== undefined) xorEntry(key, epIndex(ep));

    this.history.push({ pos, hi: this.hi, lo: this.lo, ep: this.ep, move });
    this.pos = next;
    this.hi = key.hi;
    this.lo = key.lo;
    this.ep = ep;
  }

  undo(): void {
    const ply = this.history.pop();
    if (!ply) throw new Error('ChessGame.undo: no move to take back');
    this.pos = ply.pos;
    this.hi = ply.hi;
    this.lo = ply.lo;
    this.ep = ply.ep;
  }

  clone(): ChessGame {
    return new ChessGame(this.pos, { chess960: this.chess960, castling: this.castling }, this);
  }

  isCheck(): boolean {
    return this.pos.isCheck();
  }

  /**
   * How often the current position has occurred in this game's history, itself included
   * (1 when it is new). Only positions since the last capture or pawn move can match.
   */
  repetitions(): number {
    const pos = this.pos;
    const history = this.history;
    const n = history.length;
    const limit = Math.min(pos.halfmoves, n);
    let count = 1;
    for (let back = 2; back <= limit; back += 2) {
      const ply = history[n - back]!;
      if (
        ply.hi === this.hi &&
        ply.lo === this.lo &&
        ply.ep === this.ep &&
        ply.pos.turn === pos.turn &&
        ply.pos.castles.castlingRights.equals(pos.castles.castlingRights) &&
        boardEquals(ply.pos.board, pos.board)
      ) {
        count++;
      }
    }
    return count;
  }

  outcome(): Outcome | undefined {
    const pos = this.pos;
    const ctx = pos.ctx();
    if (!pos.hasDests(ctx)) {
      return ctx.checkers.nonEmpty()
        ? { winner: sideOf(opposite(pos.turn)), reason: 'checkmate' }
        : { winner: undefined, reason: 'stalemate' };
    }
    if (pos.isInsufficientMaterial()) return { winner: undefined, reason: 'insufficient-material' };
    if (pos.halfmoves >= 100) return { winner: undefined, reason: 'fifty-moves' };
    if (this.repetitions() >= 3) return { winner: undefined, reason: 'threefold-repetition' };
    return undefined;
  }

  key(): bigint {
    return toBigInt(this.hi, this.lo);
  }

  recomputeKey(): bigint {
    return zobristKey(this.pos);
  }

  /** The position as FEN; the en passant square is written only when a capture onto it is legal. */
  toText(): string {
    return makeFen(this.pos.toSetup());
  }

  /** The move in UCI, castling written in this game's `castling` style. */
  moveToText(move: Move): string {
    return this.moveToUci(move, this.castling);
  }

  /** The move in UCI with castling written in the given style. */
  moveToUci(move: Move, style: CastlingStyle): string {
    if (isDrop(move)) throw new Error(`ChessGame.moveToUci: there are no drops in chess (${JSON.stringify(move)})`);
    return makeUciMove(this.pos, move, style);
  }

  /** Parses a UCI move (either castling form) and checks that it is legal; ERR_BAD_MOVE / ERR_ILLEGAL_MOVE otherwise. */
  parseMove(text: string): Result<NormalMove, KishiError> {
    return parseUciMove(this.pos, text);
  }

  /** Parses and plays a UCI move; returns the move played, or the parse error (and plays nothing). */
  playUci(text: string): Result<NormalMove, KishiError> {
    const move = parseUciMove(this.pos, text);
    if (move.isOk) this.play(move.value);
    return move;
  }
}
