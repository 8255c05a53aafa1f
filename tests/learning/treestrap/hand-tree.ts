/**
 * A hand-built game tree behind the `SearchBoard` interface, with a hand-written phi(s) per node,
 * and a `TrainingAdapter` over it: the update rule can be checked entry by entry.
 *
 * Node i has key (hi 0x1234, lo i + 1), its children are its moves (move = child index + 1), the
 * first player is to move at even plies. Leaves evaluate to their `leaf` value (side to move's view).
 */
import { Result } from '../../../src/core/result.js';
import type { FeatureSet } from '../../../src/eval/linear/feature-registry.js';
import type { SparseVector } from '../../../src/eval/linear/sparse.js';
import { RULE_NONE, type SearchBoard } from '../../../src/search/alphabeta/search-board.js';
import { RecordingBoard } from '../../../src/learning/treestrap/recording-board.js';
import type { TrainingAdapter } from '../../../src/learning/treestrap/training-adapter.js';

export interface HandNode {
  readonly children: readonly number[];
  /** phi(s): feature index -> value. */
  readonly phi: Readonly<Record<number, number>>;
  /** Static value for leaves (side to move's view). */
  readonly leaf?: number;
}

export const KEY_HI = 0x1234;

export class HandTreeBoard implements SearchBoard {
  readonly game = 'chess' as const;
  readonly maxMoves = 16;
  readonly historySize = 64;
  private path: number[] = [0];
  private plyOf: number[] = [0];

  constructor(readonly nodes: readonly HandNode[]) {}

  get node(): number {
    return this.path[this.path.length - 1]!;
  }
  sideToMove(): number {
    return (this.plyOf[this.plyOf.length - 1]! & 1) as number;
  }
  generate(list: Int32Array, tactical: boolean): number {
    if (tactical) return 0;
    const c = this.nodes[this.node]!.children;
    for (let i = 0; i < c.length; i++) list[i] = c[i]! + 1;
    return c.length;
  }
  make(move: number): void {
    this.plyOf.push(this.plyOf[this.plyOf.length - 1]! + 1);
    this.path.push(move - 1);
  }
  unmake(): void {
    this.path.pop();
    this.plyOf.pop();
  }
  makeNull(): void {
    throw new Error('no null moves here');
  }
  inCheck(): boolean {
    return false;
  }
  keyHi(): number {
    return KEY_HI;
  }
  keyLo(): number {
    return this.node + 1;
  }
  ruleState(): number {
    return RULE_NONE;
  }
  noMovesIsLoss(): boolean {
    return false;
  }
  nullMoveOk(): boolean {
    return false;
  }
  tacticalOrder(): number {
    return 0;
  }
  /** No move of the hand tree is a capture (`tacticalOrder` 0), and a quiet move is never a bad capture. */
  isBadCapture(): boolean {
    return false;
  }
  historyIndex(move: number): number {
    return move & 63;
  }
  evaluate(): number {
    return this.nodes[this.node]!.leaf ?? 0;
  }
  moveToText(move: number): string {
    return `n${move - 1}`;
  }
  parseMove(text: string): number {
    return Number(text.slice(1)) + 1;
  }
  toText(): string {
    return `node ${this.node}`;
  }
}

/** A training adapter whose phi(s) is the hand-written one of the board's current node. */
export class HandTreeAdapter implements TrainingAdapter {
  readonly game = 'chess' as const;
  readonly featureSet: FeatureSet<never>;
  refreshed = 0;

  constructor(
    readonly nodes: readonly HandNode[],
    readonly theta: Float64Array,
  ) {
    const names = Array.from({ length: theta.length }, (_, i) => `f${i}`);
    this.featureSet = { game: 'chess', version: 'hand-1', size: theta.length, names, indexOf: new Map(names.map((n, i) => [n, i])), extract: () => {} };
  }

  board(): Result<SearchBoard, never> {
    return Result.ok(new HandTreeBoard(this.nodes));
  }

  features(board: SearchBoard, out: SparseVector): void {
    out.clear();
    // The trainer hands over the hand tree itself, or the RecordingBoard it searched through.
    const b = board instanceof RecordingBoard ? board.inner : board;
    if (!(b instanceof HandTreeBoard)) throw new Error(`not a hand-tree board: ${board.toText()}`);
    for (const [i, v] of Object.entries(this.nodes[b.node]!.phi)) out.add(Number(i), v);
  }

  gradient(board: SearchBoard, out: SparseVector): number {
    this.features(board, out);
    return out.dot(this.theta);
  }

  enginePlayer(theta: Float64Array): { theta: Float64Array } {
    return { theta };
  }

  modelFiles(): never[] {
    return [];
  }

  refresh(): void {
    this.refreshed++;
  }

  materialTheta(): Float64Array {
    return new Float64Array(this.theta.length);
  }

  outcome(): undefined {
    return undefined;
  }
}

/** phi . theta of node `i`. */
export const hOf = (nodes: readonly HandNode[], theta: Float64Array, i: number): number =>
  Object.entries(nodes[i]!.phi).reduce((s, [k, v]) => s + theta[Number(k)]! * v, 0);
