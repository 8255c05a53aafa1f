/**
 * The search's score scale: centipawns from the side to move's view, mates as `MATE - plies`.
 *
 * `MATE - p` means "the side to move mates in p plies", `-(MATE - p)` "is mated in p plies".
 * Static evaluations are clipped to `±EVAL_LIMIT`, below every mate score, so the two never mix.
 * Scores fit an `Int16Array` (the transposition table stores them there), and `INFINITE` is above
 * every real score. `toTrainingScore` maps the scale to the one of the TreeStrap paper
 * (mate ±9999, evaluations clipped to ±9900).
 */

/** Deepest ply the search can reach (main search plus quiescence); arrays are sized by it. */
export const MAX_PLY = 128;
/** Score of mate at the root (never reached: mate is at least one ply away). */
export const MATE = 32000;
/** Any score at or above this is a mate for the side to move (at or below minus this: mated). */
export const MATE_BOUND = MATE - MAX_PLY;
/** Static evaluations are clipped to this magnitude. */
export const EVAL_LIMIT = 30000;
/** Above every score; the "no bound" marker in the transposition table. */
export const INFINITE = 32500;
/** Score of a draw. */
export const DRAW = 0;

/** Whether a score is a mate for one side or the other. */
export const isMateScore = (score: number): boolean => score >= MATE_BOUND || score <= -MATE_BOUND;

/**
 * Mate distance in plies of a mate score, signed: positive when the side to move mates,
 * negative when it is mated; 0 for a non-mate score.
 */
export const matePlies = (score: number): number => {
  if (score >= MATE_BOUND) return MATE - score;
  if (score <= -MATE_BOUND) return -(MATE + score);
  return 0;
};

/** Clips a static evaluation to `±EVAL_LIMIT` and rounds it to an integer. */
export const clipEval = (value: number): number => {
  const v = Math.round(value);
  return v > EVAL_LIMIT ? EVAL_LIMIT : v < -EVAL_LIMIT ? -EVAL_LIMIT : v;
};

/** Mate scores are stored relative to the node in the table and relative to the root in the search. */
export const scoreToTable = (score: number, ply: number): number =>
  score >= MATE_BOUND ? score + ply : score <= -MATE_BOUND ? score - ply : score;

/** Inverse of `scoreToTable`; `±INFINITE` (no bound) passes unchanged. */
export const scoreFromTable = (score: number, ply: number): number => {
  if (score >= INFINITE || score <= -INFINITE) return score;
  return score >= MATE_BOUND ? score - ply : score <= -MATE_BOUND ? score + ply : score;
};

/** TreeStrap paper scale: mate ±9999 (the paper adjusted mates "inward slightly"; we keep ±9999), evaluations clipped to ±9900. */
export const TRAINING_MATE = 9999;
export const TRAINING_EVAL_LIMIT = 9900;

/** Maps a search score (or a table bound, `±INFINITE` meaning none) onto the TreeStrap paper's scale. */
export const toTrainingScore = (score: number): number => {
  if (score >= INFINITE) return Number.POSITIVE_INFINITY;
  if (score <= -INFINITE) return Number.NEGATIVE_INFINITY;
  if (score >= MATE_BOUND) return TRAINING_MATE;
  if (score <= -MATE_BOUND) return -TRAINING_MATE;
  return score > TRAINING_EVAL_LIMIT ? TRAINING_EVAL_LIMIT : score < -TRAINING_EVAL_LIMIT ? -TRAINING_EVAL_LIMIT : score;
};
