import { describe, expect, test } from 'vitest';
import { perft as shogiopsPerft } from 'shogiops/debug';
import { parseSfen } from 'shogiops/sfen';
import { ShogiGame } from '../../../src/games/shogi/shogi-game.js';
import { divide, perft } from '../../../src/games/shogi/perft.js';
import { PERFT_CASES } from './fixtures/perft-positions.js';

describe.each(PERFT_CASES)('perft $id', ({ sfen, counts, checkDepth }) => {
  test.each(counts.map((n, i) => [i + 1, n] as const))('depth %i = %i (adapter)', (depth, expected) => {
    const game = ShogiGame.fromSfen(sfen).unwrap();
    expect(perft(game, depth)).toBe(expected);
    // perft plays and undoes every move: the game must be back where it started
    expect(game.toText()).toBe(ShogiGame.fromSfen(sfen).unwrap().toText());
    expect(game.key()).toBe(game.recomputeKey());
    expect(game.plies()).toBe(0);
  });

  test.each(counts.slice(0, checkDepth).map((n, i) => [i + 1, n] as const))(
    'depth %i = %i (shogiops debug perft)',
    (depth, expected) => {
      const pos = parseSfen('standard', sfen).unwrap();
      expect(shogiopsPerft(pos, depth)).toBe(expected);
    },
  );
});

test('perft depth 0 is 1', () => {
  expect(perft(ShogiGame.startpos(), 0)).toBe(1);
});

test('divide sums to perft and names root moves in USI', () => {
  const game = ShogiGame.startpos();
  const entries = divide(game, 3);
  expect(entries).toHaveLength(30);
  expect(entries.reduce((s, e) => s + e.nodes, 0)).toBe(25470);
  // every root count agrees with shogiops' perft of the position after that move
  for (const e of entries) {
    const pos = parseSfen('standard', game.toText()).unwrap();
    pos.play(e.move);
    expect(shogiopsPerft(pos, 2), e.usi).toBe(e.nodes);
  }
  expect(divide(game, 0)).toEqual([]);
});

test('legalMoves and countLegalMoves agree', () => {
  for (const { sfen } of PERFT_CASES) {
    const game = ShogiGame.fromSfen(sfen).unwrap();
    expect(game.legalMoves()).toHaveLength(game.countLegalMoves());
  }
});
