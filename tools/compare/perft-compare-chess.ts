/**
 * Benchmark: perft of the chess adapter (`src/games/chess/perft.ts`) against chessops' own
 * `debug.perft` on the same positions, checking that both agree with the published counts.
 *
 *   npx tsc -p tsconfig.json; node dist/tools/compare/perft-compare-chess.js [repetitions]
 *
 * Prints, per position, the best wall time of each implementation and its leaf nodes per second.
 */
import { ChessGame } from '../../src/games/chess/chess-game.js';
import { chessopsPerft, perft } from '../../src/games/chess/perft.js';

const CASES: readonly (readonly [name: string, fen: string, depth: number, nodes: number])[] = [
  ['startpos', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 5, 4865609],
  ['kiwipete', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 4, 4085603],
  ['position-3', '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', 5, 674624],
];

const time = (run: () => number, expected: number): number => {
  const start = process.hrtime.bigint();
  const nodes = run();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (nodes !== expected) throw new Error(`perft returned ${nodes}, expected ${expected}`);
  return ms;
};

const repetitions = Number(process.argv[2] ?? 3);
for (const [name, fen, depth, nodes] of CASES) {
  const game = ChessGame.fromFen(fen).unwrap();
  let ours = Infinity;
  let theirs = Infinity;
  for (let i = 0; i < repetitions; i++) {
    ours = Math.min(ours, time(() => perft(game, depth), nodes));
    theirs = Math.min(theirs, time(() => chessopsPerft(game, depth), nodes));
  }
  const nps = (ms: number): string => `${((nodes / ms) * 1000 / 1e6).toFixed(2)} M nodes/s`;
  console.log(
    `${name} d${depth} (${nodes} nodes): kishi ${ours.toFixed(0)} ms, ${nps(ours)}; ` +
      `chessops debug.perft ${theirs.toFixed(0)} ms, ${nps(theirs)}; ratio ${(theirs / ours).toFixed(2)}x`,
  );
}
