/**
 * PUCT Monte Carlo tree search (AlphaZero: Silver et al., Science 2018), with Lc0's refinements:
 * growing c_puct, reduction first-play urgency, and batched leaf collection under virtual loss.
 * After Lc0's split of Search and SearchWorker, this class is the search: the root (its
 * expansion, terminal children, noise, Sequential Halving), the limits and the stop, the helper
 * threads, tree reuse and the result; the descent itself (selection, gathering, expansion,
 * back-up, the solver) is its `SearchWorker`'s (search-worker.ts), written once over the tree
 * view that the one-thread tree and the shared tree implement (tree.ts, shared-tree.ts).
 *
 * One iteration of `run`:
 *   Step 1. Gather: up to `batchSize` times, descend from the root by `argmax Q + U`, where
 *           `U = c_puct(N) * P * sqrt(N) / (1 + n)` and in-flight visits count as losses
 *           (virtual loss), playing the moves on the board. At the leaf:
 *           - a terminal node (by the rules) is backed up at once with its exact value;
 *           - a leaf already waiting for the net is a collision;
 *           - otherwise its legal moves, net input and cache key go into the batch.
 *           Then the board is unwound to the root.
 *   Step 2. Evaluate the batch with one `Evaluator.evaluate` call.
 *   Step 3. Expand each leaf (one edge per legal move with the net's prior) and back its value
 *           up the path with alternating sign, removing the virtual loss.
 * Stopping: playout or visit limits, the time limits, an external stop, a full tree, or when the
 * most visited root move can no longer be overtaken in the time left.
 *
 * Mates: a leaf whose side to move is mated is a terminal loss; its parent then has a mating move
 * and is marked as a terminal win, and a node all of whose moves lead to such wins is a terminal
 * loss, up the path (MCTS-Solver), so the tree stops exploring them. The root's
 * children are checked for terminal positions when the root is expanded, so a mate in one is
 * played even from a uniform prior.
 *
 * The tree survives between moves: `advance` re-roots it at the position after the moves played.
 *
 * With a `LeafEvaluator` (CPU networks, leaf-evaluator.ts) steps 1-3 collapse into one: each leaf
 * is evaluated and backed up as soon as the descent reaches it, on the board the evaluator
 * attached (its accumulators follow the descent's make/unmake). Its priors are computed when a
 * later descent comes back through it (`deferPriors`), which grows the same tree as expanding it
 * at once but skips the priors of the leaves never revisited.
 *
 * Threads (issue 19): with helpers (threads.ts) and a leaf evaluator, the tree lives in shared
 * memory (shared-tree.ts) and the main search and its helper threads, each with its own worker,
 * all play on it: virtual loss added on the way down with `Atomics`, a node valued or expanded by
 * the one thread that took its `FLAG_PENDING` (a thread that finds it taken backs off, a
 * collision, as with a leaf waiting for the net), visits and values added under a per-node lock.
 * The main thread keeps the clock and the limits and chooses the move; Sequential Halving
 * (`gumbelActions`) and the batched evaluator search on one thread.
 */
import type { Evaluator } from '../../nn/evaluator.js';
import { gumbelSample, improvedPolicy, SequentialHalving, type RootStats } from './gumbel.js';
import { isLeafEvaluator, type LeafEvaluator } from './leaf-evaluator.js';
import type { MctsBoard } from './mcts-board.js';
import type { MctsOptions } from './options.js';
import { Rng } from './rng.js';
import { SearchWorker } from './search-worker.js';
import { SharedTree, type SharedTreeMemory } from './shared-tree.js';
import {
  CONTROL_STOP,
  CONTROL_TARGET,
  STAT_DEPTH_COUNT,
  STAT_DEPTH_SUM,
  STAT_EVALUATIONS,
  STAT_SELDEPTH,
  controlStatus,
  HELPER_FAILED,
  type MctsControl,
  type MctsHelpers,
  type RootPosition,
} from './threads.js';
import { FLAG_TERMINAL, Tree } from './tree.js';

/**
 * Playouts between the stop checks with a leaf evaluator (tens of microseconds each alone, ten
 * times that on a loaded machine: 64 overran the clock by milliseconds in 5 s + 0.05 s games).
 */
