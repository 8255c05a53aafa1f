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
import type { MctsOptions } from '../search/mcts/options.js';
import type { AlphaBetaPlayer } from './alphabeta-player.js';
import { AutoPlayer } from './auto-player.js';
import { checkCpuNetFiles, isCpuNetPath, type CpuNetSettings } from './mcts-cpu-nets.js';
import { cpuTuningFromText } from './mcts-cpu-tuning.js';
import { MctsPlayer } from './mcts-player.js';
import type { Player } from './player.js';
import { resolveModelPath } from '../core/package-path.js';

/** What the net-based players read of the engine config; model settings default to the config schema's defaults. */
export type NnPlayerConfig = Pick<EngineConfig, 'moveOverheadMs'> &
  Partial<Pick<EngineConfig, 'chessModel' | 'shogiModel' | 'mctsMinClockMs' | 'mctsDrawScore' | 'threads' | 'mctsPolicy' | 'mctsTuning' | 'nnueSimd'>>;

/**
 * The model path for `game` (resolved): the config's, or, when the config names none (UCI/USI
 * `ModelFile` empty), the CPU networks (mcts-cpu-nets.ts; far stronger on a CPU than the ResNet,
 * see models/README.md): the value network trained on game results for MCTS,
 * `models/<game>-mcts-value.bin` (issue 42), if it exists, else the alpha-beta network
 * `models/<game>-nnue.bin` if it exists; else the INT8 ResNet `models/<game>-int8.onnx` if it
 * exists, else `models/<game>.onnx`. A `.bin` path selects the CPU networks, an `.onnx` one the ResNet.
 */
export const modelPathOf = (config: NnPlayerConfig, game: GameKind): string => {
  const named = game === 'chess' ? config.chessModel : config.shogiModel;
  if (named !== undefined && named.trim() !== '') return resolveModelPath(named.trim());
  for (const name of [`models/${game}-mcts-value.bin`, `models/${game}-nnue.bin`]) {
    const cpu = resolveModelPath(name);
    if (existsSync(cpu)) return cpu;
  }
  const int8 = resolveModelPath(`models/${game}-int8.onnx`);
  return existsSync(int8) ? int8 : resolveModelPath(`models/${game}.onnx`);
};

/**
 * `search: mcts`. The draw score: `mctsDrawScore` (per cent, the config key and UCI/USI
 * `DrawScore`; the AlphaZero gate sets it for both engines). `threads` (UCI/USI `Threads`): search
 * threads over one tree with the CPU networks (the ResNet searches on one). With the CPU networks,
 * `mctsTuning` (an invalid text is `ERR_CONFIG`), `mctsPolicy` and `nnueSimd` are resolved here and
 * handed to the search's worker.
 */
export const createMctsPlayer = (config: NnPlayerConfig, game: GameKind): Result<MctsPlayer, KishiError> => {
  const path = modelPathOf(config, game);
  let cpuNets: CpuNetSettings | undefined;
  let tuned: Partial<MctsOptions> = {};
  if (isCpuNetPath(path)) {
    const tuning = cpuTuningFromText(config.mctsTuning);
    if (tuning.isErr) return Result.err(tuning.error);
    const check = checkCpuNetFiles(path, game, config.mctsPolicy);
    if (check.isErr) return Result.err(check.error);
    if (check.value.policyError !== undefined) {
      childLogger('player/mcts').warn(`MCTS policy network unusable (${check.value.policyError.message}); using the one-ply prior`);
    }
    const policyPath = check.value.policyPath;
    cpuNets = {
      evaluator: tuning.value.evaluator,
      ...(policyPath !== undefined ? { policyPath } : {}),
      ...(config.nnueSimd === false ? { simd: false } : {}),
    };
    tuned = tuning.value.options;
  } else {
    const check = checkModelFiles(path, game);
    if (check.isErr) return Result.err(check.error);
  }
  const drawScore = (config.mctsDrawScore ?? 0) / 100;
  if (!Number.isFinite(drawScore) || drawScore < -1 || drawScore > 1) {
    return Result.err(new KishiError('ERR_CONFIG', `mctsDrawScore ${config.mctsDrawScore}: expected per cent in [-100, 100]`));
  }
  const threads = Math.max(1, Math.floor(config.threads ?? 1));
  const set = { ...tuned, ...(drawScore !== 0 ? { drawScore } : {}), ...(threads > 1 ? { threads } : {}) };
  const options = Object.keys(set).length > 0 ? { options: set } : {};
  return Result.ok(new MctsPlayer({ game, modelPath: path, moveOverheadMs: config.moveOverheadMs, ...options, ...(cpuNets !== undefined ? { cpuNets } : {}) }));
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
