/**
 * `MctsBoard` over the internal shogi board (`src/games/shogi/fast/`) with the `kishi-shogi-1`
 * encoding. A counting filter over the low key bits of the history makes the repetition checks
 * cheap: only a position whose filter count is at least 2 can be a repetition.
 */
import { KishiError, Result } from '../../core/result.js';
import { FastShogiBoard, MAX_MOVES } from '../../games/shogi/fast/board.js';
import { mateIn1 } from '../../games/shogi/fast/mate1.js';
import { Repetition } from '../../games/shogi/fast/repetition.js';
import { MOVE_COUNT_SCALE } from '../../nn/encoding.js';
import { SHOGI_ENCODING, encodeShogi, shogiMoveIndices, shogiRepetitions } from '../../nn/shogi-encoding.js';
import { mixKey, type MctsBoard } from './mcts-board.js';

export const SHOGI_START_SFEN = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';

const FILTER_SIZE = 1 << 16;

export class ShogiMctsBoard implements MctsBoard {
  readonly game = 'shogi' as const;
  readonly spec = SHOGI_ENCODING;
  readonly maxMoves = MAX_MOVES;
  private readonly filter = new Uint16Array(FILTER_SIZE);
  /** Plies played before `board`'s set-up position (SFEN move number - 1). */
  private readonly startPlies: number;

  constructor(
    readonly board: FastShogiBoard,
    startPlies: number,
  ) {
    this.startPlies = startPlies;
    for (let i = 0; i <= board.ply; i++) this.filter[board.keyAt(i)[1] & (FILTER_SIZE - 1)]!++;
  }

  /** A board from an SFEN (`startpos` accepted) and USI moves; `ERR_SFEN` / `ERR_ILLEGAL_MOVE` on bad input. */
  static fromText(sfen: string, moves: readonly string[]): Result<ShogiMctsBoard, KishiError> {
    const text = sfen === 'startpos' ? SHOGI_START_SFEN : sfen;
    const b = FastShogiBoard.fromSfen(text);
    if (b.isErr) return Result.err(b.error);
    const board = b.value;
    const moveNumber = Number(text.trim().split(/\s+/)[3]);
    for (const usi of moves) {
      const m = board.parseUsi(usi);
      if (m === undefined) return Result.err(new KishiError('ERR_ILLEGAL_MOVE', `illegal move ${JSON.stringify(usi)} in ${board.toSfen()}`));
      board.makeMove(m);
    }
    return Result.ok(new ShogiMctsBoard(board, Number.isFinite(moveNumber) && moveNumber > 0 ? moveNumber - 1 : 0));
  }

  sideToMove(): number {
    return this.board.turn;
  }

  generate(list: Int32Array): number {
    return this.board.generateMoves(list);
  }

  make(move: number): void {
    this.board.makeMove(move);
    this.filter[this.board.hashLo & (FILTER_SIZE - 1)]!++;
  }

  unmake(): void {
    this.filter[this.board.hashLo & (FILTER_SIZE - 1)]!--;
    this.board.unmakeMove();
  }

  inCheck(): boolean {
    return this.board.inCheck();
  }

  readonly provenMate = (moves: Int32Array, n: number, plies: number): number => {
    const b = this.board;
    if (b.inCheck()) return plies >= 2 && this.matedInTwo(moves, n) ? -1 : 0;
    return mateIn1(b) !== 0 ? 1 : 0;
  };

  /** In check with moves `moves[0..n)`: whether each allows a mate in one (the first that does not ends the test). */
  private matedInTwo(moves: Int32Array, n: number): boolean {
    const b = this.board;
    for (let i = 0; i < n; i++) {
      b.makeMove(moves[i]!);
      const mated = mateIn1(b) !== 0;
      b.unmakeMove();
      if (!mated) return false;
    }
    return true;
  }

  private maybeRepeated(): boolean {
    return this.filter[this.board.hashLo & (FILTER_SIZE - 1)]! >= 2;
  }

  terminalValue(legalCount: number): number {
    return this.result(legalCount, 1);
  }

  gameResult(legalCount: number): number {
    return this.result(legalCount, 3);
  }

  /** Terminal value with sennichite at `earlier` earlier occurrences of the position. */
  private result(legalCount: number, earlier: number): number {
    if (legalCount === 0) return -1;
    if (!this.maybeRepeated()) return NaN;
    switch (this.board.repetition(earlier)) {
      case Repetition.Draw:
        return 0;
      case Repetition.Win:
        return 1;
      case Repetition.Loss:
        return -1;
      default:
        return NaN;
    }
  }

  private repetitions(): number {
    return this.maybeRepeated() ? shogiRepetitions(this.board) : 0;
  }

  encode(out: Float32Array, offset: number): void {
    encodeShogi(this.board, { repetitions: this.repetitions(), plies: this.startPlies + this.board.ply }, out, offset);
  }

  moveIndices(moves: Int32Array, n: number, out: Int32Array): void {
    shogiMoveIndices(this.board, moves, n, out);
  }

  cacheKey(): number {
    const plies = Math.min(this.startPlies + this.board.ply, MOVE_COUNT_SCALE);
    return mixKey(this.board.hashHi, this.board.hashLo, this.repetitions() + 4 * plies);
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
