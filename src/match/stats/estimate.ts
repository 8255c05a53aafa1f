/**
 * Score, Elo, normalised Elo and LOS of a match, with confidence intervals, computed exactly as
 * fastchess does (app/src/matchmaking/elo/elo_wdl.cpp and elo_pentanomial.cpp; cutechess-cli's
 * elo.cpp and fishtest's stat_util.get_elo use the same construction):
 *
 * 1. Each sample is a game (trinomial) or a game pair (pentanomial); its score x is 0, 1/2, 1 or
 *    0, 1/4, 1/2, 3/4, 1 (a pair's points divided by 2).
 * 2. s = mean of x over the N samples, var = mean of (x - s)^2 (the per-sample variance).
 * 3. The score interval is s -/+ z * sqrt(var / N), z = Phi^-1(1 - (1 - level)/2) (1.96 at 95%).
 * 4. Elo = -400 log10(1/s - 1); the interval ends are the Elo of the score interval ends, and the
 *    quoted "+-" is half their difference.
 * 5. nElo = (s - 1/2) / sigma_game * 800/ln 10 with sigma_game = sqrt(var) per game or
 *    sqrt(2 var) per pair; its "+-" is z * (800/ln 10) / sqrt(games).
 * 6. LOS = Phi((s - 1/2) / sqrt(var / N)).
 *
 * The pentanomial figures are the ones to trust for paired openings: game pairs are independent,
 * single games of a pair are not (they share an opening).
 *
 * Degenerate inputs never throw and never give NaN: samples that all scored the same (a single game or
 * pair, or only draws) give the whole score range as the interval, so an infinite "+-" (printed n/a),
 * never a zero-width one; no games gives score 1/2, Elo 0 with an
 * infinite interval and LOS 1/2; a perfect or zero score gives +/-Infinity Elo with an infinite
 * "+-"; score interval ends beyond [0, 1] are clamped, so their Elo is +/-Infinity.
 */

import { scoreToElo, scoreToNelo, NELO_PER_T } from './elo.js';
import { normalCdf, zScore } from './normal.js';
import { assertFrequencies, wdlFrequencies, type Pentanomial, type Wdl } from './results.js';

/** An Elo estimate with its interval; every figure is from the first engine's point of view. */
export interface EloEstimate {
  /** 'trinomial' (games as samples) or 'pentanomial' (game pairs as samples). */
  readonly model: 'trinomial' | 'pentanomial';
  /** Number of samples N: games, or game pairs. */
  readonly samples: number;
  /** Number of games (N, or 2N for pairs). */
  readonly games: number;
  /** Mean score per game, in [0, 1]. */
  readonly score: number;
  /** Variance of one sample's score (a pair's score being its points / 2). */
  readonly variance: number;
  /** Confidence level of the intervals (0.95 by default). */
  readonly level: number;
  /** Score interval ends, clamped to [0, 1]. */
  readonly scoreLow: number;
  readonly scoreHigh: number;
  /** Logistic Elo difference and its interval ends. */
  readonly elo: number;
  readonly eloLow: number;
  readonly eloHigh: number;
  /** The quoted "+-": (eloHigh - eloLow) / 2, or Infinity when an end is infinite. */
  readonly eloError: number;
  /** Normalised Elo and its "+-". */
  readonly nElo: number;
  readonly nEloError: number;
  /** Likelihood of superiority: P(true score > 1/2) under the normal approximation. */
  readonly los: number;
}

/** A trinomial estimate also knows the draw ratio. */
export interface WdlEstimate extends EloEstimate {
  readonly model: 'trinomial';
  /** draws / games (0 when there are no games). */
  readonly drawRatio: number;
}