const LEAF_CHUNK = 16;
/**
 * Milliseconds a thread of a threaded search sleeps after a round of descents that all collided
 * (on a machine with fewer free cores than threads, the thread holding the node may be waiting
 * for this one's core).
 */
const COLLISION_WAIT_MS = 0.05;
/** How long the main thread waits for its helpers to stop before it gives them up. */
const JOIN_TIMEOUT_MS = 2000;

export interface MctsLimits {
  /** Stop after this many playouts in this run (a playout is one visit added at the root). */
  readonly playouts?: number;
  /** Stop when the root holds this many visits (reused visits included). */
  readonly rootVisits?: number;
  /** Stop once the mean depth of the leaves evaluated in this run reaches this many plies. */
  readonly depth?: number;
  /** Target thinking time: stop once it has passed, or earlier when the best move cannot change. */
  readonly softMs?: number;
  /** Stop at this time whatever happens. */
  readonly hardMs?: number;
  /** Polled between batches; returning true ends the search. */
  readonly shouldStop?: () => boolean;
  /** With `softMs`: stop early when the most visited move cannot be overtaken (default true). */
  readonly earlyStop?: boolean;
  /**
   * With `softMs`: keep searching up to this time (capped by `hardMs`) while the most visited
   * root move is not also the one with the best Q (the choice is still moving).
   */
  readonly extendMs?: number;
}

/** Why a run ended. */
export type StopReason = 'playouts' | 'visits' | 'depth' | 'time' | 'stopped' | 'full' | 'early' | 'terminal';

export interface MctsProgress {
  readonly playouts: number;
  readonly rootVisits: number;
  readonly timeMs: number;
  /** Mean and largest depth of the leaves reached in this run. */
  readonly depth: number;
  readonly seldepth: number;
  /** Net positions evaluated in this run (cache hits included). */
  readonly evaluations: number;
  /** Milliseconds spent waiting for the evaluator in this run. */
  readonly evalMs: number;
}

export interface MctsResult extends MctsProgress {
  readonly reason: StopReason;
}

/** The root's moves with their statistics (for info, self-play records and tests). */
export interface RootChild {
  readonly move: number;
  readonly prior: number;
  readonly visits: number;
  /** Mean value from the root side to move's view (0 if unvisited). */
  readonly q: number;
  /** 1: this move wins by the rules (mate), -1: loses, 0: draws, undefined: not decided. */
  readonly proven: number | undefined;
}

export class MctsSearch {
  tree: Tree;
  /** The helper threads of a threaded search (undefined: one thread). */
  readonly helpers: MctsHelpers | undefined;
  /** `tree` when it is shared with helper threads. */
  private shared: SharedTree | undefined;
  /** The batched evaluator (undefined with a leaf evaluator). */
  readonly evaluator: Evaluator | undefined;
  /** The synchronous CPU evaluator (undefined with a batched one). */
  readonly leaf: LeafEvaluator | undefined;
  readonly options: MctsOptions;
  private readonly rng: Rng;
  /** This thread's descent: gathering, expansion, back-up and the solver (search-worker.ts). */
  private readonly worker: SearchWorker;
  private readonly probe: Int32Array;
  /** The root's Sequential Halving schedule of the last run (`gumbelActions`), if it had one. */
  private halving: SequentialHalving | undefined;
  /** The root's moves as Sequential Halving reads them (edge indices of the root). */
  private readonly rootStats: RootStats = {
    visits: (e) => {
      const c = this.tree.edgeChild[e]!;
      return c >= 0 ? this.tree.visits[c]! + this.tree.virtual[c]! : 0;
    },
    q: (e) => {
      const c = this.tree.edgeChild[e]!;
      return c >= 0 && this.tree.visits[c]! > 0 ? this.rootChildQ(c) : 0;
    },
    maxVisits: () => {
      const t = this.tree;
      let most = 0;
      for (let e = t.firstEdge[0]!; e < t.firstEdge[0]! + t.edgeCount[0]!; e++) most = Math.max(most, this.rootStats.visits(e));
      return most;
    },
  };

