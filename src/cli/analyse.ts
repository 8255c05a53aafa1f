/**
 * `kishi analyse`: the alpha-beta engine's best lines for one position, as a GUI's analysis pane
 * shows them (UCI/USI MultiPV): every completed depth prints its k best lines with scores, in SAN
 * (chess) or western shogi notation, and line 1 of the last complete depth is the answer (`bestmove`). `--json` prints the final
 * lines as JSON for scripts.
 */
import { InvalidArgumentError, Option } from 'commander';
import type { Command } from 'commander';
import { makeSanAndPlay } from 'chessops/san';
import { makeWesternMoveOrDrop } from 'shogiops/notation/western';
import type { GameKind } from '../core/game.js';
import { GAME_KINDS } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import { ChessGame, parseUciMove } from '../games/chess/index.js';
import { parseShogiSfen, parseUsiMove } from '../games/shogi/index.js';
import { ShogiGame } from '../games/shogi/shogi-game.js';
import { createAlphaBetaPlayer } from '../player/factory.js';
import type { PlayerConfig } from '../player/factory.js';
import type { GoResult, Player, SearchInfo, SearchLimits } from '../player/player.js';
import { engineConfig } from '../protocols/uci/run-engine.js';
import { wrongGameHint } from './position-game.js';

/** One analysed line: rank, score and the moves in protocol and human notation. */
export interface AnalysedLine {
  readonly multipv: number;
  readonly depth: number;
  readonly score: SearchInfo['score'];
  readonly pv: readonly string[];
  readonly pvText: string;
}

/** A position made legal by the rules adapters, with a notation for principal variations. */
interface Position {
  readonly start: string;
  readonly moves: readonly string[];
  /** The PV in SAN (chess) or western notation (shogi); stops at the first move it cannot read. */
  readonly notate: (pv: readonly string[]) => string;
}

/** Validates the position and moves with the rules (not the search's fast boards). */
export const analysePosition = (game: GameKind, text: string, moves: readonly string[]): Result<Position, KishiError> => {
  if (game === 'chess') {
    const g = text === 'startpos' ? Result.ok<ChessGame, KishiError>(ChessGame.standard()) : ChessGame.fromFen(text);
    if (g.isErr) return Result.err(g.error);
    for (const m of moves) {
      const r = g.value.playUci(m);
      if (r.isErr) return Result.err(new KishiError('ERR_MOVE', `move ${m}: ${r.error.message}`));
    }
    const at = g.value;
    const notate = (pv: readonly string[]): string => {
      const pos = at.position();
      const out: string[] = [];
      for (const m of pv) {
        const parsed = parseUciMove(pos, m);
        if (parsed.isErr) break;
        out.push(makeSanAndPlay(pos, parsed.value));
      }
      return out.join(' ');
    };
    return Result.ok<Position, KishiError>({ start: text, moves, notate });
  }
  const g = text === 'startpos' ? Result.ok<ShogiGame, KishiError>(ShogiGame.startpos()) : ShogiGame.fromSfen(text);
  if (g.isErr) return Result.err(g.error);
  for (const m of moves) {
    const r = g.value.parseMove(m);
    if (r.isErr || !g.value.isLegal(r.value)) return Result.err(new KishiError('ERR_MOVE', `move ${m}: ${r.isErr ? r.error.message : 'illegal here'}`));
    g.value.play(r.value);
  }
  const sfen = g.value.toText();
  const notate = (pv: readonly string[]): string => {
    const pos = parseShogiSfen(sfen);
    if (pos.isErr) return pv.join(' ');
    const out: string[] = [];
    for (const m of pv) {
      const md = parseUsiMove(m);
      if (md === undefined || !pos.value.isLegal(md)) break;
      out.push(makeWesternMoveOrDrop(pos.value, md) ?? m);
      pos.value.play(md);
    }
    return out.join(' ');
  };
  return Result.ok<Position, KishiError>({ start: text, moves, notate });
};

