/**
 * Results of the repetition helper `FastShogiBoard.repetition()` (sennichite and perpetual
 * check), from the point of view of the side to move.
 */
export const Repetition = {
  /** No earlier occurrence of this position (within the history searched). */
  None: 0,
  /** The position repeated without continuous check by one side: a draw (sennichite). */
  Draw: 1,
  /** The opponent gave check with every move of the cycle: the side to move wins. */
  Win: 2,
  /** The side to move gave check with every move of the cycle: the side to move loses. */
  Loss: 3,
} as const;
export type RepetitionResult = (typeof Repetition)[keyof typeof Repetition];
