/**
 * Alpha-beta search benchmark (one thread, material weights, tournament mode):
 *   1. nodes/s on a fixed position set for both games, median of 3 runs per position, wall clock and
 *      CPU time (the CPU figure is the one to read on a shared machine);
 *   2. stop latency of the worker-thread Player (ms from `stop()` to the answer, median of 5);
 *   3. tsume 3- and 5-ply solved rates (first 200 problems each) at a fixed node budget and with
 *      the mate search;
 *   4. with --wac: Win At Chess (300 positions) at --wac-ms per position (default 1000).
 *
 * Build, then run: npx tsc -p . && node dist/tools/bench-search.js [--nodes N] [--wac] [--wac-ms MS] [--quick]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { parseSan } from 'chessops/san';
import { makeUci } from 'chessops/util';
import { ChessLinearEval } from '../src/eval/linear/chess-eval.js';
import { chessMaterialTheta, shogiMaterialTheta } from '../src/eval/linear/material.js';
import { ShogiLinearEval } from '../src/eval/linear/shogi-eval.js';
import { createAlphaBetaPlayer } from '../src/player/factory.js';
import { packageRoot } from '../src/player/weights-file.js';
import { ChessSearchBoard } from '../src/search/alphabeta/chess-board.js';
import { MateSearch } from '../src/search/alphabeta/mate-search.js';
import { searchOptions } from '../src/search/alphabeta/options.js';
import { matePlies } from '../src/search/alphabeta/score.js';
import type { SearchBoard } from '../src/search/alphabeta/search-board.js';
import { AlphaBetaSearch } from '../src/search/alphabeta/search.js';
import { ShogiSearchBoard } from '../src/search/alphabeta/shogi-board.js';
import { TranspositionTable } from '../src/search/alphabeta/tt.js';

const args = process.argv.slice(2);
const flag = (name: string): boolean => args.includes(name);
const option = (name: string, fallback: number): number => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? Number(args[i + 1]) : fallback;
};
const quick = flag('--quick');
const NODES = option('--nodes', quick ? 200_000 : 1_000_000);
/** The vendored suites (data/suites/README.md). */
const SUITES = join(packageRoot(), 'data', 'suites');

const CHESS_POSITIONS = [
  'startpos',
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  'r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1QBPPP/R3KB1R w KQ - 0 1',
  '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
  'r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10',
];
const SHOGI_POSITIONS = [
  'startpos',
  'ln1g3nl/1r1sg1k2/p1pppsbpp/1p3pp2/7P1/2P1P1P2/PPBP1P2P/2S1GS1R1/LN1GK2NL b - 1',
  // Move 36 of the first taya36 opening.
  'startpos moves 2g2f 8c8d 6i7h 8d8e 2f2e 4a3b 3i3h 7a7b 1g1f 1c1d 9g9f 8e8f 8g8f 8b8f P*8g 8f8b 2e2d 2c2d 2h2d P*2c 2d2h 7b8c 7g7f 8c7d 7i6h 9c9d 8i7g 3c3d 3h2g 2b4d 4g4f 5c5d 2g3f 2a3c 5g5f 3a4b',
  'ln1g4l/1r2g1sk1/p1ppppnpp/1s4p2/9/2P1P1P2/PPBP1P1PP/2S1GS1R1/LN1GK2NL b B 1',
];

const chessEval = new ChessLinearEval(chessMaterialTheta());
const shogiEval = new ShogiLinearEval(shogiMaterialTheta());
/** A board from FEN/SFEN, or `<start> moves <m1> <m2> ...`. */
const boardOf = (game: 'chess' | 'shogi', text: string): SearchBoard => {
  const [start, moves] = text.includes(' moves ') ? [text.split(' moves ')[0]!, text.split(' moves ')[1]!.split(' ')] : [text, []];
  return game === 'chess' ? ChessSearchBoard.fromText(start, moves, chessEval).unwrap() : ShogiSearchBoard.fromText(start, moves, shogiEval).unwrap();
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const k = (x: number): string => `${Math.round(x / 1000)}k`;

/** One search from scratch: [wall nodes/s, CPU nodes/s]. */
const rate = (game: 'chess' | 'shogi', text: string, nodes: number): [number, number] => {
  const search = new AlphaBetaSearch(new TranspositionTable(64), searchOptions('tournament'));
  const board = boardOf(game, text);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = search.search(board, { nodes });
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0).user / 1e6;
  return [r.nodes / wall, r.nodes / cpu];
};

