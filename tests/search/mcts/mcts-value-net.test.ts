/**
 * The shipped value network trained for MCTS (issue 42: `trainer/nnue_train.py --lambda 0`, the
 * game results alone, so that Q is an expected score): it loads as the CPU networks' value with its
 * manifest's sigmoid scale, finds the policy network beside it, is what the player uses when no
 * model is named, and values a position a side is far ahead in as won for that side and the start
 * position as about even.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { checkCpuNetFiles, loadCpuEvaluator } from '../../../src/player/mcts-cpu-nets.js';
import { modelPathOf } from '../../../src/player/mcts-factory.js';
import { ShogiMctsBoard } from '../../../src/search/mcts/shogi-mcts-board.js';

const PATH = 'models/shogi-mcts-value.bin';

/** The evaluator's value (expected score mapped to [-1, 1], side to move) of a shogi position. */
const valueOf = (sfen: string): number => {
  const ev = loadCpuEvaluator(PATH, 'shogi').unwrap();
  const board = ev.attach(ShogiMctsBoard.fromText(sfen, []).unwrap());
  const moves = new Int32Array(1024);
  const n = board.generate(moves);
  return ev.value(moves, n);
};

describe('models/shogi-mcts-value.bin', () => {
  test('a result-trained network (lambda < 1) with its sigmoid scale; the policy network beside it is found', () => {
    expect(existsSync(PATH)).toBe(true);
    const manifest = JSON.parse(readFileSync('models/shogi-mcts-value.manifest.json', 'utf8')) as { training: { k: number; lambda: number } };
    expect(manifest.training.lambda).toBeLessThan(1);
    expect(manifest.training.k).toBeGreaterThan(0);
    const check = checkCpuNetFiles(PATH, 'shogi').unwrap();
    expect(check.policyError).toBeUndefined();
    expect(check.policyPath).toMatch(/shogi-policy\.bin$/);
    expect(loadCpuEvaluator(PATH, 'shogi').unwrap().settings.k).toBe(manifest.training.k);
  });

  test('the player takes it when no model is named', () => {
    expect(modelPathOf({ moveOverheadMs: 0 }, 'shogi')).toMatch(/models\/shogi-mcts-value\.bin$/);
  });

  test('values: the start position about even, a rook and a bishop up clearly winning for the side ahead', () => {
    const start = valueOf('lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1');
    expect(Math.abs(start)).toBeLessThan(0.3);
    // Gote without its rook and bishop: good for sente to move, bad for gote to move.
    expect(valueOf('lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1')).toBeGreaterThan(0.5);
    expect(valueOf('lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1')).toBeLessThan(-0.5);
  });
});