  /**
   * `helpers`: the helper threads of threaded searches, used with a leaf evaluator only (the tree
   * is then shared from the start); a batched evaluator searches on one thread whatever is given.
   */
  constructor(evaluator: Evaluator | LeafEvaluator, options: MctsOptions, helpers?: MctsHelpers) {
    this.evaluator = isLeafEvaluator(evaluator) ? undefined : evaluator;
    this.leaf = isLeafEvaluator(evaluator) ? evaluator : undefined;
    this.options = options;
    this.helpers = this.leaf !== undefined ? helpers : undefined;
    this.tree = this.newTree();
    this.rng = new Rng(options.seed);
    this.worker = new SearchWorker(this.tree, this.evaluator, this.leaf, options);
    this.probe = new Int32Array(600);
  }

  /** An empty tree: in shared memory when there are helper threads. */
  private newTree(): Tree {
    if (this.helpers === undefined) return new Tree(this.options.maxEdges);
    this.shared = SharedTree.create(this.options.maxEdges);
    return this.shared;
  }

  /** Forgets the tree. */
  reset(): void {
    this.tree = this.newTree();
    // The worker lets go of the old tree now, not at the next run.
    this.worker.tree = this.tree;
    this.halving = undefined;
  }

  /**
   * Re-roots the tree at the position reached by `moves` from the current root (tree reuse).
   * Returns false, with a fresh tree, when a move leaves the explored tree.
   */
  advance(moves: readonly number[]): boolean {
    let node = this.tree.root;
    for (const m of moves) {
      const e = this.tree.findEdge(node, m);
      const c = e < 0 ? -1 : this.tree.edgeChild[e]!;
      if (c < 0) {
        this.reset();
        return false;
      }
      node = c;
    }
    if (node !== this.tree.root) {
      this.tree = this.tree.extract(node);
      // The extract of a shared tree is a new shared tree (new memory: the helpers get it at the next run).
      if (this.shared !== undefined) this.shared = this.tree as SharedTree;
      this.worker.tree = this.tree;
    }
    // The schedule named the old root's edges.
    this.halving = undefined;
    // The root is where a move must be found: what ended the game at this node inside the tree
    // (the first repetition scored as a draw, the solver's "has a mating move") does not end the
    // real game there. A root left terminal would never be expanded and the search would choose
    // no move at all.
    this.tree.flags[0] = 0;
    this.tree.termValue[0] = 0;
    return true;
  }

  /** Visits at the root (reused ones included). */
  get rootVisits(): number {
    return this.tree.visits[0]!;
  }

