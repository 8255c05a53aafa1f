/**
 * The text of the CPU networks' tuning hook (the engine config's `mctsTuning`, UCI/USI
 * `MctsTuning`): `key=value` pairs separated by commas (or semicolons, as inside a `kishi match`
 * engine spec) overriding the evaluator's settings (`tau` prior temperature in units of K, `qplies`
 * quiescence plies, `ptau` the policy network's temperature, `k` the value's sigmoid scale in
 * centipawns instead of the manifest's) and the search's (`cpuct`, `cpuctFactor`, `fpu`, `tsoft` /
 * `textend` the time shares, `mplies` / `mnodes` / `mcands` the mate guard's length, node limit and
 * candidates, `lmate` the leaves' mate tests (0-2), `gumbel` the root's Gumbel moves in
 * node-limited searches). Parsing only, so that the engine front-ends check the option without
 * loading the networks' code.
 *
 * `MCTS_TUNABLES` are the keys `kishi tune --search mcts` perturbs (issue 42: PUCT constants,
 * first-play urgency, policy temperature, time shares), each held in a range where the search
 * still makes sense; their starting values are `mctsTunableDefaults` (mcts-cpu-nets.ts).
 */
import { KishiError, Result } from '../core/result.js';
import type { CpuEvaluatorSettings } from '../search/mcts/cpu-evaluator.js';
import type { MctsOptions } from '../search/mcts/options.js';

/** The tuning overrides of the config's `mctsTuning` text; `ERR_CONFIG` on a malformed value. */
export const cpuTuningFromText = (
  text: string | undefined,
): Result<{ evaluator: Partial<CpuEvaluatorSettings>; options: Partial<MctsOptions> }, KishiError> => {
  const raw = text?.trim() ?? '';
  const evaluator: { -readonly [K in keyof CpuEvaluatorSettings]?: number } = {};
  const options: { -readonly [K in keyof MctsOptions]?: MctsOptions[K] } = {};
  if (raw === '') return Result.ok({ evaluator, options });
  for (const pair of raw.split(/[,;]/)) {
    const [key, value] = pair.split('=').map((s) => s.trim());
    const v = Number(value);
    if (key === undefined || value === undefined || value === '' || !Number.isFinite(v)) {
      return Result.err(new KishiError('ERR_CONFIG', `mctsTuning: expected key=number pairs, got ${JSON.stringify(pair)}`));
    }
    switch (key) {
      case 'tau':
        evaluator.priorTemperature = v;
        break;
      case 'qplies':
        evaluator.qsearchPlies = v;
        break;
      case 'ptau':
        evaluator.policyTemperature = v;
        break;
      case 'k':
        evaluator.k = v;
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
      case 'tsoft':
        options.softTimeShare = v;
        break;
      case 'textend':
        options.extendTimeShare = v;
        break;
      case 'mplies':
        options.mateGuardPlies = v;
        break;
      case 'mnodes':
        options.mateGuardNodes = v;
        break;
      case 'mcands':
        options.mateGuardCandidates = v;
        break;
      case 'lmate':
        options.leafMatePlies = v;
        break;
      case 'gumbel':
        options.gumbelActions = v;
        break;
      default:
        return Result.err(new KishiError('ERR_CONFIG', `mctsTuning: unknown key ${JSON.stringify(key)} (tau, qplies, ptau, k, cpuct, cpuctFactor, fpu, tsoft, textend, mplies, mnodes, mcands, lmate, gumbel)`));
    }
  }
  return Result.ok({ evaluator, options });
};

/** The `mctsTuning` keys SPSA may tune, with the range each value is held in. */
export const MCTS_TUNABLES = {
  cpuct: { min: 0.2, max: 8 },
  cpuctFactor: { min: 0, max: 12 },
  fpu: { min: 0, max: 2 },
  tau: { min: 0.1, max: 4 },
  ptau: { min: 0.2, max: 4 },
  tsoft: { min: 0.2, max: 3 },
  textend: { min: 0.5, max: 6 },
} as const;

export type MctsTunable = keyof typeof MCTS_TUNABLES;

/** Whether `name` is a key SPSA may tune. */
export const isMctsTunable = (name: string): name is MctsTunable => Object.hasOwn(MCTS_TUNABLES, name);
