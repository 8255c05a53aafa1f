/**
 * The squashing of TD-Leaf(λ): scores in centipawns are mapped into [-1, 1] by `tanh(beta * score)`
 * before temporal differences are taken, so that the game result (+1 win, 0 draw, -1 loss) and the
 * evaluations live on one scale and one blunder cannot dominate an update (KnightCap).
 *
 * Scale: KnightCap chose beta so that a one-pawn advantage squashes to 0.25 (Baxter, Tridgell and
 * Weaver, "KnightCap: a chess program that learns by combining TD(λ) with game-tree search", the
 * companion of the TD-Leaf paper). Our evaluations are in centipawns (a pawn = 100, chess and shogi alike), so
 * beta = atanh(0.25) / 100 = 0.0025541 per centipawn: +100 cp -> 0.25, +300 cp -> 0.65,
 * +900 cp -> 0.98.
 *
 * Step size on this scale: with J = tanh(beta * H), dJ/dtheta = beta * (1 - J^2) * phi, and theta in
 * centipawns is 100 times theta in pawns while beta per centipawn is beta per pawn / 100, so a step
 * size alpha in pawn units (KnightCap's alpha = 1.0) is 10^4 * alpha here.
 */

/** KnightCap's squashing scale, per centipawn: tanh(beta * 100) = 0.25. */
export const KNIGHTCAP_BETA = Math.atanh(0.25) / 100;

/** A score in centipawns squashed into (-1, 1). */
export const squash = (cp: number, beta: number): number => Math.tanh(beta * cp);
