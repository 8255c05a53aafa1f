/**
 * Draw offers and resignation decided from the history of our search scores, as lichess-bot's
 * `offer_draw_or_resign`: resign when each of the last `resignMoves` scores is at or below
 * `resignScoreCp`; offer a draw (sent with the move as `offeringDraw=true`) when each of the last
 * `offerDrawMoves` scores is within `offerDrawScoreCp` of zero and few enough pieces are left. The same draw
 * condition decides whether to accept the opponent's offer. Mate scores count as ±40000 (lichess-bot's
 * `mate_score`) minus the distance. Pure.
 */
import type { DrawOrResignConfig } from '../../config/sections/draw-or-resign.js';
import type { SearchInfo } from '../../player/player.js';

export const MATE_SCORE_CP = 40_000;

/** A search score as centipawns from the side to move's view. */
export function scoreToCp(score: SearchInfo['score']): number {
  if ('cp' in score) return score.cp;
  return score.mate > 0 ? MATE_SCORE_CP - score.mate : -MATE_SCORE_CP - score.mate;
}

const lastN = (scores: readonly number[], n: number): readonly number[] | undefined =>
  scores.length >= n ? scores.slice(scores.length - n) : undefined;

export function shouldResign(scores: readonly number[], cfg: DrawOrResignConfig): boolean {
  if (!cfg.resignEnabled) return false;
  const recent = lastN(scores, cfg.resignMoves);
  return recent !== undefined && recent.every((s) => s <= cfg.resignScoreCp);
}

/** The draw condition: recent scores near zero and at most `offerDrawPieces` pieces left. */
export function drawConditionHolds(scores: readonly number[], pieces: number, cfg: DrawOrResignConfig): boolean {
  if (!cfg.offerDrawEnabled || pieces > cfg.offerDrawPieces) return false;
  const recent = lastN(scores, cfg.offerDrawMoves);
  return recent !== undefined && recent.every((s) => Math.abs(s) <= cfg.offerDrawScoreCp);
}

export function shouldAcceptDraw(scores: readonly number[], pieces: number, cfg: DrawOrResignConfig): boolean {
  return cfg.acceptDraws && drawConditionHolds(scores, pieces, cfg);
}
