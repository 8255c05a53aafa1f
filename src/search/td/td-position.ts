/**
 * TD search's view of an alpha-beta board: the board's rules, its static evaluation turned to the
 * first player's view as the long-term value L(s) (the linear weights or the network, whichever
 * the board evaluates with), and the linear evaluation's sparse features as phi(s).
 */
import type { SparseVector } from '../../eval/linear/sparse.js';
import type { SearchBoard } from '../alphabeta/search-board.js';
import type { TdPosition } from './td-search.js';

export const tdPosition = (board: SearchBoard, features: (out: SparseVector) => void): TdPosition => ({
  maxMoves: board.maxMoves,
  sideToMove: () => board.sideToMove(),
  generate: (list, tactical) => board.generate(list, tactical),
  make: (m) => board.make(m),
  unmake: () => board.unmake(),
  inCheck: () => board.inCheck(),
  ruleState: () => board.ruleState(),
  noMovesIsLoss: (inCheck) => board.noMovesIsLoss(inCheck),
  longTerm: () => {
    const v = board.evaluate();
    return board.sideToMove() === 0 ? v : -v;
  },
  features,
});
