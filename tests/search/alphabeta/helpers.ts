/** Boards and searchers for the alpha-beta tests. */
import { ChessLinearEval } from '../../../src/eval/linear/chess-eval.js';
import { chessMaterialTheta, shogiMaterialTheta } from '../../../src/eval/linear/material.js';
import { ShogiLinearEval } from '../../../src/eval/linear/shogi-eval.js';
import { ChessSearchBoard } from '../../../src/search/alphabeta/chess-board.js';
import { searchOptions, type SearchMode, type SearchOptions } from '../../../src/search/alphabeta/options.js';
import { AlphaBetaSearch } from '../../../src/search/alphabeta/search.js';
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
