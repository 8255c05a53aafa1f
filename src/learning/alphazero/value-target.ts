/**
 * Value targets for the nets from engine scores, one scale for every phase's records (bootstrap,
 * self-play, online) so they can be mixed in one training window:
 * - chess centipawns, and centipawns an MCTS engine logged: the inverse of Lc0's Q -> cp map that
 *   our MCTS reports with (src/search/mcts/score.ts), so an MCTS score maps back to its exact Q;
 * - shogi centipawns of the alpha-beta engine: tanh(cp / 600);
 * - mate scores: +1 / -1.
 */
import type { GameKind } from '../../core/game.js';
import { centipawnsToQ } from '../../search/mcts/score.js';

/** An engine score for the side to move. */
export type EngineScore = { readonly cp: number } | { readonly mate: number };

/** The value in [-1, 1] of `score` for the side to move; `mctsScore`: the score is an MCTS engine's. */
export const scoreToValue = (game: GameKind, score: EngineScore, mctsScore = false): number => {
  if ('mate' in score) return score.mate > 0 ? 1 : -1;
  if (game === 'chess' || mctsScore) return centipawnsToQ(score.cp);
  return Math.tanh(score.cp / 600);
};
