/**
 * Maximum-likelihood Bradley-Terry ratings on the logistic Elo scale, for gauntlets and ladders
 * (the model of Ordo and of BayesElo's `mm` without its draw parameter):
 *
 *   P(i scores against j) = p_ij = 1 / (1 + 10^(-(r_i - r_j)/400)),
 *   log L = sum over pairs {i,j} of  s_ij log p_ij + (n_ij - s_ij) log(1 - p_ij),
 *
 * with s_ij = wins + draws/2 of i against j (a draw counts as half a win and half a loss) and n_ij
 * the games between them. Anchored players keep their given ratings; the others are fitted by
 * Newton's method with a backtracking line search (log L is concave in the ratings):
 *
 *   gradient  g_i  = k sum_j (s_ij - n_ij p_ij),                 k = ln(10)/400,
 *   Fisher    I_ii = k^2 sum_j n_ij p_ij (1 - p_ij) (over all opponents, anchors too),
 *             I_ij = -k^2 n_ij p_ij (1 - p_ij) (i, j both fitted),
 *   step      r <- r + I^-1 g.
 *
 * The 95% interval of a fitted rating is r_i -/+ z sqrt((I^-1)_ii), I being the observed Fisher
 * information (minus the Hessian of log L; here it does not depend on the results) at the maximum.
 * With draws the half-win model overstates the per-game variance (p(1-p) instead of
 * p(1-p) - draws/4), so the intervals err on the wide side.
 *
 * A finite maximum exists exactly when every fitted player can reach an anchor both along "lost
 * points to" edges and along "took points from" edges; otherwise a group of players that only won
 * (lost) against everyone outside it runs off to +Infinity (-Infinity). Those players are reported
 * as unbounded, players with no such path either way (no games, or a group never connected to an
 * anchor) as unidentified, and the rest are fitted without them.
 */

import { ELO_K } from './elo.js';
import { zScore } from './normal.js';

/** Results of `player` against `opponent`, from `player`'s point of view. */
export interface PairingResult {
  readonly player: string;
  readonly opponent: string;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
}

/** Fit options. */
export interface BradleyTerryOptions {
  /** Fixed ratings, e.g. { 'sf-skill-0': 1350 }; at least one. */
  readonly anchors: Readonly<Record<string, number>>;
  /** Confidence level of the intervals (default 0.95). */
  readonly level?: number;
  /** Newton iteration cap (default 100). */
  readonly maxIterations?: number;
  /** Stop when no rating moves by more than this many Elo (default 1e-9). */
  readonly tolerance?: number;
  /** Extra players to list even without games (they come out unidentified). */
  readonly players?: readonly string[];
}

/** How a player's rating was obtained. */
export const RATING_STATUSES = ['anchor', 'fitted', 'unbounded-above', 'unbounded-below', 'unidentified'] as const;
export type RatingStatus = (typeof RATING_STATUSES)[number];

/** One player's fitted rating. */
export interface RatedPlayer {
  readonly name: string;
  readonly status: RatingStatus;
  /** The rating: finite for anchors and fitted players, +/-Infinity when unbounded, undefined when unidentified. */
  readonly rating: number | undefined;
  /** Interval ends (equal to the rating for anchors; +/-Infinity where unbounded or unidentified). */
  readonly low: number;
  readonly high: number;
  /** Half-width of the interval: z * standard error (0 for anchors, Infinity when not fitted). */
  readonly error: number;
  /** Games played, points scored (draws as halves), and wins/draws/losses. */
  readonly games: number;
  readonly points: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
}

/** The fit. */
export interface BradleyTerryFit {
  /** Players in first-appearance order (anchors first, then results, then `options.players`). */
  readonly players: readonly RatedPlayer[];
  /** Covariance matrix of the fitted (finite) players' ratings, in `fittedNames` order, in Elo^2. */
  readonly fittedNames: readonly string[];
  readonly covariance: readonly (readonly number[])[];
  /** Log-likelihood at the fit (games between finitely rated players only). */
  readonly logLikelihood: number;
  readonly iterations: number;
  readonly converged: boolean;
  readonly level: number;
}

/** log(1 / (1 + exp(-x))) without overflow. */
function logSigmoid(x: number): number {
  return x >= 0 ? -Math.log1p(Math.exp(-x)) : x - Math.log1p(Math.exp(x));
}

/** Cholesky factor of a symmetric positive-definite matrix, or undefined if it is not. */
function cholesky(a: readonly (readonly number[])[]): number[][] | undefined {
  const n = a.length;
  const l = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = a[i][j];
      for (let k = 0; k < j; k++) sum -= l[i][k] * l[j][k];
      if (i === j) {
        if (!(sum > 0)) return undefined;
        l[i][i] = Math.sqrt(sum);
      } else {
        l[i][j] = sum / l[j][j];
      }
    }
  }
  return l;
}

