/**
 * TD search's view of an alpha-beta board: the board's rules, its static evaluation turned to the
 * first player's view as the long-term value L(s) (the linear weights or the network, whichever
 * the board evaluates with), and the linear evaluation's sparse features as phi(s).
 *
 * With a `QuietLeaf` (the quiet variant, `tdQuiet`), L and phi are those of the position's
 * quiescence leaf instead (quiet-leaf.ts): the value of a position in the middle of an exchange is
 * the value after it. The leaf is found once per position: `features` finds it, and `longTerm`
 * reuses it until the next `make` or `unmake`.
 */
import type { SparseVector } from '../../eval/linear/sparse.js';
import type { SearchBoard } from '../alphabeta/search-board.js';
import type { QuietLeaf } from './quiet-leaf.js';
import type { TdPosition } from './td-search.js';

const firstPlayerEval = (board: SearchBoard): number => {
  const v = board.evaluate();
  return board.sideToMove() === 0 ? v : -v;
};

export const tdPosition = (board: SearchBoard, features: (out: SparseVector) => void, quiet?: QuietLeaf): TdPosition => {
  const rules = {
    maxMoves: board.maxMoves,
    sideToMove: () => board.sideToMove(),
    generate: (list: Int32Array, tactical: boolean) => board.generate(list, tactical),
    inCheck: () => board.inCheck(),
    ruleState: () => board.ruleState(),
    noMovesIsLoss: (inCheck: boolean) => board.noMovesIsLoss(inCheck),
  };
  if (quiet === undefined) {
    return { ...rules, make: (m) => board.make(m), unmake: () => board.unmake(), longTerm: () => firstPlayerEval(board), features };
  }
  // L at the leaf of the current position, once found (NaN: not yet).
  let leafValue = Number.NaN;
  const leaf = (out?: SparseVector): number => {
    const line = quiet.line(board);
    for (const m of line) board.make(m);
    if (out !== undefined) features(out);
    const v = firstPlayerEval(board);
    for (let i = 0; i < line.length; i++) board.unmake();
    return v;
  };
  return {
    ...rules,
    make: (m) => {
      leafValue = Number.NaN;
      board.make(m);
    },
    unmake: () => {
      leafValue = Number.NaN;
      board.unmake();
    },
    longTerm: () => (Number.isNaN(leafValue) ? (leafValue = leaf()) : leafValue),
    features: (out) => {
      leafValue = leaf(out);
    },
  };
};
