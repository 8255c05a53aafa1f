/**
 * `SearchBoard` over the internal chess board (`src/games/chess/fast/`) with the linear evaluation,
 * or the network evaluation when one is given (its accumulators follow make/unmake).
 */
import { Result } from '@badrap/result';
import { KishiError } from '../../core/result.js';
import { FastChessBoard } from '../../games/chess/fast/board.js';
import * as pieceModule from '../../games/chess/fast/piece.js';
import { see, seeGe } from '../../games/chess/fast/see.js';
import * as zobristModule from '../../games/chess/fast/zobrist.js';
import type { ChessLinearEval } from '../../eval/linear/chess-eval.js';
import type { ChessNnue } from '../../eval/nnue/chess-nnue.js';
import * as scoreModule from './score.js';
import type { SearchBoard } from './search-board.js';
import * as boardModule from './search-board.js';

// Imported constants copied into module scope: under vitest's module transform every use of an
// import is a property read through a getter, several times slower in the hot loops.
const { BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK } = pieceModule;
const { clipEval } = scoreModule;
const { Z_PIECE_LO } = zobristModule;
const { RULE_DRAW, RULE_NONE } = boardModule;

export const CHESS_START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** MVV-LVA values by piece type (index 0 unused, king last). */
const ORDER_VALUE = [0, 1, 3, 3, 5, 9, 10];

export class ChessSearchBoard implements SearchBoard {
  readonly game = 'chess' as const;
  readonly maxMoves = 256;
  /** Moving piece type (1..6) x destination square. */
  readonly historySize = 8 * 64;

  constructor(
    readonly board: FastChessBoard,
    readonly evaluator: ChessLinearEval,
    readonly nnue?: ChessNnue,
  ) {
    evaluator.attach(board);
    nnue?.attach(board);
  }

  /** A board from a FEN (`startpos` accepted) and UCI moves; `ERR_FEN` / `ERR_ILLEGAL_MOVE` on bad input. */
  static fromText(
    fen: string,
    moves: readonly string[],
    evaluator: ChessLinearEval,
    chess960 = false,
    nnue?: ChessNnue,
  ): Result<ChessSearchBoard, KishiError> {
    const b = FastChessBoard.fromFen(fen === 'startpos' ? CHESS_START_FEN : fen, chess960);
    if (b.isErr) return Result.err(b.error);
    const board = b.value;
    for (const text of moves) {
      const m = board.parseUci(text);
      if (m === 0) return Result.err(new KishiError('ERR_ILLEGAL_MOVE', `illegal move ${JSON.stringify(text)} in ${board.toFen()}`));
      board.makeMove(m);
    }
    return Result.ok(new ChessSearchBoard(board, evaluator, nnue));
  }

  sideToMove(): number {
    return this.board.turn;
  }

  generate(list: Int32Array, tactical: boolean): number {
    return this.board.generateMoves(list, tactical, 0);
  }

  make(move: number): void {
    this.nnue?.make(this.board, move);
    this.board.makeMove(move);
  }

  unmake(): void {
    this.board.unmakeMove();
    this.nnue?.unmake();
  }

  makeNull(): void {
    this.nnue?.makeNull();
    this.board.makeNullMove();
  }

  inCheck(): boolean {
    return this.board.inCheck();
  }

  givesCheck(move: number): boolean {
    return this.board.givesCheck(move);
  }

  keyHi(): number {
    return this.board.hashHi;
  }

  keyLo(): number {
    return this.board.hashLo;
  }

  ruleState(): number {
    const b = this.board;
    if (b.halfmoveClock >= 100 && !b.inCheck()) return RULE_DRAW;
    if (b.isRepetition()) return RULE_DRAW;
    const c = b.pieceCounts;
    if (c[PAWN]! + c[8 | PAWN]! + c[ROOK]! + c[8 | ROOK]! + c[QUEEN]! + c[8 | QUEEN]! === 0) {
      if (c[KNIGHT]! + c[8 | KNIGHT]! + c[BISHOP]! + c[8 | BISHOP]! <= 1) return RULE_DRAW;
    }
    return RULE_NONE;
  }

  noMovesIsLoss(inCheck: boolean): boolean {
    return inCheck;
  }

  nullMoveOk(): boolean {
    const c = this.board.pieceCounts;
    const u = this.board.turn << 3;
    return c[u | KNIGHT]! + c[u | BISHOP]! + c[u | ROOK]! + c[u | QUEEN]! > 0;
  }

  tacticalOrder(m: number): number {
    const captured = (m >> 17) & 7;
    const promotion = (m >> 12) & 7;
    if (captured === 0 && promotion === 0) return 0;
    // Victim first, then the cheaper attacker; a queen promotion counts like winning a queen.
    return 1 + (ORDER_VALUE[captured]! + (promotion === QUEEN ? 8 : 0)) * 16 + (15 - ORDER_VALUE[(m >> 20) & 7]!);
  }

  isBadCapture(m: number): boolean {
    const captured = (m >> 17) & 7;
    if (captured === 0 || ((m >> 12) & 7) !== 0) return false;
    const piece = (m >> 20) & 7;
    if (piece === KING || ORDER_VALUE[piece]! <= ORDER_VALUE[captured]!) return false;
    return this.board.isSquareAttacked((m >> 6) & 63, this.board.turn ^ 1);
  }

  see(m: number): number {
    return see(this.board, m);
  }

  seeGe(m: number, threshold: number): boolean {
    return seeGe(this.board, m, threshold);
  }

  /** Zobrist key of the pawns alone (the pawn structure). */
  correctionKey(): number {
    const b = this.board;
    const list = b.pieceList;
    const sq = b.squares;
    let key = 0;
    for (let c = 0; c < 2; c++) {
      const end = c * 16 + b.listSize[c]!;
      for (let i = c * 16 + 1; i < end; i++) {
        const s88 = list[i]!;
        const p = sq[s88]!;
        if ((p & 7) === PAWN) key ^= Z_PIECE_LO[p * 64 + ((s88 + (s88 & 7)) >> 1)]!;
      }
    }
    return key;
  }

  historyIndex(m: number): number {
    return (((m >> 20) & 7) << 6) | ((m >> 6) & 63);
  }

  evaluate(): number {
    if (this.nnue !== undefined) return clipEval(this.nnue.evaluate(this.board));
    const v = this.evaluator.evaluateWhite(this.board);
    return clipEval(this.board.turn === 0 ? v : -v);
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
