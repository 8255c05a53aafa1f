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
 * The prior: the trained factorised policy network (src/eval/policy/, src/player/policy-file.ts)
 * when one is found, else the one-ply NNUE look-ahead. Which file: the engine config's `mctsPolicy`
 * (UCI/USI `PolicyFile`: a path, or `oneply` for the one-ply prior), else `<game>-policy.bin` beside the value network when that
 * file exists. A policy file that exists but does not load (corrupt, wrong game, references that do
 * not match) is logged by the player (mcts-factory.ts) and the one-ply prior is used.
 *
 * Tuning hook: the engine config's `mctsTuning` (mcts-cpu-tuning.ts), used by the tuning matches
 * of the MCTS notes.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import { simdSupported } from '../eval/nnue/simd/simd-kernels.js';
import { ChessPolicy, ShogiPolicy } from '../eval/policy/policy-network.js';
import { ChessCpuEvaluator } from '../search/mcts/chess-cpu-evaluator.js';
import { DEFAULT_CPU_EVALUATOR, type CpuEvaluator, type CpuEvaluatorSettings } from '../search/mcts/cpu-evaluator.js';
import { defaultMctsOptions, type MctsOptions } from '../search/mcts/options.js';
import { ShogiCpuEvaluator } from '../search/mcts/shogi-cpu-evaluator.js';
import { loadNnueFile, type LoadedNnue } from './nnue-file.js';
import { loadPolicyFile } from './policy-file.js';
import type { MctsTunable } from './mcts-cpu-tuning.js';

/** The config's `mctsPolicy` value that selects the one-ply prior. */
export const ONE_PLY_POLICY = 'oneply';

/** What the player factory resolved of the CPU networks' settings, handed to the search's worker. */
export interface CpuNetSettings {
  /** Evaluator overrides (the config's `mctsTuning`). */
  readonly evaluator: Partial<CpuEvaluatorSettings>;
  /** The policy network file (`policyPathFor`); absent: the one-ply prior. */
  readonly policyPath?: string;
  /** false: the value network without the SIMD kernels (config `nnueSimd`). */
  readonly simd?: boolean;
}

/**
 * The policy network file the CPU MCTS over the value network at `valuePath` (resolved) uses:
 * `choice` (the config's `mctsPolicy`) when given (undefined for `oneply`), else
 * `<game>-policy.bin` in the value network's folder when it exists, else undefined (the one-ply prior).
 */
export const policyPathFor = (valuePath: string, game: GameKind, choice?: string): string | undefined => {
  const raw = choice?.trim() ?? '';
  if (raw === ONE_PLY_POLICY) return undefined;
  if (raw !== '') return raw;
  const beside = join(dirname(valuePath), `${game}-policy.bin`);
  return basename(valuePath) !== `${game}-policy.bin` && existsSync(beside) ? beside : undefined;
};

/**
 * The search settings of MCTS on the CPU networks, over `defaultMctsOptions`, each measured in
 * `kishi match` at 5 s + 0.05 s (docs/experiments/2026-11-27-mcts-time-shares-alphabeta-leaves.md, session 8):
 * - aim at the whole soft time budget and extend to twice it while unsettled (instead of 60% and
 *   100%): +60 [+12, +109] in chess (100 games), +147 [+59, +259] in shogi (60 games), no time losses;
 * - shogi: c_puct 2.5 at few visits instead of 1.745, +64 [+5, +128] (120 games): more
 *   exploration for about 66 legal moves a position (the policy labels), against 24 in chess;
 * - shogi: the mate guard (src/player/mcts-mate-guard.ts) with mates of up to 7 plies, 4000 nodes
 *   a search, 4 candidates: +70 [+5, +141] over no guard (80 games, session 11);
 * - shogi: mate in one at the leaves (`leafMatePlies` 1), +34.0 [+8.2, +60.1] over none at 400 playouts
 *   (400 games, docs/experiments/2026-11-30-mcts-leaf-mate.md), at 1% of the playouts' speed; and
 *   mated in two at leaves in check (`leafMatePlies` 2), +31.4 [+12.0, +50.9] over 1 (400 games).
 */
