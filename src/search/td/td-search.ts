/**
 * TD search (Silver, Sutton and Müller, "Temporal-difference search in computer Go", Machine
 * Learning 2012, sections 3-5): episodes of self-play simulated from the root with an epsilon-greedy
 * policy over the current value function V(s) = sigmoid((L(s) + phi(s) . w) / K), where L is the
 * long-term evaluation (the linear weights or the network, from the first player's view) and w the
 * short-term memory; after every simulated move a TD(lambda) update of w (td-lambda.ts). Dyna-2 is
 * this value function: long-term plus short-term (section 5).
 *
 * Terminal states score 1 (first player wins), 0 (loses) or 1/2 (draw) by the game's rules; an
 * episode cut at `episodePlies` bootstraps from the value of its last state, as TD does.
 */
import { TD_DEFAULTS } from '../../config/sections/engine.js';
import type { Rng } from '../../core/rng.js';
import { SparseVector } from '../../eval/linear/sparse.js';
import * as boardModule from '../alphabeta/search-board.js';
import type { ShortTermMemory } from './short-term-memory.js';
import { TdLambda } from './td-lambda.js';

const { RULE_DRAW, RULE_LOSS, RULE_NONE, RULE_WIN } = boardModule;

/** Centipawns per logit unit: sigmoid(x / K) = 1 / (1 + 10^(-x / 400)), the Elo logistic. */
export const TD_SCALE_CP = 400 / Math.LN10;

/** The parameters of TD search (the engine config's `td*` keys). */
export interface TdSearchParams {
  /** lambda of TD(lambda). */
  readonly lambda: number;
  /** alpha, per logit unit of the TD error (the paper's step size). */
  readonly stepSize: number;
  /** Probability of a uniformly random move in the simulations. */
  readonly epsilon: number;
  /** Plies per simulated episode at most. */
  readonly episodePlies: number;
  /** Simulated episodes per move at most. */
  readonly simulations: number;
  /** Share of the move's time given to TD search before the alpha-beta phase (two-phase search). */
  readonly timeShare: number;
  /**
   * Share of the short-term weights kept at a new root: 1 keeps them (the paper clears the memory
   * only at a new game, section 5; resetting it at every move cost 400-800 Elo in 9x9 Go, section
   * 4.5), 0 resets, between them the decayed variant.
   */
  readonly carry: number;
  /**
   * TD search alone (`search: td`, the paper's TD search player of section 4): no alpha-beta phase;
   * the move is the greedy one over the value function learned, and a `go nodes N` limit counts
   * simulations. Absent or false: the two-phase search of Dyna-2 (`search: dyna2`).
   */
  readonly alone?: boolean;
  /**
   * The quiet variant (`tdQuiet`, ours, not the paper's): values and features of each simulated
   * position taken at its quiescence leaf (quiet-leaf.ts), `QUIET_LEAF_NODES` quiescence nodes at most.
   */
  readonly quiet?: boolean;
}

/** Quiescence nodes per leaf of the quiet variant. */
export const QUIET_LEAF_NODES = 200;

/** The config's defaults (`engine.td*`). */
export const DEFAULT_TD_PARAMS: TdSearchParams = TD_DEFAULTS;

/** What TD search sees of a game: the alpha-beta board's rules plus the long-term value and phi. */
export interface TdPosition {
  readonly maxMoves: number;
  sideToMove(): number;
  generate(list: Int32Array, tactical: boolean): number;
  make(move: number): void;
  unmake(): void;
  inCheck(): boolean;
  ruleState(): number;
  noMovesIsLoss(inCheck: boolean): boolean;
  /** The long-term evaluation L(s), centipawns from the first player's view. */
  longTerm(): number;
  /** phi(s), from the first player's view, into `out` (cleared first). */
  features(out: SparseVector): void;
}

/** What one TD search learned (for the `info string` summary). */
export interface TdSearchStats {
  readonly simulations: number;
  readonly plies: number;
  readonly timeMs: number;
}

/** Limits of one TD search; it stops at the first reached. */
export interface TdLimits {
  readonly simulations: number;
  /** `performance.now()` time past which no simulation starts and a running one ends after its current ply. */
  readonly deadline?: number;
  /** Checked between episodes (a stop request). */
  readonly stopped?: () => boolean;
}

export class TdSearch {
  private readonly learner: TdLambda;
  private readonly phi = new SparseVector();
  private readonly childPhi = new SparseVector();
  /** Whether the last `value` call met a terminal state. */
  private terminal = false;

  constructor(
    readonly memory: ShortTermMemory,
    private readonly params: TdSearchParams,
    private readonly rng: Rng,
  ) {
    this.learner = new TdLambda(memory, TD_SCALE_CP);
  }

