/**
 * Tree reuse between the moves of a self-play game without allocating a tree per move.
 *
 * `MctsSearch.advance` re-roots by copying the subtree into a new `Tree`, whose typed arrays are
 * sized for match play (megabytes, zeroed); at a few hundred playouts a move that allocation and
 * the garbage it leaves cost more than the copy itself (measured: about 40% of self-play's tree
 * time with a mock net). Here two trees per game take turns: the subtree is copied into the spare
 * one, which is emptied first, so the arrays are allocated once per game and only grow.
 */
import { FLAG_TERMINAL, Tree } from '../../search/mcts/tree.js';

export class TreeRecycler {
  private spare: Tree;

  constructor(maxEdges: number) {
    this.spare = new Tree(maxEdges);
  }

  /**
   * The tree re-rooted at the child of `tree`'s root reached by `move` (a fresh root when that child
   * was never visited). `tree` becomes the spare and must not be used any more by the caller.
   */
  reroot(tree: Tree, move: number): Tree {
    const e = tree.findEdge(tree.root, move);
    const node = e < 0 ? -1 : tree.edgeChild[e]!;
    const t = this.spare;
    t.clear();
    if (node >= 0) copySubtree(tree, node, t);
    // As `MctsSearch.advance`: what ended the game at this node inside the tree (a first repetition,
    // the solver's mate mark) does not end the real game there; the root must be searched.
    t.flags[0] = 0;
    t.termValue[0] = 0;
    this.spare = tree;
    return t;
  }
}

/** Copies the subtree of `from`'s `node` into `to` (which holds only an empty root), as `Tree.extract` does. */
const copySubtree = (from: Tree, node: number, to: Tree): void => {
  const queue: number[] = [node];
  const map: number[] = [0];
  for (let qi = 0; qi < queue.length; qi++) {
    const src = queue[qi]!;
    const dst = map[qi]!;
    to.visits[dst] = from.visits[src]!;
    to.valueSum[dst] = from.valueSum[src]!;
    to.flags[dst] = from.flags[src]! & FLAG_TERMINAL;
    to.termValue[dst] = from.termValue[src]!;
    const first = from.firstEdge[src]!;
    if (first < 0) continue;
    const count = from.edgeCount[src]!;
    const nf = to.expand(dst, count);
    to.edgeMove.set(from.edgeMove.subarray(first, first + count), nf);
    to.edgePrior.set(from.edgePrior.subarray(first, first + count), nf);
    for (let k = 0; k < count; k++) {
      const c = from.edgeChild[first + k]!;
      if (c < 0) continue;
      const nc = to.newNode();
      to.edgeChild[nf + k] = nc;
      queue.push(c);
      map.push(nc);
    }
  }
};
