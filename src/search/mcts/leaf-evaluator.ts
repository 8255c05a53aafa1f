/**
 * The second seam between MCTS and its networks, beside the batched `Evaluator` (src/nn/evaluator.ts):
 * a synchronous evaluator that reads the leaf position straight from the board the search walks,
 * for networks cheap enough to run inside the descent on the CPU (Monty, Princhess: an NNUE value
 * with incrementally updated accumulators, a cheap policy over the legal moves). No batching, no
 * virtual loss, no cache: each leaf is evaluated as soon as the descent reaches it.
 *
 * The search calls `attach` once per run with the root board; the board it gets back is the one
 * it walks, whose `make`/`unmake` also keep the evaluator's incremental state (accumulators) in
 * step; `evaluate` then reads that state at the leaf.
 */
import type { MctsBoard } from './mcts-board.js';

export interface LeafEvaluator {
  readonly kind: 'leaf';
  /**
   * Starts a search at `board`'s current position (a full refresh of the incremental state) and
   * returns the board to walk: `board` itself moved along, with the evaluator kept in step.
   */
  attach(board: MctsBoard): MctsBoard;
  /**
   * Evaluates the attached board's current position, whose legal moves are `moves[0..n)` (n >= 1):
   * writes a prior per move into `priors[0..n)` (positive, summing to 1) and returns the value
   * for the side to move in [-1, 1]. The board is left as it was. Equal to `value` then `priors`.
   */
  evaluate(moves: Int32Array, n: number, priors: Float32Array): number;
  /** The value part of `evaluate` alone (the search asks for the priors on the next visit). */
  value(moves: Int32Array, n: number): number;
  /** The priors part of `evaluate` alone. */
  priors(moves: Int32Array, n: number, priors: Float32Array): void;
}

/** A board that forwards everything to `inner` and reports each make/unmake to the evaluator. */
export class TrackedBoard implements MctsBoard {
  readonly game: MctsBoard['game'];
  readonly spec: MctsBoard['spec'];
  readonly maxMoves: number;
  readonly provenMate: MctsBoard['provenMate'];

  constructor(
    readonly inner: MctsBoard,
    private readonly onMake: (move: number) => void,
    private readonly onUnmake: () => void,
  ) {
    this.game = inner.game;
    this.spec = inner.spec;
    this.maxMoves = inner.maxMoves;
    // The tests play on the inner board and take their moves back: the evaluator need not follow them.
    this.provenMate = inner.provenMate;
  }

  sideToMove(): number {
    return this.inner.sideToMove();
  }
  generate(list: Int32Array): number {
    return this.inner.generate(list);
  }
  make(move: number): void {
    // Before the board moves: the evaluator reads the move's piece and victim from the board.
    this.onMake(move);
    this.inner.make(move);
  }
  unmake(): void {
    this.inner.unmake();
    this.onUnmake();
  }
  inCheck(): boolean {
    return this.inner.inCheck();
  }
  terminalValue(legalCount: number): number {
    return this.inner.terminalValue(legalCount);
  }
  gameResult(legalCount: number): number {
    return this.inner.gameResult(legalCount);
  }
  encode(out: Float32Array, offset: number): void {
    this.inner.encode(out, offset);
  }
  moveIndices(moves: Int32Array, n: number, out: Int32Array): void {
    this.inner.moveIndices(moves, n, out);
  }
  cacheKey(): number {
    return this.inner.cacheKey();
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

/** Whether `e` is a `LeafEvaluator` (the search takes either kind). */
export const isLeafEvaluator = (e: unknown): e is LeafEvaluator => typeof e === 'object' && e !== null && (e as { kind?: unknown }).kind === 'leaf';
