/**
 * The gate's draw score and per-engine nets travel in each side's player config (no environment):
 * the config's `mctsDrawScore` (per cent) is the MCTS draw score, and a model named by the config
 * is the net.
 */
import { describe, expect, test } from 'vitest';
import { gatePlayerConfig } from '../../../src/learning/alphazero/gate.js';
import { createMctsPlayer, modelPathOf } from '../../../src/player/mcts-factory.js';

describe('gate draw score', () => {
  test('each side names its own net; the draw score is per cent of the config', () => {
    expect(modelPathOf(gatePlayerConfig('chess', '/n/x.onnx', -0.25), 'chess')).toBe('/n/x.onnx');
    expect(gatePlayerConfig('chess', '/n/x.onnx', -0.25).mctsDrawScore).toBe(-25);
    expect(gatePlayerConfig('chess', '/n/x.onnx', undefined).mctsDrawScore).toBeUndefined();
  });

  test('the config key mctsDrawScore (per cent) is the draw score; out of range is ERR_CONFIG', async () => {
    const p = createMctsPlayer({ moveOverheadMs: 0, chessModel: 'models/chess.onnx', mctsDrawScore: -30 }, 'chess').unwrap();
    expect(p.settings.options?.drawScore).toBe(-0.3);
    await p.close();
    const q = createMctsPlayer({ moveOverheadMs: 0, chessModel: 'models/chess.onnx' }, 'chess').unwrap();
    expect(q.settings.options).toBeUndefined();
    await q.close();
    const bad = createMctsPlayer({ moveOverheadMs: 0, chessModel: 'models/chess.onnx', mctsDrawScore: 150 }, 'chess');
    expect(bad.isErr && bad.error.code).toBe('ERR_CONFIG');
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
