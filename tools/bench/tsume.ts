/**
 * Tsume (shogi mate problems, the 200 of each data/suites/tsume_mate-{3,5,7,9,11}-ply.sfen): how many
 * the alpha-beta search proves ("mate within N plies" at a fixed node budget; 3 and 5 plies) against
 * the dedicated mate search (checks only, src/search/alphabeta/mate-search.ts) on the same problems,
 * and the CPU seconds each took; then, at every length, `go mate`'s solver (df-pn, then the shortest
 * line: mate-solver.ts) against that mate search, problems solved at their length within 1M nodes
 * each and the nodes both spent. Counts, not speeds: a change that solves fewer at the same budget
 * shows here. (Chess suites such as Win At Chess run with `kishi suite`.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ShogiLinearEval } from '../../src/eval/linear/shogi-eval.js';
import { shogiMaterialTheta } from '../../src/eval/linear/material.js';
import { packageRoot } from '../../src/core/package-path.js';
import { MateSearch } from '../../src/search/alphabeta/mate-search.js';
import { MateSolver } from '../../src/search/alphabeta/mate-solver.js';
import { searchOptions } from '../../src/search/alphabeta/options.js';
import { matePlies } from '../../src/search/alphabeta/score.js';
import { AlphaBetaSearch } from '../../src/search/alphabeta/search.js';
import { ShogiSearchBoard } from '../../src/search/alphabeta/shogi-board.js';
import { TranspositionTable } from '../../src/search/alphabeta/tt.js';
import type { BenchModule, BenchRow } from './lib/measure.js';

const evaluator = new ShogiLinearEval(shogiMaterialTheta());
const board = (sfen: string): ShogiSearchBoard => ShogiSearchBoard.fromText(sfen, [], evaluator).unwrap();

/** Problems solved within `plies` by alpha-beta at `budget` nodes, against the mate search (CPU time of each). */
const alphaBetaRow = (plies: number, problems: readonly string[], budget: number, mate: MateSearch): BenchRow => {
  let ab = 0;
  const c0 = process.cpuUsage();
  for (const sfen of problems) {
    const r = new AlphaBetaSearch(new TranspositionTable(16), searchOptions('tournament')).search(board(sfen), { nodes: budget });
    const mp = matePlies(r.score);
    if (mp > 0 && mp <= plies) ab++;
  }
  const abCpu = process.cpuUsage(c0).user / 1e6;
  let ms = 0;
  const c1 = process.cpuUsage();
  for (const sfen of problems) {
    const r = mate.solve(board(sfen), { nodes: 1_000_000, maxPlies: plies });
    if (r.kind === 'mate' && r.moves.length <= plies) ms++;
  }
  const msCpu = process.cpuUsage(c1).user / 1e6;
  return {
    name: `tsume ${plies}-ply solved, alpha-beta ${budget} nodes`,
    ours: ab,
    baseline: ms,
    baselineName: 'mate search',
    unit: `of ${problems.length}`,
    reps: 1,
    note: `CPU ${abCpu.toFixed(1)} s vs ${msCpu.toFixed(1)} s`,
  };
};

/** Problems solved at their length by `go mate`'s solver (no ply limit), against the mate search (nodes of each). */
const solverRow = (plies: number, problems: readonly string[], solver: MateSolver, mate: MateSearch): BenchRow => {
  let dfpn = 0;
  let dfpnNodes = 0;
  let ms = 0;
  let msNodes = 0;
  for (const sfen of problems) {
    const r = solver.solve(board(sfen), { nodes: 1_000_000 });
    dfpnNodes += r.nodes;
    if (r.kind === 'mate' && r.moves.length <= plies) dfpn++;
    const m = mate.solve(board(sfen), { nodes: 1_000_000, maxPlies: plies });
    msNodes += m.nodes;
    if (m.kind === 'mate' && m.moves.length <= plies) ms++;
  }
  return {
    name: `tsume ${plies}-ply solved, df-pn + shortest line`,
    ours: dfpn,
    baseline: ms,
    baselineName: 'mate search',
    unit: `of ${problems.length}`,
    reps: 1,
    note: `nodes ${dfpnNodes} vs ${msNodes}`,
  };
};

export const bench: BenchModule = {
  name: 'tsume',
  description: 'tsume 3-11 ply solved: alpha-beta at a node budget, df-pn + shortest line and the mate search',
  async run(ctx) {
    const rows: BenchRow[] = [];
    const budget = ctx.quick ? 20_000 : 100_000;
    const count = ctx.quick ? 50 : 200;
    const mate = new MateSearch(16);
    const solver = new MateSolver(16);
    for (const plies of [3, 5, 7, 9, 11]) {
      const file = join(packageRoot(), 'data', 'suites', `tsume_mate-${plies}-ply.sfen`);
      const problems = readFileSync(file, 'utf8').split('\n').filter(Boolean).slice(0, count);
      ctx.log(`tsume ${plies}-ply: ${problems.length} problems`);
      // Alpha-beta only where it can reach the mates at a bench's budget.
      if (plies <= 5) rows.push(alphaBetaRow(plies, problems, budget, mate));
      rows.push(solverRow(plies, problems, solver, mate));
    }
    return rows;
  },
};