const benchNps = (): void => {
  console.log(`\n1. search speed, ${NODES} nodes per run, median of 3 (wall | CPU)`);
  for (const game of ['chess', 'shogi'] as const) {
    const positions = game === 'chess' ? CHESS_POSITIONS : SHOGI_POSITIONS;
    const walls: number[] = [];
    const cpus: number[] = [];
    rate(game, positions[0]!, 50_000); // warm-up
    for (const text of positions) {
      const runs = [0, 1, 2].map(() => rate(game, text, NODES));
      const w = median(runs.map((r) => r[0]));
      const c = median(runs.map((r) => r[1]));
      walls.push(w);
      cpus.push(c);
      console.log(`  ${game} ${text.slice(0, 40).padEnd(40)} ${k(w).padStart(6)} | ${k(c).padStart(6)} nodes/s`);
    }
    console.log(`  ${game} median over positions: ${k(median(walls))} wall | ${k(median(cpus))} CPU nodes/s`);
  }
};

const benchStop = async (): Promise<void> => {
  console.log('\n2. stop latency of the worker Player (go infinite, stop after 300 ms), median of 5');
  const config = { search: 'alphabeta' as const, hashMb: 64, moveOverheadMs: 0, chessWeights: 'models/chess-linear.json', shogiWeights: 'models/shogi-linear.json' };
  for (const game of ['chess', 'shogi'] as const) {
    const player = createAlphaBetaPlayer(config, game).unwrap();
    const lat: number[] = [];
    for (let i = 0; i < 5; i++) {
      const pending = player.go({ game, variant: 'standard', start: 'startpos', moves: i === 0 ? [] : [game === 'chess' ? 'e2e4' : '7g7f'], limits: { infinite: true } });
      await new Promise((r) => setTimeout(r, 300));
      const t0 = performance.now();
      player.stop();
      await pending;
      lat.push(performance.now() - t0);
    }
    await player.close();
    console.log(`  ${game}: median ${median(lat).toFixed(1)} ms, max ${Math.max(...lat).toFixed(1)} ms`);
  }
};

const benchTsume = (): void => {
  const budget = quick ? 20_000 : 100_000;
  console.log(`\n3. tsume, first 200 problems: alpha-beta at ${budget} nodes ("mate within N plies" found) | mate search (checks only)`);
  const mate = new MateSearch(16);
  for (const plies of [3, 5]) {
    const lines = readFileSync(join(SUITES, `tsume_mate-${plies}-ply.sfen`), 'utf8').split('\n').filter(Boolean).slice(0, 200);
    let ab = 0;
    let ms = 0;
    const c0 = process.cpuUsage();
    for (const sfen of lines) {
      const search = new AlphaBetaSearch(new TranspositionTable(16), searchOptions('tournament'));
      const r = search.search(boardOf('shogi', sfen), { nodes: budget });
      const mp = matePlies(r.score);
      if (mp > 0 && mp <= plies) ab++;
    }
    const abCpu = process.cpuUsage(c0).user / 1e6;
    const c1 = process.cpuUsage();
    for (const sfen of lines) {
      const r = mate.solve(boardOf('shogi', sfen), { nodes: 1_000_000, maxPlies: plies });
      if (r.kind === 'mate' && r.moves.length <= plies) ms++;
    }
    const msCpu = process.cpuUsage(c1).user / 1e6;
    console.log(`  ${plies}-ply: alpha-beta ${ab}/${lines.length} (${abCpu.toFixed(1)} s CPU) | mate search ${ms}/${lines.length} (${msCpu.toFixed(1)} s CPU)`);
  }
};

const benchWac = (): void => {
  const ms = option('--wac-ms', 1000);
  console.log(`\n4. WAC 300 at ${ms} ms per position (wall clock)`);
  const lines = readFileSync(join(SUITES, 'wac300.epd'), 'utf8').split('\n').filter(Boolean);
  let solved = 0;
  let first100 = 0;
  lines.forEach((line, i) => {
    const [, fen, ops] = /^(\S+ \S+ \S+ \S+) (.*)$/.exec(line)!;
    const bm = /bm ([^;]+);/.exec(ops!)![1]!.trim().split(/\s+/);
    const pos = Chess.fromSetup(parseFen(`${fen} 0 1`).unwrap()).unwrap();
    const best = bm.map((san) => makeUci(parseSan(pos, san)!));
    const search = new AlphaBetaSearch(new TranspositionTable(64), searchOptions('tournament'));
    const board = boardOf('chess', `${fen} 0 1`);
    const r = search.search(board, { hardMs: ms, softMs: ms * 2 });
    if (best.includes(board.moveToText(r.bestMove))) {
      solved++;
      if (i < 100) first100++;
    }
  });
  console.log(`  solved ${solved}/${lines.length} (first 100: ${first100})`);
};

benchNps();
await benchStop();
benchTsume();
if (flag('--wac')) benchWac();
