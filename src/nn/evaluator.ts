/**
 * The seam between search and net (style anchors, convention 8): MCTS sees only an `Evaluator`
 * with a batched `evaluate`. Backends: `NetEvaluator` over a raw `NetRunner` (onnx-runner.ts for
 * onnxruntime-node), `MockEvaluator` for tests, and `CachedEvaluator` (nn-cache.ts) in front of
 * either.
 *
 * A position goes in as its encoded input planes plus the policy indices of its legal moves; what
 * comes out is a prior per legal move (the net's policy with illegal moves masked out and the rest
 * renormalised, a softmax over the legal logits) and a value for the side to move.
 */
import type { EncodingSpec } from './encoding.js';

/** One position to evaluate. */
export interface NnInput {
  /** Encoded input planes, `spec.inputSize` floats (may be a view into a larger buffer; read during `evaluate` only). */
  readonly planes: Float32Array;
  /** Policy index of each legal move; `priors` come back in this order. Read during `evaluate` only. */
  readonly moveIndices: Int32Array;
  /** Number of legal moves (the first `moveCount` entries of `moveIndices`). */
  readonly moveCount: number;
  /**
   * Cache key: equal for equal net inputs (position key mixed with the repetition count and the
   * other non-board planes). Undefined: never cached.
   */
  readonly key?: number;
}

/** The net's answer for one position. Callers must not modify the arrays (caches share them). */
export interface NnOutput {
  /** Probability of each legal move, in `moveIndices` order, summing to 1. */
  readonly priors: Float32Array;
  /** Expected outcome for the side to move, in [-1, 1] (win 1, draw 0, loss -1). */
  readonly value: number;
}

export interface Evaluator {
  /** The encoding the net reads and writes. */
  readonly spec: EncodingSpec;
  /** Largest batch `evaluate` accepts in one call. */
  readonly maxBatch: number;
  /** Evaluates up to `maxBatch` positions. */
  evaluate(positions: readonly NnInput[]): Promise<NnOutput[]>;
  /** Releases sessions and buffers. */
  close(): Promise<void>;
}

/** The raw net: a batch of input planes in, policy logits and values out. */
export interface NetRunner {
  readonly spec: EncodingSpec;
  /**
   * Runs `batch` positions whose planes lie contiguously in `input` (`batch * inputSize` floats).
   * Resolves with `policy` (`batch * policySize` logits) and `value` (`batch` values, side to move).
   */
  run(input: Float32Array, batch: number): Promise<{ policy: Float32Array; value: Float32Array }>;
  close(): Promise<void>;
}

/**
 * Softmax of `logits[base + moveIndices[i]]` over the legal moves: illegal moves masked out,
 * the legal ones renormalised.
 */
export const maskedSoftmax = (logits: Float32Array, base: number, moveIndices: Int32Array, n: number): Float32Array => {
  const priors = new Float32Array(n);
  if (n === 0) return priors;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const l = logits[base + moveIndices[i]!]!;
    if (l > max) max = l;
  }
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const e = Math.exp(logits[base + moveIndices[i]!]! - max);
    priors[i] = e;
    sum += e;
  }
  const inv = sum > 0 && Number.isFinite(sum) ? 1 / sum : 0;
  if (inv === 0) priors.fill(1 / n);
  else for (let i = 0; i < n; i++) priors[i]! *= inv;
  return priors;
};

/** An `Evaluator` over a raw net: packs the batch, runs it, masks the policy. */
export class NetEvaluator implements Evaluator {
  readonly spec: EncodingSpec;
  readonly maxBatch: number;
  private readonly runner: NetRunner;
  private readonly input: Float32Array;

  constructor(runner: NetRunner, maxBatch: number) {
    this.runner = runner;
    this.spec = runner.spec;
    this.maxBatch = maxBatch;
    this.input = new Float32Array(maxBatch * runner.spec.inputSize);
  }

  async evaluate(positions: readonly NnInput[]): Promise<NnOutput[]> {
    const n = positions.length;
    if (n === 0) return [];
    if (n > this.maxBatch) throw new Error(`batch of ${n} exceeds maxBatch ${this.maxBatch}`);
    const size = this.spec.inputSize;
    for (let i = 0; i < n; i++) this.input.set(positions[i]!.planes.subarray(0, size), i * size);
    // A fresh view of exactly n positions: the runner may keep the tensor until it resolves.
    const { policy, value } = await this.runner.run(this.input.subarray(0, n * size), n);
    const out: NnOutput[] = new Array(n);
    const p = this.spec.policySize;
    for (let i = 0; i < n; i++) {
      const pos = positions[i]!;
      out[i] = { priors: maskedSoftmax(policy, i * p, pos.moveIndices, pos.moveCount), value: value[i]! };
    }
    return out;
  }

  close(): Promise<void> {
    return this.runner.close();
  }
}
