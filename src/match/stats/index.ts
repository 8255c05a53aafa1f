/**
 * Match statistics: W/D/L and pentanomial Elo estimates (fastchess/cutechess), fishtest's SPRT
 * with normalised-Elo GLLR, and maximum-likelihood Bradley-Terry ratings for gauntlets. Pure: no
 * I/O, no logging, no clocks.
 */

export { brentRoot, type BrentOptions } from './brent.js';
export { ELO_K, NELO_PER_T, eloToScore, scoreToElo, scoreToNelo } from './elo.js';
export {
  estimateFromFrequencies,
  estimatePentanomial,
  estimateWdl,
  type EloEstimate,
  type PentanomialEstimate,
  type WdlEstimate,
} from './estimate.js';
export { llrLogistic, llrNormalized, mleExpected, mleTValue, pdfStats, regularize, resultsToPdf, secular, type Pdf } from './llr.js';
export { Z95, erf, erfc, normalCdf, normalQuantile, zScore } from './normal.js';
export {
  EMPTY_PENTANOMIAL,
  EMPTY_WDL,
  GAME_SCORES,
  addGame,
  addPair,
  assertFrequencies,
  pairBucket,
  pentanomialPairs,
  wdlFrequencies,
  wdlGames,
  type GameScore,
  type Pentanomial,
  type Wdl,
} from './results.js';
export {
  SPRT_DECISIONS,
  SPRT_MODELS,
  SprtTest,
  sprtBounds,
  sprtDecision,
  sprtLlr,
  type SprtBounds,
  type SprtDecision,
  type SprtModel,
  type SprtParams,
  type SprtStatus,
} from './sprt.js';
export {
  RATING_STATUSES,
  fitBradleyTerry,
  type BradleyTerryFit,
  type BradleyTerryOptions,
  type PairingResult,
  type RatedPlayer,
  type RatingStatus,
} from './bradley-terry.js';
export { RATING_TABLE_HEADER, formatTable, ratingTableRows } from './rating-table.js';
