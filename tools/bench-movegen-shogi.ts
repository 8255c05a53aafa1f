/**
 * Benchmark of the internal shogi move generator (src/games/shogi/fast) against shogiops.
 *
 *   npx tsc -p . && node dist/tools/bench-movegen-shogi.js [--runs 3] [--no-shogiops]
 *
 * For each case it prints the leaf count and the median nodes/s of `--runs` runs for:
 * - fast:          FastShogiBoard.perft (make/unmake, bulk counting at the last ply), also as
 *                  microseconds per generated move list;
 * - fast-no-bulk:  the same without bulk counting (every leaf move made and unmade);
 * - shogiops-bulk: shogiops with clone/play and the same bulk counting (legal-move lists counted
 *                  with promotion options at the last ply, one `ctx()` per list), i.e. the
 *                  move-list speed a search over shogiops gets;
 * - shogiops:      shogiops' own `perft` from shogiops/debug (plays every leaf), startpos d3 only
 *                  because it is too slow beyond that.
 * Counts must agree between all of them; the script exits 1 otherwise.
 */
import { performance } from 'node:perf_hooks';
import { perft as shogiopsPerft } from 'shogiops/debug';
import { parseSfen } from 'shogiops/sfen';
import type { Role } from 'shogiops/types';
import type { Shogi } from 'shogiops/variant/shogi';
import { pieceCanPromote, pieceForcePromote } from 'shogiops/variant/util';
import { FastShogiBoard, newMoveList } from '../src/games/shogi/fast/index.js';

const STARTPOS = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
const MATSURI = 'l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1';

interface Case {
  readonly name: string;
  readonly sfen: string;
  readonly depth: number;
  readonly shogiopsFull: boolean;
}

const CASES: readonly Case[] = [
  { name: 'startpos d3', sfen: STARTPOS, depth: 3, shogiopsFull: true },
  { name: 'startpos d4', sfen: STARTPOS, depth: 4, shogiopsFull: false },
  { name: 'matsuri d3', sfen: MATSURI, depth: 3, shogiopsFull: false },
];

const canPromote = pieceCanPromote('standard');
const forcePromote = pieceForcePromote('standard');

/** Legal moves of a shogiops position counted with promotion options, as its perft counts them. */
const countMoves = (pos: Shogi): number => {
  const ctx = pos.ctx();
  let n = 0;
  for (const [from, dests] of pos.allMoveDests(ctx)) {
    const piece = pos.board.get(from)!;
    for (const to of dests) {
      if (canPromote(piece, from, to, pos.board.get(to))) n += forcePromote(piece, to) ? 1 : 2;
      else n += 1;
    }
  }
  for (const [, dests] of pos.allDropDests(ctx)) n += dests.size();
  return n;
};

/** shogiops perft with bulk counting at the last ply (clone + play above it). */
const shogiopsBulk = (pos: Shogi, depth: number): number => {
  if (depth === 1) return countMoves(pos);
  const ctx = pos.ctx();
  let nodes = 0;
  for (const [from, dests] of pos.allMoveDests(ctx)) {
    const piece = pos.board.get(from)!;
    for (const to of dests) {
      const promotable = canPromote(piece, from, to, pos.board.get(to));
      const options = promotable ? (forcePromote(piece, to) ? [true] : [true, false]) : [false];
      for (const promotion of options) {
        const child = pos.clone();
        child.play({ from, to, promotion });
        nodes += shogiopsBulk(child, depth - 1);
      }
    }
  }
  for (const [name, dests] of pos.allDropDests(ctx)) {
    const role = name.split(' ')[1] as Role;
    for (const to of dests) {
      const child = pos.clone();
      child.play({ role, to });
      nodes += shogiopsBulk(child, depth - 1);
    }
  }
  return nodes;
};

/** Perft without bulk counting: every leaf move is made and unmade too. */
const perftNoBulk = (board: FastShogiBoard, depth: number, lists: Int32Array[]): number => {
  if (depth === 0) return 1;
  const list = lists[depth]!;
  const n = board.generateMoves(list);
  let nodes = 0;
  for (let i = 0; i < n; i++) {
    board.makeMove(list[i]!);
    nodes += perftNoBulk(board, depth - 1, lists);
    board.unmakeMove();
  }
  return nodes;
};

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const timeRuns = (runs: number, fn: () => number): { nodes: number; seconds: number } => {
  const times: number[] = [];
  let nodes = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    nodes = fn();
    times.push((performance.now() - t0) / 1000);
  }
  return { nodes, seconds: median(times) };
};

const fmt = (nodes: number, seconds: number): string => {
  const rate = Math.round(nodes / seconds).toLocaleString('en-US');
  return `${String(nodes).padStart(9)} nodes  ${seconds.toFixed(3).padStart(8)} s  ${rate.padStart(12)} nodes/s`;
};
const ratio = (slow: number, fast: number): string => `(fast is ${(slow / fast).toFixed(1)}x)`;

const main = (): void => {
  const args = process.argv.slice(2);
  const runsArg = args.indexOf('--runs');
  const runs = runsArg >= 0 ? Number(args[runsArg + 1]) : 3;
  const withShogiops = !args.includes('--no-shogiops');
  let ok = true;
  console.log(`node ${process.version}, median of ${runs} runs`);
  // Warm-up so the first case is not charged for JIT compilation.
  FastShogiBoard.fromSfen(STARTPOS).unwrap().perft(3);
  for (const c of CASES) {
    const board = FastShogiBoard.fromSfen(c.sfen).unwrap();
    // Move lists generated with bulk counting: one per node above the last ply.
    let lists = 0;
    for (let d = 0; d < c.depth; d++) lists += board.perft(d);
    const perList = (seconds: number): string => `${((seconds / lists) * 1e6).toFixed(2)} us/list`;
    const fast = timeRuns(runs, () => board.perft(c.depth));
    console.log(`${c.name.padEnd(12)} fast          ${fmt(fast.nodes, fast.seconds)}  ${perList(fast.seconds)}`);
    const noBulkLists = Array.from({ length: c.depth + 1 }, newMoveList);
    const noBulk = timeRuns(runs, () => perftNoBulk(board, c.depth, noBulkLists));
    console.log(`${c.name.padEnd(12)} fast-no-bulk  ${fmt(noBulk.nodes, noBulk.seconds)}  (every leaf made and unmade)`);
    if (noBulk.nodes !== fast.nodes) ok = false;
    if (!withShogiops) continue;
    const pos = parseSfen('standard', c.sfen, true).unwrap() as Shogi;
    const bulk = timeRuns(runs, () => shogiopsBulk(pos, c.depth));
    console.log(
      `${c.name.padEnd(12)} shogiops-bulk ${fmt(bulk.nodes, bulk.seconds)}  ${perList(bulk.seconds)}  ${ratio(bulk.seconds, fast.seconds)}`,
    );
    if (bulk.nodes !== fast.nodes) ok = false;
    if (c.shogiopsFull) {
      const full = timeRuns(runs, () => shogiopsPerft(pos, c.depth));
      console.log(`${c.name.padEnd(12)} shogiops      ${fmt(full.nodes, full.seconds)}  ${ratio(full.seconds, fast.seconds)}`);
      if (full.nodes !== fast.nodes) ok = false;
    }
  }
  if (!ok) {
    console.log('MISMATCH between fast and shogiops counts');
    process.exitCode = 1;
  }
};

main();
