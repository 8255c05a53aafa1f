/**
 * The one quiescence search of the alpha-beta family, over `SearchBoard`: stand pat unless in
 * check, then captures (and chess promotions) in MVV-LVA order (`tacticalOrder`, selection sort),
 * or every evasion in check, with mate when an evasion is missing and the game's no-move rule
 * otherwise. The tournament search (search.ts) prunes inside it (delta, static exchange, bad
 * captures); TreeStrap's full-width tree (src/learning/treestrap/minimax-tree.ts) and TD-Leaf's
 * leaf resolution (src/learning/tdleaf/leaf.ts, which keeps the line) run it without pruning, so
 * that the learners see the values the engine's search sees.
 *
 * A subclass supplies the node budget (`poll`, called every 256 nodes and at the limit) and may
 * override the evaluation (the tournament search's evaluation cache) and the exchange test.
 */
import * as scoreModule from './score.js';
import type { SearchBoard } from './search-board.js';

const { MATE, MAX_PLY } = scoreModule;

/** How often the node budget is polled (a mask of the node count). */
export const POLL_MASK = 255;

export abstract class QuiescenceSearch {
  protected board!: SearchBoard;
  /** Move lists and their ordering keys, one per ply (sized by the subclass for its board). */
  protected lists: Int32Array[] = [];
  protected scores: Int32Array[] = [];
  protected nodes = 0;
  protected nodeLimit = Infinity;
  protected stopped = false;
  protected seldepth = 0;
  protected readonly pvLen = new Int32Array(MAX_PLY + 1);
  /** Delta pruning: a capture whose victim's nominal value plus `deltaMargin` cannot reach alpha is skipped. */
  protected deltaPruning = false;
  protected deltaMargin = 0;
  /** Captures that lose material by static exchange are skipped. */
  protected seePruning = false;
  /** Captures of a cheaper victim on a defended square are skipped (without `seePruning`). */
  protected badCapturePruning = false;
  /** When set, `quiesce` keeps its principal variation: `qPv[ply]` is the line from that ply. */
  protected qPv: number[][] | undefined;

  /** Checks the budget; sets `stopped` when the search must end. */
  protected abstract poll(): void;

  /** The side to move's static evaluation. */
  protected evaluate(): number {
    return this.board.evaluate();
  }

  /** Whether the static exchange value of `m` (or a nominal stand-in when the board has no SEE) is at least `threshold`. */
  protected seeGe(m: number, threshold: number): boolean {
    const b = this.board;
    if (b.seeGe !== undefined) return b.seeGe(m, threshold);
    if (b.see !== undefined) return b.see(m) >= threshold;
    return (b.isBadCapture(m) ? -100 : 0) >= threshold;
  }

  /** The quiescence value of the board's position for the side to move (0 once stopped). */
  protected quiesce(alpha: number, beta: number, ply: number, inCheck: boolean): number {
    const board = this.board;
    if ((++this.nodes & POLL_MASK) === 0 || this.nodes >= this.nodeLimit) {
      this.poll();
      if (this.stopped) return 0;
    }
    if (ply > this.seldepth) this.seldepth = ply;
    this.pvLen[ply] = 0;
    const pv = this.qPv;
    if (pv !== undefined) pv[ply] = [];
    if (ply >= MAX_PLY - 1) return inCheck ? 0 : this.evaluate();

    let best: number;
    let standPat = 0;
    if (!inCheck) {
      standPat = this.evaluate();
      if (standPat >= beta) return standPat;
      if (standPat > alpha) alpha = standPat;
      best = standPat;
    } else {
      best = -(MATE - ply);
    }
    const list = this.lists[ply]!;
    const keys = this.scores[ply]!;
    const n = board.generate(list, !inCheck);
    if (n === 0) return inCheck ? (board.noMovesIsLoss(true) ? -(MATE - ply) : 0) : best;
    for (let i = 0; i < n; i++) keys[i] = board.tacticalOrder(list[i]!);
    const delta = this.deltaPruning && !inCheck;
    // A capture is skipped when stand-pat + the victim's nominal value (`tacticalOrder >> 4` pawns,
    // 100 cp each) + this margin stays below alpha.
    const deltaMargin = this.deltaMargin;
    const useSee = this.seePruning && !inCheck;
    const badCaptures = this.badCapturePruning && !inCheck && !useSee;
    for (let i = 0; i < n; i++) {
      let bi = i;
      let bs = keys[i]!;
      for (let j = i + 1; j < n; j++) {
        if (keys[j]! > bs) {
          bs = keys[j]!;
          bi = j;
        }
      }
      const m = list[bi]!;
      if (bi !== i) {
        list[bi] = list[i]!;
        list[i] = m;
        keys[bi] = keys[i]!;
        keys[i] = bs;
      }
      // Delta pruning (tournament): even winning the victim (nominal value) cannot reach alpha.
      if (delta && standPat + (bs >> 4) * 100 + deltaMargin < alpha) continue;
      // Bad captures (tournament): a cheaper victim on a defended square.
      if (badCaptures && board.isBadCapture(m)) continue;
      // Losing exchanges (static exchange evaluation).
      if (useSee && !this.seeGe(m, 0)) continue;
      board.make(m);
      const score = -this.quiesce(-beta, -alpha, ply + 1, board.inCheck());
      board.unmake();
      if (this.stopped) return 0;
      if (score > best) {
        best = score;
        if (score > alpha) {
          alpha = score;
          if (pv !== undefined) pv[ply] = [m, ...(pv[ply + 1] ?? [])];
          if (score >= beta) break;
        }
      }
    }
    return best;
  }

  /**
   * The principal quiescence line from `board`'s position (the board is left as it was), for the leaf
   * resolvers (TD-Leaf's leaves, TD search's quiet variant); empty when the position is quiet. Past
   * `nodeLimit` nodes the search unwinds with partial lines, whose first moves are still a legal sequence.
   */
  protected principalLine(board: SearchBoard, nodeLimit = Infinity): number[] {
    if (this.lists.length === 0 || this.lists[0]!.length !== board.maxMoves) {
      this.lists = Array.from({ length: MAX_PLY + 1 }, () => new Int32Array(board.maxMoves));
      this.scores = Array.from({ length: MAX_PLY + 1 }, () => new Int32Array(board.maxMoves));
    }
    this.board = board;
    this.nodes = 0;
    this.nodeLimit = nodeLimit;
    this.stopped = false;
    const pv: number[][] = [];
    this.qPv = pv;
    this.quiesce(-MATE - 1, MATE + 1, 0, board.inCheck());
    this.qPv = undefined;
    return pv[0] ?? [];
  }
}