  /**
   * Searches from `board`'s current position, which must be the tree's root position and have a
   * legal move. Resolves when a limit is reached; the board is back at the root position then.
   *
   * Threaded (helpers given at construction, `position` the root as text for them, no Sequential
   * Halving this run): the helpers play from the start of the playouts to the end of the run, and
   * have stopped, their playouts in flight finished, when it resolves. A playout or visit limit
   * is then reached or passed by at most one playout per helper (each checks the limit before it
   * starts a playout, not after), and the playouts the helpers completed count as this run's.
   */
  async run(
    root: MctsBoard,
    limits: MctsLimits,
    onProgress?: (p: MctsProgress) => void,
    progressMs = 1000,
    position?: RootPosition,
  ): Promise<MctsResult> {
    const start = performance.now();
    const t = this.tree;
    const leaf = this.leaf;
    const board = leaf === undefined ? root : leaf.attach(root);
    const worker = this.worker;
    worker.begin(t, board.maxMoves);
    worker.rootEdge = undefined;
    let visitsAtStart = t.visits[0]!;
    let nextProgress = start + progressMs;

    // The root: expand it (one net call), mark terminal children, add noise.
    if (!t.isExpanded(0) && leaf !== undefined && t.visits[0]! > 0) {
      // Re-rooted at a leaf that was valued but never revisited: only its priors are missing.
      if (!worker.expandValuedRoot(board)) return this.result('terminal', start, visitsAtStart);
    } else if (!t.isExpanded(0)) {
      if (!worker.expandRoot(board)) return this.result('terminal', start, visitsAtStart);
      // Only the batched evaluator waits here; a leaf evaluator's search never pauses.
      if (worker.batch > 0) await worker.evaluateBatch();
      // The root's own expansion is not a playout.
      visitsAtStart = t.visits[0]!;
    }
    this.markTerminalChildren(board);
    const playoutLimit = limits.playouts ?? Infinity;
    const gumbel = this.options.gumbelActions > 0 && Number.isFinite(playoutLimit);
    // Gumbel sampling replaces the root's Dirichlet noise.
    if (this.options.noiseEpsilon > 0 && !gumbel) this.addNoise();
    this.halving = gumbel ? this.newHalving(playoutLimit) : undefined;
    const halving = this.halving;
    if (halving !== undefined) worker.rootEdge = () => halving.next(this.rootStats);

    const visitLimit = limits.rootVisits ?? Infinity;
    const softMs = limits.softMs ?? Infinity;
    const hardMs = limits.hardMs ?? Infinity;
    const earlyStop = limits.earlyStop !== false && Number.isFinite(softMs);
    // Threads: the helpers start now, on the expanded root; no thread starts a playout once the
    // root's visits, completed and in flight, reach `target`.
    const control = this.shared !== undefined && position !== undefined && !gumbel && this.helpers!.count > 0 ? this.helpers!.control : undefined;
    const target = Math.min(visitsAtStart + playoutLimit, visitLimit);
    const targetReason: StopReason = visitsAtStart + playoutLimit <= visitLimit ? 'playouts' : 'visits';
    if (control !== undefined) {
      Atomics.store(control.words, CONTROL_TARGET, Math.min(target, 0x7fffffff));
      Atomics.store(control.words, CONTROL_STOP, 0);
      this.helpers!.start(this.shared!.memory, position!);
    }
    let reason: StopReason | undefined;
    try {
      for (;;) {
        const playouts = t.visits[0]! - visitsAtStart;
        if (playouts >= playoutLimit) {
          reason = 'playouts';
          break;
        }
        if (t.visits[0]! >= visitLimit) {
          reason = 'visits';
          break;
        }
        if (limits.depth !== undefined && worker.depthCount > 0 && worker.depthSum / worker.depthCount >= limits.depth) {
          reason = 'depth';
          break;
        }
        const elapsed = performance.now() - start;
        if (elapsed >= hardMs || (elapsed >= softMs && !(elapsed < (limits.extendMs ?? 0) && this.unsettled()))) {
          reason = 'time';
          break;
        }
        if (limits.shouldStop?.() === true) {
          reason = 'stopped';
          break;
        }
        if (worker.full || (control !== undefined && this.shared!.full)) {
          reason = 'full';
          break;
        }
        if (earlyStop && playouts >= 32 && elapsed > 20 && this.cannotChange((playouts / elapsed) * (softMs - elapsed))) {
          reason = 'early';
          break;
        }
        if (control !== undefined) {
          // The helpers' playouts in flight will reach the limit: stop here and let them finish.
          if (t.visits[0]! + t.virtual[0]! >= target) {
            reason = targetReason;
            break;
          }
          // Only collisions: the threads holding those nodes may be waiting for this core.
          if (worker.gather(board, LEAF_CHUNK, target) === 0) Atomics.wait(control.words, CONTROL_STOP, 0, COLLISION_WAIT_MS);
        } else {
          // Never gather past the playout limit, so that node-limited searches are exact.
          const room = Math.min(worker.batchSlots, playoutLimit - playouts, visitLimit - t.visits[0]!);
          worker.gather(board, leaf === undefined ? room : Math.min(room, LEAF_CHUNK), target);
          if (worker.batch > 0) await worker.evaluateBatch();
        }
        if (onProgress !== undefined && performance.now() >= nextProgress) {
          nextProgress = performance.now() + progressMs;
          onProgress(this.progress(start, visitsAtStart));
        }
      }
    } finally {
      // Also when the search threw: no helper may play on into the next search.
      if (control !== undefined) this.stopHelpers(board, control, reason === targetReason ? target : -Infinity);
    }
    return this.result(reason, start, visitsAtStart);
  }

