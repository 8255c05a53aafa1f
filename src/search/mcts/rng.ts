/**
 * Seeded randomness for MCTS: uniform floats (mulberry32), gamma variates (Marsaglia and Tsang,
 * with the `U^(1/a)` boost for shape < 1) and Dirichlet noise for the root priors. The uniform
 * floats come from the project's one generator, src/core/rng.ts.
 */
import { seededRng } from '../../core/rng.js';

export class Rng {
  /** Uniform in [0, 1). */
  readonly next: () => number;

  constructor(seed: number) {
    this.next = seededRng(seed);
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Gamma(shape, 1). */
  gamma(shape: number): number {
    if (shape < 1) return this.gamma(shape + 1) * Math.pow(1 - this.next(), 1 / shape);
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number;
      let v: number;
      do {
        x = this.normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const u = 1 - this.next();
      if (u < 1 - 0.0331 * x * x * x * x || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
    }
  }

  /** A sample of Dirichlet(alpha, ..., alpha) with `n` components. */
  dirichlet(alpha: number, n: number): Float64Array {
    const out = new Float64Array(n);
    let sum = 0;
    for (let i = 0; i < n; i++) sum += out[i] = this.gamma(alpha);
    for (let i = 0; i < n; i++) out[i] = sum > 0 ? out[i]! / sum : 1 / n;
    return out;
  }
}