/** Solves L L^T x = b. */
function choleskySolve(l: readonly (readonly number[])[], b: readonly number[]): number[] {
  const n = b.length;
  const y = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    let sum = b[i];
    for (let k = 0; k < i; k++) sum -= l[i][k] * y[k];
    y[i] = sum / l[i][i];
  }
  const x = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let sum = y[i];
    for (let k = i + 1; k < n; k++) sum -= l[k][i] * x[k];
    x[i] = sum / l[i][i];
  }
  return x;
}

/** Players reachable from `start` in a directed graph given as adjacency sets. */
function reachesAny(start: number, adjacency: readonly Set<number>[], targets: ReadonlySet<number>): boolean {
  const seen = new Set<number>([start]);
  const stack = [start];
  while (stack.length > 0) {
    const u = stack.pop()!;
    if (targets.has(u)) return true;
    for (const v of adjacency[u]) {
      if (!seen.has(v)) {
        seen.add(v);
        stack.push(v);
      }
    }
  }
  return false;
}

/**
 * Fits Bradley-Terry (logistic Elo) ratings by maximum likelihood with anchored players (see the
 * module comment for the model, the Newton iteration and the intervals). Never throws on
 * degenerate results (no games, perfect scores): such players come out unbounded or unidentified.
 * Throws a RangeError on caller bugs: no anchors, negative counts, a player paired with itself.
 */
