/**
 * PUCT Monte Carlo tree search (AlphaZero: Silver et al., Science 2018), with Lc0's refinements:
 * growing c_puct, reduction first-play urgency, and batched leaf collection under virtual loss.
 *
 * One iteration of `run`:
 *   Step 1. Gather: up to `batchSize` times, descend from the root by `argmax Q + U`, where
 *           `U = c_puct(N) * P * sqrt(N) / (1 + n)` and in-flight visits count as losses
 *           (virtual loss), playing the moves on the board. At the leaf:
 *           - a terminal node (by the rules) is backed up at once with its exact value;
 *           - a leaf already waiting for the net is a collision: its virtual loss is removed;
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
 * memory (shared-tree.ts) and the main search and its helper threads all play on it
 * (`gatherShared`, its protocol in shared-tree.ts): virtual loss added on the way down with
 * `Atomics`, a node valued or expanded by the one thread that took its `FLAG_PENDING` (a thread
 * that finds it taken backs off, a collision, as with a leaf waiting for the net), visits and
 * values added under a per-node lock. The main thread keeps the clock and the limits and chooses
 * the move; Sequential Halving (`gumbelActions`) and the batched evaluator search on one thread.
 */
import type { Evaluator, NnInput, NnOutput } from '../../nn/evaluator.js';
import { gumbelSample, improvedPolicy, SequentialHalving, type RootStats } from './gumbel.js';
import { isLeafEvaluator, type LeafEvaluator } from './leaf-evaluator.js';
import type { MctsBoard } from './mcts-board.js';
import { cpuct, type MctsOptions } from './options.js';
import { Rng } from './rng.js';
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
import { FLAG_PENDING, FLAG_TERMINAL, Tree } from './tree.js';

