/**
 * Network evaluation speed (issue 18): alpha-beta nodes/s with the shipped network
 * (models/<game>-nnue.bin) against the shipped linear evaluation (models/<game>-linear.json), same
 * search, same positions, fixed node budget, fresh table each rep; and `kishi datagen` positions/s
 * (one thread, default settings, a few games into a temporary directory). The issue's target is
 * nnue >= 0.6x linear. A second row per position sets the WebAssembly SIMD kernels (the default)
 * against the TypeScript loops. A game whose network file is missing or invalid gets no row (logged).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { GameKind } from '../../src/core/game.js';
import { ChessLinearEval } from '../../src/eval/linear/chess-eval.js';
import { ShogiLinearEval } from '../../src/eval/linear/shogi-eval.js';
import { ChessNnue } from '../../src/eval/nnue/chess-nnue.js';
import type { NnueNetwork } from '../../src/eval/nnue/network.js';
import { ShogiNnue } from '../../src/eval/nnue/shogi-nnue.js';
import { defaultGameSettings } from '../../src/learning/datagen/datagen-game.js';
import { runDatagen } from '../../src/learning/datagen/datagen-run.js';
import { loadTrainingBook } from '../../src/books/training-book.js';
import { loadNnueFile } from '../../src/player/nnue-file.js';
import { loadWeightsFile } from '../../src/player/weights-file.js';
import { ChessSearchBoard } from '../../src/search/alphabeta/chess-board.js';
import { searchOptions } from '../../src/search/alphabeta/options.js';
import type { SearchBoard } from '../../src/search/alphabeta/search-board.js';
import { AlphaBetaSearch } from '../../src/search/alphabeta/search.js';
import { ShogiSearchBoard } from '../../src/search/alphabeta/shogi-board.js';
import { TranspositionTable } from '../../src/search/alphabeta/tt.js';
import type { BenchModule, BenchRow } from './lib/measure.js';
import { rateRow } from './lib/measure.js';
import { positionLabel, searchRates } from './lib/search.js';

/** `768x256`, with its output buckets when it has them (`768x256x8b`). */
const netName = (net: NnueNetwork): string => `${net.features}x${net.hidden}${net.outputBuckets > 1 ? `x${net.outputBuckets}b` : ''}`;

const POSITIONS: Record<GameKind, string[]> = {
  chess: ['startpos', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 'r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1QBPPP/R3KB1R w KQ - 0 1',
    // An endgame: king moves are frequent, and with king buckets they rebuild accumulators.
    '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1'],
  shogi: ['startpos', 'ln1g3nl/1r1sg1k2/p1pppsbpp/1p3pp2/7P1/2P1P1P2/PPBP1P2P/2S1GS1R1/LN1GK2NL b - 1'],
};

export const bench: BenchModule = {
  name: 'nnue',
  description: 'alpha-beta nodes/s with the network vs the linear evaluation; datagen positions/s',
  async run(ctx) {
    const rows: BenchRow[] = [];
    const budget = ctx.quick ? 50_000 : 300_000;
    for (const game of ['chess', 'shogi'] as const) {
      const theta = loadWeightsFile(`models/${game}-linear.json`, game).unwrap().theta;
      const loaded = loadNnueFile(`models/${game}-nnue.bin`, game);
      if (loaded.isErr) {
        ctx.log(`nnue ${game}: no network (${loaded.error.message})`);
      } else {
        const net = loaded.value.net;
        for (const text of POSITIONS[game]) {
          const label = positionLabel(text);
          ctx.log(`nnue ${game} ${label} ${budget} nodes`);
          // nnue: 'simd' (the default where it applies), 'ts' (the TypeScript loops) or none (linear).
          const make = (nnue: 'simd' | 'ts' | undefined) => (): SearchBoard =>
            game === 'chess'
              ? ChessSearchBoard.fromText(text, [], new ChessLinearEval(theta), false, nnue ? new ChessNnue(net, nnue === 'simd') : undefined).unwrap()
              : ShogiSearchBoard.fromText(text, [], new ShogiLinearEval(theta), nnue ? new ShogiNnue(net, nnue === 'simd') : undefined).unwrap();
          for (const kind of ['simd', 'ts', undefined] as const) searchRates(make(kind), 20_000, 1);
          const a = searchRates(make('simd'), budget, ctx.reps);
          const t = searchRates(make('ts'), budget, ctx.reps);
          const b = searchRates(make(undefined), budget, ctx.reps);
          rows.push(rateRow(`search ${game} nnue ${netName(net)} ${label}`, 'knodes/s', 1e-3, a, b, 'linear eval'));
          rows.push(rateRow(`search ${game} nnue ${netName(net)} simd ${label}`, 'knodes/s', 1e-3, a, t, 'TypeScript loops'));
        }
      }
      // Datagen: a few games at the default settings.
      const dir = mkdtempSync(join(tmpdir(), 'kishi-bench-datagen-'));
      try {
        const ce = game === 'chess' ? new ChessLinearEval(theta) : undefined;
        const se = game === 'shogi' ? new ShogiLinearEval(theta) : undefined;
        const openings = game === 'chess' ? loadTrainingBook('chess', undefined, 1000).unwrap().openings : [{ start: 'startpos', moves: [] as string[], source: 'startpos' }];
        const rates: number[] = [];
        for (let rep = 0; rep < ctx.reps; rep++) {
          rmSync(dir, { recursive: true, force: true });
          const t0 = performance.now();
          const p = runDatagen({
            out: dir,
            seed: 1 + rep,
            shardIndex: 0,
            shardCount: 1,
            gamesPerChunk: ctx.quick ? 1 : 4,
            targetPositions: 1e12,
            maxChunks: 1,
            settings: defaultGameSettings(game),
            openings,
            makeBoard: (o) => (game === 'chess' ? ChessSearchBoard.fromText(o.start, o.moves, ce!).unwrap() : ShogiSearchBoard.fromText(o.start, o.moves, se!).unwrap()),
            search: new AlphaBetaSearch(new TranspositionTable(16), searchOptions('tournament')),
          }).unwrap();
          rates.push(p.positions / ((performance.now() - t0) / 1000));
        }
        rows.push(rateRow(`datagen ${game} ${defaultGameSettings(game).nodes} nodes/move`, 'positions/s', 1, rates));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    return rows;
  },
};
