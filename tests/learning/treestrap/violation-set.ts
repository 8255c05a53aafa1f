/**
 * A fixed evaluation set for the TreeStrap loss: positions are searched once (the method's
 * training search, table cleared) and every visited node's phi(s) and bounds are kept, so that the
 * squared bound violation sum_s (delta_a(s) + delta_b(s))^2 can be computed for any weights
 * against the same targets. The loss TreeStrap descends treats the search's bounds as constants;
 * measuring it against frozen targets on positions the training never saw shows whether learning
 * generalises. A test tool: the trainer itself never needs it.
 */
import { KishiError, Result } from '../../../src/core/result.js';
import { SparseVector } from '../../../src/eval/linear/sparse.js';
import { toTrainingScore } from '../../../src/search/alphabeta/score.js';
import { walkTable } from '../../../src/search/alphabeta/tree-walk.js';
import type { TrainingAdapter } from '../../../src/learning/treestrap/training-adapter.js';
import { TrainingSearch, type StepLimits } from '../../../src/learning/treestrap/training-search.js';
import { boundError, emptyStats, firstPlayerBounds, type UpdateStats } from '../../../src/learning/treestrap/update-rule.js';

export interface EvalPosition {
  readonly start: string;
  readonly moves: readonly string[];
}

/** One node of the set: phi(s) and its bounds (training scale, first player's view). */
export interface FrozenNode {
  readonly index: Int32Array;
  readonly value: Float64Array;
  readonly lower: number;
  readonly upper: number;
}

/** Searches each position with the current weights (alpha-beta training search, depth/nodes `limits`) and freezes the table's entries. */
export const freezeViolationSet = (
  adapter: TrainingAdapter,
  positions: readonly EvalPosition[],
  limits: StepLimits,
  minDepth = 1,
  hashMb = 4,
): Result<FrozenNode[], KishiError> => {
  const search = new TrainingSearch(adapter, { method: 'treestrap-ab', eta: 0, minDepth, hashMb, walk: 'all' });
  const phi = new SparseVector(512);
  const out: FrozenNode[] = [];
  for (const p of positions) {
    const b = adapter.board(p.start, p.moves);
    if (b.isErr) return Result.err(b.error);
    search.newGame();
    search.measure(b.value, limits);
    walkTable(
      b.value,
      search.tt,
      (node) => {
        adapter.features(node.board, phi);
        const bounds = firstPlayerBounds(toTrainingScore(node.lower), toTrainingScore(node.upper), node.sign);
        out.push({ index: phi.index.slice(0, phi.count), value: phi.value.slice(0, phi.count), ...bounds });
      },
      { minDepth },
    );
  }
  return Result.ok(out);
};

/** Sum of squared bound violations of the frozen nodes under `theta`. */
export const frozenViolation = (nodes: readonly FrozenNode[], theta: Float64Array): UpdateStats => {
  const s = emptyStats();
  for (const n of nodes) {
    let h = 0;
    for (let k = 0; k < n.index.length; k++) h += theta[n.index[k]!]! * n.value[k]!;
    const e = boundError(h, n.lower, n.upper);
    s.visited++;
    if (e !== 0) {
      s.violated++;
      s.squaredError += e * e;
    }
  }
  return s;
};
