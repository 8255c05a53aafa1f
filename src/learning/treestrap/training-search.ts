/**
 * One learning step: search the position, work out Delta theta by the chosen method, add it to
 * theta (Veness et al. 2009, Algorithm 1 with the inner loop of section 4.2 for alpha-beta).
 *
 * - alpha-beta methods: the search's training mode (transposition table, killers, history, check
 *   extension, full quiescence; no aspiration, null move, futility, reductions or delta pruning),
 *   the table cleared before every search; then DeltaFromTransTbl over the whole table
 *   (`treestrap-ab`) or the root entry only (`rootstrap-ab`).
 * - `treestrap-minimax`: the full-width minimax tree (minimax-tree.ts), every interior node of the
 *   last completed iteration updated towards its exact value.
 *
 * All H(s) of one step use the weights the search used; theta changes once, at the end, and the
 * board is refreshed so that the next search sees the new weights.
 */
import { SparseVector } from '../../eval/linear/sparse.js';
import { searchOptions } from '../../search/alphabeta/options.js';
import { toTrainingScore } from '../../search/alphabeta/score.js';
import type { SearchBoard } from '../../search/alphabeta/search-board.js';
import { AlphaBetaSearch } from '../../search/alphabeta/search.js';
import { TranspositionTable } from '../../search/alphabeta/tt.js';
import type { TreestrapMethod } from './methods.js';
import { MinimaxTreeSearch } from './minimax-tree.js';
import { RecordingBoard } from './recording-board.js';
import { deltaFromTransTbl, type TableWalk, type UpdateSet } from './table-delta.js';
import type { TrainingAdapter } from './training-adapter.js';
import { DeltaAccumulator, type UpdateStats } from './update-rule.js';

export interface StepLimits {
  readonly depth?: number;
  readonly nodes?: number;
  readonly softMs?: number;
  readonly hardMs?: number;
}

export interface TrainingSearchSettings {
  readonly method: TreestrapMethod;
  /** Step size eta. */
  readonly eta: number;
  /** The paper's d (alpha-beta methods). */
  readonly minDepth: number;
  readonly hashMb: number;
  /** Table walk of the alpha-beta methods (default `searched`; `all` is Algorithm 2 verbatim). */
  readonly walk?: TableWalk;
  /** Clip each node's error to +-this before the update (Huber); default none (the paper). */
  readonly errorClip?: number;
  /** Which entries the alpha-beta methods update (default `all`, the paper). */
  readonly update?: UpdateSet;
  /** Indices of features whose weights are not learned (see `DEFAULT_FROZEN`). */
  readonly frozen?: readonly number[];
}

export interface StepResult {
  readonly bestMove: number;
  /** Side to move's view, search scale. */
  readonly score: number;
  readonly depth: number;
  readonly nodes: number;
  /** Entries / nodes looked at and violated, squared error before the update. */
  readonly stats: UpdateStats;
  /** Largest change of one weight. */
  readonly largestChange: number;
  readonly searchMs: number;
  readonly updateMs: number;
}

export class TrainingSearch {
  readonly tt: TranspositionTable;
  private readonly ab: AlphaBetaSearch;
  private readonly minimax = new MinimaxTreeSearch(true);
  private readonly acc: DeltaAccumulator;
  private readonly work: DeltaAccumulator;
  private readonly phi = new SparseVector(512);
  private recorder: RecordingBoard | undefined;
  private readonly frozen: Uint8Array | undefined;

  constructor(
    readonly adapter: TrainingAdapter,
    readonly settings: TrainingSearchSettings,
  ) {
    this.tt = new TranspositionTable(settings.method === 'treestrap-minimax' ? 1 : settings.hashMb);
    this.ab = new AlphaBetaSearch(this.tt, searchOptions('training'));
    this.acc = new DeltaAccumulator(adapter.featureSet.size, settings.errorClip);
    this.work = new DeltaAccumulator(adapter.featureSet.size, settings.errorClip);
    if (settings.frozen !== undefined && settings.frozen.length > 0) {
      this.frozen = new Uint8Array(adapter.featureSet.size);
      for (const i of settings.frozen) this.frozen[i] = 1;
    }
  }

  /** A new game: killers and history forgotten (so a resumed run replays a game exactly). */
  newGame(): void {
    this.ab.clearHeuristics();
  }

  /** Searches, updates theta, refreshes `board`; the board is left at the root. */
  step(board: SearchBoard, limits: StepLimits): StepResult {
    const r = this.searchAndMeasure(board, limits, this.settings.eta);
    const t0 = performance.now();
    const largestChange = this.acc.applyTo(this.adapter.theta, this.frozen);
    if (largestChange > 0) this.adapter.refresh([board]);
    return { ...r, largestChange, updateMs: r.updateMs + performance.now() - t0 };
  }

  /** Searches and computes the bound violations without changing theta (evaluation sets, tests). */
  measure(board: SearchBoard, limits: StepLimits): StepResult {
    return { ...this.searchAndMeasure(board, limits, 0), largestChange: 0 };
  }

  private searchAndMeasure(board: SearchBoard, limits: StepLimits, eta: number): Omit<StepResult, 'largestChange'> {
    const acc = this.acc;
    acc.clear();
    const { method, minDepth } = this.settings;
    const t0 = performance.now();
    if (method === 'treestrap-minimax') {
      const work = this.work;
      work.clear();
      const phi = this.phi;
      const adapter = this.adapter;
      const r = this.minimax.search(board, limits, {
        iterationStart: () => work.clear(),
        node: (b, _ply, value) => {
          const h = adapter.gradient(b, phi);
          const v = toTrainingScore(value);
          const vw = b.sideToMove() === 0 ? v : -v;
          work.visit(phi, h, vw, vw, eta);
        },
        iterationDone: () => {
          acc.delta.set(work.delta);
          acc.stats.visited = work.stats.visited;
          acc.stats.violated = work.stats.violated;
          acc.stats.squaredError = work.stats.squaredError;
        },
      });
      const ms = performance.now() - t0;
      // The update is computed inside the search; its share of the time is not separated.
      return { bestMove: r.bestMove, score: r.score, depth: r.depth, nodes: r.nodes, stats: { ...acc.stats }, searchMs: ms, updateMs: 0 };
    }
    const walk = this.settings.walk ?? 'searched';
    let searched: SearchBoard = board;
    if (walk === 'searched') {
      if (this.recorder?.inner !== board) this.recorder = new RecordingBoard(board);
      this.recorder.clear();
      searched = this.recorder;
    }
    this.tt.clear();
    const r = this.ab.search(searched, limits);
    const t1 = performance.now();
    deltaFromTransTbl(searched, this.tt, this.adapter, acc, { minDepth, eta, rootOnly: method === 'rootstrap-ab', walk, update: this.settings.update ?? 'all' });
    const t2 = performance.now();
    return { bestMove: r.bestMove, score: r.score, depth: r.depth, nodes: r.nodes, stats: { ...acc.stats }, searchMs: t1 - t0, updateMs: t2 - t1 };
  }
}
