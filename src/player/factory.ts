/**
 * `createPlayer`: the Player for a game from the engine config: `search: alphabeta` with the game's
 * linear weights file, `mcts` with the game's ONNX model, `auto` choosing per move (mcts-factory.ts),
 * `dyna2` the alpha-beta player with TD search before each search (src/search/td/), `td` TD search
 * alone (the same player, its move chosen by TD search without an alpha-beta phase).
 * A missing or mismatching weights file is an expected failure (`ERR_WEIGHTS`), so is a missing
 * model with `search: mcts` (`ERR_MODEL`); `auto` then plays alpha-beta.
 */
import { TD_DEFAULTS, type EngineConfig } from '../config/sections/engine.js';
import type { TdSearchParams } from '../search/td/td-search.js';
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
  Partial<Pick<EngineConfig, 'threads' | 'chessEval' | 'shogiEval' | 'chessNnue' | 'shogiNnue' | 'searchTuning' | TdKey>> &
  NnPlayerConfig;

export type TdKey = 'tdLambda' | 'tdStepSize' | 'tdEpsilon' | 'tdEpisodePlies' | 'tdSimulations' | 'tdTimeShare' | 'tdCarry' | 'tdQuiet';

/** The TD search parameters of `search: dyna2` from the config (its defaults for absent keys). */
export const tdParams = (config: Partial<Pick<EngineConfig, TdKey>>): TdSearchParams => ({
  lambda: config.tdLambda ?? TD_DEFAULTS.lambda,
  stepSize: config.tdStepSize ?? TD_DEFAULTS.stepSize,
  epsilon: config.tdEpsilon ?? TD_DEFAULTS.epsilon,
  episodePlies: config.tdEpisodePlies ?? TD_DEFAULTS.episodePlies,
  simulations: config.tdSimulations ?? TD_DEFAULTS.simulations,
  timeShare: config.tdTimeShare ?? TD_DEFAULTS.timeShare,
  carry: config.tdCarry ?? TD_DEFAULTS.carry,
  quiet: config.tdQuiet ?? TD_DEFAULTS.quiet,
});

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
      // Dyna-2's short-term memory lives in the main search thread; Lazy SMP helpers would fill the
      // shared table with scores of the long-term evaluation alone, so `dyna2` searches on one thread.
      threads: config.search === 'dyna2' || config.search === 'td' ? 1 : (config.threads ?? 1),
      ...(tuning.value !== undefined ? { tuning: tuning.value } : {}),
      ...(nnue !== undefined ? { nnue } : {}),
      ...(config.search === 'dyna2' ? { dyna2: tdParams(config) } : {}),
      ...(config.search === 'td' ? { dyna2: { ...tdParams(config), alone: true } } : {}),
      ...(config.nnueSimd === false ? { nnueSimd: false } : {}),
    }),
  );
};
