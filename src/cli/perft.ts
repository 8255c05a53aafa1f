/**
 * `kishi perft`: move-generation node counts, for checking rules against published tables and other
 * engines (`--divide` prints the count per root move, like Stockfish's `go perft`).
 * Three implementations can be compared: the rules adapter (chessops/shogiops with our history and
 * hashing), the library's own `debug.perft` as the reference, and the search's internal generator.
 */
import { performance } from 'node:perf_hooks';
import { InvalidArgumentError, Option } from 'commander';
import type { Command } from 'commander';
import { perft as shogiopsPerft } from 'shogiops/debug';
import { parseSfen } from 'shogiops/sfen';
import type { Result } from '../core/result.js';
import type { KishiError } from '../core/result.js';
import { ChessGame, chessopsPerft, divide as chessDivide, perft as chessPerft } from '../games/chess/index.js';
import { FastChessBoard } from '../games/chess/fast/index.js';
import { FastShogiBoard } from '../games/shogi/fast/index.js';
import { ShogiGame } from '../games/shogi/shogi-game.js';

const STARTPOS_SFEN = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
import { divide as shogiDivide, perft as shogiPerft } from '../games/shogi/perft.js';
import { wrongGameHint } from './position-game.js';

export const PERFT_IMPLS = ['adapter', 'reference', 'internal'] as const;
export type PerftImpl = (typeof PERFT_IMPLS)[number];

/** What one perft run computed. */
export interface PerftReport {
  readonly nodes: number;
  readonly divide?: readonly { readonly move: string; readonly nodes: number }[];
}

type Runner = (depth: number, divide: boolean) => PerftReport;

const chessRunner = (fen: string, chess960: boolean, impl: PerftImpl): Result<Runner, KishiError> => {
  if (impl === 'internal') {
    return FastChessBoard.fromFen(fen === 'startpos' ? 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' : fen, chess960).map(
      (board) => (depth, div) =>
        div
          ? (() => {
              const rows = [...board.perftDivide(depth)].map(([move, nodes]) => ({ move, nodes }));
              return { nodes: rows.reduce((s, r) => s + r.nodes, 0), divide: rows };
            })()
          : { nodes: board.perft(depth) },
    );
  }
  return ChessGame.fromFen(fen, { chess960 }).map((game) => (depth, div) => {
    if (div) {
      const rows = chessDivide(game, depth).map((r) => ({ move: r.uci, nodes: r.nodes }));
      return { nodes: rows.reduce((s, r) => s + r.nodes, 0), divide: rows };
    }
    return { nodes: impl === 'reference' ? chessopsPerft(game, depth) : chessPerft(game, depth) };
  });
};

const shogiRunner = (sfen: string, impl: PerftImpl): Result<Runner, KishiError> =>
  impl === 'internal'
    ? FastShogiBoard.fromSfen(sfen === 'startpos' ? STARTPOS_SFEN : sfen).map((board) => (depth, div) => {
        if (!div) return { nodes: board.perft(depth) };
        const rows = [...board.divide(depth)].map(([move, nodes]) => ({ move, nodes }));
        return { nodes: rows.reduce((s, r) => s + r.nodes, 0), divide: rows };
      })
    : ShogiGame.fromSfen(sfen).map((game) => (depth, div) => {
    if (div) {
      const rows = shogiDivide(game, depth).map((r) => ({ move: r.usi, nodes: r.nodes }));
      return { nodes: rows.reduce((s, r) => s + r.nodes, 0), divide: rows };
    }
    if (impl === 'reference') return { nodes: shogiopsPerft(parseSfen('standard', game.toText()).unwrap(), depth, false) };
    return { nodes: shogiPerft(game, depth) };
  });

export function register(program: Command): void {
  program
    .command('perft')
    .description('count the leaf nodes of the legal-move tree to a fixed depth, with nodes per second')
    .addOption(new Option('-g, --game <game>', 'which game (default: shogi with --sfen, else chess)').choices(['chess', 'shogi']))
    .option('--fen <fen>', 'chess position (FEN or "startpos")')
    .option('--sfen <sfen>', 'shogi position (SFEN or "startpos")')
    .option('--chess960', 'Chess960 castling rules for the FEN', false)
    .requiredOption('--depth <n>', 'depth in plies', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 20) throw new InvalidArgumentError(`--depth must be an integer 0..20, got "${v}"`);
      return n;
    })
    .option('--divide', 'print the count of every root move', false)
    .addOption(
      new Option('--impl <impl>', 'adapter: our rules adapter; reference: chessops/shogiops debug.perft; internal: the search move generator')
        .choices(PERFT_IMPLS)
        .default('adapter'),
    )
    .action((o: { game?: 'chess' | 'shogi'; fen?: string; sfen?: string; chess960: boolean; depth: number; divide: boolean; impl: PerftImpl }) => {
      // --sfen is a shogi position and --fen a chess one: the game follows unless --game says otherwise.
      const opts = { ...o, game: o.game ?? (o.sfen !== undefined && o.fen === undefined ? 'shogi' : 'chess') };
      if ((opts.game === 'chess' && o.sfen !== undefined) || (opts.game === 'shogi' && o.fen !== undefined)) {
        console.error(`kishi perft: ${opts.game === 'chess' ? '--sfen is a shogi position: use --game shogi, or --fen' : '--fen is a chess position: use --game chess, or --sfen'}`);
        process.exit(2);
      }
      const text = (opts.game === 'chess' ? opts.fen : opts.sfen) ?? 'startpos';
      const runner = opts.game === 'chess' ? chessRunner(text, opts.chess960, opts.impl) : shogiRunner(text, opts.impl);
      if (runner.isErr) {
        const hint = wrongGameHint(opts.game, text, (other) => (other === 'shogi' ? 'use --sfen' : 'use --fen'));
        console.error(`kishi perft: ${runner.error.message}${hint}`);
        process.exit(2);
      }
      const t0 = performance.now();
      const report = runner.value(opts.depth, opts.divide);
      const seconds = (performance.now() - t0) / 1000;
      for (const row of report.divide ?? []) console.log(`${row.move}: ${row.nodes}`);
      if (report.divide) console.log('');
      console.log(`nodes ${report.nodes}`);
      console.log(`time ${seconds.toFixed(3)} s`);
      console.log(`nps ${seconds > 0 ? Math.round(report.nodes / seconds) : 0}`);
    });
}
