import { readFileSync } from 'node:fs';
import { parseFen } from 'chessops/fen';
import { Chess } from 'chessops/chess';
import { parseSan } from 'chessops/san';
import { makeUci } from 'chessops/util';
import { ChessLinearEval } from '../src/eval/linear/chess-eval.js';
import { chessMaterialTheta } from '../src/eval/linear/material.js';
import { ChessSearchBoard } from '../src/search/alphabeta/chess-board.js';
import { AlphaBetaSearch } from '../src/search/alphabeta/search.js';
import { TranspositionTable } from '../src/search/alphabeta/tt.js';
import { searchOptions } from '../src/search/alphabeta/options.js';

const nodes = Number(process.argv[2] ?? 50000);
const count = Number(process.argv[3] ?? 100);
const mode = (process.argv[4] ?? 'tournament') as 'tournament';
const lines = readFileSync('/work/shared/data/chess/wac300.epd', 'utf8').split('\n').filter(Boolean).slice(0, count);
const ev = new ChessLinearEval(chessMaterialTheta());
const tt = new TranspositionTable(16);
let solved = 0, totalNodes = 0, totalMs = 0;
const failed: string[] = [];
for (const line of lines) {
  const m = /^(\S+ \S+ \S+ \S+) (.*)$/.exec(line)!;
  const fen = m[1] + ' 0 1';
  const bm = /bm ([^;]+);/.exec(m[2])![1].trim().split(/\s+/);
  const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  const bmUci = bm.map((san) => { const mv = parseSan(pos, san); return mv ? makeUci(mv) : '?'; });
  const sb = ChessSearchBoard.fromText(fen, [], ev).unwrap();
  tt.clear();
  const s = new AlphaBetaSearch(tt, searchOptions(mode));
  const c0 = process.cpuUsage();
  const r = s.search(sb, { nodes });
  totalMs += process.cpuUsage(c0).user / 1000;
  totalNodes += r.nodes;
  const mv = sb.moveToText(r.bestMove);
  if (bmUci.includes(mv)) solved++; else failed.push(`${/id "([^"]+)"/.exec(line)?.[1]} got ${mv} want ${bmUci} d${r.depth} s${r.score}`);
}
console.log(`solved ${solved}/${lines.length} nodes ${totalNodes} nps ${Math.round(totalNodes / totalMs * 1000)}`);
console.log(failed.join('\n'));