  /**
   * Ends the helpers' part of a threaded run: sets the stop word, waits for them, adds their
   * statistics to this run's. A helper lost on the way (failed, or silent past the timeout) may
   * have left its last playout's virtual visits and flags in the tree: they are cleared
   * (`SharedTree.recover`). With `target` (the run stopped at its playout or visit limit counting
   * the playouts in flight), a playout in flight that ended as a collision is no visit: this
   * thread plays the few missing ones alone.
   */
  private stopHelpers(board: MctsBoard, control: MctsControl, target: number): void {
    Atomics.store(control.words, CONTROL_STOP, 1);
    Atomics.notify(control.words, CONTROL_STOP);
    const lost = this.helpers!.join(JOIN_TIMEOUT_MS);
    if (lost > 0) this.shared!.recover();
    const stats = control.stats;
    const worker = this.worker;
    for (let id = 1; id <= control.count; id++) {
      if (Atomics.load(control.words, controlStatus(id)) === HELPER_FAILED) continue;
      worker.evaluations += stats[control.stat(id, STAT_EVALUATIONS)]!;
      worker.depthSum += stats[control.stat(id, STAT_DEPTH_SUM)]!;
      worker.depthCount += stats[control.stat(id, STAT_DEPTH_COUNT)]!;
      worker.seldepth = Math.max(worker.seldepth, stats[control.stat(id, STAT_SELDEPTH)]!);
    }
    const t = this.tree;
    while (t.visits[0]! < target && !this.shared!.full) {
      if (worker.gather(board, target - t.visits[0]!, target) === 0) break;
    }
  }

  /**
   * A helper thread's part of a threaded search (threads.ts): plays on the shared tree `memory`
   * from `root` (the main search's root position, already expanded there) until the control's
   * stop word is set or the tree is full, then writes its statistics into its slot `id` of
   * `control`. The board is back at the root position after.
   */
  help(root: MctsBoard, memory: SharedTreeMemory, control: MctsControl, id: number): void {
    if (this.shared === undefined || this.shared.memory.buffer !== memory.buffer) {
      this.shared = SharedTree.attach(memory);
      this.tree = this.shared;
    }
    const t = this.shared;
    const board = this.leaf!.attach(root);
    const worker = this.worker;
    worker.begin(t, board.maxMoves);
    worker.rootEdge = undefined;
    const words = control.words;
    while (Atomics.load(words, CONTROL_STOP) === 0 && !t.full) {
      const target = Atomics.load(words, CONTROL_TARGET);
      // The stop word is read before each playout: a helper stops within one playout of it.
      if (worker.gather(board, LEAF_CHUNK, target, words) > 0) continue;
      // At the limit with playouts in flight: wait for the stop (or for a collision to leave room).
      // Only collisions: let the threads holding those nodes have the core.
      Atomics.wait(words, CONTROL_STOP, 0, t.visits[0]! + Atomics.load(t.virtual, 0) >= target ? 1 : COLLISION_WAIT_MS);
    }
    const stats = control.stats;
    stats[control.stat(id, STAT_EVALUATIONS)] = worker.evaluations;
    stats[control.stat(id, STAT_DEPTH_SUM)] = worker.depthSum;
    stats[control.stat(id, STAT_DEPTH_COUNT)] = worker.depthCount;
    stats[control.stat(id, STAT_SELDEPTH)] = worker.seldepth;
  }

  /** Statistics of the root's moves, in edge order. */
  rootChildren(): RootChild[] {
    const t = this.tree;
    const first = t.firstEdge[0]!;
    if (first < 0) return [];
    const out: RootChild[] = [];
    for (let e = first; e < first + t.edgeCount[0]!; e++) {
      const c = t.edgeChild[e]!;
      const terminal = c >= 0 && (t.flags[c]! & FLAG_TERMINAL) !== 0;
      out.push({
        move: t.edgeMove[e]!,
        prior: t.edgePrior[e]!,
        visits: c >= 0 ? t.visits[c]! : 0,
        q: c >= 0 ? this.rootChildQ(c) : 0,
        proven: terminal ? 0 - t.termValue[c]! : undefined,
      });
    }
    return out;
  }

