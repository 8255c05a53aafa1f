/**
 * `CachedEvaluator`: an `Evaluator` in front of another that remembers outputs by the position's
 * cache key (`NnInput.key`), so transpositions and re-searched positions cost no net call.
 * Entries are evicted oldest first beyond `capacity`. A hit is only used when its number of
 * priors equals the position's number of legal moves (a guard against key collisions).
 */
import type { EncodingSpec } from './encoding.js';
import type { Evaluator, NnInput, NnOutput } from './evaluator.js';

export class CachedEvaluator implements Evaluator {
  readonly spec: EncodingSpec;
  readonly maxBatch: number;
  /** Lookups answered from the cache and lookups passed on to the net. */
  hits = 0;
  misses = 0;
  private readonly inner: Evaluator;
  private readonly capacity: number;
  private readonly map = new Map<number, NnOutput>();

  constructor(inner: Evaluator, capacity: number) {
    this.inner = inner;
    this.spec = inner.spec;
    this.maxBatch = inner.maxBatch;
    this.capacity = Math.max(0, capacity);
  }

  /** The cached output for `input`, if any (does not count as a lookup). */
  peek(input: NnInput): NnOutput | undefined {
    if (input.key === undefined) return undefined;
    const hit = this.map.get(input.key);
    return hit !== undefined && hit.priors.length === input.moveCount ? hit : undefined;
  }

  async evaluate(positions: readonly NnInput[]): Promise<NnOutput[]> {
    const out: NnOutput[] = new Array(positions.length);
    const missing: NnInput[] = [];
    const where: number[] = [];
    for (let i = 0; i < positions.length; i++) {
      const hit = this.peek(positions[i]!);
      if (hit !== undefined) {
        this.hits++;
        out[i] = hit;
      } else {
        this.misses++;
        missing.push(positions[i]!);
        where.push(i);
      }
    }
    if (missing.length > 0) {
      const fresh = await this.inner.evaluate(missing);
      for (let k = 0; k < fresh.length; k++) {
        out[where[k]!] = fresh[k]!;
        const key = missing[k]!.key;
        if (key !== undefined) this.store(key, fresh[k]!);
      }
    }
    return out;
  }

  /** Adds an output (e.g. one computed elsewhere). */
  store(key: number, output: NnOutput): void {
    if (this.capacity === 0) return;
    this.map.delete(key);
    this.map.set(key, output);
    if (this.map.size > this.capacity) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
  }

  /** Number of entries held. */
  get size(): number {
    return this.map.size;
  }

  clear(): void {
    this.map.clear();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
