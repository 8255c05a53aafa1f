/**
 * `SearchBoard` over the internal shogi board (`src/games/shogi/fast/`) with the linear evaluation,
 * or the network evaluation when one is given (its accumulators follow make/unmake).
 */
import { Result } from '@badrap/result';
import { KishiError } from '../../core/result.js';
import { FastShogiBoard, MAX_MOVES } from '../../games/shogi/fast/board.js';
import { canDeclareWin } from '../../games/shogi/fast/declaration.js';
import { mateIn1 } from '../../games/shogi/fast/mate1.js';
import * as piecesModule from '../../games/shogi/fast/pieces.js';
import { Repetition } from '../../games/shogi/fast/repetition.js';
import { see, seeGe } from '../../games/shogi/fast/see.js';
import * as squaresModule from '../../games/shogi/fast/squares.js';
import type { ShogiLinearEval } from '../../eval/linear/shogi-eval.js';
import type { ShogiNnue } from '../../eval/nnue/shogi-nnue.js';
import * as scoreModule from './score.js';
import type { SearchBoard } from './search-board.js';
import * as boardModule from './search-board.js';

// Imported constants copied into module scope: under vitest's module transform every use of an
// import is a property read through a getter, several times slower in the hot loops.
const { BLACK, BLACK_BIT, KING, WHITE_BIT } = piecesModule;
const { TO_81 } = squaresModule;
const { clipEval } = scoreModule;
const { RULE_DRAW, RULE_LOSS, RULE_NONE, RULE_WIN } = boardModule;

export const SHOGI_START_SFEN = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';

/** MVV-LVA values by type (1..14). */
const ORDER_VALUE = [0, 1, 3, 4, 5, 8, 10, 6, 0, 6, 6, 6, 6, 11, 13];
/** What promoting adds, in the same units, by unpromoted type. */
const PROMO_GAIN = [0, 5, 3, 2, 1, 3, 3, 0, 0];
const DROP_SHIFT = 17;
const PROMOTE_FLAG = 1 << 16;
/** Size of the repetition pre-filter (counts of key low bits on the current path). */
const REP_FILTER_SIZE = 1 << 16;

export class ShogiSearchBoard implements SearchBoard {
  readonly game = 'shogi' as const;
  readonly maxMoves = MAX_MOVES;
  /** Arriving piece (1..14 on the board, 16..22 drops) x destination. */
  readonly historySize = 23 * 81;
  /** Occurrences of each key's low 16 bits in the history: only a hit can be a repetition. */
  private readonly repFilter = new Uint16Array(REP_FILTER_SIZE);

  constructor(
    readonly board: FastShogiBoard,
    readonly evaluator: ShogiLinearEval,
    readonly nnue?: ShogiNnue,
  ) {
    nnue?.attach(board);
    for (let i = 0; i <= board.ply; i++) this.repFilter[board.keyAt(i)[1] & (REP_FILTER_SIZE - 1)]!++;
  }

  /** A board from an SFEN (`startpos` accepted) and USI moves; `ERR_SFEN` / `ERR_ILLEGAL_MOVE` on bad input. */
  static fromText(sfen: string, moves: readonly string[], evaluator: ShogiLinearEval, nnue?: ShogiNnue): Result<ShogiSearchBoard, KishiError> {
    const b = FastShogiBoard.fromSfen(sfen === 'startpos' ? SHOGI_START_SFEN : sfen);
    if (b.isErr) return Result.err(b.error);
    const board = b.value;
    for (const text of moves) {
      const m = board.parseUsi(text);
      if (m === undefined) return Result.err(new KishiError('ERR_ILLEGAL_MOVE', `illegal move ${JSON.stringify(text)} in ${board.toSfen()}`));
      board.makeMove(m);
    }
    return Result.ok(new ShogiSearchBoard(board, evaluator, nnue));
  }

  sideToMove(): number {
    return this.board.turn;
  }

  generate(list: Int32Array, tactical: boolean): number {
    return this.board.generateMoves(list, tactical);
  }

  make(move: number): void {
    this.nnue?.make(this.board, move);
    this.board.makeMove(move);
    this.repFilter[this.board.hashLo & (REP_FILTER_SIZE - 1)]!++;
  }

  unmake(): void {
    this.repFilter[this.board.hashLo & (REP_FILTER_SIZE - 1)]!--;
    this.board.unmakeMove();
    this.nnue?.unmake();
  }

