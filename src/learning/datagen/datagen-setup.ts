/**
 * Everything a datagen chunk is played with, built from the few choices of the command line (game,
 * budget, book, evaluation files): the game settings, the openings, the board factory and the
 * search. `kishi datagen` and a queue worker (src/queue/) build it from the same choices, so a chunk
 * played by a worker on another machine is the chunk the local run would have played.
 */
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import { ChessLinearEval } from '../../eval/linear/chess-eval.js';
import { ShogiLinearEval } from '../../eval/linear/shogi-eval.js';
import { ChessNnue } from '../../eval/nnue/chess-nnue.js';
import { ShogiNnue } from '../../eval/nnue/shogi-nnue.js';
import type { Opening } from '../../books/openings.js';
import { loadNnueFile } from '../../player/nnue-file.js';
import { loadWeightsFile } from '../../player/weights-file.js';
import { ChessSearchBoard } from '../../search/alphabeta/chess-board.js';
import { searchOptions } from '../../search/alphabeta/options.js';
import type { SearchBoard } from '../../search/alphabeta/search-board.js';
import { AlphaBetaSearch } from '../../search/alphabeta/search.js';
import { ShogiSearchBoard } from '../../search/alphabeta/shogi-board.js';
import { TranspositionTable } from '../../search/alphabeta/tt.js';
import { loadTrainingBook } from '../../books/training-book.js';
import { defaultGameSettings, type DatagenGameSettings } from './datagen-game.js';

/** The choices (plain JSON: they travel in queue jobs). Paths are as the user gave them. */
export interface DatagenChoices {
  readonly game: GameKind;
  readonly nodes?: number;
  readonly depth?: number;
  /** `min-max`. */
  readonly randomPlies?: string;
  readonly book?: string;
  readonly weights?: string;
  readonly nnue?: string;
  /** Transposition table, MiB. */
  readonly hash: number;
}

export interface DatagenSetup {
  readonly settings: DatagenGameSettings;
  readonly openings: readonly Opening[];
  readonly makeBoard: (o: Opening) => SearchBoard;
  readonly search: AlphaBetaSearch;
}

/** The files the choices read (weights, network, book), with the defaults filled in; for version checks. */
export const datagenFiles = (c: DatagenChoices): string[] => [
  c.weights ?? `models/${c.game}-linear.json`,
  ...(c.nnue !== undefined ? [c.nnue] : []),
  ...(c.game === 'chess' || c.book !== undefined ? [c.book ?? 'data/openings/chess-balanced.epd'] : []),
];

/** The game settings the choices give (cheap: reads no file); a bad `randomPlies` is a usage error. */
export const datagenSettings = (c: DatagenChoices): Result<DatagenGameSettings, KishiError> => {
  let settings: DatagenGameSettings = defaultGameSettings(c.game);
  if (c.nodes !== undefined || c.depth !== undefined) {
    const { nodes: _n, ...rest } = settings;
    settings = { ...rest, ...(c.nodes !== undefined ? { nodes: c.nodes } : {}), ...(c.depth !== undefined ? { depth: c.depth } : {}) };
  }
  if (c.randomPlies !== undefined) {
    const m = /^(\d+)-(\d+)$/.exec(c.randomPlies);
    if (!m || Number(m[1]) > Number(m[2])) return Result.err(new KishiError('ERR_USAGE', `--random-plies must be min-max, got "${c.randomPlies}"`));
    settings = { ...settings, randomPliesMin: Number(m[1]), randomPliesMax: Number(m[2]) };
  }
  if (c.nnue !== undefined) settings = { ...settings, evaluation: `nnue ${c.nnue}` };
  return Result.ok(settings);
};

/** Loads the files and builds the setup; errors name the file. */
export const prepareDatagen = (c: DatagenChoices): Result<DatagenSetup, KishiError> => {
  const game = c.game;
  const weights = loadWeightsFile(c.weights ?? `models/${game}-linear.json`, game);
  if (weights.isErr) return Result.err(weights.error);
  let openings: readonly Opening[];
  if (game === 'chess' || c.book !== undefined) {
    const book = loadTrainingBook(game, c.book, 1_000_000, game === 'shogi' ? 1000 : undefined);
    if (book.isErr) return Result.err(book.error);
    openings = book.value.openings;
  } else openings = [{ start: 'startpos', moves: [], source: 'startpos' }];
  const resolved = datagenSettings(c);
  if (resolved.isErr) return Result.err(resolved.error);
  const settings = resolved.value;
  const theta = weights.value.theta;
  const chessEval = game === 'chess' ? new ChessLinearEval(theta) : undefined;
  const shogiEval = game === 'shogi' ? new ShogiLinearEval(theta) : undefined;
  let net;
  if (c.nnue !== undefined) {
    const loaded = loadNnueFile(c.nnue, game);
    if (loaded.isErr) return Result.err(loaded.error);
    net = loaded.value.net;
  }
  const chessNnue = game === 'chess' && net !== undefined ? new ChessNnue(net) : undefined;
  const shogiNnue = game === 'shogi' && net !== undefined ? new ShogiNnue(net) : undefined;
  const makeBoard = (op: Opening): SearchBoard =>
    game === 'chess'
      ? ChessSearchBoard.fromText(op.start, op.moves, chessEval!, false, chessNnue).unwrap()
      : ShogiSearchBoard.fromText(op.start, op.moves, shogiEval!, shogiNnue).unwrap();
  return Result.ok({ settings, openings, makeBoard, search: new AlphaBetaSearch(new TranspositionTable(c.hash), searchOptions('tournament')) });
};
