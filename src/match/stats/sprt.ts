/**
 * The sequential probability ratio test as fishtest runs it (server/fishtest/stats/stat_util.py
 * `SPRT` and `update_SPRT`, Michel Van den Bergh):
 *
 * - H0: Elo = elo0, H1: Elo = elo1, in normalised Elo (fishtest's default model today) or logistic
 *   Elo; alpha is the false-positive rate at elo0, beta the false-negative rate at elo1;
 * - after each batch (a game for trinomial counts, a game pair for pentanomial counts) the GLLR of
 *   all results so far is computed (llr.ts) and compared with Wald's bounds
 *     lower = log(beta / (1 - alpha)),   upper = log((1 - beta) / alpha);
 * - LLR below lower (+ overshoot correction) accepts H0 (fishtest "rejected"), above upper
 *   (- overshoot correction) accepts H1 (fishtest "accepted"); otherwise play on.
 *
 * The dynamic overshoot correction (Siegmund, "Sequential Analysis", Corollary 8.33) keeps the
 * first and second moments of the amounts by which the LLR went below its running minimum (above
 * its running maximum) and moves each bound inwards by E[overshoot] = sum(d^2) / (2 sum(d)).
 */

import { llrLogistic, llrNormalized } from './llr.js';
import { assertFrequencies } from './results.js';

/** The Elo scale the bounds are given in. */
export const SPRT_MODELS = ['normalized', 'logistic'] as const;
export type SprtModel = (typeof SPRT_MODELS)[number];

/** Test design. */
export interface SprtParams {
  /** H0 Elo (in `model` units). */
  readonly elo0: number;
  /** H1 Elo (in `model` units). */
  readonly elo1: number;
  /** False-positive rate (default 0.05). */
  readonly alpha?: number;
  /** False-negative rate (default 0.05). */
  readonly beta?: number;
  /** Elo scale of elo0/elo1 (default 'normalized', as fishtest). */
  readonly model?: SprtModel;
}

/** Wald's stopping bounds for the LLR. */
export interface SprtBounds {
  readonly lower: number;
  readonly upper: number;
}

/** Accept H0 (elo0), accept H1 (elo1), or keep playing. */
export const SPRT_DECISIONS = ['H0', 'H1', 'continue'] as const;
export type SprtDecision = (typeof SPRT_DECISIONS)[number];

/**
 * Wald's bounds (fishtest `SPRT`): lower = log(beta / (1 - alpha)), upper = log((1 - beta) / alpha).
 * alpha = beta = 0.05 gives [-2.944, 2.944].
 */
export function sprtBounds(alpha = 0.05, beta = 0.05): SprtBounds {
  if (!(alpha > 0 && alpha < 1 && beta > 0 && beta < 1)) {
    throw new RangeError(`SPRT alpha and beta must lie in (0, 1), got alpha=${alpha} beta=${beta}`);
  }
  return { lower: Math.log(beta / (1 - alpha)), upper: Math.log((1 - beta) / alpha) };
}

/**
 * The LLR of `counts` ([L, D, W] or the pentanomial, low to high) for elo1 against elo0
 * (fishtest `update_SPRT`: LLR_normalized or LLR_logistic by model).
 */
export function sprtLlr(counts: readonly number[], elo0: number, elo1: number, model: SprtModel = 'normalized'): number {
  return model === 'normalized' ? llrNormalized(elo0, elo1, counts) : llrLogistic(elo0, elo1, counts);
}

/**
 * The decision for an LLR (fishtest `update_SPRT`, "now check the stop condition"):
 *   llr < lower + overshoot.lower -> 'H0';  llr > upper - overshoot.upper -> 'H1';  else 'continue'.
 * A NaN LLR continues.
 */
export function sprtDecision(
  llr: number,
  bounds: SprtBounds,
  overshoot: { readonly lower: number; readonly upper: number } = { lower: 0, upper: 0 },
): SprtDecision {
  if (llr < bounds.lower + overshoot.lower) return 'H0';
  if (llr > bounds.upper - overshoot.upper) return 'H1';
  return 'continue';
}

/** The state of a test after an update. */
export interface SprtStatus {
  readonly llr: number;
  readonly lower: number;
  readonly upper: number;
  /** Estimated overshoot at each bound (0 until the LLR has made new extremes). */
  readonly overshootLower: number;
  readonly overshootUpper: number;
  readonly decision: SprtDecision;
  /** Results so far: games (trinomial) or pairs (pentanomial). */
  readonly samples: number;
}

/**
 * A running SPRT with fishtest's dynamic overshoot correction. Call {@link update} with the
 * cumulative counts each time `batchSize` samples (games or pairs) have finished; repeating a
 * call with the same counts is harmless. Mutable: `update` changes the overshoot bookkeeping.
 */
export class SprtTest {
  readonly elo0: number;
  readonly elo1: number;
  readonly model: SprtModel;
  readonly bounds: SprtBounds;
  readonly batchSize: number;
  /** False once an update skipped or lost samples; the correction is then off (fishtest drops it). */
  private overshootValid = true;
  private lastUpdate = 0;
  private ref0 = 0;
  private m0 = 0;
  private sq0 = 0;
  private ref1 = 0;
  private m1 = 0;
  private sq1 = 0;

  constructor(params: SprtParams, batchSize = 1) {
    this.elo0 = params.elo0;
    this.elo1 = params.elo1;
    this.model = params.model ?? 'normalized';
    this.bounds = sprtBounds(params.alpha ?? 0.05, params.beta ?? 0.05);
    if (!(Number.isInteger(batchSize) && batchSize >= 1)) throw new RangeError(`bad SPRT batch size ${batchSize}`);
    this.batchSize = batchSize;
  }

  /** Feeds the cumulative counts and returns the LLR, corrected bounds and decision (fishtest `update_SPRT`). */
  update(counts: readonly number[]): SprtStatus {
    assertFrequencies(counts);
    const llr = sprtLlr(counts, this.elo0, this.elo1, this.model);
    const samples = counts.reduce((a, b) => a + b, 0);

    // fishtest: a count that is not a multiple of the batch size voids the overshoot contract.
    if (samples % this.batchSize !== 0) this.overshootValid = false;
    if (this.overshootValid) {
      if (samples < this.lastUpdate) {
        this.overshootValid = false; // results were lost ("purge")
      } else {
        if (samples === this.lastUpdate + this.batchSize && !Number.isNaN(llr)) {
          if (llr < this.ref0) {
            const delta = llr - this.ref0;
            this.m0 += delta;
            this.sq0 += delta ** 2;
            this.ref0 = llr;
          }
          if (llr > this.ref1) {
            const delta = llr - this.ref1;
            this.m1 += delta;
            this.sq1 += delta ** 2;
            this.ref1 = llr;
          }
        } else if (samples !== this.lastUpdate && !Number.isNaN(llr)) {
          // Updates were skipped: restart the running extremes from here.
          this.ref0 = llr;
          this.ref1 = llr;
        }
        this.lastUpdate = samples;
      }
    }

    const overshootLower = this.overshootValid && this.m0 !== 0 ? -this.sq0 / this.m0 / 2 : 0;
    const overshootUpper = this.overshootValid && this.m1 !== 0 ? this.sq1 / this.m1 / 2 : 0;
    const decision = sprtDecision(llr, this.bounds, { lower: overshootLower, upper: overshootUpper });
    return { llr, lower: this.bounds.lower, upper: this.bounds.upper, overshootLower, overshootUpper, decision, samples };
  }
}
