/**
 * `createPlayer`: the Player for a game from the engine config. Alpha-beta for now (`search:
 * alphabeta`, and `auto`/`mcts` until the MCTS engine exists), with the game's linear weights file.
 * A missing or mismatching weights file is an expected failure (`ERR_WEIGHTS`).
 */
import type { EngineConfig } from '../config/sections/engine.js';
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import { AlphaBetaPlayer } from './alphabeta-player.js';
import type { Player } from './player.js';
import { loadWeightsFile } from './weights-file.js';

/** The subset of the engine config the players read. */
export type PlayerConfig = Pick<EngineConfig, 'search' | 'hashMb' | 'moveOverheadMs' | 'chessWeights' | 'shogiWeights'>;

export const createPlayer = (config: PlayerConfig, game: GameKind): Result<Player, KishiError> =>
  createAlphaBetaPlayer(config, game);

/** The alpha-beta player specifically (UCI/USI front-ends use its extra option setters). */
export const createAlphaBetaPlayer = (config: PlayerConfig, game: GameKind): Result<AlphaBetaPlayer, KishiError> => {
  const weights = loadWeightsFile(game === 'chess' ? config.chessWeights : config.shogiWeights, game);
  if (weights.isErr) return Result.err(weights.error);
  return Result.ok(
    new AlphaBetaPlayer({ game, theta: weights.value.theta, hashMb: config.hashMb, moveOverheadMs: config.moveOverheadMs }),
  );
};
