/**
 * Walking the transposition table after a search, for TreeStrap(alpha-beta): the paper's
 * DeltaFromTransTbl (Veness et al. 2009, Algorithm 2) visits the root, then recursively every
 * successor that has an entry, skipping entries shallower than the minimum depth `d`.
 *
 * The walker does the traversal and hands each entry to a visitor with the board positioned at that
 * node, so the trainer can read phi(s) and apply its update; what to do with the bounds stays in
 * the learner. Each position is visited once (transpositions share entries).
 */
import { INFINITE, scoreFromTable } from './score.js';
import type { SearchBoard } from './search-board.js';
import type { TranspositionTable } from './tt.js';

/** One table entry reached from the root. */
export interface TableNode {
  /** The board, positioned at this node (valid during the visitor call only; do not make moves on it). */
  readonly board: SearchBoard;
  /** Plies from the root. */
  readonly ply: number;
  /** Search depth of the entry. */
  readonly depth: number;
  /**
   * Bounds from the side to move's view (mate distances counted from this node);
   * `-INFINITE` / `INFINITE` when the search proved none. `lower === upper`: exact value.
   */
  readonly lower: number;
  readonly upper: number;
  /** The entry's best move, 0 if none. */
  readonly move: number;
  /** +1 when the first player (chess white, shogi sente) is to move, else -1: multiply side-to-move bounds by it to get the first player's view. */
  readonly sign: number;
}

export interface WalkOptions {
  /** Entries searched shallower than this are skipped, with their subtrees (the paper's d; d = 1 there). */
  readonly minDepth: number;
  /** `all`: every successor with an entry (DeltaFromTransTbl); `tt-move`: only along the stored best moves. */
  readonly children?: 'all' | 'tt-move';
  /** Stop after this many visited entries. */
  readonly maxNodes?: number;
}

/** A 53-bit number naming a key (for the visited set). */
const keyOf = (hi: number, lo: number): number => (hi & 0x1fffff) * 4294967296 + (lo >>> 0);

/**
 * Visits the entries reachable from the root of `board` (left unchanged) in depth-first order;
 * returns how many were visited.
 */
export const walkTable = (
  board: SearchBoard,
  tt: TranspositionTable,
  visit: (node: TableNode) => void,
  options: WalkOptions,
): number => {
  const seen = new Set<number>();
  const maxNodes = options.maxNodes ?? Infinity;
  const allChildren = (options.children ?? 'all') === 'all';
  const lists: Int32Array[] = [];
  let count = 0;
  const rec = (ply: number): void => {
    if (count >= maxNodes) return;
    const hi = board.keyHi();
    const lo = board.keyLo();
    const key = keyOf(hi, lo);
    if (seen.has(key)) return;
    seen.add(key);
    if (!tt.probe(hi, lo)) return;
    const h = tt.hit;
    if (h.depth < options.minDepth) return;
    const depth = h.depth;
    const lower = h.lower <= -INFINITE ? -INFINITE : scoreFromTable(h.lower, 0);
    const upper = h.upper >= INFINITE ? INFINITE : scoreFromTable(h.upper, 0);
    const move = h.move;
    count++;
    visit({ board, ply, depth, lower, upper, move, sign: board.sideToMove() === 0 ? 1 : -1 });
    while (lists.length <= ply) lists.push(new Int32Array(board.maxMoves));
    const list = lists[ply]!;
    const n = board.generate(list, false);
    for (let i = 0; i < n; i++) {
      const m = list[i]!;
      if (!allChildren && m !== move) continue;
      board.make(m);
      rec(ply + 1);
      board.unmake();
    }
  };
  rec(0);
  return count;
};
