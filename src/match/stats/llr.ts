/**
 * The generalised log-likelihood ratio (GLLR) of fishtest's SPRT, ported function by function from
 * Michel Van den Bergh's fishtest `server/fishtest/stats/LLRcalc.py`:
 *
 * - results (trinomial [L, D, W] or pentanomial [LL, LD, WL+DD, WD, WW]) become an empirical
 *   distribution over the sample scores i/(len-1), after replacing zero counts by 1e-3
 *   (`regularize`, `results_to_pdf`);
 * - under each hypothesis the multinomial maximum-likelihood distribution subject to the
 *   hypothesis' constraint is found: a given expected score (`MLE_expected`, logistic Elo) or a given
 *   t-value (mu - 1/2)/sigma (`MLE_t_value`, normalised Elo); both reduce to the secular equation
 *   sum_i p_i a_i / (1 + x a_i) = 0 (`secular`), solved with Brent's method;
 * - LLR = N * sum_i phat_i (log p1_i - log p0_i) (`LLRjumps`, `LLR`).
 *
 * Theory: https://www.cantate.be/Fishtest/support_MLE_multinomial.pdf (Proposition 1.1) and
 * https://www.cantate.be/Fishtest/normalized_elo_practical.pdf (Section 4.1).
 */

import { brentRoot } from './brent.js';
import { eloToScore, NELO_PER_T } from './elo.js';
import { assertFrequencies } from './results.js';

/** A discrete distribution: (value a_i, probability p_i) with ascending values. */
export type Pdf = readonly (readonly [value: number, prob: number])[];

/**
 * Replaces zero counts by 1e-3, "a small prior for regularization" (fishtest `regularize`), so
 * that every outcome has positive probability and the MLEs exist.
 */
export function regularize(counts: readonly number[]): number[] {
  return counts.map((c) => (c === 0 ? 1e-3 : c));
}

/**
 * The regularised sample count N and the empirical distribution over the sample scores
 * i/(len-1) (fishtest `results_to_pdf`).
 */
export function resultsToPdf(counts: readonly number[]): { readonly n: number; readonly pdf: Pdf } {
  const r = regularize(counts);
  const n = r.reduce((a, b) => a + b, 0);
  const last = r.length - 1;
  return { n, pdf: r.map((c, i) => [i / last, c / n] as const) };
}

/** Mean and variance of a distribution (fishtest `stats`). */
export function pdfStats(pdf: Pdf): { readonly mean: number; readonly variance: number } {
  let mean = 0;
  for (const [a, p] of pdf) mean += p * a;
  let variance = 0;
  for (const [a, p] of pdf) variance += p * (a - mean) ** 2;
  return { mean, variance };
}

/**
 * Solves the secular equation sum_i p_i a_i / (1 + x a_i) = 0 for x in (-1/max a, -1/min a)
 * (fishtest `secular`: brentq on that interval shrunk by 1e-9 at both ends). When the shrunk
 * interval does not bracket the root (tiny p_i at the ends, where fishtest's assert fires) it
 * retries with ends closer to the poles. `undefined` when min a and max a do not have opposite
 * signs: then no root exists.
 */
export function secular(pdf: Pdf): number | undefined {
  let v = Number.POSITIVE_INFINITY;
  let w = Number.NEGATIVE_INFINITY;
  for (const [a] of pdf) {
    v = Math.min(v, a);
    w = Math.max(w, a);
  }
  if (!(v * w < 0)) return undefined;
  const lower = -1 / w;
  const upper = -1 / v;
  const f = (x: number): number => {
    let sum = 0;
    for (const [a, p] of pdf) sum += (p * a) / (1 + x * a);
    return sum;
  };
  for (const epsilon of [1e-9, 1e-12, 1e-15]) {
    const x = brentRoot(f, lower + epsilon, upper - epsilon);
    if (x !== undefined) return x;
  }
  return undefined;
}

/** The uniform distribution on the same values (fishtest `uniform`). */
function uniform(pdf: Pdf): Pdf {
  return pdf.map(([a]) => [a, 1 / pdf.length] as const);
}

/**
 * The maximum-likelihood distribution on the values of `pdfhat` with expectation `s`, given the
 * empirical distribution `pdfhat` (fishtest `MLE_expected`):
 *   p_i = phat_i / (1 + x (a_i - s)),  x the root of sum_i phat_i (a_i - s) / (1 + x (a_i - s)) = 0.
 * `undefined` when s is not strictly between the smallest and largest value.
 */
