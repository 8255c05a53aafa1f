/**
 * Stop latency of the worker-thread Player: `go infinite` from the start position (and one ply in),
 * `stop` after 300 ms, milliseconds until the answer; median of the reps per game. The Player port
 * promises 50 ms (src/player/player.ts `stop`).
 */
import { performance } from 'node:perf_hooks';
import { createAlphaBetaPlayer } from '../../src/player/factory.js';
import type { BenchModule, BenchRow } from './lib/measure.js';
import { rateRow } from './lib/measure.js';

export const bench: BenchModule = {
  name: 'stop-latency',
  description: 'ms from Player.stop() to the answer of a go infinite (alpha-beta worker)',
  async run(ctx) {
    const rows: BenchRow[] = [];
    const config = { search: 'alphabeta' as const, hashMb: 64, moveOverheadMs: 0, chessWeights: 'models/chess-linear.json', shogiWeights: 'models/shogi-linear.json' };
    for (const game of ['chess', 'shogi'] as const) {
      const player = createAlphaBetaPlayer(config, game).unwrap();
      const latencies: number[] = [];
      try {
        for (let i = 0; i < ctx.reps; i++) {
          const pending = player.go({ game, variant: 'standard', start: 'startpos', moves: i % 2 === 0 ? [] : [game === 'chess' ? 'e2e4' : '7g7f'], limits: { infinite: true } });
          await new Promise((r) => setTimeout(r, 300));
          const t0 = performance.now();
          player.stop();
          await pending;
          latencies.push(performance.now() - t0);
        }
      } finally {
        await player.close();
      }
      ctx.log(`stop latency ${game}: ${latencies.map((x) => x.toFixed(1)).join(' ')} ms`);
      rows.push({ ...rateRow(`stop latency ${game}`, 'ms', 1, latencies), higherIsBetter: false });
    }
    return rows;
  },
};
