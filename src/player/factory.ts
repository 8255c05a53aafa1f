/**
 * `createPlayer`: the Player for a game from the engine config: `search: alphabeta` with the game's
 * linear weights file, `mcts` with the game's ONNX model, `auto` choosing per move (mcts-factory.ts).
 * A missing or mismatching weights file is an expected failure (`ERR_WEIGHTS`), so is a missing
 * model with `search: mcts` (`ERR_MODEL`); `auto` then plays alpha-beta.
 */
import type { EngineConfig } from '../config/sections/engine.js';
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import { AlphaBetaPlayer } from './alphabeta-player.js';
import { createAutoPlayer, createMctsPlayer, type NnPlayerConfig } from './mcts-factory.js';
import type { Player } from './player.js';
import { childLogger } from '../log/logger.js';
import { loadNnueFile } from './nnue-file.js';
import { loadWeightsFile } from './weights-file.js';
import { tuningFromText } from '../search/alphabeta/tuning.js';

/** The subset of the engine config the players read. */
export type PlayerConfig = Pick<EngineConfig, 'search' | 'hashMb' | 'moveOverheadMs' | 'chessWeights' | 'shogiWeights'> &
  Partial<Pick<EngineConfig, 'threads' | 'chessEval' | 'shogiEval' | 'chessNnue' | 'shogiNnue' | 'searchTuning'>> &
  NnPlayerConfig;

export const createPlayer = (config: PlayerConfig, game: GameKind): Result<Player, KishiError> => {
  if (config.search === 'mcts') return createMctsPlayer(config, game);
  if (config.search === 'auto') return createAutoPlayer(config, game, () => createAlphaBetaPlayer(config, game));
  return createAlphaBetaPlayer(config, game);
};

/**
 * The alpha-beta player specifically (UCI/USI front-ends use its extra option setters). Its search
 * margins come from the config's `searchTuning` when set (tuning.ts; an invalid value is
 * `ERR_CONFIG`), for A/B matches and `kishi tune` without a rebuild; `nnueSimd: false` keeps the
 * network evaluation off the SIMD kernels.
 */
export const createAlphaBetaPlayer = (config: PlayerConfig, game: GameKind): Result<AlphaBetaPlayer, KishiError> => {
  const tuning = tuningFromText(config.searchTuning, game);
  if (tuning.isErr) return Result.err(tuning.error);
  const weights = loadWeightsFile(game === 'chess' ? config.chessWeights : config.shogiWeights, game);
  if (weights.isErr) return Result.err(weights.error);
  let nnue: Uint8Array | undefined;
  if ((game === 'chess' ? config.chessEval : config.shogiEval) === 'nnue') {
    const path = (game === 'chess' ? config.chessNnue : config.shogiNnue) ?? `models/${game}-nnue.bin`;
    const loaded = loadNnueFile(path, game);
    // An expected failure: the engine still plays, with the linear evaluation.
    if (loaded.isErr) childLogger('player/factory').warn(`eval nnue: ${loaded.error.message}; falling back to the linear evaluation`);
    else nnue = loaded.value.bytes;
  }
  return Result.ok(
    new AlphaBetaPlayer({
      game,
      theta: weights.value.theta,
      hashMb: config.hashMb,
      moveOverheadMs: config.moveOverheadMs,
      threads: config.threads ?? 1,
      ...(tuning.value !== undefined ? { tuning: tuning.value } : {}),
      ...(nnue !== undefined ? { nnue } : {}),
      ...(config.nnueSimd === false ? { nnueSimd: false } : {}),
    }),
  );
};
