/**
 * The TreeStrap update rule (Veness et al. 2009, section 4): gradient descent on one-sided squared
 * errors between the heuristic H(s) = phi(s)^T theta and the bounds a search proved for s.
 *
 *   delta_a(s) = upper(s) - H(s)  if H(s) > upper(s), else 0
 *   delta_b(s) = lower(s) - H(s)  if H(s) < lower(s), else 0
 *   Delta theta = eta * sum_s (delta_a(s) + delta_b(s)) * phi(s)
 *
 * An exact value (lower = upper = V) gives delta = V - H, the TreeStrap(minimax) update; a node
 * inside its bounds moves nothing. Everything is from the first player's view (chess white, shogi
 * sente), the view phi(s) is written in; bounds from the side to move's view are turned around by
 * {@link firstPlayerBounds}. Updates are summed into a {@link DeltaAccumulator} and applied after
 * the whole tree has been visited, so every H(s) uses the weights the search used.
 * With a network evaluation (`--model nnue`) phi(s) is the gradient dH(s)/dtheta (nnue-adapter.ts):
 * the rule is gradient descent on the squared violations, for any differentiable H.
 * Pure: no I/O.
 */
import type { SparseVector } from '../../eval/linear/sparse.js';

/** delta_a + delta_b for a heuristic value `h` and bounds `lower <= V <= upper` (+-Infinity: none). */
export const boundError = (h: number, lower: number, upper: number): number => {
  const da = h > upper ? upper - h : 0;
  const db = h < lower ? lower - h : 0;
  return da + db;
};

/**
 * Bounds from the side to move's view turned into the first player's view: `sign` is +1 when the
 * first player is to move (nothing changes), -1 otherwise (negated and swapped).
 */
export const firstPlayerBounds = (lower: number, upper: number, sign: number): { lower: number; upper: number } =>
  sign > 0 ? { lower, upper } : { lower: -upper, upper: -lower };

/** Running figures of one or more updates. */
export interface UpdateStats {
  /** Nodes (table entries or tree nodes) looked at. */
  visited: number;
  /** Nodes whose bounds were violated (and so moved the weights). */
  violated: number;
  /** Sum of (delta_a + delta_b)^2 over the visited nodes, centipawns squared. */
  squaredError: number;
}

export const emptyStats = (): UpdateStats => ({ visited: 0, violated: 0, squaredError: 0 });

export const addStats = (into: UpdateStats, s: UpdateStats): void => {
  into.visited += s.visited;
  into.violated += s.violated;
  into.squaredError += s.squaredError;
};

/** Sums eta * delta * phi(s) over a tree, to be added to theta at the end. */
export class DeltaAccumulator {
  readonly delta: Float64Array;
  readonly stats: UpdateStats = emptyStats();

  /**
   * `errorClip`: when finite, each node's error is clipped to +-errorClip before it scales phi
   * (the gradient of a Huber loss instead of the squared one), so that a few mate-valued bounds
   * (+-9999) cannot dominate a step. Infinity (default) is the paper's rule.
   */
  constructor(
    size: number,
    readonly errorClip = Number.POSITIVE_INFINITY,
  ) {
    this.delta = new Float64Array(size);
  }

  /**
   * Visits one node: `phi` its features, `h` = phi . theta, bounds from the first player's view.
   * Returns the error delta_a + delta_b (0: nothing was added).
   */
  visit(phi: SparseVector, h: number, lower: number, upper: number, eta: number): number {
    const e = boundError(h, lower, upper);
    this.stats.visited++;
    if (e !== 0) {
      this.stats.violated++;
      this.stats.squaredError += e * e;
      const c = this.errorClip;
      phi.addTo(this.delta, eta * (e > c ? c : e < -c ? -c : e));
    }
    return e;
  }

  /** theta += Delta theta, leaving the weights marked in `frozen` alone; returns the largest |change| of one weight. */
  applyTo(theta: Float64Array, frozen?: Uint8Array): number {
    let largest = 0;
    const d = this.delta;
    for (let i = 0; i < d.length; i++) {
      const x = d[i]!;
      if (x === 0 || (frozen !== undefined && frozen[i] !== 0)) continue;
      theta[i] = theta[i]! + x;
      const a = x < 0 ? -x : x;
      if (a > largest) largest = a;
    }
    return largest;
  }

  /** Forgets the sum and the figures. */
  clear(): void {
    this.delta.fill(0);
    this.stats.visited = 0;
    this.stats.violated = 0;
    this.stats.squaredError = 0;
  }
}
