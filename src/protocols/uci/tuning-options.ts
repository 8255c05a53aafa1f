/**
 * The engine options of the settings an engine user tunes rather than plays with, after the usual
 * ones: `SearchTuning` (the config's `searchTuning`: `name=value` overrides of the alpha-beta
 * margins), one `spin` per integer margin of src/search/alphabeta/tuning.ts with its range (as
 * Stockfish declares its tunables for SPSA tuners, so a tuner sets them one by one), `MctsTuning`
 * (the config's `mctsTuning`), `PolicyFile` (`mctsPolicy`) and `NnueSimd` (`nnueSimd`). The
 * margins that take fractions (`lmrDivisor`, ...) are set through `SearchTuning` only.
 */
import type { GameKind } from '../../core/game.js';
import { DEFAULT_TUNING, TUNING_NAMES, parseTuningPairs, tuningRange, formatTuning, type TuningName } from '../../search/alphabeta/tuning.js';
import type { EngineSettings } from './dialect.js';
import type { EngineOption } from './engine-options.js';

/** The integer margins, declared as spins. */
const SPIN_NAMES: readonly TuningName[] = TUNING_NAMES.filter((n) => tuningRange(n).integer);

/** The alpha-beta overrides of the session: the `SearchTuning` text, then each spin set. */
export const sessionTuning = (s: Pick<EngineSettings, 'searchTuning' | 'tuningValues'>): Partial<Record<TuningName, number>> => {
  const pairs = parseTuningPairs(s.searchTuning);
  return { ...(pairs.isOk ? pairs.value : {}), ...s.tuningValues };
};

/** The `searchTuning` text the Player is built with (empty: the defaults). */
export const sessionTuningText = (s: Pick<EngineSettings, 'searchTuning' | 'tuningValues'>): string => formatTuning(sessionTuning(s));

/** The options (`fileType`: UCI's `string`, USI's `filename`), with defaults from the settings and the game's margins. */
export const tuningOptions = (d: EngineSettings, game: GameKind, fileType: 'string' | 'filename'): EngineOption[] => {
  const current = { ...DEFAULT_TUNING[game], ...sessionTuning(d) };
  return [
    { key: 'searchTuning', name: 'SearchTuning', type: 'string', default: d.searchTuning },
    ...SPIN_NAMES.map((name): EngineOption => {
      const r = tuningRange(name);
      return { key: 'tuningParam', name, param: name, type: 'spin', default: current[name], min: r.min, max: r.max };
    }),
    { key: 'mctsTuning', name: 'MctsTuning', type: 'string', default: d.mctsTuning },
    { key: 'policyFile', name: 'PolicyFile', type: fileType, default: d.policyFile },
    { key: 'nnueSimd', name: 'NnueSimd', type: 'check', default: d.nnueSimd },
  ];
};
