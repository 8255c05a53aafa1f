/**
 * The gate's draw score and per-engine nets: `gateEnv` sets `KISHI_MCTS_DRAW_SCORE` only for a
 * non-zero draw score (and never inherits one), the engine spec names each net through
 * `/usr/bin/env KISHI_MCTS_MODEL=...` (besides the side's config), the MCTS player factory reads
 * both variables, and the config's `mctsDrawScore` (per cent) when the variable is unset.
 */
import { describe, expect, test } from 'vitest';
import { gateEngineSpec, gateEnv, type GateConfig } from '../../../src/learning/alphazero/gate.js';
import { createMctsPlayer, drawScoreFromEnv, modelPathOf } from '../../../src/player/mcts-factory.js';

const cfg: GateConfig = { mode: 'fixed', games: 40, playouts: 32, sprt: '', threshold: 0.55, concurrency: 2 };

describe('gate draw score', () => {
  test('gateEnv', () => {
    expect(gateEnv({ ...cfg, drawScore: -0.1 }, { PATH: '/bin' })).toEqual({ PATH: '/bin', KISHI_MCTS_DRAW_SCORE: '-0.1' });
    expect(gateEnv({ ...cfg, drawScore: 0 }, { PATH: '/bin', KISHI_MCTS_DRAW_SCORE: '-0.5' })).toEqual({ PATH: '/bin' });
    expect(gateEnv(cfg, { PATH: '/bin' })).toEqual({ PATH: '/bin' });
  });

  test('engine spec names the net per engine', () => {
    expect(gateEngineSpec('best', 'chess', '/n/b.onnx', '/g/b.yaml', '/k/bin/kishi.js', '/usr/bin/node')).toBe(
      'name=best,cmd=/usr/bin/env,args=KISHI_MCTS_MODEL=/n/b.onnx /usr/bin/node /k/bin/kishi.js uci --config /g/b.yaml',
    );
  });

  test('the factory reads KISHI_MCTS_DRAW_SCORE and KISHI_MCTS_MODEL', () => {
    expect(drawScoreFromEnv({}).unwrap()).toBeUndefined();
    expect(drawScoreFromEnv({ KISHI_MCTS_DRAW_SCORE: '-0.25' }).unwrap()).toBe(-0.25);
    for (const bad of ['abc', '1.5', '-2']) expect(drawScoreFromEnv({ KISHI_MCTS_DRAW_SCORE: bad }).isErr).toBe(true);
    expect(modelPathOf({ moveOverheadMs: 0 }, 'chess', { KISHI_MCTS_MODEL: '/n/x.onnx' })).toBe('/n/x.onnx');
    // A model named by the config wins over the environment.
    expect(modelPathOf({ moveOverheadMs: 0, chessModel: '/c/y.onnx' }, 'chess', { KISHI_MCTS_MODEL: '/n/x.onnx' })).toBe('/c/y.onnx');
  });

  test('without the variable, the config key mctsDrawScore (per cent) is the draw score', async () => {
    const saved = process.env.KISHI_MCTS_DRAW_SCORE;
    delete process.env.KISHI_MCTS_DRAW_SCORE;
    try {
      const p = createMctsPlayer({ moveOverheadMs: 0, chessModel: 'models/chess.onnx', mctsDrawScore: -30 }, 'chess').unwrap();
      expect(p.settings.options?.drawScore).toBe(-0.3);
      await p.close();
      const q = createMctsPlayer({ moveOverheadMs: 0, chessModel: 'models/chess.onnx' }, 'chess').unwrap();
      expect(q.settings.options).toBeUndefined();
      await q.close();
    } finally {
      if (saved !== undefined) process.env.KISHI_MCTS_DRAW_SCORE = saved;
    }
  });
});

describe('self-play draw score', () => {
  test('reaches the search options (default 0)', async () => {
    const { selfplaySearchOptions } = await import('../../../src/learning/alphazero/selfplay-game.js');
    const base = { game: 'chess', playouts: 8, fastPlayouts: undefined, fullSearchShare: 1, temperatureMoves: 0, dirichletAlpha: 0.3, dirichletFrac: 0.25, resignValue: undefined, resignPlayoutShare: 0, maxPlies: 10, searchBatch: 4, seed: 1 } as const;
    expect(selfplaySearchOptions(base, 7, true).drawScore).toBe(0);
    expect(selfplaySearchOptions({ ...base, drawScore: -0.2 }, 7, false).drawScore).toBe(-0.2);
  });
});
