/**
 * A scripted `Evaluator` for tests: a function of the input decides the priors and the value;
 * by default uniform priors and value 0. Counts calls and positions, so tests can assert exact
 * numbers of net evaluations.
 */
import type { EncodingSpec } from './encoding.js';
import type { Evaluator, NnInput, NnOutput } from './evaluator.js';

/** What the script returns for one position: priors (any positive weights, renormalised) and a value. */
export interface MockAnswer {
  readonly weights?: ArrayLike<number>;
  readonly value?: number;
}

export type MockScript = (input: NnInput) => MockAnswer;

export class MockEvaluator implements Evaluator {
  readonly spec: EncodingSpec;
  readonly maxBatch: number;
  /** Number of `evaluate` calls and of positions evaluated so far. */
  calls = 0;
  positions = 0;
  private readonly script: MockScript;

  private readonly yieldToEvents: boolean;

  /** With `yieldToEvents`, each call waits for the event loop (timers, messages) like a real backend may. */
  constructor(spec: EncodingSpec, script: MockScript = () => ({}), maxBatch = 256, yieldToEvents = false) {
    this.spec = spec;
    this.script = script;
    this.maxBatch = maxBatch;
    this.yieldToEvents = yieldToEvents;
  }

  async evaluate(positions: readonly NnInput[]): Promise<NnOutput[]> {
    this.calls++;
    this.positions += positions.length;
    if (this.yieldToEvents) await new Promise((resolve) => setImmediate(resolve));
    return (
      positions.map((pos) => {
        const a = this.script(pos);
        const n = pos.moveCount;
        const priors = new Float32Array(n);
        let sum = 0;
        for (let i = 0; i < n; i++) sum += priors[i] = a.weights !== undefined ? Math.max(0, a.weights[i] ?? 0) : 1;
        for (let i = 0; i < n; i++) priors[i] = sum > 0 ? priors[i]! / sum : 1 / n;
        return { priors, value: a.value ?? 0 };
      })
    );
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
