/**
 * TD(lambda) with accumulating eligibility traces over sparse binary-ish features, the update rule
 * of TD search (Silver, Sutton and Müller 2012, section 3, logistic TD(lambda)):
 *
 *   e_t = lambda * e_{t-1} + phi(s_t)        (e_0 = 0 at the start of every simulated episode)
 *   w  += K * (alpha / n_t) * delta_t * e_t
 *
 * where delta_t is the TD error in win-probability units, K converts the logit step of the
 * paper's weights into the centipawn weights of the memory (V = sigmoid((L + phi . w) / K)), and
 * n_t is the number of entries of phi(s_t): the paper's step is "normalised" (section 3.4, NTD2);
 * our normalisation divides by the active features, so that alpha is the share of the TD error one
 * step corrects whatever the feature set (an undivided 0.1 over about a hundred active chess
 * features moves V(s_t) by ten logits).
 * The trace is kept sparse (a list of the features it holds), so a step costs the features seen in
 * the episode so far rather than the whole feature set.
 */
import type { SparseVector } from '../../eval/linear/sparse.js';
import type { ShortTermMemory } from './short-term-memory.js';

export class TdLambda {
  private readonly trace: Float64Array;
  private readonly inTrace: Uint8Array;
  private traceList: Int32Array;
  private traceCount = 0;

  constructor(
    readonly memory: ShortTermMemory,
    /** Centipawns per logit unit (K above). */
    readonly scale: number,
  ) {
    this.trace = new Float64Array(memory.size);
    this.inTrace = new Uint8Array(memory.size);
    this.traceList = new Int32Array(256);
  }

  /** Clears the eligibility trace (a new simulated episode). */
  startEpisode(): void {
    for (let k = 0; k < this.traceCount; k++) {
      const i = this.traceList[k]!;
      this.trace[i] = 0;
      this.inTrace[i] = 0;
    }
    this.traceCount = 0;
  }

  /** One TD(lambda) step for the state with features `phi` and TD error `delta`. */
  step(phi: SparseVector, delta: number, lambda: number, alpha: number): void {
    for (let k = 0; k < this.traceCount; k++) this.trace[this.traceList[k]!]! *= lambda;
    for (let k = 0; k < phi.count; k++) {
      const i = phi.index[k]!;
      if (this.inTrace[i] === 0) {
        this.inTrace[i] = 1;
        if (this.traceCount === this.traceList.length) {
          const grown = new Int32Array(this.traceList.length * 2);
          grown.set(this.traceList);
          this.traceList = grown;
        }
        this.traceList[this.traceCount++] = i;
      }
      this.trace[i]! += phi.value[k]!;
    }
    if (delta === 0 || phi.count === 0) return;
    const g = (this.scale * alpha * delta) / phi.count;
    for (let k = 0; k < this.traceCount; k++) {
      const i = this.traceList[k]!;
      const e = this.trace[i]!;
      if (e !== 0) this.memory.add(i, g * e);
    }
  }
}