  /** V(s) of the current position: terminal reward, or sigmoid((L + phi . w) / K) with phi into `out`. */
  value(pos: TdPosition, out: SparseVector, list: Int32Array): number {
    const terminal = terminalValue(pos, list);
    this.terminal = terminal >= 0;
    if (terminal >= 0) {
      out.clear();
      return terminal;
    }
    pos.features(out);
    return sigmoid((pos.longTerm() + this.memory.dot(out)) / TD_SCALE_CP);
  }

  /** Simulates episodes from `root` (played back unchanged) and returns what was done. */
  run(root: TdPosition, limits: TdLimits): TdSearchStats {
    const start = performance.now();
    const { lambda, stepSize, epsilon, episodePlies } = this.params;
    const lists: Int32Array[] = [];
    for (let i = 0; i <= episodePlies; i++) lists.push(new Int32Array(root.maxMoves));
    const probe = new Int32Array(root.maxMoves);
    let simulations = 0;
    let plies = 0;
    const { deadline } = limits;
    while (simulations < limits.simulations) {
      if (deadline !== undefined && performance.now() >= deadline) break;
      if (limits.stopped?.() === true) break;
      this.learner.startEpisode();
      let depth = 0;
      let v = this.value(root, this.phi, probe);
      if (this.terminal) break; // a terminal root: nothing to learn
      while (depth < episodePlies) {
        // The deadline cuts an episode too: one shogi episode with quiescence leaves can cost more
        // than a short move's whole share (the updates already made stand, as for any cut episode).
        if (depth > 0 && deadline !== undefined && performance.now() >= deadline) break;
        const list = lists[depth]!;
        const n = root.generate(list, false);
        const move = epsilon > 0 && this.rng() < epsilon ? list[Math.floor(this.rng() * n)]! : this.greedy(root, list, n, probe);
        root.make(move);
        depth++;
        const next = this.value(root, this.childPhi, probe);
        const terminal = this.terminal;
        this.learner.step(this.phi, next - v, lambda, stepSize);
        if (terminal) break;
        // The next state's value under the weights just updated (online TD).
        v = sigmoid((root.longTerm() + this.memory.dot(this.childPhi)) / TD_SCALE_CP);
        swap(this.phi, this.childPhi);
      }
      plies += depth;
      for (let i = 0; i < depth; i++) root.unmake();
      simulations++;
    }
    return { simulations, plies, timeMs: performance.now() - start };
  }

  /**
   * The greedy move at `pos` over the current value function (no exploration) and its successor's
   * value V(s') for the first player; `undefined` when `pos` has no move.
   */
  bestMove(pos: TdPosition): { move: number; value: number } | undefined {
    const list = new Int32Array(pos.maxMoves);
    const n = pos.generate(list, false);
    if (n === 0) return undefined;
    const probe = new Int32Array(pos.maxMoves);
    const move = this.greedy(pos, list, n, probe);
    pos.make(move);
    const value = this.value(pos, this.childPhi, probe);
    pos.unmake();
    return { move, value };
  }

  /** The move whose successor has the best value for the side to move (first move on ties). */
  private greedy(pos: TdPosition, list: Int32Array, n: number, probe: Int32Array): number {
    const sign = pos.sideToMove() === 0 ? 1 : -1;
    let best = list[0]!;
    let bestValue = -Infinity;
    for (let k = 0; k < n; k++) {
      pos.make(list[k]!);
      const v = sign * this.value(pos, this.childPhi, probe);
      pos.unmake();
      if (v > bestValue) {
        bestValue = v;
        best = list[k]!;
      }
    }
    return best;
  }
}

/** Terminal reward of the current position for the first player (1, 0, 1/2), or -1 when not terminal. */
export const terminalValue = (pos: TdPosition, probe: Int32Array): number => {
  const toMoveWins = pos.sideToMove() === 0 ? 1 : 0;
  switch (pos.ruleState()) {
    case RULE_DRAW:
      return 0.5;
    case RULE_WIN:
      return toMoveWins;
    case RULE_LOSS:
      return 1 - toMoveWins;
    case RULE_NONE:
    default:
      break;
  }
  if (pos.generate(probe, false) > 0) return -1;
  return pos.noMovesIsLoss(pos.inCheck()) ? 1 - toMoveWins : 0.5;
};

export const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** Exchanges the contents of two sparse vectors (buffers and counts). */
const swap = (a: SparseVector, b: SparseVector): void => {
  const { index, value, count } = a;
  a.index = b.index;
  a.value = b.value;
  a.count = b.count;
  b.index = index;
  b.value = value;
  b.count = count;
};
