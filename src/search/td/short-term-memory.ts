/**
 * The short-term memory of Dyna-2 (Silver, Sutton and Müller, "Temporal-difference search in computer
 * Go", Machine Learning 2012, section 5): a transient weight vector over the linear evaluation's
 * sparse features, learned by TD search from games simulated from the current root and forgotten
 * (or decayed) when the root changes. Weights are in centipawns from the first player's view (chess
 * white, shogi sente), like the long-term linear evaluation they are added to.
 *
 * Only the features a simulation touched are non-zero; the memory keeps their list so that a reset,
 * a decay and the summary cost the touched features, not the whole feature set.
 */
import type { SparseVector } from '../../eval/linear/sparse.js';

export class ShortTermMemory {
  readonly weights: Float64Array;
  private readonly touchedFlag: Uint8Array;
  private touchedList: Int32Array;
  private touchedCount = 0;

  constructor(readonly size: number) {
    this.weights = new Float64Array(size);
    this.touchedFlag = new Uint8Array(size);
    this.touchedList = new Int32Array(Math.min(size, 1024));
  }

  /** Number of features with a weight since the last reset. */
  get touched(): number {
    return this.touchedCount;
  }

  /** phi . w (centipawns, first player's view); 0 while nothing is learned. */
  dot(phi: SparseVector): number {
    if (this.touchedCount === 0) return 0;
    return phi.dot(this.weights);
  }

  /** w[i] += delta. */
  add(i: number, delta: number): void {
    if (this.touchedFlag[i] === 0) {
      this.touchedFlag[i] = 1;
      if (this.touchedCount === this.touchedList.length) {
        const grown = new Int32Array(Math.min(this.size, this.touchedList.length * 2));
        grown.set(this.touchedList);
        this.touchedList = grown;
      }
      this.touchedList[this.touchedCount++] = i;
    }
    this.weights[i]! += delta;
  }

  /**
   * A new root: `carry` 1 keeps the memory (the paper's Dyna-2, which clears it only at a new game),
   * 0 forgets everything, a `carry` in (0, 1) keeps that share of every weight (decayed).
   */
  newRoot(carry: number): void {
    if (carry > 0 && carry < 1) {
      for (let k = 0; k < this.touchedCount; k++) this.weights[this.touchedList[k]!]! *= carry;
      return;
    }
    if (carry >= 1) return;
    for (let k = 0; k < this.touchedCount; k++) {
      const i = this.touchedList[k]!;
      this.weights[i] = 0;
      this.touchedFlag[i] = 0;
    }
    this.touchedCount = 0;
  }

  /** The `count` features with the largest weights in magnitude, largest first. */
  largest(count: number): { index: number; weight: number }[] {
    const all: { index: number; weight: number }[] = [];
    for (let k = 0; k < this.touchedCount; k++) {
      const i = this.touchedList[k]!;
      all.push({ index: i, weight: this.weights[i]! });
    }
    all.sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight) || a.index - b.index);
    return all.slice(0, count);
  }
}
