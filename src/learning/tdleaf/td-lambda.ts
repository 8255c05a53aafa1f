/**
 * The TD-Leaf(λ) update of one game (Baxter, Tridgell and Weaver, "TDLeaf(λ)", equations (8) and (9)
 * applied to the principal leaves), pure.
 *
 * For our moves t = 0..N-1 (the positions we searched from), l_t is the leaf of the principal
 * variation of that search and J_t = tanh(beta * H(l_t)) its squashed evaluation from our view
 * (H(s) = phi(s)^T theta, centipawns; squash.ts). With r the result (+1 win, 0 draw, -1 loss):
 *
 *   d_t = J_{t+1} - J_t  (t < N-1),      d_{N-1} = r - J_{N-1}
 *   theta <- theta + alpha * sum_t grad J_t * sum_{j>=t} lambda^{j-t} d_j
 *   grad J_t = beta * (1 - J_t^2) * phi(l_t)     (the linear evaluation's gradient through the squash)
 *
 * A terminal leaf (a mate, a draw by the rules) has a fixed value and no gradient: it still takes
 * part in the differences.
 *
 * KnightCap's pruning of opponent blunders: a positive d_t caused by an opponent move that our
 * search did not predict (not the second move of our principal variation) says nothing about our
 * evaluation, only that the opponent erred; KnightCap set such differences to zero. Here a
 * difference is pruned when `pruneBlundersCp > 0`, d_t > 0, the evaluation jumped by more than
 * `pruneBlundersCp` centipawns in our favour from l_t to l_{t+1}, and the reply was not predicted.
 * The last difference (against the result) is never pruned.
 */
import { squash } from './squash.js';

/** Parameters of the update. */
export interface TdLeafParams {
  /** Decay of the temporal differences, 0..1 (KnightCap 0.7). */
  readonly lambda: number;
  /** Step size on the centipawn scale (see squash.ts: KnightCap's 1.0 is 1e4 here). */
  readonly alpha: number;
  /** Squashing scale per centipawn (KnightCap: atanh(0.25) / 100). */
  readonly beta: number;
  /** Prune positive differences after an unpredicted opponent move that gained more than this, centipawns; 0: off. */
  readonly pruneBlundersCp: number;
}

/** One of our moves: the principal leaf of its search, seen from our side. */
export interface LeafSample {
  /** H(leaf) from our view, centipawns (for a terminal leaf: +-30000 for a mate, 0 for a draw). */
  readonly value: number;
  /** phi(leaf) from our view (the sign of our side applied), index -> value; empty for a terminal leaf. */
  readonly features: ReadonlyMap<number, number>;
  /** Set for a terminal leaf: its fixed squashed value (+1 we mate, -1 we are mated, 0 draw). */
  readonly terminal?: number;
  /** Whether the opponent's reply was the one our principal variation predicted (undefined: unknown or none). */
  readonly replyPredicted?: boolean;
}

/** What the update did at one step, for reports and tests. */
export interface TdStep {
  readonly j: number;
  /** The temporal difference as used (0 when pruned). */
  readonly d: number;
  readonly pruned: boolean;
  /** sum_{j>=t} lambda^{j-t} d_j. */
  readonly trace: number;
}

export interface TdLeafUpdate {
  /** Change of theta, index -> delta (before any cap). */
  readonly delta: Map<number, number>;
  readonly steps: readonly TdStep[];
}

/** The squashed value of a sample. */
export const sampleJ = (s: LeafSample, beta: number): number => (s.terminal !== undefined ? s.terminal : squash(s.value, beta));

/** The TD-Leaf(λ) change of theta for one game; `result` is +1, 0 or -1 from our view. */
export function tdLeafUpdate(samples: readonly LeafSample[], result: number, params: TdLeafParams): TdLeafUpdate {
  const n = samples.length;
  const delta = new Map<number, number>();
  if (n === 0) return { delta, steps: [] };
  const { lambda, alpha, beta, pruneBlundersCp } = params;
  const j = samples.map((s) => sampleJ(s, beta));
  const d = new Array<number>(n);
  const pruned = new Array<boolean>(n).fill(false);
  for (let t = 0; t < n; t++) {
    d[t] = t < n - 1 ? j[t + 1]! - j[t]! : result - j[t]!;
    if (pruneBlundersCp > 0 && t < n - 1 && d[t]! > 0 && samples[t]!.replyPredicted !== true) {
      const jump = samples[t + 1]!.value - samples[t]!.value;
      if (jump > pruneBlundersCp) {
        d[t] = 0;
        pruned[t] = true;
      }
    }
  }
  // Traces from the end: e_t = d_t + lambda * e_{t+1}.
  const trace = new Array<number>(n);
  let e = 0;
  for (let t = n - 1; t >= 0; t--) {
    e = d[t]! + lambda * e;
    trace[t] = e;
  }
  for (let t = 0; t < n; t++) {
    const s = samples[t]!;
    if (s.terminal !== undefined || trace[t] === 0) continue;
    const scale = alpha * beta * (1 - j[t]! * j[t]!) * trace[t]!;
    for (const [i, v] of s.features) delta.set(i, (delta.get(i) ?? 0) + scale * v);
  }
  return { delta, steps: samples.map((_, t) => ({ j: j[t]!, d: d[t]!, pruned: pruned[t]!, trace: trace[t]! })) };
}

/**
 * Applies `delta` to theta in place, each change clipped to +-`capCp` (0: no cap). Returns the
 * largest absolute change applied.
 */
export function applyDelta(theta: Float64Array, delta: ReadonlyMap<number, number>, capCp = 0): number {
  let largest = 0;
  for (const [i, raw] of delta) {
    const v = capCp > 0 ? Math.max(-capCp, Math.min(capCp, raw)) : raw;
    theta[i] = theta[i]! + v;
    if (Math.abs(v) > largest) largest = Math.abs(v);
  }
  return largest;
}
