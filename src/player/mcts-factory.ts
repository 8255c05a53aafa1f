/**
 * Building the net-based players for `search: mcts | auto` (factory.ts calls these):
 * - `mcts`: the MCTS player; a model that fails the start-up check (files missing, manifest
 *   invalid or for another encoding) is an `ERR_MODEL` error here, a model that fails to load in
 *   the worker (corrupt ONNX) fails every `go` with `ERR_MODEL`;
 * - `auto`: the `AutoPlayer` over both engines; model problems only make it play alpha-beta (with
 *   one log line), never fail.
 * Model paths resolve like the weights files (working directory, then the package root).
 */
import { existsSync } from 'node:fs';
import type { EngineConfig } from '../config/sections/engine.js';
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import { childLogger } from '../log/logger.js';
import { checkModelFiles } from '../nn/model-file.js';
import type { AlphaBetaPlayer } from './alphabeta-player.js';
import { AutoPlayer } from './auto-player.js';
import { MctsPlayer } from './mcts-player.js';
import type { Player } from './player.js';
import { resolveModelPath } from './weights-file.js';

/** What the net-based players read of the engine config; model settings default to the config schema's defaults. */
export type NnPlayerConfig = Pick<EngineConfig, 'moveOverheadMs'> & Partial<Pick<EngineConfig, 'chessModel' | 'shogiModel' | 'mctsMinClockMs'>>;

/**
 * The model path for `game` (resolved): the config's, or, when the config names none (the UCI/USI
 * front-ends pass no model path), the INT8 net `models/<game>-int8.onnx` if it exists (2-4x
 * faster, see models/README.md), else `models/<game>.onnx`.
 */
export const modelPathOf = (config: NnPlayerConfig, game: GameKind): string => {
  const named = game === 'chess' ? config.chessModel : config.shogiModel;
  if (named !== undefined) return resolveModelPath(named);
  const int8 = resolveModelPath(`models/${game}-int8.onnx`);
  return existsSync(int8) ? int8 : resolveModelPath(`models/${game}.onnx`);
};

/** `search: mcts`. */
export const createMctsPlayer = (config: NnPlayerConfig, game: GameKind): Result<MctsPlayer, KishiError> => {
  const path = modelPathOf(config, game);
  const check = checkModelFiles(path, game);
  if (check.isErr) return Result.err(check.error);
  return Result.ok(new MctsPlayer({ game, modelPath: path, moveOverheadMs: config.moveOverheadMs }));
};

/** `search: auto`: alpha-beta must be available; MCTS joins when its model passes the start-up check. */
export const createAutoPlayer = (
  config: NnPlayerConfig,
  game: GameKind,
  alphabeta: () => Result<AlphaBetaPlayer, KishiError>,
): Result<Player, KishiError> => {
  const ab = alphabeta();
  if (ab.isErr) return Result.err(ab.error);
  const log = childLogger('player/auto');
  const mcts = createMctsPlayer(config, game);
  if (mcts.isErr) log.warn(`search auto: no usable ${game} model (${mcts.error.message}); playing with alpha-beta`);
  return Result.ok(
    new AutoPlayer({
      game,
      mcts: mcts.isOk ? mcts.value : undefined,
      alphabeta: ab.value,
      minClockMs: config.mctsMinClockMs ?? 10_000,
      log: (level, message) => log.log(level, message),
    }),
  );
};
