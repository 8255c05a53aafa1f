/** Boards and searchers for the alpha-beta tests. */
import { ChessLinearEval } from '../../../src/eval/linear/chess-eval.js';
import { chessMaterialTheta, shogiMaterialTheta } from '../../../src/eval/linear/material.js';
import { ShogiLinearEval } from '../../../src/eval/linear/shogi-eval.js';
import { ChessSearchBoard } from '../../../src/search/alphabeta/chess-board.js';
import { searchOptions, type SearchMode, type SearchOptions } from '../../../src/search/alphabeta/options.js';
import { AlphaBetaSearch } from '../../../src/search/alphabeta/search.js';
import type { SearchBoard } from '../../../src/search/alphabeta/search-board.js';
import { ShogiSearchBoard } from '../../../src/search/alphabeta/shogi-board.js';
import { TranspositionTable } from '../../../src/search/alphabeta/tt.js';

export const chessEval = new ChessLinearEval(chessMaterialTheta());
export const shogiEval = new ShogiLinearEval(shogiMaterialTheta());

export const chessBoard = (fen: string, moves: string[] = []): ChessSearchBoard => ChessSearchBoard.fromText(fen, moves, chessEval).unwrap();
export const shogiBoard = (sfen: string, moves: string[] = []): ShogiSearchBoard => ShogiSearchBoard.fromText(sfen, moves, shogiEval).unwrap();

export const searcher = (mode: SearchMode = 'tournament', overrides: Partial<SearchOptions> = {}, mb = 4): AlphaBetaSearch =>
  new AlphaBetaSearch(new TranspositionTable(mb), searchOptions(mode, overrides));

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32, src/core/rng.ts). */
export { seededRng as rng } from '../../../src/core/rng.js';

/** Replays an announced mate: every attacker move checks, and the line ends with the defender mated. */
export const replaysToMate = (board: SearchBoard, moves: readonly number[]): boolean => {
  const list = new Int32Array(board.maxMoves);
  let ok = moves.length % 2 === 1;
  let made = 0;
  for (let i = 0; ok && i < moves.length; i++) {
    const n = board.generate(list, false);
    if (!list.subarray(0, n).includes(moves[i]!)) ok = false;
    else {
      board.make(moves[i]!);
      made++;
      if (i % 2 === 0 && !board.inCheck()) ok = false;
    }
  }
  ok &&= board.inCheck() && board.generate(list, false) === 0;
  for (let i = 0; i < made; i++) board.unmake();
  return ok;
};