/** Longest path from the root the search follows. */
const MAX_PATH = 512;
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
  /** Set when the tree had no room for an expansion. */
  private full = false;

  // Batch buffers, `batchSize` slots (+1 for the root's own evaluation).
  private readonly slots: number;
  private planes: Float32Array;
  private moves: Int32Array;
  private indices: Int32Array;
  private counts: Int32Array;
  private leaves: Int32Array;
  private paths: Int32Array;
  private depths: Int32Array;
  private keys: number[] = [];
  private maxMoves = 0;
  private moveViews: Int32Array[] = [];
  private indexViews: Int32Array[] = [];
  /** The batch's net inputs, one reused object per slot (views into the buffers above). */
  private inputs: { planes: Float32Array; moveIndices: Int32Array; moveCount: number; key: number }[] = [];
  private readonly probe: Int32Array;
  private readonly path = new Int32Array(MAX_PATH);
  /** The paths of this gathering's collisions on a shared tree, root first, one after the other. */
  private collided = new Int32Array(0);
  /** Priors of the leaf being expanded (leaf evaluator). */
  private leafPriors = new Float32Array(0);
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

  // Statistics of the current run.
  private depthSum = 0;
  private depthCount = 0;
  private seldepth = 0;
  private evaluations = 0;
  private evalMs = 0;

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
    this.slots = this.evaluator === undefined ? 1 : Math.max(1, Math.min(options.batchSize, this.evaluator.maxBatch));
    this.planes = new Float32Array(this.evaluator === undefined ? 0 : this.slots * this.evaluator.spec.inputSize);
    this.moves = new Int32Array(0);
    this.indices = new Int32Array(0);
    this.counts = new Int32Array(this.slots);
    this.leaves = new Int32Array(this.slots);
    this.paths = new Int32Array(this.slots * MAX_PATH);
    this.depths = new Int32Array(this.slots);
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
    this.halving = undefined;
    this.full = false;
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
    }
    // The schedule named the old root's edges.
    this.halving = undefined;
    // The root is where a move must be found: what ended the game at this node inside the tree
    // (the first repetition scored as a draw, the solver's "has a mating move") does not end the
    // real game there. A root left terminal would never be expanded and the search would choose
    // no move at all.
    this.tree.flags[0] = 0;
    this.tree.termValue[0] = 0;
    this.full = false;
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
    this.ensureBuffers(board.maxMoves);
    this.depthSum = 0;
    this.depthCount = 0;
    this.seldepth = 0;
    this.evaluations = 0;
    this.evalMs = 0;
    this.full = false;
    let visitsAtStart = t.visits[0]!;
    let nextProgress = start + progressMs;

    // The root: expand it (one net call), mark terminal children, add noise.
    if (!t.isExpanded(0) && leaf !== undefined && t.visits[0]! > 0) {
      // Re-rooted at a leaf that was valued but never revisited: only its priors are missing.
      if (board.generate(this.moveViews[0]!) === 0) return this.result('terminal', start, visitsAtStart);
      this.expandDeferred(board, 0);
    } else if (!t.isExpanded(0)) {
      const n = this.gatherRoot(board);
      if (n === 0) return this.result('terminal', start, visitsAtStart);
      if (leaf === undefined) await this.evaluateBatch(1);
      else this.evaluateLeaf(0);
      // The root's own expansion is not a playout.
      visitsAtStart = t.visits[0]!;
    }
    this.markTerminalChildren(board);
    const playoutLimit = limits.playouts ?? Infinity;
    const gumbel = this.options.gumbelActions > 0 && Number.isFinite(playoutLimit);
    // Gumbel sampling replaces the root's Dirichlet noise.
    if (this.options.noiseEpsilon > 0 && !gumbel) this.addNoise();
    this.halving = gumbel ? this.newHalving(playoutLimit) : undefined;

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
        if (limits.depth !== undefined && this.depthCount > 0 && this.depthSum / this.depthCount >= limits.depth) {
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
        if (this.full || (control !== undefined && this.shared!.full)) {
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
          if (this.gatherShared(board, LEAF_CHUNK, target) === 0) Atomics.wait(control.words, CONTROL_STOP, 0, COLLISION_WAIT_MS);
        } else {
          // Never gather past the playout limit, so that node-limited searches are exact.
          const room = Math.min(this.slots, playoutLimit - playouts, visitLimit - t.visits[0]!);
          if (leaf === undefined) {
            const batch = this.gather(board, room);
            if (batch > 0) await this.evaluateBatch(batch);
          } else this.gather(board, Math.min(room, LEAF_CHUNK));
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
    for (let id = 1; id <= control.count; id++) {
      if (Atomics.load(control.words, controlStatus(id)) === HELPER_FAILED) continue;
      this.evaluations += stats[control.stat(id, STAT_EVALUATIONS)]!;
      this.depthSum += stats[control.stat(id, STAT_DEPTH_SUM)]!;
      this.depthCount += stats[control.stat(id, STAT_DEPTH_COUNT)]!;
      this.seldepth = Math.max(this.seldepth, stats[control.stat(id, STAT_SELDEPTH)]!);
    }
    const t = this.tree;
    while (t.visits[0]! < target && !this.shared!.full) {
      if (this.gatherShared(board, target - t.visits[0]!, target) === 0) break;
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
    this.ensureBuffers(board.maxMoves);
    this.depthSum = 0;
    this.depthCount = 0;
    this.seldepth = 0;
    this.evaluations = 0;
    this.full = false;
    const words = control.words;
    while (Atomics.load(words, CONTROL_STOP) === 0 && !t.full) {
      const target = Atomics.load(words, CONTROL_TARGET);
      // The stop word is read before each playout: a helper stops within one playout of it.
      if (this.gatherShared(board, LEAF_CHUNK, target, words) > 0) continue;
      // At the limit with playouts in flight: wait for the stop (or for a collision to leave room).
      // Only collisions: let the threads holding those nodes have the core.
      Atomics.wait(words, CONTROL_STOP, 0, t.visits[0]! + Atomics.load(t.virtual, 0) >= target ? 1 : COLLISION_WAIT_MS);
    }
    const stats = control.stats;
    stats[control.stat(id, STAT_EVALUATIONS)] = this.evaluations;
    stats[control.stat(id, STAT_DEPTH_SUM)] = this.depthSum;
    stats[control.stat(id, STAT_DEPTH_COUNT)] = this.depthCount;
    stats[control.stat(id, STAT_SELDEPTH)] = this.seldepth;
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

  // ---------------------------------------------------------------------------------------------
  // Gathering
  // ---------------------------------------------------------------------------------------------

  private ensureBuffers(maxMoves: number): void {
    if (this.maxMoves >= maxMoves) return;
    this.maxMoves = maxMoves;
    this.leafPriors = new Float32Array(maxMoves);
    this.moves = new Int32Array(this.slots * maxMoves);
    this.indices = new Int32Array(this.slots * maxMoves);
    // Views per slot, made once: the hot loops allocate nothing per leaf.
    const inputSize = this.evaluator?.spec.inputSize ?? 0;
    this.moveViews = [];
    this.indexViews = [];
    this.inputs = [];
    for (let i = 0; i < this.slots; i++) {
      this.moveViews.push(this.moves.subarray(i * maxMoves, (i + 1) * maxMoves));
      this.indexViews.push(this.indices.subarray(i * maxMoves, (i + 1) * maxMoves));
      this.inputs.push({ planes: this.planes.subarray(i * inputSize, (i + 1) * inputSize), moveIndices: this.indexViews[i]!, moveCount: 0, key: 0 });
    }
  }

  /** Puts the root into slot 0 (or nothing if it has no legal move); returns the slot count. */
  private gatherRoot(board: MctsBoard): number {
    const mm = this.maxMoves;
    const n = board.generate(this.moves.subarray(0, mm));
    if (n === 0) return 0;
    this.counts[0] = n;
    this.leaves[0] = 0;
    this.paths[0] = 0;
    this.depths[0] = 0;
    this.tree.virtual[0]!++;
    this.tree.flags[0]! |= FLAG_PENDING;
    if (this.leaf !== undefined) return 1;
    board.encode(this.planes, 0);
    board.moveIndices(this.moves, n, this.indices);
    this.keys[0] = board.cacheKey();
    return 1;
  }

  /** Step 1: collects up to `room` leaves for the net; returns how many. */
  private gather(board: MctsBoard, room: number): number {
    const t = this.tree;
    const o = this.options;
    const path = this.path;
    const inputSize = this.evaluator?.spec.inputSize ?? 0;
    const defer = this.leaf !== undefined && o.deferPriors;
    let batch = 0;
    let collisions = 0;
    let terminals = 0;
    while (batch + terminals < room && collisions < o.maxCollisions) {
      // Descend.
      let node = 0;
      let depth = 0;
      path[0] = 0;
      while ((t.flags[node]! & FLAG_TERMINAL) === 0 && depth < MAX_PATH - 1) {
        // A node valued on an earlier visit without its priors (deferPriors) gets them now and the
        // descent goes on through it, as if it had been expanded then.
        if (t.firstEdge[node]! < 0 && !(defer && t.visits[node]! > 0 && this.expandDeferred(board, node))) break;
        const e = depth === 0 && this.halving !== undefined ? this.halving.next(this.rootStats) : this.selectEdge(node, depth);
        const child = t.childOf(e);
        board.make(t.edgeMove[e]!);
        node = child;
        path[++depth] = node;
      }
      for (let d = 0; d <= depth; d++) t.virtual[path[d]!]!++;
      if (depth > this.seldepth) this.seldepth = depth;

      const flags = t.flags[node]!;
      if ((flags & FLAG_TERMINAL) !== 0) {
        this.backup(path, depth, t.termValue[node]!, 0, t.termValue[node] === 0);
        terminals++;
        if (depth === 0) {
          // Only a terminal root (never searched) gets here; give up.
          for (let d = 0; d < depth; d++) board.unmake();
          return batch;
        }
      } else if ((flags & FLAG_PENDING) !== 0) {
        for (let d = 0; d <= depth; d++) t.virtual[path[d]!]!--;
        collisions++;
      } else if (depth >= MAX_PATH - 1) {
        this.backup(path, depth, 0);
        terminals++;
      } else {
        const slot = batch;
        const moves = this.moveViews[slot]!;
        const n = board.generate(moves);
        const tv = board.terminalValue(n);
        if (!Number.isNaN(tv)) {
          t.flags[node] = FLAG_TERMINAL;
          t.termValue[node] = tv;
          // Solver: the parent of a mated leaf has a mating move; the root is never marked.
          if (tv === -1 && depth >= 2) this.proveWin(path, depth - 1);
          this.backup(path, depth, tv, 0, tv === 0);
          terminals++;
        } else if (defer) {
          // Valued and backed up at once, on the board at the leaf; expanded on the next visit.
          this.depthSum += depth;
          this.depthCount++;
          this.evaluations++;
          this.backup(path, depth, this.leaf!.value(moves, n));
          terminals++;
        } else {
          t.flags[node]! |= FLAG_PENDING;
          this.counts[slot] = n;
          this.leaves[slot] = node;
          this.depths[slot] = depth;
          const paths = this.paths;
          const at = slot * MAX_PATH;
          for (let d = 0; d <= depth; d++) paths[at + d] = path[d]!;
          this.depthSum += depth;
          this.depthCount++;
          if (this.leaf !== undefined) {
            // Evaluated, expanded and backed up at once, on the board at the leaf.
            this.evaluateLeaf(slot);
            terminals++;
          } else {
            board.encode(this.planes, slot * inputSize);
            board.moveIndices(moves, n, this.indexViews[slot]!);
            this.keys[slot] = board.cacheKey();
            batch++;
          }
        }
      }
      for (let d = 0; d < depth; d++) board.unmake();
    }
    return batch;
  }

  /**
   * `gather` on a tree shared with other search threads, with the leaf evaluator (its protocol in
   * shared-tree.ts): up to `room` playouts, each valued and backed up at once, none started once
   * the root's visits, completed and in flight, reach `target`. A node is valued (first visit)
   * or expanded (`deferPriors`' second visit) by the thread that took its `FLAG_PENDING`, and
   * only after that thread has read its state again; a thread that finds the flag taken, or an
   * edge whose child is being created, collides: its virtual visits stay until the end of the
   * call (Lc0 keeps a collision's virtual loss until its batch is out), so that the next descents
   * turn away from the path another thread holds instead of finding it again at once. A valued
   * leaf keeps its flag until its visit is backed up, so the next thread through it sees the
   * visit and expands it. `stop`: control words whose stop word ends the call (helpers). Returns
   * the playouts completed.
   */
  private gatherShared(board: MctsBoard, room: number, target: number, stop?: Int32Array): number {
    const t = this.shared!;
    const o = this.options;
    const leaf = this.leaf!;
    const path = this.path;
    const defer = o.deferPriors;
    const flags = t.flags;
    const firstEdge = t.firstEdge;
    const visits = t.visits;
    const virtual = t.virtual;
    const moves = this.moveViews[0]!;
    if (this.collided.length < o.maxCollisions * MAX_PATH) this.collided = new Int32Array(o.maxCollisions * MAX_PATH);
    const collided = this.collided;
    let kept = 0;
    let done = 0;
    let collisions = 0;
    while (
      done < room &&
      collisions < o.maxCollisions &&
      visits[0]! + Atomics.load(virtual, 0) < target &&
      !this.full &&
      (stop === undefined || Atomics.load(stop, CONTROL_STOP) === 0)
    ) {
      let node = 0;
      let depth = 0;
      path[0] = 0;
      // Virtual loss on the way down, so that the other threads see it at once.
      Atomics.add(virtual, 0, 1);
      // Descend to a terminal node, to a node to value with its flag taken (`held`), or collide.
      let held = false;
      let collision = false;
      while ((Atomics.load(flags, node) & FLAG_TERMINAL) === 0 && depth < MAX_PATH - 1) {
        if (Atomics.load(firstEdge, node) < 0) {
          if ((Atomics.or(flags, node, FLAG_PENDING) & FLAG_PENDING) !== 0) {
            collision = true;
            break;
          }
          // Its state again, under the flag: another thread may have valued, expanded or proven it since.
          if ((Atomics.load(flags, node) & FLAG_TERMINAL) !== 0) {
            Atomics.and(flags, node, ~FLAG_PENDING);
            break;
          }
          if (Atomics.load(firstEdge, node) < 0) {
            if (!defer || visits[node] === 0) {
              held = true;
              break;
            }
            if (!this.expandShared(board, node)) {
              Atomics.and(flags, node, ~FLAG_PENDING);
              collision = true;
              break;
            }
          }
          Atomics.and(flags, node, ~FLAG_PENDING);
        }
        const e = this.selectEdge(node, depth);
        const child = t.childOf(e);
        if (child < 0) {
          collision = true;
          break;
        }
        board.make(t.edgeMove[e]!);
        node = child;
        path[++depth] = node;
        Atomics.add(virtual, node, 1);
      }
      if (depth > this.seldepth) this.seldepth = depth;

      if (collision) {
        for (let d = 0; d <= depth; d++) collided[kept++] = path[d]!;
        collisions++;
      } else if (!held) {
        // A terminal node (by the rules or proven), or the end of the path buffer.
        if ((Atomics.load(flags, node) & FLAG_TERMINAL) !== 0) {
          const tv = t.termValue[node]!;
          this.backupShared(path, depth, tv, tv === 0);
        } else this.backupShared(path, depth, 0, false);
        done++;
      } else {
        const n = board.generate(moves);
        const tv = board.terminalValue(n);
        if (!Number.isNaN(tv)) {
          t.termValue[node] = tv;
          Atomics.or(flags, node, FLAG_TERMINAL);
          // Solver: the parent of a mated leaf has a mating move; the root is never marked.
          if (tv === -1 && depth >= 2) this.proveWinShared(path, depth - 1);
          this.backupShared(path, depth, tv, tv === 0);
        } else {
          this.depthSum += depth;
          this.depthCount++;
          this.evaluations++;
          if (defer) this.backupShared(path, depth, leaf.value(moves, n), false);
          else {
            const v = leaf.evaluate(moves, n, this.leafPriors);
            const first = t.reserveEdges(n);
            if (first >= 0) {
              this.writeEdges(first, moves, n, this.leafPriors);
              t.publishEdges(node, first, n);
            } else this.full = true;
            this.backupShared(path, depth, v, false);
          }
        }
        // Released after the backup: the next thread here finds the visit (and expands the node).
        Atomics.and(flags, node, ~FLAG_PENDING);
        done++;
      }
      for (let d = 0; d < depth; d++) board.unmake();
    }
    for (let i = 0; i < kept; i++) Atomics.sub(virtual, collided[i]!, 1);
    return done;
  }

  /**
   * The edge of `node` with the highest Q + U. One pass: every never-visited edge has the same Q
   * (first-play urgency) and no visits, so the best of them is the one with the highest prior
   * (the first such in edge order); its score is computed once the visited policy is known.
   * Ties go to the lower edge index, as in a plain scan.
   */
  private selectEdge(node: number, depth: number): number {
    const t = this.tree;
    const o = this.options;
    const first = t.firstEdge[node]!;
    const end = first + t.edgeCount[node]!;
    const visits = t.visits;
    const virtual = t.virtual;
    const valueSum = t.valueSum;
    const flags = t.flags;
    const children = t.edgeChild;
    const priors = t.edgePrior;
    const draws = t.draws;
    // The draw score of the side to move at `node` (it moves into the children): the root side's
    // `drawScore` at even depths, its negation at odd ones.
    const ds = depth % 2 === 0 ? o.drawScore : -o.drawScore;
    const nParent = visits[node]! + virtual[node]!;
    const cs = cpuct(o, nParent) * Math.sqrt(Math.max(nParent, 1));
    let visitedPolicy = 0;
    let best = -1;
    let bestScore = -Infinity;
    let fresh = -1;
    let freshPrior = -Infinity;
    for (let e = first; e < end; e++) {
      const c = children[e]!;
      const p = priors[e]!;
      let q: number;
      let n = 0;
      if (c >= 0) n = visits[c]! + virtual[c]!;
      if (c >= 0 && (flags[c]! & FLAG_TERMINAL) !== 0) q = t.termValue[c] === 0 ? ds : -t.termValue[c]!;
      else if (n > 0) q = (ds === 0 ? valueSum[c]! - virtual[c]! : valueSum[c]! - virtual[c]! + ds * draws[c]!) / n;
      else {
        if (p > freshPrior) {
          freshPrior = p;
          fresh = e;
        }
        continue;
      }
      if (n > 0) visitedPolicy += p;
      const score = q + (cs * p) / (1 + n);
      if (score > bestScore) {
        bestScore = score;
        best = e;
      }
    }
    if (fresh >= 0) {
      // The node's value from its own side to move's view is minus its W/N.
      const parentQ = visits[node]! > 0 ? (ds === 0 ? -valueSum[node]! : -valueSum[node]! + ds * draws[node]!) / visits[node]! : 0;
      const fpu = parentQ - (depth === 0 ? o.fpuReductionRoot : o.fpuReduction) * Math.sqrt(visitedPolicy);
      const score = fpu + (cs * freshPrior) / 1;
      if (best < 0 || score > bestScore || (score === bestScore && fresh < best)) best = fresh;
    }
    return best;
  }

  /**
   * MCTS-Solver (Winands, Björnsson and Saito, "Monte-Carlo Tree Search Solver", 2008): the side to
   * move at `path[d]` has a move to a proven loss (a mate, first): `path[d]` is a proven win. Its
   * parent, once every one of its moves leads to a proven win for the opponent, is a proven loss,
   * which makes the grandparent a proven win, and so on up the path. A proven node is terminal:
   * the descent stops there and backs up its exact value. The root is never marked; its children's
   * marks choose the move (`bestChild`).
   */
  private proveWin(path: Int32Array, d: number): void {
    const t = this.tree;
    for (; d >= 1; d -= 2) {
      const node = path[d]!;
      t.flags[node] = (t.flags[node]! & ~FLAG_PENDING) | FLAG_TERMINAL;
      t.termValue[node] = 1;
      const parent = path[d - 1]!;
      if (d - 1 < 1 || !this.allMovesLose(parent)) return;
      t.flags[parent] = (t.flags[parent]! & ~FLAG_PENDING) | FLAG_TERMINAL;
      t.termValue[parent] = -1;
    }
  }

  /** Whether `node` is expanded and every move of it leads to a proven win for the opponent. */
  private allMovesLose(node: number): boolean {
    const t = this.tree;
    const first = t.firstEdge[node]!;
    if (first < 0) return false;
    for (let e = first; e < first + t.edgeCount[node]!; e++) {
      const c = t.edgeChild[e]!;
      if (c < 0 || (t.flags[c]! & FLAG_TERMINAL) === 0 || t.termValue[c] !== 1) return false;
    }
    return true;
  }

  /**
   * Adds `v` (the value for the side to move at `path[depth]`) along the path with alternating
   * sign; removes the virtual visit. `draw`: a draw by the rules, counted for the draw score.
   */
  private backup(path: Int32Array, depth: number, v: number, offset = 0, draw = false): void {
    const t = this.tree;
    let s = -v;
    for (let d = depth; d >= 0; d--) {
      const node = path[offset + d]!;
      t.visits[node]!++;
      t.valueSum[node]! += s;
      t.virtual[node]!--;
      if (draw) t.draws[node]!++;
      s = -s;
    }
  }

  /**
   * `proveWin` on a shared tree: the value first, then the flag (a thread that reads the flag
   * finds the value). Marks are only ever added, and two threads never disagree on one (a node
   * with a mating move cannot have only losing moves).
   */
  private proveWinShared(path: Int32Array, d: number): void {
    const t = this.shared!;
    for (; d >= 1; d -= 2) {
      const node = path[d]!;
      t.termValue[node] = 1;
      Atomics.or(t.flags, node, FLAG_TERMINAL);
      const parent = path[d - 1]!;
      if (d - 1 < 1 || !this.allMovesLose(parent)) return;
      t.termValue[parent] = -1;
      Atomics.or(t.flags, parent, FLAG_TERMINAL);
    }
  }

  /**
   * `backup` on a shared tree: each node's visits, value sum and draws under its lock (a Float64
   * sum cannot be added to atomically), then its virtual visit removed (visit first, so the
   * root's visits in flight plus done never dip under the truth).
   */
  private backupShared(path: Int32Array, depth: number, v: number, draw: boolean): void {
    const t = this.shared!;
    const lock = t.lock;
    const visits = t.visits;
    const valueSum = t.valueSum;
    const draws = t.draws;
    const virtual = t.virtual;
    let s = -v;
    for (let d = depth; d >= 0; d--) {
      const node = path[d]!;
      // Spin: the lock is held for three additions.
      while (Atomics.compareExchange(lock, node, 0, 1) !== 0) continue;
      visits[node]!++;
      valueSum[node]! += s;
      if (draw) draws[node]!++;
      Atomics.store(lock, node, 0);
      Atomics.sub(virtual, node, 1);
      s = -s;
    }
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
  // Evaluation and expansion
  // ---------------------------------------------------------------------------------------------

  /** Steps 2 and 3 for slots 0..batch-1. */
  private async evaluateBatch(batch: number): Promise<void> {
    const inputs: NnInput[] = new Array(batch);
    for (let i = 0; i < batch; i++) {
      const input = this.inputs[i]!;
      input.moveCount = this.counts[i]!;
      input.key = this.keys[i]!;
      inputs[i] = input;
    }
    const t0 = performance.now();
    const outputs = await this.evaluator!.evaluate(inputs);
    this.evalMs += performance.now() - t0;
    this.evaluations += batch;
    for (let i = 0; i < batch; i++) this.expandAndBackup(i, outputs[i]!);
  }

  /** Steps 2 and 3 for slot `slot` with the leaf evaluator; the board stands at the leaf. */
  private evaluateLeaf(slot: number): void {
    const n = this.counts[slot]!;
    const priors = this.leafPriors;
    const value = this.leaf!.evaluate(this.moveViews[slot]!, n, priors);
    this.evaluations++;
    this.expand(slot, priors, value);
  }

  private expandAndBackup(slot: number, out: NnOutput): void {
    this.expand(slot, out.priors, out.value);
  }

  private expand(slot: number, priors: Float32Array, value: number): void {
    const t = this.tree;
    const node = this.leaves[slot]!;
    const n = this.counts[slot]!;
    t.flags[node]! &= ~FLAG_PENDING;
    if ((t.flags[node]! & FLAG_TERMINAL) === 0 && !t.isExpanded(node)) {
      if (t.hasRoomFor(n)) this.addEdges(node, this.moveViews[slot]!, n, priors);
      else this.full = true;
    }
    this.backup(this.paths, this.depths[slot]!, value, slot * MAX_PATH);
  }

  /** Gives `node` one edge per move of `moves[0..n)` with its prior (at the policy temperature). */
  private addEdges(node: number, moves: Int32Array, n: number, priors: Float32Array): void {
    this.writeEdges(this.tree.expand(node, n), moves, n, priors);
  }

  /** Writes the moves `moves[0..n)` and their priors (at the policy temperature) into the edges from `first`. */
  private writeEdges(first: number, moves: Int32Array, n: number, priors: Float32Array): void {
    const t = this.tree;
    const edgeMove = t.edgeMove;
    for (let i = 0; i < n; i++) edgeMove[first + i] = moves[i]!;
    const temp = this.options.policyTemperature;
    if (temp === 1) {
      const edgePrior = t.edgePrior;
      for (let i = 0; i < n; i++) edgePrior[first + i] = priors[i]!;
    } else {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += t.edgePrior[first + i] = Math.pow(priors[i]!, 1 / temp);
      for (let i = 0; i < n; i++) t.edgePrior[first + i] = sum > 0 ? t.edgePrior[first + i]! / sum : 1 / n;
    }
  }

  /**
   * `deferPriors`: expands `node`, valued on an earlier visit, with the leaf evaluator's priors
   * (the board stands at it and it has a legal move). False when the tree has no room.
   */
  private expandDeferred(board: MctsBoard, node: number): boolean {
    const moves = this.moveViews[0]!;
    const n = board.generate(moves);
    if (!this.tree.hasRoomFor(n)) {
      this.full = true;
      return false;
    }
    this.leaf!.priors(moves, n, this.leafPriors);
    this.addEdges(node, moves, n, this.leafPriors);
    return true;
  }

  /**
   * `expandDeferred` on a shared tree, the caller holding `node`'s `FLAG_PENDING`: the edges are
   * written, then published. False (the tree full) when they do not fit.
   */
  private expandShared(board: MctsBoard, node: number): boolean {
    const t = this.shared!;
    const moves = this.moveViews[0]!;
    const n = board.generate(moves);
    const first = t.reserveEdges(n);
    if (first < 0) {
      this.full = true;
      return false;
    }
    this.leaf!.priors(moves, n, this.leafPriors);
    this.writeEdges(first, moves, n, this.leafPriors);
    t.publishEdges(node, first, n);
    return true;
  }

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
    return {
      playouts: this.tree.visits[0]! - visitsAtStart,
      rootVisits: this.tree.visits[0]!,
      timeMs: performance.now() - start,
      depth: this.depthCount > 0 ? this.depthSum / this.depthCount : 0,
      seldepth: this.seldepth,
      evaluations: this.evaluations,
      evalMs: this.evalMs,
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
