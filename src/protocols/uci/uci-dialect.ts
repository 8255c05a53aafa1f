/**
 * UCI for chess and Chess960: options, `position startpos|fen <fen> [moves ...]` checked with
 * `ChessGame`, `bestmove 0000` when there is no legal move, and perft.
 *
 * Chess960 (`UCI_Chess960 true`): castling is king-takes-rook in both directions, and FEN castling
 * rights may name rook files (Shredder-FEN) or KQkq (X-FEN). Without it, castling is written king
 * two squares (`e1g1`); either form is accepted on input.
 *
 * `Threads`: search threads, of alpha-beta (Lazy SMP) or of MCTS on the CPU networks (several threads
 * over one tree, src/search/mcts/threads.ts).
 */
import { KishiError, Result } from '../../core/result.js';
import { FastChessBoard } from '../../games/chess/fast/index.js';
import { ChessGame } from '../../games/chess/index.js';
import type { Dialect, EngineSettings, PositionStart } from './dialect.js';
import type { EngineOption } from './engine-options.js';
import { tuningOptions } from './tuning-options.js';

/** Evaluations offered by the `Eval` option. */
export const EVAL_KINDS = ['linear', 'nnue'] as const;

/** Search kinds offered by the `Search` option. */
export const SEARCH_VARS = ['auto', 'alphabeta', 'mcts', 'dyna2', 'td'] as const;

/** Most search threads (the config schema's `engine.threads` maximum). */
export const MAX_THREADS = 256;
/** Largest MultiPV a GUI may ask for. */
export const MAX_MULTI_PV = 64;

export const UCI_OPTIONS = (d: EngineSettings): EngineOption[] => [
  { key: 'hashMb', name: 'Hash', type: 'spin', default: d.hashMb, min: 1, max: 32768, aliases: ['USI_Hash'] },
  { key: 'clearHash', name: 'Clear Hash', type: 'button' },
  { key: 'ponder', name: 'Ponder', type: 'check', default: d.ponder, aliases: ['USI_Ponder'] },
  { key: 'moveOverheadMs', name: 'Move Overhead', type: 'spin', default: d.moveOverheadMs, min: 0, max: 60000, aliases: ['USI_MoveOverhead'] },
  { key: 'evalFile', name: 'EvalFile', type: 'string', default: d.evalFile },
  { key: 'modelFile', name: 'ModelFile', type: 'string', default: d.modelFile, aliases: ['WeightsFile'] },
  { key: 'nnueFile', name: 'NnueFile', type: 'string', default: d.nnueFile },
  { key: 'drawScore', name: 'DrawScore', type: 'spin', default: d.drawScore, min: -100, max: 100 },
  { key: 'search', name: 'Search', type: 'combo', default: d.search, vars: SEARCH_VARS },
  { key: 'evalKind', name: 'Eval', type: 'combo', default: d.evalKind, vars: EVAL_KINDS },
  { key: 'chess960', name: 'UCI_Chess960', type: 'check', default: d.chess960 },
  { key: 'multiPv', name: 'MultiPV', type: 'spin', default: d.multiPv, min: 1, max: MAX_MULTI_PV },
  { key: 'threads', name: 'Threads', type: 'spin', default: d.threads, min: 1, max: MAX_THREADS },
  ...tuningOptions(d, 'chess', 'string'),
];

const parseStart = (head: readonly string[], settings: EngineSettings): Result<PositionStart, KishiError> => {
  const options = { chess960: settings.chess960 };
  if (head[0] === 'startpos' && head.length === 1) {
    return Result.ok({ start: 'startpos', variant: settings.chess960 ? 'chess960' : 'standard', game: ChessGame.standard(options) });
  }
  if (head[0] === 'fen' && head.length > 1) {
    const parsed = ChessGame.fromFen(head.slice(1).join(' '), options);
    if (parsed.isErr) return Result.err(parsed.error);
    return Result.ok({ start: parsed.value.toText(), variant: settings.chess960 ? 'chess960' : 'fromPosition', game: parsed.value });
  }
  return Result.err(new KishiError('ERR_POSITION', `expected "position startpos|fen <fen> [moves ...]", got "position ${head.join(' ')}"`));
};

export const uciDialect: Dialect = {
  protocol: 'uci',
  game: 'chess',
  clockWords: 'uci',
  options: UCI_OPTIONS,
  parseStart,
  // UCI's null move: what an engine says when it has no legal move.
  bestmove: (r) => (r.move === 'resign' || r.move === 'win' ? '0000' : r.ponder !== undefined ? `${r.move} ponder ${r.ponder}` : r.move),
  perft: (position, depth, settings) => {
    const board = FastChessBoard.fromFen(position.game.toText(), settings.chess960).unwrap();
    const lines: string[] = [];
    let total = 0;
    for (const m of board.legalMoves()) {
      board.makeMove(m);
      const n = depth <= 1 ? 1 : board.perft(depth - 1);
      board.unmakeMove();
      total += n;
      lines.push(`${board.moveToUci(m)}: ${n}`);
    }
    if (depth <= 0) total = 1;
    return [...(depth > 0 ? lines : []), '', `Nodes searched: ${total}`];
  },
};
