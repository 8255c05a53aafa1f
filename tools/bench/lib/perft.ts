/** Perft that makes and unmakes every move down to the leaves, for either internal board. */

/** What the fast boards (FastChessBoard, FastShogiBoard) offer a perft. */
export interface PerftBoard {
  generateMoves(list: Int32Array): number;
  makeMove(move: number): void;
  unmakeMove(): void;
}

/**
 * Leaf count at `depth` with every leaf made and unmade (no bulk counting: what a search pays per
 * node). `lists` holds one move list per ply, `depth + 1` of them.
 */
export function perftEveryLeaf(board: PerftBoard, depth: number, lists: readonly Int32Array[]): number {
  if (depth === 0) return 1;
  const list = lists[depth]!;
  const n = board.generateMoves(list);
  let nodes = 0;
  for (let i = 0; i < n; i++) {
    board.makeMove(list[i]!);
    nodes += perftEveryLeaf(board, depth - 1, lists);
    board.unmakeMove();
  }
  return nodes;
}