/** A score as an analysis pane writes it: +0.35 / -1.20 in pawns, #3 / #-2 in moves. */
export const formatScore = (score: SearchInfo['score']): string => {
  if ('mate' in score) return `#${score.mate > 0 ? Math.ceil(score.mate / 2) : -Math.ceil(-score.mate / 2)}`;
  return `${score.cp >= 0 ? '+' : ''}${(score.cp / 100).toFixed(2)}`;
};

/**
 * Collects MultiPV info lines by depth: a depth is complete once its k lines (or all legal moves,
 * when fewer) have arrived; `complete()` is the last complete depth's lines, best first.
 */
export class MultiPvCollector {
  private readonly byDepth = new Map<number, Map<number, SearchInfo>>();
  private last: SearchInfo[] = [];

  constructor(private readonly k: number) {}

  /** Records a line; returns the depth's lines when this one completed it. */
  add(info: SearchInfo): SearchInfo[] | undefined {
    const rank = info.multipv ?? 1;
    let lines = this.byDepth.get(info.depth);
    if (lines === undefined) this.byDepth.set(info.depth, (lines = new Map()));
    lines.set(rank, info);
    if (lines.size < this.k) return undefined;
    this.last = [...lines.values()].sort((a, b) => (a.multipv ?? 1) - (b.multipv ?? 1));
    return this.last;
  }

  /** The lines of the last complete depth; `fallback` (the search's final info) when none completed. */
  complete(fallback?: SearchInfo): SearchInfo[] {
    if (this.last.length > 0) return this.last;
    // Fewer legal moves than k: the deepest depth seen, whatever its size.
    const depths = [...this.byDepth.keys()].sort((a, b) => b - a);
    const deepest = depths[0] !== undefined ? this.byDepth.get(depths[0]) : undefined;
    if (deepest !== undefined) return [...deepest.values()].sort((a, b) => (a.multipv ?? 1) - (b.multipv ?? 1));
    return fallback !== undefined ? [fallback] : [];
  }
}

