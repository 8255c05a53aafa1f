/**
 * USI for shogi: options (names without spaces: ShogiHome rejects option names containing spaces),
 * `position startpos|sfen <sfen> [moves ...]` checked with `ShogiGame`, `bestmove resign|win`
 * passed through, and perft.
 *
 * `USI_Hash` and `USI_Ponder` are the standard names; GUIs send them whether or not the engine
 * lists them. fairy-stockfish's `Hash`/`Ponder` and Stockfish's `Move Overhead` are accepted too.
 */
import { KishiError, Result } from '../../core/result.js';
import { FastShogiBoard } from '../../games/shogi/fast/index.js';
import { ShogiGame } from '../../games/shogi/shogi-game.js';
import type { Dialect, EngineSettings, PositionStart } from './dialect.js';
import type { EngineOption } from './engine-options.js';
import { EVAL_KINDS, MAX_MULTI_PV, MAX_THREADS, SEARCH_VARS } from './uci-dialect.js';
import { tuningOptions } from './tuning-options.js';

export const USI_OPTIONS = (d: EngineSettings): EngineOption[] => [
  { key: 'hashMb', name: 'USI_Hash', type: 'spin', default: d.hashMb, min: 1, max: 32768, aliases: ['Hash'] },
  { key: 'clearHash', name: 'ClearHash', type: 'button' },
  { key: 'ponder', name: 'USI_Ponder', type: 'check', default: d.ponder, aliases: ['Ponder'] },
  {
    key: 'moveOverheadMs',
    name: 'MoveOverhead',
    type: 'spin',
    default: d.moveOverheadMs,
    min: 0,
    max: 60000,
    aliases: ['USI_MoveOverhead', 'NetworkDelay'],
  },
  { key: 'evalFile', name: 'EvalFile', type: 'filename', default: d.evalFile },
  { key: 'modelFile', name: 'ModelFile', type: 'filename', default: d.modelFile, aliases: ['WeightsFile'] },
  { key: 'nnueFile', name: 'NnueFile', type: 'filename', default: d.nnueFile },
  { key: 'drawScore', name: 'DrawScore', type: 'spin', default: d.drawScore, min: -100, max: 100 },
  { key: 'search', name: 'Search', type: 'combo', default: d.search, vars: SEARCH_VARS },
  { key: 'multiPv', name: 'MultiPV', type: 'spin', default: d.multiPv, min: 1, max: MAX_MULTI_PV },
  { key: 'threads', name: 'Threads', type: 'spin', default: d.threads, min: 1, max: MAX_THREADS },
  { key: 'evalKind', name: 'Eval', type: 'combo', default: d.evalKind, vars: EVAL_KINDS },
  ...tuningOptions(d, 'shogi', 'filename'),
];

const parseStart = (head: readonly string[]): Result<PositionStart, KishiError> => {
  if (head[0] === 'startpos' && head.length === 1) return Result.ok({ start: 'startpos', variant: 'standard', game: ShogiGame.startpos() });
  if (head[0] === 'sfen' && head.length > 1) {
    const parsed = ShogiGame.fromSfen(head.slice(1).join(' '));
    if (parsed.isErr) return Result.err(parsed.error);
    return Result.ok({ start: parsed.value.startText(), variant: 'standard', game: parsed.value });
  }
  return Result.err(new KishiError('ERR_POSITION', `expected "position startpos|sfen <sfen> [moves ...]", got "position ${head.join(' ')}"`));
};

export const usiDialect: Dialect = {
  protocol: 'usi',
  game: 'shogi',
  clockWords: 'usi',
  options: USI_OPTIONS,
  parseStart: (head) => parseStart(head),
  bestmove: (r) => (r.ponder !== undefined && r.move !== 'resign' && r.move !== 'win' ? `${r.move} ponder ${r.ponder}` : r.move),
  perft: (position, depth) => {
    const board = FastShogiBoard.fromSfen(position.game.toText()).unwrap();
    if (depth <= 0) return ['', 'Nodes searched: 1'];
    const rows = [...board.divide(depth)];
    const total = rows.reduce((s, [, n]) => s + n, 0);
    return [...rows.map(([m, n]) => `${m}: ${n}`), '', `Nodes searched: ${total}`];
  },
};
