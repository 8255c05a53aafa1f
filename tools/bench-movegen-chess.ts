/**
 * Benchmark of the internal chess move generator (`src/games/chess/fast/`) against chessops.
 *
 *   npx tsc -p . && node dist/tools/bench-movegen-chess.js [--runs 3]
 *
 * For startpos depth 5 and Kiwipete depth 4 it prints the median over the runs of:
 * - internal perft with bulk counting (`FastChessBoard.perft`: leaves counted, not made);
 * - internal perft making every leaf (generate + make/unmake at every node, as a search does);
 * - chessops `perft(pos, depth, false)` (clone + play per node, leaf dests counted).
 */
import { Chess } from 'chessops/chess';
import { perft as chessopsPerft } from 'chessops/debug';
import { parseFen } from 'chessops/fen';
import { FastChessBoard } from '../src/games/chess/fast/index.js';

const CASES = [
  { name: 'startpos d5', fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', depth: 5, nodes: 4865609 },
  { name: 'kiwipete d4', fen: 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', depth: 4, nodes: 4085603 },
];

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg >= 0 ? Number(process.argv[runsArg + 1]) : 3;

/** Perft that makes and unmakes every move down to the leaves (no bulk counting). */
const perftMakeAll = (board: FastChessBoard, depth: number, lists: Int32Array[]): number => {
  if (depth === 0) return 1;
  const list = lists[depth]!;
  const n = board.generateMoves(list);
  let nodes = 0;
  for (let i = 0; i < n; i++) {
    board.makeMove(list[i]!);
    nodes += perftMakeAll(board, depth - 1, lists);
    board.unmakeMove();
  }
  return nodes;
};

/** Median nodes per second of `run` over RUNS runs; checks the node count every time. */
const measure = (expected: number, run: () => number): number => {
  const rates: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    const nodes = run();
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    if (nodes !== expected) throw new Error(`perft returned ${nodes}, expected ${expected}`);
    rates.push(nodes / seconds);
  }
  rates.sort((a, b) => a - b);
  return rates[Math.floor(rates.length / 2)]!;
};

const mnps = (rate: number): string => `${(rate / 1e6).toFixed(2)}M nodes/s`;

console.log(`node ${process.version}, median of ${RUNS} runs`);
for (const c of CASES) {
  const board = FastChessBoard.fromFen(c.fen).unwrap();
  const lists = Array.from({ length: c.depth + 1 }, () => new Int32Array(256));
  const pos = Chess.fromSetup(parseFen(c.fen).unwrap()).unwrap();
  board.perft(c.depth - 1); // warm-up
  const bulk = measure(c.nodes, () => board.perft(c.depth));
  const full = measure(c.nodes, () => perftMakeAll(board, c.depth, lists));
  const ref = measure(c.nodes, () => chessopsPerft(pos, c.depth, false));
  console.log(
    `${c.name} (${c.nodes} nodes): internal bulk ${mnps(bulk)}, internal make-all ${mnps(full)}, ` +
      `chessops ${mnps(ref)}; bulk/chessops ${(bulk / ref).toFixed(1)}x`,
  );
}
