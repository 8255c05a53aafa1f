/**
 * `MctsBoard` over the internal chess board (`src/games/chess/fast/`) with the `kishi-chess-1`
 * encoding.
 */
import { KishiError, Result } from '../../core/result.js';
import { FastChessBoard } from '../../games/chess/fast/board.js';
import * as pieceModule from '../../games/chess/fast/piece.js';
import { CHESS_ENCODING, chessMoveIndices, chessRepetitions, encodeChess } from '../../nn/chess-encoding.js';
import { MOVE_COUNT_SCALE } from '../../nn/encoding.js';
import { mixKey, type MctsBoard } from './mcts-board.js';

// Copied into module scope: under vitest's module transform every import use is a getter call.
const { BISHOP, KNIGHT, PAWN, QUEEN, ROOK } = pieceModule;

export const CHESS_START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

export class ChessMctsBoard implements MctsBoard {
  readonly game = 'chess' as const;
  readonly spec = CHESS_ENCODING;
  readonly maxMoves = 256;

  constructor(readonly board: FastChessBoard) {}

  /** A board from a FEN (`startpos` accepted) and UCI moves; `ERR_FEN` / `ERR_ILLEGAL_MOVE` on bad input. */
  static fromText(fen: string, moves: readonly string[], chess960 = false): Result<ChessMctsBoard, KishiError> {
    const b = FastChessBoard.fromFen(fen === 'startpos' ? CHESS_START_FEN : fen, chess960);
    if (b.isErr) return Result.err(b.error);
    const board = b.value;
    for (const text of moves) {
      const m = board.parseUci(text);
      if (m === 0) return Result.err(new KishiError('ERR_ILLEGAL_MOVE', `illegal move ${JSON.stringify(text)} in ${board.toFen()}`));
      board.makeMove(m);
    }
    return Result.ok(new ChessMctsBoard(board));
  }

  sideToMove(): number {
    return this.board.turn;
  }

  generate(list: Int32Array): number {
    return this.board.generateMoves(list, false, 0);
  }

  make(move: number): void {
    this.board.makeMove(move);
  }

  unmake(): void {
    this.board.unmakeMove();
  }

  inCheck(): boolean {
    return this.board.inCheck();
  }

  terminalValue(legalCount: number): number {
    return this.result(legalCount, 1);
  }

  gameResult(legalCount: number): number {
    return this.result(legalCount, 2);
  }

  /** Terminal value with a draw at `earlier` earlier occurrences of the position. */
  private result(legalCount: number, earlier: number): number {
    const b = this.board;
    if (legalCount === 0) return b.inCheck() ? -1 : 0;
    if (b.halfmoveClock >= 100 || b.isRepetition(earlier)) return 0;
    const c = b.pieceCounts;
    if (c[PAWN]! + c[8 | PAWN]! + c[ROOK]! + c[8 | ROOK]! + c[QUEEN]! + c[8 | QUEEN]! === 0) {
      if (c[KNIGHT]! + c[8 | KNIGHT]! + c[BISHOP]! + c[8 | BISHOP]! <= 1) return 0;
    }
    return NaN;
  }

  private plies(): number {
    return (this.board.fullmoveNumber - 1) * 2 + this.board.turn;
  }

  encode(out: Float32Array, offset: number): void {
    encodeChess(this.board, { repetitions: chessRepetitions(this.board), plies: this.plies() }, out, offset);
  }

  moveIndices(moves: Int32Array, n: number, out: Int32Array): void {
    chessMoveIndices(this.board, moves, n, out);
  }

  cacheKey(): number {
    const b = this.board;
    // Everything the planes hold beyond the Zobrist key: repetitions, the no-progress counter and the move count.
    const extra = chessRepetitions(b) + 4 * Math.min(b.halfmoveClock, 100) + 512 * Math.min(this.plies(), MOVE_COUNT_SCALE);
    return mixKey(b.hashHi, b.hashLo, extra);
  }

  moveToText(move: number): string {
    return this.board.moveToUci(move);
  }

  parseMove(text: string): number {
    return this.board.parseUci(text);
  }

  toText(): string {
    return this.board.toFen();
  }
}