  /**
   * The move to play: a proven win if there is one, else the most visited move (ties: higher Q,
   * then higher prior), or, with `temperature` > 0, a move drawn with probability proportional to
   * visits^(1/temperature). 0 when the root has no moves.
   */
  chooseMove(temperature = 0): number {
    const children = this.rootChildren();
    if (children.length === 0) return 0;
    const win = children.find((c) => c.proven === 1);
    if (win !== undefined) return win.move;
    // Sequential Halving's choice (its Gumbel noise, when drawn, is the sampling).
    if (this.halving !== undefined) return this.tree.edgeMove[this.halving.choice(this.rootStats)]!;
    if (temperature > 0) {
      const weights = children.map((c) => Math.pow(c.visits, 1 / temperature));
      const sum = weights.reduce((a, b) => a + b, 0);
      if (sum > 0) {
        let r = this.rng.next() * sum;
        for (let i = 0; i < children.length; i++) {
          r -= weights[i]!;
          if (r < 0) return children[i]!.move;
        }
      }
    }
    return bestChild(children).move;
  }

  /** Principal variation: the most visited child at each level, from the root. */
  principalVariation(maxLength = 32): number[] {
    const t = this.tree;
    const pv: number[] = [];
    let node = 0;
    while (pv.length < maxLength && t.isExpanded(node)) {
      const first = t.firstEdge[node]!;
      let best = -1;
      let bestVisits = 0;
      for (let e = first; e < first + t.edgeCount[node]!; e++) {
        const c = t.edgeChild[e]!;
        if (c < 0) continue;
        const v = t.visits[c]! + ((t.flags[c]! & FLAG_TERMINAL) !== 0 && t.termValue[c]! === -1 ? 1e9 : 0);
        if (v > bestVisits || (v === bestVisits && best >= 0 && t.q(c) > t.q(t.edgeChild[best]!))) {
          best = e;
          bestVisits = v;
        }
      }
      if (best < 0) break;
      pv.push(t.edgeMove[best]!);
      node = t.edgeChild[best]!;
    }
    return pv;
  }

  /** Q of a root child from the root side's view, with the draw score (what the search maximises). */
  private rootChildQ(c: number): number {
    const t = this.tree;
    const n = t.visits[c]!;
    if (n === 0) return 0;
    const d = this.options.drawScore;
    return d === 0 ? t.valueSum[c]! / n : (t.valueSum[c]! + d * t.draws[c]!) / n;
  }

  // ---------------------------------------------------------------------------------------------
  // The root's moves
  // ---------------------------------------------------------------------------------------------

  /** Checks every root move for a position the rules end at once (mate, stalemate, repetition). */
  private markTerminalChildren(board: MctsBoard): void {
    const t = this.tree;
    const first = t.firstEdge[0]!;
    if (first < 0) return;
    const probe = this.probe.length >= board.maxMoves ? this.probe : new Int32Array(board.maxMoves);
    for (let e = first; e < first + t.edgeCount[0]!; e++) {
      const c = t.edgeChild[e]!;
      if (c >= 0 && (t.isExpanded(c) || t.visits[c]! > 0 || (t.flags[c]! & FLAG_TERMINAL) !== 0)) continue;
      board.make(t.edgeMove[e]!);
      const tv = board.terminalValue(board.generate(probe));
      board.unmake();
      if (Number.isNaN(tv)) continue;
      const child = t.childOf(e);
      t.flags[child] = FLAG_TERMINAL;
      t.termValue[child] = tv;
    }
  }

  /**
   * After a run with Sequential Halving (`gumbelActions`): Gumbel AlphaZero's policy target over
   * the root's moves in edge order (rootChildren's order), with the root's Q as the completed value
   * of the moves never visited. Undefined after a PUCT run.
   */
  improvedPolicy(): Float32Array | undefined {
    if (this.halving === undefined) return undefined;
    const t = this.tree;
    const first = t.firstEdge[0]!;
    const n = t.edgeCount[0]!;
    const rootQ = t.visits[0]! > 0 ? -t.q(0) : 0;
    const completed: number[] = [];
    for (let e = first; e < first + n; e++) {
      const c = t.edgeChild[e]!;
      completed.push(c >= 0 && t.visits[c]! > 0 ? this.rootChildQ(c) : rootQ);
    }
    const out = new Float32Array(n);
    improvedPolicy(this.rootLogPriors(), completed, this.rootStats.maxVisits(), out);
    return out;
  }