export const cpuNetMctsOptions = (game: GameKind): Partial<MctsOptions> => ({
  softTimeShare: 1,
  extendTimeShare: 2,
  ...(game === 'shogi' ? { cpuctInit: 2.5, mateGuardPlies: 7, leafMatePlies: 2 } : {}),
});

/** What each `MCTS_TUNABLES` key is in a game when `mctsTuning` does not set it (where `kishi tune --search mcts` starts). */
export const mctsTunableDefaults = (game: GameKind): Record<MctsTunable, number> => {
  const o = { ...defaultMctsOptions(game), ...cpuNetMctsOptions(game) };
  return {
    cpuct: o.cpuctInit,
    cpuctFactor: o.cpuctFactor,
    fpu: o.fpuReduction,
    tau: DEFAULT_CPU_EVALUATOR.priorTemperature,
    ptau: DEFAULT_CPU_EVALUATOR.policyTemperature,
    tsoft: o.softTimeShare,
    textend: o.extendTimeShare,
  };
};

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

/**
 * Checks the value network at `path` (resolved) without building an evaluator: `ERR_MODEL` when
 * unusable. Then the policy network it would use (`policyPathFor`): `policy` says which prior the
 * search will use, `policyError` why a policy file found was not usable.
 */
export const checkCpuNetFiles = (
  path: string,
  game: GameKind,
  policyChoice?: string,
): Result<{ policy: string; policyPath?: string; policyError?: KishiError }, KishiError> => {
  const loaded = loadNnueFile(path, game);
  if (loaded.isErr) return Result.err(new KishiError('ERR_MODEL', loaded.error.message));
  const k = kOf(loaded.value);
  if (k.isErr) return Result.err(k.error);
  const policyPath = policyPathFor(path, game, policyChoice);
  if (policyPath === undefined) return Result.ok({ policy: 'one-ply' });
  const policy = loadPolicyFile(policyPath, game);
  return Result.ok(policy.isErr ? { policy: 'one-ply', policyPath, policyError: policy.error } : { policy: policy.value.file, policyPath });
};

/**
 * The leaf evaluator over the value network at `path` (resolved); `ERR_MODEL` when that file is
 * unusable. With `policyPath`, the policy network there is the prior, at its manifest's temperature
 * unless `overrides` sets one; when it does not load, the one-ply prior is (the caller logs
 * `policyError`). `simd`: false runs the value network without the SIMD kernels.
 */
export const loadCpuEvaluator = (
  path: string,
  game: GameKind,
  overrides: Partial<CpuEvaluatorSettings> = {},
  policyPath?: string,
  simd = simdSupported(),
): Result<CpuEvaluator & { policyError?: KishiError }, KishiError> => {
  const loaded = loadNnueFile(path, game);
  if (loaded.isErr) return Result.err(new KishiError('ERR_MODEL', loaded.error.message));
  const k = kOf(loaded.value);
  if (k.isErr) return Result.err(k.error);
  // The policy first: its manifest's temperature is the default of `policyTemperature`.
  const policy = policyPath !== undefined ? loadPolicyFile(policyPath, game) : undefined;
  const temperature = policy?.isOk ? { policyTemperature: policy.value.manifest.temperature ?? 1 } : {};
  const settings: CpuEvaluatorSettings = { k: k.value, ...DEFAULT_CPU_EVALUATOR, ...temperature, ...overrides };
  if (!(settings.k > 0) || !(settings.priorTemperature > 0) || !(settings.qsearchPlies >= 0) || !(settings.policyTemperature > 0)) {
    return Result.err(new KishiError('ERR_CONFIG', `CPU evaluator settings out of range: ${JSON.stringify(settings)}`));
  }
  const net = loaded.value.net;
  const ev: CpuEvaluator & { policyError?: KishiError } = game === 'chess' ? new ChessCpuEvaluator(net, settings, simd) : new ShogiCpuEvaluator(net, settings, simd);
  if (policy?.isErr) ev.policyError = policy.error;
  else if (policy?.isOk && ev instanceof ChessCpuEvaluator) ev.policy = new ChessPolicy(policy.value.net);
  else if (policy?.isOk && ev instanceof ShogiCpuEvaluator) ev.policy = new ShogiPolicy(policy.value.net);
  return Result.ok(ev);
};