export function fitBradleyTerry(results: readonly PairingResult[], options: BradleyTerryOptions): BradleyTerryFit {
  const level = options.level ?? 0.95;
  const maxIterations = options.maxIterations ?? 100;
  const tolerance = options.tolerance ?? 1e-9;
  const anchorNames = Object.keys(options.anchors);
  if (anchorNames.length === 0) throw new RangeError('a Bradley-Terry fit needs at least one anchored rating');

  // Step 1: index players and aggregate games and points per unordered pair.
  const index = new Map<string, number>();
  const names: string[] = [];
  const idOf = (name: string): number => {
    let id = index.get(name);
    if (id === undefined) {
      id = names.length;
      index.set(name, id);
      names.push(name);
    }
    return id;
  };
  for (const name of anchorNames) {
    if (!Number.isFinite(options.anchors[name])) throw new RangeError(`anchor ${name} has no finite rating`);
    idOf(name);
  }
  for (const r of results) {
    if (r.player === r.opponent) throw new RangeError(`player ${r.player} paired with itself`);
    for (const c of [r.wins, r.draws, r.losses]) {
      if (!Number.isFinite(c) || c < 0) throw new RangeError(`bad counts for ${r.player} vs ${r.opponent}`);
    }
    idOf(r.player);
    idOf(r.opponent);
  }
  for (const name of options.players ?? []) idOf(name);
  const n = names.length;

  const games = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const points = Array.from({ length: n }, () => new Array<number>(n).fill(0)); // points[i][j]: i's points vs j
  const wdl = Array.from({ length: n }, () => ({ wins: 0, draws: 0, losses: 0 }));
  for (const r of results) {
    const i = index.get(r.player)!;
    const j = index.get(r.opponent)!;
    const total = r.wins + r.draws + r.losses;
    games[i][j] += total;
    games[j][i] += total;
    points[i][j] += r.wins + r.draws / 2;
    points[j][i] += r.losses + r.draws / 2;
    wdl[i].wins += r.wins;
    wdl[i].draws += r.draws;
    wdl[i].losses += r.losses;
    wdl[j].wins += r.losses;
    wdl[j].draws += r.draws;
    wdl[j].losses += r.wins;
  }

  // Step 2: which free players have a finite MLE. Edge i -> j in `lostTo` when j took points
  // from i, in `tookFrom` when i took points from j.
  const anchors = new Set(anchorNames.map((name) => index.get(name)!));
  const lostTo = Array.from({ length: n }, () => new Set<number>());
  const tookFrom = Array.from({ length: n }, () => new Set<number>());
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j || games[i][j] === 0) continue;
      if (points[j][i] > 0) lostTo[i].add(j);
      if (points[i][j] > 0) tookFrom[i].add(j);
    }
  }
  const status: RatingStatus[] = names.map((_, i) => {
    if (anchors.has(i)) return 'anchor';
    const boundedAbove = reachesAny(i, lostTo, anchors);
    const boundedBelow = reachesAny(i, tookFrom, anchors);
    if (boundedAbove && boundedBelow) return 'fitted';
    if (boundedBelow) return 'unbounded-above';
    if (boundedAbove) return 'unbounded-below';
    return 'unidentified';
  });

  // Step 3: Newton iterations over the fitted players, from the mean anchor rating.
  const fitted = names.map((_, i) => i).filter((i) => status[i] === 'fitted');
  const m = fitted.length;
  const anchorMean = anchorNames.reduce((sum, name) => sum + options.anchors[name], 0) / anchorNames.length;
  const rating = names.map((name, i) => (anchors.has(i) ? options.anchors[name] : anchorMean));
  const finite = names.map((_, i) => status[i] === 'anchor' || status[i] === 'fitted');

  const logLikelihood = (r: readonly number[]): number => {
    let ll = 0;
    for (let i = 0; i < n; i++) {
      if (!finite[i]) continue;
      for (let j = i + 1; j < n; j++) {
        if (!finite[j] || games[i][j] === 0) continue;
        const x = ELO_K * (r[i] - r[j]);
        ll += points[i][j] * logSigmoid(x) + points[j][i] * logSigmoid(-x);
      }
    }
    return ll;
  };
  const information = (r: readonly number[]): number[][] => {
    const info = Array.from({ length: m }, () => new Array<number>(m).fill(0));
    const slot = new Map(fitted.map((p, a) => [p, a]));
    for (let a = 0; a < m; a++) {
      const i = fitted[a];
      for (let j = 0; j < n; j++) {
        if (j === i || !finite[j] || games[i][j] === 0) continue;
        const p = 1 / (1 + Math.exp(-ELO_K * (r[i] - r[j])));
        const w = ELO_K * ELO_K * games[i][j] * p * (1 - p);
        info[a][a] += w;
        const b = slot.get(j);
        if (b !== undefined) info[a][b] -= w;
      }
    }
    return info;
  };
  const gradient = (r: readonly number[]): number[] =>
    fitted.map((i) => {
      let g = 0;
      for (let j = 0; j < n; j++) {
        if (j === i || !finite[j] || games[i][j] === 0) continue;
        const p = 1 / (1 + Math.exp(-ELO_K * (r[i] - r[j])));
        g += points[i][j] - games[i][j] * p;
      }
      return ELO_K * g;
    });

  let iterations = 0;
  let converged = m === 0;
  let ll = logLikelihood(rating);
  while (!converged && iterations < maxIterations) {
    iterations++;
    const l = cholesky(information(rating));
    if (l === undefined) break;
    let step = choleskySolve(l, gradient(rating));
    // Keep early steps sane (a start far from the optimum), then backtrack until log L does not drop.
    const largest = Math.max(...step.map(Math.abs));
    if (largest > 800) step = step.map((s) => (s * 800) / largest);
    let t = 1;
    let candidate = rating.slice();
    let candidateLl = ll;
    for (let halvings = 0; halvings < 60; halvings++) {
      candidate = rating.slice();
      fitted.forEach((p, a) => (candidate[p] = rating[p] + t * step[a]));
      candidateLl = logLikelihood(candidate);
      if (candidateLl >= ll - 1e-12 * Math.abs(ll)) break;
      t /= 2;
    }
    const moved = t * Math.max(...step.map(Math.abs));
    fitted.forEach((p) => (rating[p] = candidate[p]));
    ll = candidateLl;
    if (moved < tolerance) converged = true;
  }

  // Step 4: intervals from the inverse Fisher information at the maximum.
  const z = zScore(level);
  const covariance: number[][] = [];
  const lFinal = m > 0 ? cholesky(information(rating)) : undefined;
  for (let a = 0; a < m; a++) {
    const unit = new Array<number>(m).fill(0);
    unit[a] = 1;
    covariance.push(lFinal ? choleskySolve(lFinal, unit) : new Array<number>(m).fill(Number.POSITIVE_INFINITY));
  }
  const slotOf = new Map(fitted.map((p, a) => [p, a]));

  const players = names.map((name, i): RatedPlayer => {
    const base = { name, status: status[i], games: wdl[i].wins + wdl[i].draws + wdl[i].losses, points: wdl[i].wins + wdl[i].draws / 2, ...wdl[i] };
    switch (status[i]) {
      case 'anchor':
        return { ...base, rating: rating[i], low: rating[i], high: rating[i], error: 0 };
      case 'fitted': {
        const variance = covariance[slotOf.get(i)!][slotOf.get(i)!];
        const error = z * Math.sqrt(variance);
        return { ...base, rating: rating[i], low: rating[i] - error, high: rating[i] + error, error };
      }
      case 'unbounded-above':
        return { ...base, rating: Number.POSITIVE_INFINITY, low: Number.NEGATIVE_INFINITY, high: Number.POSITIVE_INFINITY, error: Number.POSITIVE_INFINITY };
      case 'unbounded-below':
        return { ...base, rating: Number.NEGATIVE_INFINITY, low: Number.NEGATIVE_INFINITY, high: Number.POSITIVE_INFINITY, error: Number.POSITIVE_INFINITY };
      case 'unidentified':
        return { ...base, rating: undefined, low: Number.NEGATIVE_INFINITY, high: Number.POSITIVE_INFINITY, error: Number.POSITIVE_INFINITY };
    }
  });

  return { players, fittedNames: fitted.map((i) => names[i]), covariance, logLikelihood: ll, iterations, converged, level };
}
