/**
 * The shipped value networks trained for MCTS (issue 42: `trainer/nnue_train.py --lambda 0`, the
 * game results alone, so that Q is an expected score): each loads as the CPU networks' value with its
 * manifest's sigmoid scale, finds the policy network beside it, is what the player uses when no
 * model is named, and values a position a side is far ahead in as won for that side and the start
 * position as about even.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { checkCpuNetFiles, loadCpuEvaluator } from '../../../src/player/mcts-cpu-nets.js';
import { modelPathOf } from '../../../src/player/mcts-factory.js';
import type { GameKind } from '../../../src/core/game.js';
import { ChessMctsBoard } from '../../../src/search/mcts/chess-mcts-board.js';
import type { MctsBoard } from '../../../src/search/mcts/mcts-board.js';
import { ShogiMctsBoard } from '../../../src/search/mcts/shogi-mcts-board.js';

/** Per game: the start position, and one position each side to move in which the opponent lacks major pieces. */
const CASES: Record<GameKind, { start: string; ahead: string; behind: string }> = {
  // Gote without its rook and bishop.
  shogi: {
    start: 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1',
    ahead: 'lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1',
    behind: 'lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1',
  },
  // Black without its queen and a rook.
  chess: {
    start: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    ahead: '1nb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk - 0 1',
    behind: '1nb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQk - 0 1',
  },
};

const pathOf = (game: GameKind): string => `models/${game}-mcts-value.bin`;

/** The evaluator's value (expected score mapped to [-1, 1], side to move) of a position. */
const valueOf = (game: GameKind, text: string): number => {
  const ev = loadCpuEvaluator(pathOf(game), game).unwrap();
  const start: MctsBoard = game === 'chess' ? ChessMctsBoard.fromText(text, []).unwrap() : ShogiMctsBoard.fromText(text, []).unwrap();
  const board = ev.attach(start);
  const moves = new Int32Array(1024);
  const n = board.generate(moves);
  return ev.value(moves, n);
};

for (const game of ['shogi', 'chess'] as const) {
  describe(`models/${game}-mcts-value.bin`, () => {
    test('a result-trained network (lambda < 1) with its sigmoid scale; the policy network beside it is found', () => {
      expect(existsSync(pathOf(game))).toBe(true);
      const manifest = JSON.parse(readFileSync(`models/${game}-mcts-value.manifest.json`, 'utf8')) as { training: { k: number; lambda: number } };
      expect(manifest.training.lambda).toBeLessThan(1);
      expect(manifest.training.k).toBeGreaterThan(0);
      const check = checkCpuNetFiles(pathOf(game), game).unwrap();
      expect(check.policyError).toBeUndefined();
      expect(check.policyPath).toMatch(new RegExp(`${game}-policy\\.bin$`));
      expect(loadCpuEvaluator(pathOf(game), game).unwrap().settings.k).toBe(manifest.training.k);
    });

    test('the player takes it when no model is named', () => {
      expect(modelPathOf({ moveOverheadMs: 0 }, game)).toMatch(new RegExp(`models/${game}-mcts-value\\.bin$`));
    });

    test('values: the start position about even, major pieces up clearly winning for the side ahead', () => {
      const c = CASES[game];
      expect(Math.abs(valueOf(game, c.start))).toBeLessThan(0.3);
      expect(valueOf(game, c.ahead)).toBeGreaterThan(0.5);
      expect(valueOf(game, c.behind)).toBeLessThan(-0.5);
    });
  });
}
