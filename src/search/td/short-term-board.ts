/**
 * The Dyna-2 evaluation as a `SearchBoard` wrapper: every call goes to the wrapped board, except
 * `evaluate`, which adds the short-term memory to the long-term evaluation (Silver, Sutton and
 * Müller 2012, section 5: V = long-term + short-term; their two-phase search, section 6, runs
 * alpha-beta over it). With an empty memory it is the wrapped board's evaluation exactly, so the
 * alpha-beta search itself is unchanged.
 */
import { SparseVector } from '../../eval/linear/sparse.js';
import * as scoreModule from '../alphabeta/score.js';
import type { SearchBoard } from '../alphabeta/search-board.js';
import type { ShortTermMemory } from './short-term-memory.js';

const { clipEval } = scoreModule;

export class ShortTermEvalBoard implements SearchBoard {
  readonly game: SearchBoard['game'];
  readonly maxMoves: number;
  readonly historySize: number;
  readonly givesCheck?: (move: number) => boolean;
  readonly see?: (move: number) => number;
  readonly seeGe?: (move: number, threshold: number) => boolean;
  readonly correctionKey?: () => number;
  private readonly phi = new SparseVector();

  constructor(
    readonly inner: SearchBoard,
    readonly memory: ShortTermMemory,
    /** phi(s) of the inner board's position, first player's view, into `out` (cleared first). */
    private readonly features: (out: SparseVector) => void,
  ) {
    this.game = inner.game;
    this.maxMoves = inner.maxMoves;
    this.historySize = inner.historySize;
    // The optional members exist exactly when the inner board has them (the search tests for them).
    if (inner.givesCheck !== undefined) this.givesCheck = inner.givesCheck.bind(inner);
    if (inner.see !== undefined) this.see = inner.see.bind(inner);
    if (inner.seeGe !== undefined) this.seeGe = inner.seeGe.bind(inner);
    if (inner.correctionKey !== undefined) this.correctionKey = inner.correctionKey.bind(inner);
  }

  /** The short-term value phi(s) . w of the current position, centipawns, first player's view. */
  shortTerm(): number {
    if (this.memory.touched === 0) return 0;
    this.features(this.phi);
    return this.memory.dot(this.phi);
  }

  evaluate(): number {
    const base = this.inner.evaluate();
    if (this.memory.touched === 0) return base;
    const s = this.shortTerm();
    return clipEval(base + (this.inner.sideToMove() === 0 ? s : -s));
  }

  sideToMove(): number {
    return this.inner.sideToMove();
  }
  generate(list: Int32Array, tactical: boolean): number {
    return this.inner.generate(list, tactical);
  }
  make(move: number): void {
    this.inner.make(move);
  }
  unmake(): void {
    this.inner.unmake();
  }
  makeNull(): void {
    this.inner.makeNull();
  }
  inCheck(): boolean {
    return this.inner.inCheck();
  }
  keyHi(): number {
    return this.inner.keyHi();
  }
  keyLo(): number {
    return this.inner.keyLo();
  }
  ruleState(): number {
    return this.inner.ruleState();
  }
  noMovesIsLoss(inCheck: boolean): boolean {
    return this.inner.noMovesIsLoss(inCheck);
  }
  nullMoveOk(): boolean {
    return this.inner.nullMoveOk();
  }
  tacticalOrder(move: number): number {
    return this.inner.tacticalOrder(move);
  }
  isBadCapture(move: number): boolean {
    return this.inner.isBadCapture(move);
  }
  historyIndex(move: number): number {
    return this.inner.historyIndex(move);
  }
  moveToText(move: number): string {
    return this.inner.moveToText(move);
  }
  parseMove(text: string): number {
    return this.inner.parseMove(text);
  }
  toText(): string {
    return this.inner.toText();
  }
}
