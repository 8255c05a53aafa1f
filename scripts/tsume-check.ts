import { readFileSync } from 'node:fs';
import { ShogiLinearEval } from '../src/eval/linear/shogi-eval.js';
import { shogiMaterialTheta } from '../src/eval/linear/material.js';
import { ShogiSearchBoard } from '../src/search/alphabeta/shogi-board.js';
import { AlphaBetaSearch } from '../src/search/alphabeta/search.js';
import { TranspositionTable } from '../src/search/alphabeta/tt.js';
import { searchOptions } from '../src/search/alphabeta/options.js';
import { matePlies } from '../src/search/alphabeta/score.js';
const file = process.argv[2] ?? '/work/shared/data/shogi/tsume_mate-3-ply.sfen';
const count = Number(process.argv[3] ?? 200);
const nodes = Number(process.argv[4] ?? 20000);
const plies = Number(process.argv[5] ?? 3);
const mode = (process.argv[6] ?? 'tournament') as 'tournament';
const sev = new ShogiLinearEval(shogiMaterialTheta());
const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).slice(0, count);
let solved = 0, total = 0;
const c0 = process.cpuUsage();
const fails: string[] = [];
for (const sfen of lines) {
  const sb = ShogiSearchBoard.fromText(sfen, [], sev).unwrap();
  const s = new AlphaBetaSearch(new TranspositionTable(8), searchOptions(mode));
  const r = s.search(sb, { nodes });
  total += r.nodes;
  const mp = matePlies(r.score);
  if (mp > 0 && mp <= plies) solved++; else fails.push(`${sfen} -> ${sb.moveToText(r.bestMove)} ${r.score} d${r.depth} n${r.nodes}`);
}
const ms = process.cpuUsage(c0).user / 1000;
console.log(`solved ${solved}/${lines.length} nodes ${total} cpu ${Math.round(ms)}ms nps ${Math.round(total / ms * 1000)}`);
console.log(fails.slice(0, 10).join('\n'));
