/**
 * The rules the MCTS boards apply inside the tree (`terminalValue`: first repetition) and in real
 * games (`gameResult`: threefold / fourfold): mate, stalemate, fifty moves, insufficient material,
 * repetition, shogi perpetual check; and cache keys that separate equal boards with different
 * net inputs.
 */
import { expect, test } from 'vitest';
import { ChessMctsBoard } from '../../../src/search/mcts/chess-mcts-board.js';
import type { MctsBoard } from '../../../src/search/mcts/mcts-board.js';
import { ShogiMctsBoard } from '../../../src/search/mcts/shogi-mcts-board.js';

const values = (b: MctsBoard): [number, number] => {
  const n = b.generate(new Int32Array(b.maxMoves));
  return [b.terminalValue(n), b.gameResult(n)];
};

test('chess: mate, stalemate, fifty moves, insufficient material', () => {
  expect(values(ChessMctsBoard.fromText('startpos', ['f2f3', 'e7e5', 'g2g4', 'd8h4']).unwrap())).toEqual([-1, -1]);
  expect(values(ChessMctsBoard.fromText('k7/8/1Q6/8/8/8/8/K7 b - - 0 1', []).unwrap())).toEqual([0, 0]);
  expect(values(ChessMctsBoard.fromText('k7/8/8/8/8/8/R7/K7 b - - 100 80', []).unwrap())).toEqual([0, 0]);
  expect(values(ChessMctsBoard.fromText('k7/8/8/8/8/8/R7/K7 b - - 99 80', []).unwrap())).toEqual([NaN, NaN]);
  expect(values(ChessMctsBoard.fromText('k7/8/8/8/8/8/N7/K7 b - - 0 1', []).unwrap())).toEqual([0, 0]);
  expect(values(ChessMctsBoard.fromText('k7/8/8/8/8/8/P7/K7 b - - 0 1', []).unwrap())).toEqual([NaN, NaN]);
});

test('chess: the first repetition ends the tree, the third occurrence the game', () => {
  const cycle = ['g1f3', 'g8f6', 'f3g1', 'f6g8'];
  expect(values(ChessMctsBoard.fromText('startpos', cycle).unwrap())).toEqual([0, NaN]);
  expect(values(ChessMctsBoard.fromText('startpos', [...cycle, ...cycle]).unwrap())).toEqual([0, 0]);
});

test('shogi: no legal move loses, sennichite, perpetual check', () => {
  expect(values(ShogiMctsBoard.fromText('4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1', []).unwrap())).toEqual([-1, -1]);
  const cycle = ['5i5h', '5a5b', '5h5i', '5b5a'];
  expect(values(ShogiMctsBoard.fromText('4k4/9/9/9/9/9/9/9/R3K4 b - 1', cycle).unwrap())).toEqual([0, NaN]);
  expect(values(ShogiMctsBoard.fromText('4k4/9/9/9/9/9/9/9/R3K4 b - 1', [...cycle, ...cycle, ...cycle]).unwrap())).toEqual([0, 0]);
  // Black checks with every move of the cycle: white (to move) wins.
  const checks = ['9i9a+', '5a5b', '9a9b+', '5b5a', '9b9a+'].map((m) => m.replace('+', ''));
  expect(values(ShogiMctsBoard.fromText('4k4/9/9/9/9/9/9/9/R3K4 b - 1', checks).unwrap())[0]).toBe(1);
  const long = [...checks, '5a5b', '9a9b', '5b5a', '9b9a', '5a5b', '9a9b', '5b5a', '9b9a'];
  expect(values(ShogiMctsBoard.fromText('4k4/9/9/9/9/9/9/9/R3K4 b - 1', long).unwrap())).toEqual([1, 1]);
});

test('cache keys differ when only the repetition count or the counters differ', () => {
  const a = ChessMctsBoard.fromText('startpos', []).unwrap();
  const b = ChessMctsBoard.fromText('startpos', ['g1f3', 'g8f6', 'f3g1', 'f6g8']).unwrap();
  expect(a.toText().split(' ').slice(0, 4)).toEqual(b.toText().split(' ').slice(0, 4));
  expect(a.cacheKey()).not.toBe(b.cacheKey());
  const c = ChessMctsBoard.fromText('startpos', ['g1f3', 'g8f6', 'b1c3']).unwrap();
  const d = ChessMctsBoard.fromText('startpos', ['b1c3', 'g8f6', 'g1f3']).unwrap();
  expect(c.cacheKey()).toBe(d.cacheKey());
  expect(c.cacheKey()).toBeLessThan(2 ** 53);
  const s1 = ShogiMctsBoard.fromText('startpos', ['7g7f', '3c3d', '2g2f']).unwrap();
  const s2 = ShogiMctsBoard.fromText('startpos', ['2g2f', '3c3d', '7g7f']).unwrap();
  expect(s1.cacheKey()).toBe(s2.cacheKey());
});
