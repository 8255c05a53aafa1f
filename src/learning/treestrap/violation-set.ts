/**
 * The squared bound violation of a fixed set of positions: for each one, the training search of
 * the method (table cleared) and the sum over its visited nodes of (delta_a + delta_b)^2, without
 * changing the weights. It is the quantity TreeStrap descends on, so a training run should lower it
 * on positions it did not train on; tests use it to check that learning happens at all.
 */
import { KishiError, Result } from '../../core/result.js';
import type { TrainingAdapter } from './training-adapter.js';
import { TrainingSearch, type StepLimits, type TrainingSearchSettings } from './training-search.js';
import { addStats, emptyStats, type UpdateStats } from './update-rule.js';

export interface EvalPosition {
  readonly start: string;
  readonly moves: readonly string[];
}

export const boundViolation = (
  adapter: TrainingAdapter,
  settings: TrainingSearchSettings,
  positions: readonly EvalPosition[],
  limits: StepLimits,
): Result<UpdateStats, KishiError> => {
  const search = new TrainingSearch(adapter, settings);
  const total = emptyStats();
  for (const p of positions) {
    const b = adapter.board(p.start, p.moves);
    if (b.isErr) return Result.err(b.error);
    search.newGame();
    addStats(total, search.measure(b.value, limits).stats);
  }
  return Result.ok(total);
};
