/**
 * Elo scales. "Elo" here is logistic Elo, the scale of cutechess, fastchess and fishtest's
 * "logistic" model; normalised Elo (nElo) is Michel Van den Bergh's scale, where a difference of
 * 800/ln(10) nElo means one standard deviation of the per-game score per sqrt(2) games
 * (https://www.cantate.be/Fishtest/normalized_elo_practical.pdf).
 */

/**
 * nElo per unit of normalised t-value: 800 / ln(10) = 347.43558552260146
 * (fishtest LLRcalc.py `nelo_divided_by_nt`).
 */
export const NELO_PER_T = 800 / Math.LN10;

/** ln(10) / 400: d/dElo of the logistic's log-odds, i.e. logit(s) = ELO_K * elo. */
export const ELO_K = Math.LN10 / 400;

/**
 * Expected score of a player rated `elo` above its opponent: L(elo) = 1 / (1 + 10^(-elo/400)).
 * (fishtest LLRcalc.py `L_`, stat_util.py `L`.)
 */
export function eloToScore(elo: number): number {
  return 1 / (1 + Math.pow(10, -elo / 400));
}

/**
 * Logistic Elo difference for an expected score s: -400 * log10(1/s - 1)
 * (cutechess elo.cpp `diff`, fastchess `scoreToEloDiff`, fishtest stat_util `elo` without its clamp).
 * s = 1 gives +Infinity and s = 0 gives -Infinity; outside [0, 1] it is NaN.
 */
export function scoreToElo(score: number): number {
  const elo = -400 * Math.log10(1 / score - 1);
  return elo === 0 ? 0 : elo; // +0, not -0, for an even score
}

/**
 * Normalised Elo for a per-game score and the standard deviation of one sample's score:
 *   nElo = (s - 1/2) / sigma * 800 / ln(10)
 * where sigma is the per-game standard deviation for W/D/L results and sqrt(2) times the
 * per-pair standard deviation for game pairs (fastchess `scoreToNeloDiff`; fishtest sprt.py
 * `sigma_pg`). A zero sigma gives 0 for an even score and +/-Infinity otherwise.
 */
export function scoreToNelo(score: number, sigmaPerGame: number): number {
  const d = score - 0.5;
  if (sigmaPerGame === 0) return d === 0 ? 0 : d > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  return (d / sigmaPerGame) * NELO_PER_T;
}
