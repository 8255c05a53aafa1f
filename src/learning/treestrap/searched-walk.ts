/**
 * DeltaFromTransTbl's traversal restricted to the successors the search made (recording-board.ts
 * explains why the visited entries are the same as with every successor). Same contract as the
 * search's `walkTable`: depth-first from the root, each position once, entries shallower than
 * `minDepth` skipped with their subtrees, the board left as it was.
 */
import { INFINITE, scoreFromTable } from '../../search/alphabeta/score.js';
import type { TableNode, WalkOptions } from '../../search/alphabeta/tree-walk.js';
import type { TranspositionTable } from '../../search/alphabeta/tt.js';
import { keyOf, type RecordingBoard } from './recording-board.js';

/**
 * Visits the entries reachable from the root along searched moves; returns how many were visited.
 * `node.board` is the inner board; `noisy` says whether the position is in check or was reached by
 * a capture or promotion (the root: in check only).
 */
export const walkSearched = (
  rec: RecordingBoard,
  tt: TranspositionTable,
  visit: (node: TableNode, noisy: boolean) => void,
  options: Omit<WalkOptions, 'children'>,
): number => {
  const board = rec.inner;
  const seen = new Set<number>();
  const maxNodes = options.maxNodes ?? Infinity;
  let count = 0;
  const rec1 = (ply: number, tactical: boolean): void => {
    if (count >= maxNodes) return;
    const hi = board.keyHi();
    const lo = board.keyLo();
    const key = keyOf(hi, lo);
    if (seen.has(key)) return;
    seen.add(key);
    if (!tt.probe(hi, lo)) return;
    const h = tt.hit;
    if (h.depth < options.minDepth) return;
    const lower = h.lower <= -INFINITE ? -INFINITE : scoreFromTable(h.lower, 0);
    const upper = h.upper >= INFINITE ? INFINITE : scoreFromTable(h.upper, 0);
    count++;
    visit({ board, ply, depth: h.depth, lower, upper, move: h.move, sign: board.sideToMove() === 0 ? 1 : -1 }, tactical || board.inCheck());
    const moves = rec.edges.get(key);
    if (moves === undefined) return;
    for (let i = 0; i < moves.length; i++) {
      const m = moves[i]!;
      const t = board.tacticalOrder(m) > 0;
      board.make(m);
      rec1(ply + 1, t);
      board.unmake();
    }
  };
  rec1(0, false);
  return count;
};
