/**
 * The CPU networks of MCTS (issue 19): a model path ending in `.bin` names an NNUE network file
 * (src/eval/nnue/format.ts, with its manifest beside it) whose value, resolved by a short
 * quiescence search, and one-ply policy the search evaluates inside its descent
 * (src/search/mcts/cpu-evaluator.ts); an `.onnx` path names the ResNet run by onnxruntime.
 *
 * Loading validates the file, the manifest and its reference outputs (src/player/nnue-file.ts); a
 * missing or corrupt file is an `ERR_MODEL` naming what is wrong, as for the ONNX models, so the
 * callers fall back the same way (`search: auto` plays alpha-beta; UCI/USI say so and search with
 * alpha-beta).
 *
 * Tuning hook: `KISHI_MCTS_CPU` = comma-separated `key=value` pairs overriding the evaluator's
 * settings (`tau` prior temperature in units of K, `qplies` quiescence plies) and the search's
 * (`cpuct`, `cpuctFactor`, `fpu`), used by the tuning matches of the MCTS notes.
 */
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import { ChessCpuEvaluator } from '../search/mcts/chess-cpu-evaluator.js';
import { DEFAULT_CPU_EVALUATOR, type CpuEvaluator, type CpuEvaluatorSettings } from '../search/mcts/cpu-evaluator.js';
import type { MctsOptions } from '../search/mcts/options.js';
import { ShogiCpuEvaluator } from '../search/mcts/shogi-cpu-evaluator.js';
import { loadNnueFile, type LoadedNnue } from './nnue-file.js';

/** The environment variable of the tuning hook. */
export const CPU_TUNING_ENV = 'KISHI_MCTS_CPU';

/** Whether a model path names the CPU networks (an NNUE `.bin` file) rather than an ONNX ResNet. */
export const isCpuNetPath = (path: string): boolean => path.endsWith('.bin');

/** The sigmoid scale K the trainer fitted, from the manifest's `training.k`. */
const kOf = (loaded: LoadedNnue): Result<number, KishiError> => {
  const t = loaded.manifest.training;
  const k = typeof t === 'object' && t !== null ? (t as { k?: unknown }).k : undefined;
  if (typeof k !== 'number' || !(k > 0) || !Number.isFinite(k)) {
    return Result.err(new KishiError('ERR_MODEL', `network manifest of ${loaded.file}: no training.k (the sigmoid scale MCTS turns centipawns into values with)`));
  }
  return Result.ok(k);
};

/** The tuning overrides of `KISHI_MCTS_CPU`; `ERR_CONFIG` on a malformed value. */
export const cpuTuningFromEnv = (
  env: NodeJS.ProcessEnv = process.env,
): Result<{ evaluator: Partial<CpuEvaluatorSettings>; options: Partial<MctsOptions> }, KishiError> => {
  const raw = env[CPU_TUNING_ENV]?.trim() ?? '';
  const evaluator: { -readonly [K in keyof CpuEvaluatorSettings]?: number } = {};
  const options: { -readonly [K in keyof MctsOptions]?: number } = {};
  if (raw === '') return Result.ok({ evaluator, options });
  for (const pair of raw.split(',')) {
    const [key, value] = pair.split('=').map((s) => s.trim());
    const v = Number(value);
    if (key === undefined || value === undefined || value === '' || !Number.isFinite(v)) {
      return Result.err(new KishiError('ERR_CONFIG', `${CPU_TUNING_ENV}: expected key=number pairs, got ${JSON.stringify(pair)}`));
    }
    switch (key) {
      case 'tau':
        evaluator.priorTemperature = v;
        break;
      case 'qplies':
        evaluator.qsearchPlies = v;
        break;
      case 'cpuct':
        options.cpuctInit = v;
        break;
      case 'cpuctFactor':
        options.cpuctFactor = v;
        break;
      case 'fpu':
        options.fpuReduction = v;
        options.fpuReductionRoot = v;
        break;
      default:
        return Result.err(new KishiError('ERR_CONFIG', `${CPU_TUNING_ENV}: unknown key ${JSON.stringify(key)} (tau, qplies, cpuct, cpuctFactor, fpu)`));
    }
  }
  return Result.ok({ evaluator, options });
};

/** Checks the network at `path` (resolved) without building an evaluator: `ERR_MODEL` when unusable. */
export const checkCpuNetFiles = (path: string, game: GameKind): Result<void, KishiError> => {
  const loaded = loadNnueFile(path, game);
  if (loaded.isErr) return Result.err(new KishiError('ERR_MODEL', loaded.error.message));
  const k = kOf(loaded.value);
  return k.isErr ? Result.err(k.error) : Result.ok(undefined);
};

/** The leaf evaluator over the network at `path` (resolved); `ERR_MODEL` when the file is unusable. */
export const loadCpuEvaluator = (path: string, game: GameKind, overrides: Partial<CpuEvaluatorSettings> = {}): Result<CpuEvaluator, KishiError> => {
  const loaded = loadNnueFile(path, game);
  if (loaded.isErr) return Result.err(new KishiError('ERR_MODEL', loaded.error.message));
  const k = kOf(loaded.value);
  if (k.isErr) return Result.err(k.error);
  const settings: CpuEvaluatorSettings = { k: k.value, ...DEFAULT_CPU_EVALUATOR, ...overrides };
  if (!(settings.priorTemperature > 0) || !(settings.qsearchPlies >= 0)) {
    return Result.err(new KishiError('ERR_CONFIG', `CPU evaluator settings out of range: ${JSON.stringify(settings)}`));
  }
  const net = loaded.value.net;
  return Result.ok(game === 'chess' ? new ChessCpuEvaluator(net, settings) : new ShogiCpuEvaluator(net, settings));
};
