/**
 * What Dyna-2's short-term memory holds as a game goes on (docs/experiments/2026-11-29-td-search.md,
 * section 4): the engine plays itself with `search: dyna2` (the shipped linear features and network,
 * fixed nodes a move, the memory kept between moves as the default `tdCarry 1`) and prints, every
 * few plies, the move, the score and the largest short-term weights.
 *
 *   npx vite-node tools/td-memory.ts -- --game chess --step 0.03 --lambda 0.4 [--quiet] [--simulations 100] [--nodes 10000] [--plies 60] [--every 6]
 */
import { parseArgs } from 'node:util';
import { TD_DEFAULTS } from '../src/config/sections/engine.js';
import type { GameKind } from '../src/core/game.js';
import { parseNetwork } from '../src/eval/nnue/format.js';
import { AlphaBetaEngine } from '../src/player/alphabeta-engine.js';
import { loadNnueFile } from '../src/player/nnue-file.js';
import { loadWeightsFile } from '../src/player/weights-file.js';

const { values } = parseArgs({
  options: {
    game: { type: 'string', default: 'chess' },
    step: { type: 'string', default: String(TD_DEFAULTS.stepSize) },
    lambda: { type: 'string', default: String(TD_DEFAULTS.lambda) },
    quiet: { type: 'boolean', default: false },
    simulations: { type: 'string', default: '100' },
    nodes: { type: 'string', default: '10000' },
    plies: { type: 'string', default: '60' },
    every: { type: 'string', default: '6' },
  },
});
const game = values.game as GameKind;
const theta = loadWeightsFile(`models/${game}-linear.json`, game).unwrap().theta;
const nnue = parseNetwork(loadNnueFile(`models/${game}-nnue.bin`, game).unwrap().bytes, `models/${game}-nnue.bin`).unwrap();
const engine = new AlphaBetaEngine({
  game,
  theta,
  nnue,
  hashMb: 16,
  moveOverheadMs: 0,
  dyna2: { ...TD_DEFAULTS, simulations: Number(values.simulations), stepSize: Number(values.step), lambda: Number(values.lambda), quiet: values.quiet },
});
const signal = new Int32Array(new SharedArrayBuffer(8));
const moves: string[] = [];
for (let ply = 0; ply < Number(values.plies); ply++) {
  let summary = '';
  let score = '';
  const r = engine.go({ game, variant: 'standard', start: 'startpos', moves, limits: { nodes: Number(values.nodes) } }, signal, (info) => {
    if (info.string !== undefined) summary = info.string;
    score = 'mate' in info.score ? `mate ${info.score.mate}` : `cp ${info.score.cp}`;
  });
  if (r.isErr) throw r.error;
  const move = r.value.move;
  if (move === 'resign' || move === 'win') break;
  if (ply % Number(values.every) === 0) console.log(`ply ${ply} ${move} ${score} ${summary.replace(/^td search: .*? touched; /, '')}`);
  moves.push(move);
}