/** A pentanomial estimate. */
export interface PentanomialEstimate extends EloEstimate {
  readonly model: 'pentanomial';
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

/**
 * The estimate for a frequency array of length 2n+1 (n games per sample) in fishtest order, low to
 * high: [L, D, W] (n = 1) or the pentanomial (n = 2). See the module comment for the formulas.
 */
export function estimateFromFrequencies(counts: readonly number[], level = 0.95): EloEstimate {
  assertFrequencies(counts);
  const model = counts.length === 3 ? 'trinomial' : 'pentanomial';
  const gamesPerSample = (counts.length - 1) / 2;
  const z = zScore(level);
  const n = counts.reduce((a, b) => a + b, 0);

  if (n === 0) {
    return {
      model,
      samples: 0,
      games: 0,
      score: 0.5,
      variance: 0,
      level,
      scoreLow: 0,
      scoreHigh: 1,
      elo: 0,
      eloLow: Number.NEGATIVE_INFINITY,
      eloHigh: Number.POSITIVE_INFINITY,
      eloError: Number.POSITIVE_INFINITY,
      nElo: 0,
      nEloError: Number.POSITIVE_INFINITY,
      los: 0.5,
    };
  }

  // Step 2: per-sample mean and variance; sample i scores i / (length - 1).
  const last = counts.length - 1;
  let score = 0;
  for (let i = 0; i <= last; i++) score += (counts[i] / n) * (i / last);
  let variance = 0;
  for (let i = 0; i <= last; i++) variance += (counts[i] / n) * (i / last - score) ** 2;

  // Step 3: the score interval. Samples that all scored the same (one game, one pair, all draws) show
  // no spread, and a zero variance would give an interval of zero width ("-191 [-191, -191]"): the
  // interval is then unknown (the whole score range), not exact.
  const stderr = Math.sqrt(variance / n);
  const noSpread = variance === 0;
  const scoreLow = noSpread ? 0 : clamp01(score - z * stderr);
  const scoreHigh = noSpread ? 1 : clamp01(score + z * stderr);

  // Step 4: Elo from the score and from the interval ends.
  const elo = scoreToElo(score);
  const eloLow = scoreToElo(scoreLow);
  const eloHigh = scoreToElo(scoreHigh);
  const eloError = Number.isFinite(eloLow) && Number.isFinite(eloHigh) ? (eloHigh - eloLow) / 2 : Number.POSITIVE_INFINITY;

  // Step 5: normalised Elo; sigma per game is sqrt(gamesPerSample * var).
  const games = n * gamesPerSample;
  const nElo = scoreToNelo(score, Math.sqrt(gamesPerSample * variance));
  const nEloError = noSpread ? Number.POSITIVE_INFINITY : (z * NELO_PER_T) / Math.sqrt(games);

  // Step 6: LOS.
  const d = score - 0.5;
  const los = stderr > 0 ? normalCdf(d / stderr) : d > 0 ? 1 : d < 0 ? 0 : 0.5;

  return { model, samples: n, games, score, variance, level, scoreLow, scoreHigh, elo, eloLow, eloHigh, eloError, nElo, nEloError, los };
}

/**
 * Trinomial (per-game) estimate from W/D/L counts, with the draw ratio
 * (fastchess EloWDL; cutechess-cli elo.cpp).
 * Example: W 1745 / D 7933 / L 1562 gives Elo 5.66 +- 3.48.
 */
export function estimateWdl(wdl: Wdl, level = 0.95): WdlEstimate {
  const base = estimateFromFrequencies(wdlFrequencies(wdl), level);
  const drawRatio = base.games > 0 ? wdl.draws / base.games : 0;
  return { ...base, model: 'trinomial', drawRatio };
}

/**
 * Pentanomial (per-pair) estimate from [LL, LD, WL+DD, WD, WW] (fastchess EloPentanomial).
 * Example: [102, 3617, 7614, 3559, 108] gives Elo -0.53 +- 2.03.
 */
export function estimatePentanomial(penta: Pentanomial, level = 0.95): PentanomialEstimate {
  return { ...estimateFromFrequencies(penta, level), model: 'pentanomial' };
}
