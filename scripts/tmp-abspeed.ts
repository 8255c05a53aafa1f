import { AlphaBetaEngine, SIGNAL_WORDS } from '../src/player/alphabeta-engine.js';
import { loadWeightsFile } from '../src/player/weights-file.js';
for (const game of ['chess', 'shogi'] as const) {
  const w = loadWeightsFile(game === 'chess' ? 'models/chess-linear.json' : 'models/shogi-linear.json', game).unwrap();
  const e = new AlphaBetaEngine({ game, theta: w.theta, hashMb: 16, moveOverheadMs: 0 });
  const signal = new Int32Array(new SharedArrayBuffer(4 * SIGNAL_WORDS));
  const moves = game === 'chess' ? ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5', 'a7a6'] : ['7g7f', '3c3d', '2g2f', '8c8d'];
  for (const nodes of [2000, 5000, 10000, 20000, 5000, 20000]) {
    const t0 = performance.now();
    const r = e.go({ game, variant: 'standard', start: 'startpos', moves, limits: { nodes } }, signal).unwrap();
    console.log(game, nodes, (performance.now() - t0).toFixed(0), 'ms', r.move, JSON.stringify(r.info?.score), r.info?.depth, r.info?.nodes);
  }
}
