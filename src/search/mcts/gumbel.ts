/**
 * Gumbel root selection with Sequential Halving (Danihelka, Guez, Schrittwieser and Silver,
 * "Policy improvement by planning with Gumbel", ICLR 2022), for searches with a playout budget.
 *
 * With few playouts PUCT spends them on the prior's favourite and may never look at the move the
 * value prefers; AlphaZero's root then needs Dirichlet noise and still does not improve on the
 * prior. Gumbel AlphaZero instead:
 * 1. samples m root moves without replacement by the Gumbel-top-k trick: the m highest
 *    `g(a) + logit(a)`, g drawn from Gumbel(0, 1) (g = 0 where the caller wants the search
 *    deterministic, as in match play);
 * 2. spends the budget in ceil(log2 m) phases: each phase visits every remaining move equally, then
 *    keeps the better half by `g(a) + logit(a) + sigma(q(a))`;
 * 3. plays the best move left by the same score.
 * `sigma(q) = (cVisit + max_b N(b)) * cScale * q`, q the move's mean value mapped to [0, 1]
 * (cVisit 50, cScale 1 as in the paper). Below the root the search is PUCT as before.
 */

/** The paper's constants of `sigma`. */
const C_VISIT = 50;
const C_SCALE = 1;

/** What the schedule reads of the root's moves (the search's tree). */
export interface RootStats {
  /** Visits of the move at `edge` (virtual ones included). */
  visits(edge: number): number;
  /** Mean value of the move at `edge` from the root side's view, in [-1, 1] (0 if unvisited). */
  q(edge: number): number;
  /** Most visits of any root move. */
  maxVisits(): number;
}

export class SequentialHalving {
  /** Root edges still in the race. */
  private remaining: number[];
  /** `g + logit` per candidate edge. */
  private readonly base = new Map<number, number>();
  /** Visits of each candidate when this search began (a reused tree brings some). */
  private readonly startVisits = new Map<number, number>();
  /** Visits a remaining move should have been given by the end of the current phase. */
  private target = 0;
  private spent = 0;

  /**
   * `edges` and `logits`: the root's moves and log priors; `gumbel`: one noise term per move (zeros
   * for a deterministic search); `actions`: m; `budget`: the playouts of this search.
   */
  constructor(
    edges: readonly number[],
    logits: readonly number[],
    gumbel: readonly number[],
    actions: number,
    private readonly budget: number,
    stats: RootStats,
  ) {
    const order = edges.map((e, i) => ({ e, s: gumbel[i]! + logits[i]! })).sort((a, b) => b.s - a.s);
    this.remaining = order.slice(0, Math.max(1, Math.min(actions, order.length))).map((c) => c.e);
    for (const c of order) this.base.set(c.e, c.s);
    for (const e of this.remaining) this.startVisits.set(e, stats.visits(e));
    this.newPhase();
  }

  /** Candidates still in the race, best first by the last ranking (initially by g + logit). */
  get candidates(): readonly number[] {
    return this.remaining;
  }

  /** The root edge the next playout must take. */
  next(stats: RootStats): number {
    for (;;) {
      let best = -1;
      let fewest = Infinity;
      for (const e of this.remaining) {
        const given = stats.visits(e) - this.startVisits.get(e)!;
        if (given < this.target && given < fewest) {
          fewest = given;
          best = e;
        }
      }
      if (best >= 0) {
        this.spent++;
        return best;
      }
      this.halve(stats);
    }
  }

  /** The move to play: the best remaining candidate by `g + logit + sigma(q)`. */
  choice(stats: RootStats): number {
    let best = this.remaining[0]!;
    let bestScore = -Infinity;
    for (const e of this.remaining) {
      if (stats.visits(e) === 0) continue;
      const s = this.score(e, stats);
      if (s > bestScore) {
        bestScore = s;
        best = e;
      }
    }
    return best;
  }

  /** `g + logit + sigma(q)` of a visited candidate. */
  score(edge: number, stats: RootStats): number {
    return this.base.get(edge)! + sigma(stats.q(edge), stats.maxVisits());
  }

  /** Ends a phase: keeps the better half (once one is left, it gets every remaining playout). */
  private halve(stats: RootStats): void {
    if (this.remaining.length > 1) {
      const ranked = this.remaining.map((e) => ({ e, s: this.score(e, stats) })).sort((a, b) => b.s - a.s);
      this.remaining = ranked.slice(0, Math.ceil(ranked.length / 2)).map((c) => c.e);
    }
    this.newPhase();
  }

  /** Sets the visits each remaining move is owed by the end of the new phase. */
  private newPhase(): void {
    const left = Math.max(0, this.budget - this.spent);
    const n = this.remaining.length;
    if (n === 1) {
      this.target = Infinity;
      return;
    }
    const phases = Math.ceil(Math.log2(n));
    this.target += Math.max(1, Math.floor(left / (phases * n)));
  }
}

/** `sigma(q)` for a value q in [-1, 1] (mapped to [0, 1]) when the most visited root move has `maxVisits`. */
export const sigma = (q: number, maxVisits: number): number => (C_VISIT + maxVisits) * C_SCALE * ((q + 1) / 2);

/**
 * Gumbel AlphaZero's policy target: `softmax(logit + sigma(completed q))` over all root moves, into
 * `out`. `completed[i]` is move i's Q where it was visited and an estimate of the root's value
 * where it was not (the paper's completed Q-values).
 */
export const improvedPolicy = (logits: ArrayLike<number>, completed: ArrayLike<number>, maxVisits: number, out: Float32Array): void => {
  const n = logits.length;
  let max = -Infinity;
  for (let i = 0; i < n; i++) max = Math.max(max, logits[i]! + sigma(completed[i]!, maxVisits));
  let sum = 0;
  for (let i = 0; i < n; i++) sum += out[i] = Math.exp(logits[i]! + sigma(completed[i]!, maxVisits) - max);
  for (let i = 0; i < n; i++) out[i]! /= sum;
};

/** A Gumbel(0, 1) sample from a uniform `u` in (0, 1). */
export const gumbelSample = (u: number): number => -Math.log(-Math.log(Math.min(Math.max(u, 1e-12), 1 - 1e-12)));
