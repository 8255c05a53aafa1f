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
import { DRAW_SCORE_ENV, MODEL_ENV } from '../search/mcts/options.js';
import { checkCpuNetFiles, isCpuNetPath } from './mcts-cpu-nets.js';
import { MctsPlayer } from './mcts-player.js';
import type { Player } from './player.js';
import { resolveModelPath } from './weights-file.js';

/** What the net-based players read of the engine config; model settings default to the config schema's defaults. */
export type NnPlayerConfig = Pick<EngineConfig, 'moveOverheadMs'> &
  Partial<Pick<EngineConfig, 'chessModel' | 'shogiModel' | 'mctsMinClockMs' | 'mctsDrawScore' | 'threads'>>;

/**
 * The environment variable naming the net when the config names none (`KISHI_MCTS_MODEL`; the
 * UCI/USI front-ends name none when `ModelFile` is empty): the gate matches also name each engine's
 * net this way (`/usr/bin/env KISHI_MCTS_MODEL=... node bin/kishi.js uci`).
 */
export { MODEL_ENV };

/**
 * The model path for `game` (resolved): the config's, or, when the config names none (UCI/USI
 * `ModelFile` empty), `KISHI_MCTS_MODEL` if set, else the CPU networks `models/<game>-nnue.bin`
 * (mcts-cpu-nets.ts; far stronger on a CPU than the ResNet, see models/README.md) if they exist,
 * else the INT8 ResNet `models/<game>-int8.onnx` if it exists, else `models/<game>.onnx`. A `.bin`
 * path selects the CPU networks, an `.onnx` one the ResNet.
 */
export const modelPathOf = (config: NnPlayerConfig, game: GameKind, env: NodeJS.ProcessEnv = process.env): string => {
  const named = game === 'chess' ? config.chessModel : config.shogiModel;
  if (named !== undefined) return resolveModelPath(named);
  const fromEnv = env[MODEL_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return resolveModelPath(fromEnv.trim());
  const cpu = resolveModelPath(`models/${game}-nnue.bin`);
  if (existsSync(cpu)) return cpu;
  const int8 = resolveModelPath(`models/${game}-int8.onnx`);
  return existsSync(int8) ? int8 : resolveModelPath(`models/${game}.onnx`);
};

export { DRAW_SCORE_ENV };

/** The draw score from `env` (`KISHI_MCTS_DRAW_SCORE`): undefined when unset or empty, `ERR_CONFIG` when not a number in [-1, 1]. */
export const drawScoreFromEnv = (env: NodeJS.ProcessEnv = process.env): Result<number | undefined, KishiError> => {
  const raw = env[DRAW_SCORE_ENV];
  if (raw === undefined || raw.trim() === '') return Result.ok(undefined);
  const v = Number(raw);
  if (!Number.isFinite(v) || v < -1 || v > 1) return Result.err(new KishiError('ERR_CONFIG', `${DRAW_SCORE_ENV}=${raw}: expected a number in [-1, 1]`));
  return Result.ok(v);
};

/**
 * `search: mcts`. The draw score: `KISHI_MCTS_DRAW_SCORE` (in [-1, 1]) when set, as the gate matches
 * set it for both engines, else `mctsDrawScore` (per cent, the config key and UCI/USI `DrawScore`).
 * `threads` (UCI/USI `Threads`): search threads over one tree with the CPU networks (the ResNet
 * searches on one).
 */
export const createMctsPlayer = (config: NnPlayerConfig, game: GameKind): Result<MctsPlayer, KishiError> => {
  const path = modelPathOf(config, game);
  if (isCpuNetPath(path)) {
    const check = checkCpuNetFiles(path, game);
    if (check.isErr) return Result.err(check.error);
    if (check.value.policyError !== undefined) {
      childLogger('player/mcts').warn(`MCTS policy network unusable (${check.value.policyError.message}); using the one-ply prior`);
    }
  } else {
    const check = checkModelFiles(path, game);
    if (check.isErr) return Result.err(check.error);
  }
  const fromEnv = drawScoreFromEnv();
  if (fromEnv.isErr) return Result.err(fromEnv.error);
  const drawScore = fromEnv.value ?? (config.mctsDrawScore ?? 0) / 100;
  const threads = Math.max(1, Math.floor(config.threads ?? 1));
  const set = { ...(drawScore !== 0 ? { drawScore } : {}), ...(threads > 1 ? { threads } : {}) };
  const options = Object.keys(set).length > 0 ? { options: set } : {};
  return Result.ok(new MctsPlayer({ game, modelPath: path, moveOverheadMs: config.moveOverheadMs, ...options }));
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
