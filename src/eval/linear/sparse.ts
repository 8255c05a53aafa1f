/**
 * A sparse feature vector phi(s): parallel arrays of (index, value) pairs, reused between positions.
 *
 * Extractors append pairs; the same index may appear more than once (a white and a black piece on
 * mirrored squares share a feature with values +1 and -1), and every consumer sums duplicates:
 * `dot` does so implicitly, `toMap` explicitly.
 */
/** Receives features one at a time: a `SparseVector` collects them, a `DotSink` sums theta . phi on the fly. */
export interface FeatureSink {
  add(i: number, value: number): void;
}

/** A sink that accumulates phi . theta without storing phi (the evaluation's fast path). */
export class DotSink implements FeatureSink {
  sum = 0;
  constructor(public theta: Float64Array) {}

  add(i: number, value: number): void {
    this.sum += this.theta[i]! * value;
  }
}

export class SparseVector implements FeatureSink {
  index: Int32Array;
  value: Float64Array;
  count = 0;

  constructor(capacity = 256) {
    this.index = new Int32Array(capacity);
    this.value = new Float64Array(capacity);
  }

  clear(): void {
    this.count = 0;
  }

  /** Appends `value` at feature `i` (no-op for 0). */
  add(i: number, value: number): void {
    if (value === 0) return;
    if (this.count === this.index.length) this.grow();
    this.index[this.count] = i;
    this.value[this.count] = value;
    this.count++;
  }

  /** phi . theta. */
  dot(theta: Float64Array): number {
    let s = 0;
    const idx = this.index;
    const val = this.value;
    for (let k = 0; k < this.count; k++) s += theta[idx[k]!]! * val[k]!;
    return s;
  }

  /** theta += scale * phi (the TreeStrap / TD-Leaf update step). */
  addTo(theta: Float64Array, scale: number): void {
    for (let k = 0; k < this.count; k++) theta[this.index[k]!]! += scale * this.value[k]!;
  }

  /** The vector as index -> value with duplicates summed and zeros dropped. */
  toMap(): Map<number, number> {
    const m = new Map<number, number>();
    for (let k = 0; k < this.count; k++) {
      const i = this.index[k]!;
      m.set(i, (m.get(i) ?? 0) + this.value[k]!);
    }
    for (const [i, v] of m) if (v === 0) m.delete(i);
    return m;
  }

  private grow(): void {
    const index = new Int32Array(this.index.length * 2);
    const value = new Float64Array(this.value.length * 2);
    index.set(this.index);
    value.set(this.value);
    this.index = index;
    this.value = value;
  }
}