  /** Sequential Halving over `gumbelActions` root moves for a budget of `playouts`. */
  private newHalving(playouts: number): SequentialHalving {
    const t = this.tree;
    const first = t.firstEdge[0]!;
    const n = t.edgeCount[0]!;
    const edges: number[] = [];
    const noise: number[] = [];
    for (let e = first; e < first + n; e++) {
      edges.push(e);
      noise.push(this.options.temperature > 0 || this.options.noiseEpsilon > 0 ? gumbelSample(this.rng.next()) : 0);
    }
    return new SequentialHalving(edges, this.rootLogPriors(), noise, this.options.gumbelActions, playouts, this.rootStats);
  }

  /** The log priors of the root's moves, in edge order (Gumbel's logits). */
  private rootLogPriors(): number[] {
    const t = this.tree;
    const first = t.firstEdge[0]!;
    const logits: number[] = [];
    for (let e = first; e < first + t.edgeCount[0]!; e++) logits.push(Math.log(Math.max(t.edgePrior[e]!, 1e-30)));
    return logits;
  }

  /** Mixes Dirichlet noise into the root priors: `(1 - ε) P + ε Dir(α)`. */
  private addNoise(): void {
    const t = this.tree;
    const first = t.firstEdge[0]!;
    const n = t.edgeCount[0]!;
    if (first < 0 || n === 0) return;
    const eps = this.options.noiseEpsilon;
    const noise = this.rng.dirichlet(this.options.noiseAlpha, n);
    for (let i = 0; i < n; i++) t.edgePrior[first + i] = (1 - eps) * t.edgePrior[first + i]! + eps * noise[i]!;
  }

  // ---------------------------------------------------------------------------------------------
  // Stopping and reporting
  // ---------------------------------------------------------------------------------------------

  /** Whether the most visited root move keeps first place even if the next `remaining` playouts all go to the runner-up. */
  private cannotChange(remaining: number): boolean {
    const t = this.tree;
    const first = t.firstEdge[0]!;
    if (first < 0) return false;
    let best = 0;
    let second = 0;
    let moves = 0;
    for (let e = first; e < first + t.edgeCount[0]!; e++) {
      moves++;
      const c = t.edgeChild[e]!;
      const v = c >= 0 ? t.visits[c]! : 0;
      if (v > best) {
        second = best;
        best = v;
      } else if (v > second) second = v;
    }
    return moves === 1 || best - second > remaining;
  }

  /** Whether the most visited root move differs from the best-valued one among well-visited moves. */
  private unsettled(): boolean {
    const children = this.rootChildren();
    if (children.length < 2) return false;
    const best = bestChild(children);
    const floor = Math.max(1, best.visits / 4);
    return children.some((c) => c !== best && c.visits >= floor && c.q > best.q);
  }

  private progress(start: number, visitsAtStart: number): MctsProgress {
    const w = this.worker;
    return {
      playouts: this.tree.visits[0]! - visitsAtStart,
      rootVisits: this.tree.visits[0]!,
      timeMs: performance.now() - start,
      depth: w.depthCount > 0 ? w.depthSum / w.depthCount : 0,
      seldepth: w.seldepth,
      evaluations: w.evaluations,
      evalMs: w.evalMs,
    };
  }

  private result(reason: StopReason, start: number, visitsAtStart: number): MctsResult {
    return { ...this.progress(start, visitsAtStart), reason };
  }
}

/** A proven win first, a proven loss last (the solver's marks), the rest between. */
const provenRank = (c: RootChild): number => (c.proven === 1 ? 2 : c.proven === -1 ? 0 : 1);

/** The most visited proven win, else the most visited child that is not a proven loss; ties by Q, then prior. */
export const bestChild = (children: readonly RootChild[]): RootChild => {
  let best = children[0]!;
  for (const c of children) {
    const rank = provenRank(c);
    const bestRank = provenRank(best);
    if (rank !== bestRank) {
      if (rank > bestRank) best = c;
      continue;
    }
    if (c.visits > best.visits || (c.visits === best.visits && (c.q > best.q || (c.q === best.q && c.prior > best.prior)))) best = c;
  }
  return best;
};
