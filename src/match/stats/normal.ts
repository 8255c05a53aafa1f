/**
 * The standard normal distribution: error function, CDF and quantile, in double precision and
 * without dependencies. The match statistics need Phi (LOS) and Phi^-1 (interval half-widths).
 */

import { brentRoot } from './brent.js';

/**
 * Phi^-1(0.975), the two-sided 95% z-score. The same constant as fastchess `CI95ZSCORE` and
 * scipy `norm.ppf(0.975)` (what fishtest `stat_util.get_elo` uses).
 */
export const Z95 = 1.959963984540054;

const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);
const ONE_OVER_SQRT_PI = 1 / Math.sqrt(Math.PI);

/**
 * erf(x) for |x| < 1.5 from the all-positive series (Abramowitz & Stegun 7.1.6)
 *   erf(x) = 2/sqrt(pi) * exp(-x^2) * sum_{n>=0} 2^n x^(2n+1) / (1*3*...*(2n+1)),
 * which has no cancellation, so it is accurate to a few ulps.
 */
function erfSeries(x: number): number {
  const x2 = x * x;
  let term = x;
  let sum = x;
  for (let n = 1; n < 200; n++) {
    term *= (2 * x2) / (2 * n + 1);
    sum += term;
    if (Math.abs(term) < 1e-17 * Math.abs(sum)) break;
  }
  return TWO_OVER_SQRT_PI * Math.exp(-x2) * sum;
}

/**
 * erfc(x) for x >= 1.5 from the continued fraction (Abramowitz & Stegun 7.1.14)
 *   erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...))))),
 * evaluated bottom-up; 120 levels give full double precision from x = 1.5 on (40 levels already
 * do from x = 2), so erfc keeps its relative precision deep into the tail.
 */
function erfcContinuedFraction(x: number): number {
  let f = x;
  for (let n = 120; n >= 1; n--) f = x + n / 2 / f;
  return (ONE_OVER_SQRT_PI * Math.exp(-x * x)) / f;
}

/** The error function erf(x) = 2/sqrt(pi) * integral_0^x exp(-t^2) dt. */
export function erf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (Math.abs(x) < 1.5) return erfSeries(x);
  const c = erfcContinuedFraction(Math.abs(x));
  return x > 0 ? 1 - c : c - 1;
}

/** The complementary error function erfc(x) = 1 - erf(x), accurate in the far right tail. */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x >= 1.5) return erfcContinuedFraction(x);
  if (x <= -1.5) return 2 - erfcContinuedFraction(-x);
  return 1 - erfSeries(x);
}

/**
 * Phi(z) = P(Z <= z) for a standard normal Z: 0.5 * erfc(-z / sqrt(2)).
 * (fishtest `stat_util.Phi`, fastchess `los()` writes it as (1 - erf(-z/sqrt 2)) / 2.)
 */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2);
}

/**
 * Phi^-1(p): the z with Phi(z) = p (fishtest `stat_util.Phi_inv`, scipy `norm.ppf`).
 * Brent's method on Phi(z) - p over [-40, 0] (upper half by symmetry), then one Newton step;
 * 0 and 1 map to -/+Infinity.
 */
export function normalQuantile(p: number): number {
  if (Number.isNaN(p) || p < 0 || p > 1) return Number.NaN;
  if (p === 0) return Number.NEGATIVE_INFINITY;
  if (p === 1) return Number.POSITIVE_INFINITY;
  if (p === 0.975) return Z95;
  if (p === 0.025) return -Z95;
  // Solve in the lower tail, where Phi keeps its relative precision; 1 - p is exact for p > 1/2.
  if (p > 0.5) return -normalQuantile(1 - p);
  const z = brentRoot((x) => normalCdf(x) - p, -40, 0);
  if (z === undefined) return Number.NaN;
  const density = Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
  return density > 0 ? z - (normalCdf(z) - p) / density : z;
}

/** The two-sided z-score for a confidence level, e.g. 0.95 -> 1.96: Phi^-1(1 - (1 - level) / 2). */
export function zScore(level: number): number {
  return level === 0.95 ? Z95 : normalQuantile(1 - (1 - level) / 2);
}
