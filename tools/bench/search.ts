/**
 * Search speed: Kishi's alpha-beta (material evaluation, one thread, fixed node budget) in nodes/s
 * against Stockfish (chess) and fairy-stockfish (shogi) at `go nodes` on the same positions, one
 * thread each, measured in the same run (wall time from `go` to `bestmove`). The engines' nodes are
 * not ours (NNUE vs a linear evaluation), so the ratio says how far we are, not who searches better.
 */
import { existsSync } from 'node:fs';
import { ChessLinearEval } from '../../src/eval/linear/chess-eval.js';
import { ShogiLinearEval } from '../../src/eval/linear/shogi-eval.js';
import { chessMaterialTheta, shogiMaterialTheta } from '../../src/eval/linear/material.js';
import { ChessSearchBoard } from '../../src/search/alphabeta/chess-board.js';
import { ShogiSearchBoard } from '../../src/search/alphabeta/shogi-board.js';
import type { SearchBoard } from '../../src/search/alphabeta/search-board.js';
import type { GameKind } from '../../src/core/game.js';
import { EngineClient } from '../../src/engines/engine-client.js';
import type { BenchModule, BenchRow } from './lib/measure.js';
import { rateRow } from './lib/measure.js';
import { positionLabel, searchRates } from './lib/search.js';

const CHESS = ['startpos', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 'r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1QBPPP/R3KB1R w KQ - 0 1'];
const SHOGI = ['startpos', 'ln1g3nl/1r1sg1k2/p1pppsbpp/1p3pp2/7P1/2P1P1P2/PPBP1P2P/2S1GS1R1/LN1GK2NL b - 1'];
const ENGINES: Record<GameKind, string> = { chess: '/usr/games/stockfish', shogi: '/usr/games/fairy-stockfish' };

/** The engine's nodes/s at `go nodes`, fresh hash each rep. */
async function theirs(engine: EngineClient, start: string, nodes: number, reps: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < reps; i++) {
    await engine.newGame();
    const r = await engine.go({ start, moves: [], nodes, deadlineMs: 120_000 });
    if (r.kind !== 'move' || r.info === undefined) throw new Error(`${engine.name}: no search result (${r.kind})`);
    out.push(r.info.nodes / (r.elapsedMs / 1000));
  }
  return out;
}

export const bench: BenchModule = {
  name: 'search',
  description: 'alpha-beta nodes/s (material eval) vs Stockfish / fairy-stockfish at go nodes',
  async run(ctx) {
    const rows: BenchRow[] = [];
    const budget = ctx.quick ? 50_000 : 500_000;
    for (const game of ['chess', 'shogi'] as const) {
      const path = ENGINES[game];
      const engine = existsSync(path)
        ? (await EngineClient.start({ spec: { command: path, args: [], options: { Threads: '1', Hash: '64' }, time: {}, kishi: false }, game })).unwrap()
        : undefined;
      try {
        const positions = game === 'chess' ? CHESS : SHOGI;
        for (const text of positions) {
          const label = positionLabel(text);
          ctx.log(`search ${game} ${label} ${budget} nodes`);
          const make = (): SearchBoard =>
            game === 'chess'
              ? ChessSearchBoard.fromText(text, [], new ChessLinearEval(chessMaterialTheta())).unwrap()
              : ShogiSearchBoard.fromText(text, [], new ShogiLinearEval(shogiMaterialTheta())).unwrap();
          searchRates(make, Math.min(budget, 20_000), 1); // warm-up
          const a = searchRates(make, budget, ctx.reps);
          const b = engine !== undefined ? await theirs(engine, text === 'startpos' ? 'startpos' : text, budget, ctx.reps) : undefined;
          rows.push(rateRow(`search ${game} ${label}`, 'knodes/s', 1e-3, a, b, engine?.name ?? undefined));
        }
      } finally {
        await engine?.close();
      }
    }
    return rows;
  },
};
