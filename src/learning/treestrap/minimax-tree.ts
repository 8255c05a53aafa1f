/**
 * The full-width minimax search of TreeStrap(minimax) (Veness et al. 2009, Algorithm 1): every
 * interior node of a depth-D tree gets its exact minimax value V(s), handed to a visitor once the
 * node's subtree is done. Meep kept the whole tree in memory; a visitor called in post-order sees
 * the same values without storing them.
 *
 * Conventions are the alpha-beta search's (src/search/alphabeta/search.ts), so that the methods are
 * compared on equal terms: the games' rules inside the tree (repetition, fifty moves, material,
 * sennichite), check extension by one ply, mate scores by distance, and the search's quiescence
 * (src/search/alphabeta/quiescence.ts, without its pruning: captures and promotions, every evasion
 * in check) at the leaves. The interior of the tree is never
 * pruned; a leaf's quiescence search gets the window (-inf, -best) of its parent's best value so
 * far, which keeps the parent's value exact (a leaf that fails high cannot be the best move) while
 * sparing the exact value of leaves that do not matter.
 *
 * Interior nodes are the nodes searched with depth >= 1 that have legal moves and are not decided
 * by the rules: the nodes that would get a table entry in the alpha-beta search (d = 1).
 * Iterative deepening: the visitor learns when an iteration completes (`onIteration`); the nodes
 * of an aborted iteration are to be discarded.
 */
import * as scoreModule from '../../search/alphabeta/score.js';
import type { SearchBoard } from '../../search/alphabeta/search-board.js';
import * as boardModule from '../../search/alphabeta/search-board.js';
import { POLL_MASK, QuiescenceSearch } from '../../search/alphabeta/quiescence.js';

const { INFINITE, MATE, MAX_PLY, matePlies } = scoreModule;
const { RULE_DRAW, RULE_NONE, RULE_WIN } = boardModule;


export interface MinimaxLimits {
  readonly depth?: number;
  readonly nodes?: number;
  /** No new iteration after this many ms. */
  readonly softMs?: number;
  /** Abort after this many ms. */
  readonly hardMs?: number;
}

export interface MinimaxResult {
  /** Best move of the last completed iteration (the first legal move if none completed), 0 without moves. */
  readonly bestMove: number;
  /** Its value, side to move's view (search scale). */
  readonly score: number;
  /** Deepest completed iteration. */
  readonly depth: number;
  readonly nodes: number;
  readonly aborted: boolean;
}

export interface MinimaxVisitor {
  /** An interior node with its exact value (side to move's view, search scale); the board is at the node. */
  node(board: SearchBoard, ply: number, value: number): void;
  /** Called when iteration `depth` has completed (before the next one starts). */
  iterationDone(depth: number): void;
  /** Called before each iteration starts. */
  iterationStart(depth: number): void;
}

export class MinimaxTreeSearch extends QuiescenceSearch {
  private visitor!: MinimaxVisitor;
  private listSize = 0;
  private hardMs = Infinity;
  private start = 0;
  private rootDepth = 0;

  constructor(private readonly checkExtension = true) {
    super();
  }

  get nodeCount(): number {
    return this.nodes;
  }

  search(board: SearchBoard, limits: MinimaxLimits, visitor: MinimaxVisitor): MinimaxResult {
    if (this.listSize !== board.maxMoves) {
      this.listSize = board.maxMoves;
      this.lists = Array.from({ length: MAX_PLY + 1 }, () => new Int32Array(board.maxMoves));
      this.scores = Array.from({ length: MAX_PLY + 1 }, () => new Int32Array(board.maxMoves));
    }
    this.board = board;
    this.visitor = visitor;
    this.nodes = 0;
    this.stopped = false;
    this.nodeLimit = limits.nodes ?? Infinity;
    this.hardMs = limits.hardMs ?? Infinity;
    const softMs = limits.softMs ?? Infinity;
    this.start = performance.now();

    const rootMoves = new Int32Array(board.maxMoves);
    const n = board.generate(rootMoves, false);
    if (n === 0) return { bestMove: 0, score: board.noMovesIsLoss(board.inCheck()) ? -MATE : 0, depth: 0, nodes: 0, aborted: false };
    let bestMove = rootMoves[0]!;
    let bestScore = 0;
    let completed = 0;
    const maxDepth = Math.min(limits.depth ?? MAX_PLY - 8, MAX_PLY - 8);
    for (let depth = 1; depth <= maxDepth; depth++) {
      this.rootDepth = depth;
      visitor.iterationStart(depth);
      this.nodes++;
      let best = -INFINITE;
      let move = 0;
      for (let i = 0; i < n; i++) {
        const m = rootMoves[i]!;
        board.make(m);
        const v = -this.minimax(depth - 1, 1, -best);
        board.unmake();
        if (this.stopped) break;
        if (v > best) {
          best = v;
          move = m;
        }
      }
      if (this.stopped) break;
      visitor.node(board, 0, best + 0);
      visitor.iterationDone(depth);
      completed = depth;
      bestMove = move;
      bestScore = best + 0;
      const mp = matePlies(best);
      if (mp !== 0 && Math.abs(mp) <= depth) break;
      if (this.nodes >= this.nodeLimit || performance.now() - this.start >= softMs * 0.55) break;
    }
    return { bestMove, score: bestScore, depth: completed, nodes: this.nodes, aborted: this.stopped };
  }

  protected poll(): void {
    if (this.nodes >= this.nodeLimit) this.stopped = true;
    else if (this.hardMs !== Infinity && performance.now() - this.start >= this.hardMs) this.stopped = true;
  }

  /** Exact value of an interior node; a leaf's value is exact below `beta`, else a lower bound >= beta. */
  private minimax(depth: number, ply: number, beta: number): number {
    const board = this.board;
    const rule = board.ruleState();
    if (rule !== RULE_NONE) {
      this.nodes++;
      return rule === RULE_DRAW ? 0 : rule === RULE_WIN ? MATE - ply : -(MATE - ply);
    }
    const inCheck = board.inCheck();
    if (inCheck && this.checkExtension && ply < 2 * this.rootDepth + 4) depth += 1;
    if (depth <= 0 || ply >= MAX_PLY - 4) return this.quiesce(-INFINITE, beta, ply, inCheck);
    if ((++this.nodes & POLL_MASK) === 0 || this.nodes >= this.nodeLimit) {
      this.poll();
      if (this.stopped) return 0;
    }
    const list = this.lists[ply]!;
    const n = board.generate(list, false);
    if (n === 0) return board.noMovesIsLoss(inCheck) ? -(MATE - ply) : 0;
    let best = -INFINITE;
    for (let i = 0; i < n; i++) {
      board.make(list[i]!);
      const v = -this.minimax(depth - 1, ply + 1, -best);
      board.unmake();
      if (this.stopped) return 0;
      if (v > best) best = v;
    }
    this.visitor.node(board, ply, best + 0);
    return best;
  }
}