const positiveInt = (name: string) => (v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a positive integer, got ${v}`);
  return n;
};

interface AnalyseOptions {
  readonly game: GameKind;
  readonly moves?: string;
  readonly multipv: number;
  readonly depth?: number;
  readonly nodes?: number;
  readonly movetime?: number;
  readonly threads?: number;
  readonly eval?: 'linear' | 'nnue';
  readonly hash?: number;
  readonly config?: string;
  readonly json?: boolean;
}

/**
 * The answer of an analysis: line 1 of the last complete depth, the line printed above it. A search
 * stopped by `--movetime` may hold a better move found inside an unfinished depth, but naming it
 * would show a move without its line or score; the engine's own answer stands only when no depth
 * completed (or its line is empty).
 */
export const analysisAnswer = (lines: readonly SearchInfo[], result: GoResult): { readonly move: string; readonly ponder?: string } => {
  const pv = lines[0]?.pv ?? [];
  if (pv[0] === undefined) return { move: result.move, ...(result.ponder !== undefined ? { ponder: result.ponder } : {}) };
  return { move: pv[0], ...(pv[1] !== undefined ? { ponder: pv[1] } : {}) };
};

/** Makes the analysing Player (alpha-beta from the config; tests pass a scripted one). */
export type AnalysePlayerMaker = (config: PlayerConfig, game: GameKind) => Result<Player, KishiError>;

/** Runs one analysis; prints as it goes. Resolves with the exit code. */
export async function analyse(
  position: string,
  opts: AnalyseOptions,
  print: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
  makePlayer: AnalysePlayerMaker = (config, game) => createAlphaBetaPlayer(config, game),
): Promise<number> {
  const moves = (opts.moves ?? '').trim() === '' ? [] : opts.moves!.trim().split(/\s+/);
  const pos = analysePosition(opts.game, position, moves);
  if (pos.isErr) {
    const hint = pos.error.code === 'ERR_MOVE' ? '' : wrongGameHint(opts.game, position, (other) => `add -g ${other}`);
    process.stderr.write(`kishi analyse: ${pos.error.message}${hint}\n`);
    return 2;
  }
  const config = await engineConfig(opts.config);
  if (config.isErr) {
    process.stderr.write(`kishi analyse: ${config.error.message}\n`);
    return 2;
  }
  const e = config.value.engine;
  const evalKind = opts.eval ?? (opts.game === 'chess' ? e.chessEval : e.shogiEval);
  const player = makePlayer(
    { ...e, search: 'alphabeta', threads: opts.threads ?? e.threads, hashMb: opts.hash ?? e.hashMb, ...(opts.game === 'chess' ? { chessEval: evalKind } : { shogiEval: evalKind }) },
    opts.game,
  );
  if (player.isErr) {
    process.stderr.write(`kishi analyse: ${player.error.message}\n`);
    return 2;
  }
  const limits: { -readonly [K in keyof SearchLimits]: SearchLimits[K] } = {};
  if (opts.depth !== undefined) limits.depth = opts.depth;
  if (opts.nodes !== undefined) limits.nodes = opts.nodes;
  if (opts.movetime !== undefined || Object.keys(limits).length === 0) limits.movetimeMs = opts.movetime ?? 5000;
  const collector = new MultiPvCollector(opts.multipv);
  const human = (info: SearchInfo): string => `${String(info.multipv ?? 1).padStart(2)}. ${formatScore(info.score).padStart(7)}  ${pos.value.notate(info.pv)}`;
  try {
    const result = await player.value.go(
      { game: opts.game, variant: 'standard', start: pos.value.start, moves: pos.value.moves, limits, multiPv: opts.multipv },
      (info) => {
        const done = collector.add(info);
        if (done !== undefined && opts.json !== true) {
          print(`depth ${info.depth}  nodes ${info.nodes}  nps ${info.nps}  time ${info.timeMs} ms`);
          for (const l of done) print(human(l));
        }
      },
    );
    const lines = collector.complete(result.info);
    const answer = analysisAnswer(lines, result);
    if (opts.json === true) {
      const out: AnalysedLine[] = lines.map((l) => ({ multipv: l.multipv ?? 1, depth: l.depth, score: l.score, pv: l.pv, pvText: pos.value.notate(l.pv) }));
      print(JSON.stringify({ game: opts.game, start: position, moves, bestmove: answer.move, lines: out }, null, 2));
    } else print(`bestmove ${answer.move}${answer.ponder !== undefined ? ` ponder ${answer.ponder}` : ''}`);
    return 0;
  } finally {
    await player.value.close();
  }
}

export function register(program: Command): void {
  program
    .command('analyse')
    .alias('analyze')
    .description("show the engine's best lines (MultiPV) for a position, depth by depth")
    .argument('[position]', "FEN (chess), SFEN (shogi) or 'startpos'", 'startpos')
    .addOption(new Option('-g, --game <game>', 'game').choices(GAME_KINDS).default('chess'))
    .option('-m, --moves <moves>', "moves played from the position, UCI/USI, space-separated (quote them)")
    .option('--multipv <k>', 'lines to show', positiveInt('--multipv'), 3)
    .option('--depth <n>', 'search to this depth', positiveInt('--depth'))
    .option('--nodes <n>', 'search this many nodes', positiveInt('--nodes'))
    .option('--movetime <ms>', 'search this long (default 5000 when no other limit)', positiveInt('--movetime'))
    .option('--threads <n>', 'search threads (Lazy SMP)', positiveInt('--threads'))
    .option('--hash <mb>', 'transposition table size, MiB', positiveInt('--hash'))
    .addOption(new Option('--eval <kind>', 'evaluation (default from the config)').choices(['linear', 'nnue']))
    .option('-c, --config <file>', 'engine settings (weights, nets, hash) from this config file')
    .option('--json', 'print the final lines as JSON')
    .action(async (position: string, opts: AnalyseOptions) => {
      process.exitCode = await analyse(position, opts);
    });
}
