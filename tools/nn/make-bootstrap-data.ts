/**
 * Bootstrap data for the first nets (issue "AlphaZero-style MCTS", item 5): self-play games of
 * the alpha-beta engine at a fixed node budget per move, every position labelled with the
 * engine's choice (one-hot policy target) and score (value target), plus the game result.
 * Written as training chunks (src/nn/training-chunk.ts) with `meta.phase = "bootstrap-alphabeta"`,
 * so later training can tell these records from self-play ones.
 *
 * Diversity: chess games start from a random line of data/openings/chess-balanced.epd, shogi games
 * from the start position; the first few plies of each game (random count) are random legal moves
 * and 3% of later moves are random too (the label stays the engine's move). Games end by the rules,
 * at a ply limit (draw), or by adjudication when the engine's value stays beyond +-0.95 for 8
 * plies. Deterministic for a seed (node-limited searches).
 *
 *   npx tsc -p . && node dist/tools/nn/make-bootstrap-data.js --game chess --positions 30000 \
 *     --nodes 4000 --out records/nn/chess-bootstrap --seed 1
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import type { GameKind } from '../../src/core/game.js';
import { bootstrapOpenings } from '../../src/learning/alphazero/loop-bootstrap.js';
import { scoreToValue } from '../../src/learning/alphazero/value-target.js';
import { ChunkWriter, type ChunkRecord } from '../../src/nn/training-chunk.js';
import { AlphaBetaEngine, SIGNAL_WORDS } from '../../src/player/alphabeta-engine.js';
import { loadNnueFile } from '../../src/player/nnue-file.js';
import { loadWeightsFile } from '../../src/player/weights-file.js';
import { ChessMctsBoard } from '../../src/search/mcts/chess-mcts-board.js';
import type { MctsBoard } from '../../src/search/mcts/mcts-board.js';
import { Rng } from '../../src/search/mcts/rng.js';
import { ShogiMctsBoard } from '../../src/search/mcts/shogi-mcts-board.js';

const program = new Command()
  .requiredOption('--game <game>', 'chess | shogi')
  .option('--positions <n>', 'positions to write', '30000')
  .option('--nodes <n>', 'alpha-beta nodes per move', '4000')
  .option('--out <dir>', 'output directory', '')
  .option('--seed <n>', 'random seed', '1')
  .option('--chunk <n>', 'positions per chunk file', '5000')
  .option('--max-plies <n>', 'plies before a game is a draw', '')
  .option('--nnue <file>', 'label with this network evaluation instead of the linear one', '')
  .parse();
const opts = program.opts<{ game: string; positions: string; nodes: string; out: string; seed: string; chunk: string; maxPlies: string; nnue: string }>();
const game = opts.game as GameKind;
if (game !== 'chess' && game !== 'shogi') throw new Error(`--game chess|shogi, not ${opts.game}`);
const target = Number(opts.positions);
const nodes = Number(opts.nodes);
const chunkSize = Number(opts.chunk);
const maxPlies = opts.maxPlies !== '' ? Number(opts.maxPlies) : game === 'chess' ? 300 : 320;
const outDir = opts.out !== '' ? opts.out : join('records', 'nn', `${game}-bootstrap`);
mkdirSync(outDir, { recursive: true });
const rng = new Rng(Number(opts.seed));

const weights = loadWeightsFile(game === 'chess' ? 'models/chess-linear.json' : 'models/shogi-linear.json', game).unwrap();
const loadedNet = opts.nnue !== '' ? loadNnueFile(opts.nnue, game) : undefined;
if (loadedNet?.isErr === true) {
  console.error(`make-bootstrap-data: ${loadedNet.error.message}`);
  process.exit(2);
}
const nnue = loadedNet?.unwrap().net;
const engine = new AlphaBetaEngine({ game, theta: weights.theta, hashMb: 32, moveOverheadMs: 0, ...(nnue !== undefined ? { nnue } : {}) });
const signal = new Int32Array(new SharedArrayBuffer(4 * SIGNAL_WORDS));

const openings = bootstrapOpenings(game);


const makeBoard = (start: string): MctsBoard =>
  game === 'chess' ? ChessMctsBoard.fromText(start, []).unwrap() : ShogiMctsBoard.fromText(start, []).unwrap();

const spec = makeBoard('startpos').spec;
const meta = { phase: 'bootstrap-alphabeta', nodes, seed: Number(opts.seed), eval: nnue !== undefined ? 'nnue' : 'linear', generator: 'tools/nn/make-bootstrap-data.ts' };
let writer = new ChunkWriter(spec, meta);
let chunkNo = 0;
let written = 0;
let games = 0;
const results = { first: 0, second: 0, draw: 0, adjudicated: 0 };
const started = performance.now();
const flush = (): void => {
  if (writer.count === 0) return;
  const file = join(outDir, `${String(Number(opts.seed)).padStart(3, '0')}-${String(chunkNo++).padStart(4, '0')}.knr`);
  writeFileSync(file, writer.toBytes());
  writer = new ChunkWriter(spec, meta);
};

const list = new Int32Array(600);
while (written < target) {
  const start = openings[Math.floor(rng.next() * openings.length)]!;
  const board = makeBoard(start);
  const moves: string[] = [];
  const randomPlies = game === 'chess' ? Math.floor(rng.next() * 5) : 2 + Math.floor(rng.next() * 9);
  engine.newGame();
  const records: { rec: Omit<ChunkRecord, 'result'>; side: number }[] = [];
  let resultFirst = 0; // game result from the first player's view
  let extreme = 0;
  for (let ply = 0; ; ply++) {
    const n = board.generate(list);
    const tv = board.gameResult(n);
    if (!Number.isNaN(tv) && ply > 0) {
      resultFirst = board.sideToMove() === 0 ? tv : -tv;
      break;
    }
    if (n === 0 || ply >= maxPlies) break;
    const r = engine.go({ game, variant: 'standard', start, moves, limits: { nodes } }, signal).unwrap();
    if (r.move === 'resign' || r.move === 'win') {
      resultFirst = (r.move === 'win' ? 1 : -1) * (board.sideToMove() === 0 ? 1 : -1);
      break;
    }
    const best = board.parseMove(r.move);
    if (best === 0) throw new Error(`engine move ${r.move} not legal in ${board.toText()}`);
    const score = r.info?.score;
    const value = score === undefined ? NaN : scoreToValue(game, score);
    const planes = new Float32Array(board.spec.inputSize);
    board.encode(planes, 0);
    const indices = new Int32Array(n);
    board.moveIndices(list, n, indices);
    const policy = new Float32Array(n);
    policy[list.subarray(0, n).indexOf(best)] = 1;
    records.push({ rec: { planes, moveIndices: indices, policy, value, text: `${board.toText()}|moves=${moves.length}` }, side: board.sideToMove() });
    if (Math.abs(value) >= 0.95) {
      const s = Math.sign(board.sideToMove() === 0 ? value : -value);
      extreme = Math.sign(extreme) === s ? extreme + s : s;
      if (Math.abs(extreme) >= 8) {
        resultFirst = Math.sign(extreme);
        results.adjudicated++;
        break;
      }
    } else extreme = 0;
    const move = ply < randomPlies || rng.next() < 0.03 ? list[Math.floor(rng.next() * n)]! : best;
    moves.push(board.moveToText(move));
    board.make(move);
  }
  games++;
  if (resultFirst > 0) results.first++;
  else if (resultFirst < 0) results.second++;
  else results.draw++;
  for (const { rec, side } of records) {
    if (written >= target) break;
    writer.add({ ...rec, result: side === 0 ? resultFirst : -resultFirst });
    written++;
    if (writer.count >= chunkSize) flush();
  }
  if (games % 10 === 0) {
    const s = (performance.now() - started) / 1000;
    console.log(`${game}: ${games} games, ${written} positions, ${(written / s).toFixed(1)} pos/s, results ${JSON.stringify(results)}`);
  }
}
flush();
const s = (performance.now() - started) / 1000;
console.log(`done: ${game} ${games} games, ${written} positions in ${s.toFixed(0)} s, results ${JSON.stringify(results)}`);