export function mleExpected(pdfhat: Pdf, s: number): Pdf | undefined {
  const x = secular(pdfhat.map(([a, p]) => [a - s, p] as const));
  if (x === undefined) return undefined;
  return pdfhat.map(([a, p]) => [a, p / (1 + x * (a - s))] as const);
}

/**
 * The maximum-likelihood distribution with t-value (mu - ref) / sigma = t, given the empirical
 * distribution `pdfhat` (fishtest `MLE_t_value`). A fixed-point iteration from the uniform
 * distribution, at most 10 rounds, stopping when no probability moves by 1e-9:
 *   a'_i = a_i - ref - t * sigma * (1 + ((mu - a_i) / sigma)^2) / 2   (mu, sigma of the iterate)
 *   p_i  = phat_i / (1 + x a'_i),  x the root of sum_i phat_i a'_i / (1 + x a'_i) = 0.
 * `undefined` when a secular equation has no root (|t| too large for the values).
 */
export function mleTValue(pdfhat: Pdf, ref: number, t: number): Pdf | undefined {
  let pdf = uniform(pdfhat);
  for (let round = 0; round < 10; round++) {
    const previous = pdf;
    const { mean: mu, variance } = pdfStats(pdf);
    const sigma = Math.sqrt(variance);
    const shifted = pdfhat.map(([a, p]) => [a - ref - (t * sigma * (1 + ((mu - a) / sigma) ** 2)) / 2, p] as const);
    const x = secular(shifted);
    if (x === undefined) return undefined;
    pdf = pdfhat.map(([a, p], i) => [a, p / (1 + x * shifted[i][0])] as const);
    let change = 0;
    for (let i = 0; i < pdf.length; i++) change = Math.max(change, Math.abs(previous[i][1] - pdf[i][1]));
    if (change < 1e-9) break;
  }
  return pdf;
}

/**
 * The GLLR per sample, sum_i phat_i (log p1_i - log p0_i), for two constrained MLEs p0, p1
 * (fishtest `LLRjumps` + `LLR`). NaN when either MLE does not exist.
 */
function llrPerSample(pdf: Pdf, pdf0: Pdf | undefined, pdf1: Pdf | undefined): number {
  if (pdf0 === undefined || pdf1 === undefined) return Number.NaN;
  let sum = 0;
  for (let i = 0; i < pdf.length; i++) sum += pdf[i][1] * (Math.log(pdf1[i][1]) - Math.log(pdf0[i][1]));
  return sum;
}

/**
 * fishtest `LLR_logistic(elo0, elo1, results)`: the GLLR of H1 "score = L(elo1)" against
 * H0 "score = L(elo0)", with elo0 and elo1 in logistic Elo and L(e) = 1/(1 + 10^(-e/400)):
 *   N * sum_i phat_i log(p1_i / p0_i),  p_k = MLE_expected(phat, L(elo_k)).
 * `counts` is [L, D, W] or the pentanomial, low to high.
 */
export function llrLogistic(elo0: number, elo1: number, counts: readonly number[]): number {
  assertFrequencies(counts);
  const { n, pdf } = resultsToPdf(counts);
  return n * llrPerSample(pdf, mleExpected(pdf, eloToScore(elo0)), mleExpected(pdf, eloToScore(elo1)));
}

/**
 * fishtest `LLR_normalized(nelo0, nelo1, results)`: the GLLR of H1 "nElo = nelo1" against
 * H0 "nElo = nelo0" in normalised Elo. The bounds become t-values
 *   t = nelo / (800 / ln 10)             for trinomial counts (per game),
 *   t = nelo / (800 / ln 10) * sqrt(2)   for pentanomial counts (per pair),
 * and LLR = N * sum_i phat_i log(p1_i / p0_i) with p_k = MLE_t_value(phat, 1/2, t_k).
 * Examples (fishtest, normalised bounds [0, 2]): [140, 5033, 11685, 5319, 159] gives 2.93;
 * bounds [0.5, 2.5]: [21, 4316, 11473, 4629, 27] gives 2.94.
 */
export function llrNormalized(nelo0: number, nelo1: number, counts: readonly number[]): number {
  assertFrequencies(counts);
  const scale = counts.length === 5 ? Math.SQRT2 : 1;
  const t0 = (nelo0 / NELO_PER_T) * scale;
  const t1 = (nelo1 / NELO_PER_T) * scale;
  const { n, pdf } = resultsToPdf(counts);
  return n * llrPerSample(pdf, mleTValue(pdf, 0.5, t0), mleTValue(pdf, 0.5, t1));
}
