/**
 * The descent of MCTS, written once (issue 42; Lc0's Search / SearchWorker split): a
 * `SearchWorker` gathers playouts on a tree (selection, leaf valuation or batching for the net,
 * expansion, back-up, the solver) and keeps the buffers and statistics of one thread's playouts;
 * the `MctsSearch` that owns it (search.ts) keeps the root, the limits, the stop, the helpers and
 * the result. Each search thread has its own worker.
 *
 * The tree is a view (tree.ts: `enter`, `arrive`, `leave`, `lockStats`, `childOf`,
 * `reserveEdges`, `publishEdges`) that a tree searched by one thread (`Tree`) and a tree shared
 * by several (`SharedTree`, its protocol in shared-tree.ts) implement each their own way; the
 * steps here read and write the tree only through the view and through `Atomics`, which cost a
 * plain access on one thread's memory and give the shared tree its ordering:
 * - selection: `argmax Q + U` with `U = c_puct(N) * P * sqrt(N) / (1 + n)`, visits in flight
 *   counted as losses (virtual loss), and reduction first-play urgency (`selectEdge`);
 * - an unexpanded node is taken with its `FLAG_PENDING` (a node taken already, waiting for the net
 *   or held by another thread, is a collision) and read again under the flag: valued (first
 *   visit), or expanded with its priors and descended through (`deferPriors`' second visit);
 * - a leaf is valued at once with a leaf evaluator, or queued in a batch slot for the batched
 *   evaluator (`evaluateBatch` expands and backs up the slots);
 * - back-up adds the value with alternating sign and removes the virtual visit, each node's
 *   statistics under the view's lock;
 * - MCTS-Solver marks (`proveWin`) are only ever added: the value first, then the flag.
 */
import type { Evaluator, NnInput, NnOutput } from '../../nn/evaluator.js';
import type { LeafEvaluator } from './leaf-evaluator.js';
import type { MctsBoard } from './mcts-board.js';
import { cpuct, type MctsOptions } from './options.js';
import { CONTROL_STOP } from './threads.js';
import { FLAG_PENDING, FLAG_TERMINAL, type Tree } from './tree.js';

/** Longest path from the root the search follows. */
export const MAX_PATH = 512;

export class SearchWorker {
  /** The tree the next gathering plays on (the search sets it when its tree changes). */
  tree: Tree;
  /** The batched evaluator (undefined with a leaf evaluator). */
  readonly evaluator: Evaluator | undefined;
  /** The synchronous CPU evaluator (undefined with a batched one). */
  readonly leaf: LeafEvaluator | undefined;
  readonly options: MctsOptions;
  /** The root's edge for the next descent instead of PUCT's (Sequential Halving), or undefined. */
  rootEdge: (() => number) | undefined;
  /** Set when the tree had no room for an expansion. */
  full = false;
  /** Leaves the last `gather` queued for the batched evaluator (slots 0 .. batch-1). */
  batch = 0;

  // Statistics of the current run.
  depthSum = 0;
  depthCount = 0;
  seldepth = 0;
  evaluations = 0;
  evalMs = 0;

  // Batch buffers, `slots` slots (slot 0 also holds the root's own evaluation).
  private readonly slots: number;
  private readonly planes: Float32Array;
  private moves = new Int32Array(0);
  private indices = new Int32Array(0);
  private readonly counts: Int32Array;
  private readonly leaves: Int32Array;
  private readonly paths: Int32Array;
  private readonly depths: Int32Array;
  private readonly keys: number[] = [];
  private maxMoves = 0;
  /** Per slot, views of the buffers above, made once: the hot loops allocate nothing per leaf. */
  private moveViews: Int32Array[] = [];
  private indexViews: Int32Array[] = [];
  /** The batch's net inputs, one reused object per slot (views into the buffers above). */
  private inputs: { planes: Float32Array; moveIndices: Int32Array; moveCount: number; key: number }[] = [];
  private readonly path = new Int32Array(MAX_PATH);
  /** The paths of this gathering's collisions, root first, one after the other. */
  private collided = new Int32Array(0);
  /** Priors of the leaf being expanded (leaf evaluator). */
  private leafPriors = new Float32Array(0);