  makeNull(): void {
    this.nnue?.makeNull();
    this.board.makeNullMove();
    this.repFilter[this.board.hashLo & (REP_FILTER_SIZE - 1)]!++;
  }

  inCheck(): boolean {
    return this.board.inCheck();
  }

  givesCheck(move: number): boolean {
    return this.board.givesCheck(move);
  }

  mateIn1(): number {
    return mateIn1(this.board);
  }

  keyHi(): number {
    return this.board.hashHi;
  }

  keyLo(): number {
    return this.board.hashLo;
  }

  /**
   * Sennichite and perpetual check (`FastShogiBoard.repetition`, one earlier occurrence), then the
   * entering-king declaration (CSA 27-point rule, fast/declaration.ts): a side to move that may
   * declare has won, as the engine declares at its root (player/alphabeta-engine.ts).
   */
  ruleState(): number {
    if (this.repFilter[this.board.hashLo & (REP_FILTER_SIZE - 1)]! < 2) return canDeclareWin(this.board) ? RULE_WIN : RULE_NONE;
    switch (this.board.repetition(1)) {
      case Repetition.Draw:
        return RULE_DRAW;
      case Repetition.Win:
        return RULE_WIN;
      case Repetition.Loss:
        return RULE_LOSS;
      default:
        return canDeclareWin(this.board) ? RULE_WIN : RULE_NONE;
    }
  }

  /** Shogi has no stalemate: a side without a legal move has lost. */
  noMovesIsLoss(): boolean {
    return true;
  }

  nullMoveOk(): boolean {
    return true;
  }

  tacticalOrder(m: number): number {
    if (m >>> DROP_SHIFT !== 0) return 0;
    const b = this.board.board;
    const victim = b[(m >>> 8) & 255]! & 15;
    const promote = (m & PROMOTE_FLAG) !== 0;
    if (victim === 0 && !promote) return 0;
    const attacker = b[m & 255]! & 15;
    return 1 + 16 * (ORDER_VALUE[victim]! + (promote ? PROMO_GAIN[attacker]! : 0)) + (15 - ORDER_VALUE[attacker]!);
  }

  isBadCapture(m: number): boolean {
    if (m >>> DROP_SHIFT !== 0 || (m & PROMOTE_FLAG) !== 0) return false;
    const b = this.board.board;
    const to = (m >>> 8) & 255;
    const victim = b[to]! & 15;
    if (victim === 0) return false;
    const attacker = b[m & 255]! & 15;
    if (attacker === KING || ORDER_VALUE[attacker]! <= ORDER_VALUE[victim]!) return false;
    return this.board.attacked(to, this.board.turn === BLACK ? WHITE_BIT : BLACK_BIT);
  }

  see(m: number): number {
    return see(this.board, m);
  }

  seeGe(m: number, threshold: number): boolean {
    return seeGe(this.board, m, threshold);
  }

  /** A hash of both kings' squares and both hands (king safety and drops drive most misjudgements). */
  correctionKey(): number {
    const b = this.board;
    let key = Math.imul(b.kingSq[0]! + 1, 0x9e3779b1) ^ Math.imul(b.kingSq[1]! + 1, 0x85ebca6b);
    const h = b.hands;
    for (let i = 1; i < 16; i++) key = Math.imul(key ^ h[i]!, 0x27d4eb2d) + i;
    return key ^ (key >>> 15);
  }

  handCount(): number {
    const h = this.board.hands;
    let n = 0;
    for (let i = 1; i < 8; i++) n += h[i]! + h[8 + i]!;
    return n;
  }

  historyIndex(m: number): number {
    const to = TO_81[(m >>> 8) & 255]!;
    const drop = m >>> DROP_SHIFT;
    if (drop !== 0) return (15 + drop) * 81 + to;
    const type = this.board.board[m & 255]! & 15;
    return ((m & PROMOTE_FLAG) !== 0 ? type + 8 : type) * 81 + to;
  }

  evaluate(): number {
    if (this.nnue !== undefined) return clipEval(this.nnue.evaluate(this.board));
    const v = this.evaluator.evaluateBlack(this.board);
    return clipEval(this.board.turn === BLACK ? v : -v);
  }

  moveToText(move: number): string {
    return this.board.moveToUsi(move);
  }

  parseMove(text: string): number {
    return this.board.parseUsi(text) ?? 0;
  }

  toText(): string {
    return this.board.toSfen();
  }
}