  constructor(tree: Tree, evaluator: Evaluator | undefined, leaf: LeafEvaluator | undefined, options: MctsOptions) {
    this.tree = tree;
    this.evaluator = evaluator;
    this.leaf = leaf;
    this.options = options;
    this.slots = evaluator === undefined ? 1 : Math.max(1, Math.min(options.batchSize, evaluator.maxBatch));
    this.planes = new Float32Array(evaluator === undefined ? 0 : this.slots * evaluator.spec.inputSize);
    this.counts = new Int32Array(this.slots);
    this.leaves = new Int32Array(this.slots);
    this.paths = new Int32Array(this.slots * MAX_PATH);
    this.depths = new Int32Array(this.slots);
  }

  /** Leaves one batch may hold. */
  get batchSlots(): number {
    return this.slots;
  }

  /** Starts a run on `tree` with boards of up to `maxMoves` legal moves: statistics cleared. */
  begin(tree: Tree, maxMoves: number): void {
    this.tree = tree;
    this.ensureBuffers(maxMoves);
    this.depthSum = 0;
    this.depthCount = 0;
    this.seldepth = 0;
    this.evaluations = 0;
    this.evalMs = 0;
    this.full = false;
    this.batch = 0;
  }

  private ensureBuffers(maxMoves: number): void {
    if (this.maxMoves >= maxMoves) return;
    this.maxMoves = maxMoves;
    this.leafPriors = new Float32Array(maxMoves);
    this.moves = new Int32Array(this.slots * maxMoves);
    this.indices = new Int32Array(this.slots * maxMoves);
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

  // ---------------------------------------------------------------------------------------------
  // The root
  // ---------------------------------------------------------------------------------------------

  /**
   * The unexpanded root's step 1 (false when it has no legal move): with a leaf evaluator it is
   * valued and expanded at once, synchronously (a search on a shared leaf evaluator must not
   * pause between its `attach` and its end: concurrent self-play games take turns search by
   * search); with the batched evaluator it goes into slot 0 (`batch` 1) for `evaluateBatch`. Its
   * visit is not a playout: the caller counts the playouts from after it.
   */
  expandRoot(board: MctsBoard): boolean {
    const t = this.tree;
    const moves = this.moveViews[0]!;
    const n = board.generate(moves);
    if (n === 0) return false;
    this.counts[0] = n;
    this.leaves[0] = 0;
    this.paths[0] = 0;
    this.depths[0] = 0;
    t.virtual[0]!++;
    t.flags[0]! |= FLAG_PENDING;
    if (this.leaf !== undefined) {
      const value = this.leaf.evaluate(moves, n, this.leafPriors);
      this.evaluations++;
      this.expandSlot(0, this.leafPriors, value);
      return true;
    }
    board.encode(this.planes, 0);
    board.moveIndices(moves, n, this.indexViews[0]!);
    this.keys[0] = board.cacheKey();
    this.batch = 1;
    return true;
  }

  /**
   * A root valued on an earlier visit without its priors (`deferPriors`, re-rooted at such a
   * leaf): expands it; false when it has no legal move.
   */
  expandValuedRoot(board: MctsBoard): boolean {
    if (board.generate(this.moveViews[0]!) === 0) return false;
    this.expandDeferred(board, 0);
    return true;
  }

  // ---------------------------------------------------------------------------------------------
  // Gathering
  // ---------------------------------------------------------------------------------------------

  /**
   * Plays up to `room` playouts from the root (`board` stands at it, and is back there after):
   * none is started once the root's visits, completed and in flight, reach `target`, once the
   * tree is full, or (`stop`, helpers) once the control words' stop word is set. With a leaf
   * evaluator each leaf is valued and backed up at once; with the batched evaluator the leaves go
   * into slots (`batch` of them, for `evaluateBatch`), and terminal nodes are backed up at once.
   *
   * A descent that collides (a node taken by a leaf waiting for the net or by another thread, an
   * edge whose child another thread is creating) keeps what virtual visits it took until the end
   * of the call (Lc0 keeps a collision's virtual loss until its batch is out), so that the next
   * descents turn away from the path instead of finding it again at once; after `maxCollisions`
   * of them the call ends. A leaf keeps its `FLAG_PENDING` until its visit is backed up, so the
   * next descent through it sees the visit (and, `deferPriors`, expands it).
   *
   * Returns the playouts completed (terminal nodes and leaves valued at once; not the batch).
   */
  gather(board: MctsBoard, room: number, target: number, stop?: Int32Array): number {
    const t = this.tree;
    const o = this.options;
    const leaf = this.leaf;
    const path = this.path;
    const defer = leaf !== undefined && o.deferPriors;
    const provenMate = o.leafMatePlies > 0 ? board.provenMate : undefined;
    const inputSize = this.evaluator?.spec.inputSize ?? 0;
    if (this.collided.length < o.maxCollisions * MAX_PATH) this.collided = new Int32Array(o.maxCollisions * MAX_PATH);
    const collided = this.collided;
    let kept = 0;
    let batch = 0;
    let done = 0;
    let collisions = 0;
    // The arrays are read through `t` on each use: a one-thread tree grows (new arrays) as nodes are added.
    while (
      batch + done < room &&
      collisions < o.maxCollisions &&
      t.visits[0]! + Atomics.load(t.virtual, 0) < target &&
      !this.full &&
      (stop === undefined || Atomics.load(stop, CONTROL_STOP) === 0)
    ) {
      let node = 0;
      let depth = 0;
      path[0] = 0;
      t.enter(0);
      // Descend to a terminal node, to a node to value with its flag taken (`held`), or collide.
      let held = false;
      let collision = false;
      while ((Atomics.load(t.flags, node) & FLAG_TERMINAL) === 0 && depth < MAX_PATH - 1) {
        if (Atomics.load(t.firstEdge, node) < 0) {
          if ((Atomics.or(t.flags, node, FLAG_PENDING) & FLAG_PENDING) !== 0) {
            collision = true;
            break;
          }
          // Its state again, under the flag: another thread may have valued, expanded or proven it since.
          if ((Atomics.load(t.flags, node) & FLAG_TERMINAL) !== 0) {
            Atomics.and(t.flags, node, ~FLAG_PENDING);
            break;
          }
          if (Atomics.load(t.firstEdge, node) < 0) {
            if (!defer || t.visits[node] === 0) {
              held = true;
              break;
            }
            // Valued on an earlier visit without its priors (deferPriors): they come now, and the
            // descent goes on through it, as if it had been expanded then.
            if (!this.expandDeferred(board, node)) {
              Atomics.and(t.flags, node, ~FLAG_PENDING);
              collision = true;
              break;
            }
          }
          Atomics.and(t.flags, node, ~FLAG_PENDING);
        }
        const e = depth === 0 && this.rootEdge !== undefined ? this.rootEdge() : this.selectEdge(node, depth);
        const child = t.childOf(e);
        if (child < 0) {
          collision = true;
          break;
        }
        board.make(t.edgeMove[e]!);
        node = child;
        path[++depth] = node;
        t.enter(node);
      }
      if (depth > this.seldepth) this.seldepth = depth;

      if (collision) {
        for (let d = 0; d <= depth; d++) collided[kept++] = path[d]!;
        collisions++;
      } else {
        t.arrive(path, depth);
        if (!held) {
          // A terminal node (by the rules or proven), or the end of the path buffer.
          if ((Atomics.load(t.flags, node) & FLAG_TERMINAL) !== 0) {
            const tv = t.termValue[node]!;
            this.backup(path, 0, depth, tv, tv === 0);
          } else this.backup(path, 0, depth, 0, false);
          done++;
          // Only a terminal root (never searched) gets here at depth 0: give up.
          if (depth === 0) break;
        } else {
          const moves = this.moveViews[batch]!;
          const n = board.generate(moves);
          let tv = board.terminalValue(n);
          const mate = Number.isNaN(tv) && provenMate !== undefined && depth >= 1 ? provenMate(moves, n, o.leafMatePlies) : 0;
          if (mate === 1) {
            // A mate in one for the side to move: a proven win, whatever the net would say.
            this.proveWin(path, depth);
            this.backup(path, 0, depth, 1, false);
            Atomics.and(t.flags, node, ~FLAG_PENDING);
            done++;
          } else if (mate === -1 || !Number.isNaN(tv)) {
            // Terminal by the rules, or mated in two: a proven loss like a mate on the board.
            if (mate === -1) tv = -1;
            this.markTerminal(node, tv);
            // Solver: the parent of a mated leaf has a mating move; the root is never marked.
            if (tv === -1 && depth >= 2) this.proveWin(path, depth - 1);
            this.backup(path, 0, depth, tv, tv === 0);
            Atomics.and(t.flags, node, ~FLAG_PENDING);
            done++;
          } else if (leaf !== undefined) {
            this.depthSum += depth;
            this.depthCount++;
            this.evaluations++;
            // Valued (and, without deferPriors, expanded) and backed up at once, on the board at the leaf.
            if (defer) this.backup(path, 0, depth, leaf.value(moves, n), false);
            else {
              const v = leaf.evaluate(moves, n, this.leafPriors);
              this.expandWith(node, moves, n, this.leafPriors);
              this.backup(path, 0, depth, v, false);
            }
            // Released after the backup: the next descent here finds the visit (and expands the node).
            Atomics.and(t.flags, node, ~FLAG_PENDING);
            done++;
          } else {
            // A slot for the net; the flag stays until `evaluateBatch` has expanded the leaf.
            const slot = batch++;
            this.counts[slot] = n;
            this.leaves[slot] = node;
            this.depths[slot] = depth;
            this.paths.set(path.subarray(0, depth + 1), slot * MAX_PATH);
            this.depthSum += depth;
            this.depthCount++;
            board.encode(this.planes, slot * inputSize);
            board.moveIndices(moves, n, this.indexViews[slot]!);
            this.keys[slot] = board.cacheKey();
          }
        }
      }
      for (let d = 0; d < depth; d++) board.unmake();
    }
    for (let i = 0; i < kept; i++) t.leave(collided[i]!);
    this.batch = batch;
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

  // ---------------------------------------------------------------------------------------------
  // Back-up and the solver
  // ---------------------------------------------------------------------------------------------

  /**
   * Adds `v` (the value for the side to move at the path's last node) along the path
   * `paths[offset .. offset+depth]` with alternating sign, each node's visit, value and draw
   * under the view's lock, then removes the node's virtual visit (the visit first, so that the
   * root's visits in flight plus done never dip under the truth). `draw`: a draw by the rules,
   * counted for the draw score.
   */
  private backup(paths: Int32Array, offset: number, depth: number, v: number, draw: boolean): void {
    const t = this.tree;
    const visits = t.visits;
    const valueSum = t.valueSum;
    const draws = t.draws;
    const virtual = t.virtual;
    let s = -v;
    for (let d = depth; d >= 0; d--) {
      const node = paths[offset + d]!;
      t.lockStats(node);
      visits[node]!++;
      valueSum[node]! += s;
      if (draw) draws[node]!++;
      t.unlockStats(node);
      Atomics.sub(virtual, node, 1);
      s = -s;
    }
  }

  /** Marks `node` terminal with `value` for its side to move: the value first, so that a thread that reads the flag finds it. */
  private markTerminal(node: number, value: number): void {
    this.tree.termValue[node] = value;
    Atomics.or(this.tree.flags, node, FLAG_TERMINAL);
  }

  /**
   * MCTS-Solver (Winands, Björnsson and Saito, "Monte-Carlo Tree Search Solver", 2008): the side to
   * move at `path[d]` has a move to a proven loss (a mate, first): `path[d]` is a proven win. Its
   * parent, once every one of its moves leads to a proven win for the opponent, is a proven loss,
   * which makes the grandparent a proven win, and so on up the path. A proven node is terminal:
   * the descent stops there and backs up its exact value. The root is never marked; its children's
   * marks choose the move (`bestChild`). Marks are only ever added, and two threads never
   * disagree on one (a node with a mating move cannot have only losing moves).
   */
  private proveWin(path: Int32Array, d: number): void {
    for (; d >= 1; d -= 2) {
      this.markTerminal(path[d]!, 1);
      const parent = path[d - 1]!;
      if (d - 1 < 1 || !this.allMovesLose(parent)) return;
      this.markTerminal(parent, -1);
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

  // ---------------------------------------------------------------------------------------------
  // Evaluation and expansion
  // ---------------------------------------------------------------------------------------------

  /** Evaluates the batch's slots 0..batch-1 with one call of the batched evaluator, then expands and backs up each. */
  async evaluateBatch(batch = this.batch): Promise<void> {
    const inputs: NnInput[] = new Array(batch);
    for (let i = 0; i < batch; i++) {
      const input = this.inputs[i]!;
      input.moveCount = this.counts[i]!;
      input.key = this.keys[i]!;
      inputs[i] = input;
    }
    const t0 = performance.now();
    const outputs: NnOutput[] = await this.evaluator!.evaluate(inputs);
    this.evalMs += performance.now() - t0;
    this.evaluations += batch;
    for (let i = 0; i < batch; i++) this.expandSlot(i, outputs[i]!.priors, outputs[i]!.value);
    this.batch = 0;
  }

  /** Expands slot `slot`'s leaf with `priors` (unless proven or expanded since), releases its flag and backs `value` up its path. */
  private expandSlot(slot: number, priors: Float32Array, value: number): void {
    const t = this.tree;
    const node = this.leaves[slot]!;
    Atomics.and(t.flags, node, ~FLAG_PENDING);
    if ((t.flags[node]! & FLAG_TERMINAL) === 0 && !t.isExpanded(node)) this.expandWith(node, this.moveViews[slot]!, this.counts[slot]!, priors);
    this.backup(this.paths, slot * MAX_PATH, this.depths[slot]!, value, false);
  }

  /**
   * Gives `node` one edge per move of `moves[0..n)` with its prior: the edges are taken, written,
   * then published. False (the tree full) when they do not fit.
   */
  private expandWith(node: number, moves: Int32Array, n: number, priors: Float32Array): boolean {
    const first = this.tree.reserveEdges(n);
    if (first < 0) {
      this.full = true;
      return false;
    }
    this.writeEdges(first, moves, n, priors);
    this.tree.publishEdges(node, first, n);
    return true;
  }

  /**
   * `deferPriors`: expands `node`, valued on an earlier visit, with the leaf evaluator's priors
   * (the board stands at it and it has a legal move; on a shared tree the caller holds its
   * `FLAG_PENDING`). The edges are taken before the priors are computed. False when the tree has no room.
   */
  private expandDeferred(board: MctsBoard, node: number): boolean {
    const t = this.tree;
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

  /** Writes the moves `moves[0..n)` and their priors (at the policy temperature) into the edges from `first`. */
  private writeEdges(first: number, moves: Int32Array, n: number, priors: Float32Array): void {
    const t = this.tree;
    const edgeMove = t.edgeMove;
    const edgePrior = t.edgePrior;
    for (let i = 0; i < n; i++) edgeMove[first + i] = moves[i]!;
    const temp = this.options.policyTemperature;
    if (temp === 1) {
      for (let i = 0; i < n; i++) edgePrior[first + i] = priors[i]!;
    } else {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += edgePrior[first + i] = Math.pow(priors[i]!, 1 / temp);
      for (let i = 0; i < n; i++) edgePrior[first + i] = sum > 0 ? edgePrior[first + i]! / sum : 1 / n;
    }
  }
}
