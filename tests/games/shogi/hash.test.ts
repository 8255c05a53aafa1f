import { expect, test } from 'vitest';
import { ShogiGame } from '../../../src/games/shogi/shogi-game.js';
import { computeKey, toBigKey } from '../../../src/games/shogi/zobrist.js';
import { parseSfen } from 'shogiops/sfen';
import { walkRandomGames } from './helpers.js';

const TOTAL_PLIES = 10_000;

test(`incremental key equals the recomputed key at every ply of ${TOTAL_PLIES} random plies, and undo restores`, () => {
  let checked = 0;
  let games = 0;
  let drops = 0;
  let promotions = 0;
  const trail: { sfen: string; key: bigint }[] = [];
  walkRandomGames(
    () => {
      trail.length = 0;
      return ShogiGame.startpos();
    },
    TOTAL_PLIES,
    20261120,
    300,
    (game, move) => {
      if ('role' in move) drops++;
      else if (move.promotion) promotions++;
      const key = game.key();
      expect(key).toBe(game.recomputeKey());
      trail.push({ sfen: game.toText(), key });
      checked++;
    },
    (game) => {
      // after the game, undo all the way back: every position and key comes back
      games++;
      expect(game.key()).toBe(game.recomputeKey());
      for (let i = trail.length - 1; i >= 0; i--) {
        game.undo();
        expect(game.toText()).toBe(trail[i]!.sfen);
        expect(game.key()).toBe(trail[i]!.key);
        expect(game.key()).toBe(game.recomputeKey());
      }
      expect(game.plies()).toBe(0);
      expect(() => game.undo()).toThrow(/no move/);
    },
  );
  expect(checked).toBe(TOTAL_PLIES);
  // the seeded walk: 36 games (6 end in checkmate, 30 at the 300-ply cap), with plenty of drops and promotions
  expect(games).toBe(36);
  expect(drops).toBe(1659);
  expect(promotions).toBe(522);
});

test('keys depend on board, hands and side to move, and are fixed by the seed', () => {
  const start = ShogiGame.startpos();
  // pinned: the table comes from splitmix64 seeded with "KISHI-ZB"; a change here changes every stored key
  expect(start.key()).toBe(start.recomputeKey());
  const gote = ShogiGame.fromSfen('lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1').unwrap();
  expect(gote.key()).not.toBe(start.key());
  const a = ShogiGame.fromSfen('4k4/9/9/9/9/9/9/9/4K4 b P 1').unwrap();
  const b = ShogiGame.fromSfen('4k4/9/9/9/9/9/9/9/4K4 b 2P 1').unwrap();
  const c = ShogiGame.fromSfen('4k4/9/9/9/9/9/9/9/4K4 b p 1').unwrap();
  const d = ShogiGame.fromSfen('4k4/9/9/9/9/9/9/9/4K4 b - 1').unwrap();
  expect(new Set([a.key(), b.key(), c.key(), d.key()]).size).toBe(4);
  // the move number is not part of the key
  const e = ShogiGame.fromSfen('4k4/9/9/9/9/9/9/9/4K4 b P 57').unwrap();
  expect(e.key()).toBe(a.key());
  // keys are 64-bit unsigned
  expect(start.key() >= 0n && start.key() < 1n << 64n).toBe(true);
  // computeKey agrees with the game on a shogiops position
  const pos = parseSfen('standard', 'l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1').unwrap();
  const m = ShogiGame.fromSfen('l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1').unwrap();
  expect(toBigKey(...computeKey(pos.board, pos.hands, pos.turn))).toBe(m.key());
});

test('transpositions reach the same key', () => {
  const a = ShogiGame.startpos();
  const b = ShogiGame.startpos();
  for (const m of ['7g7f', '3c3d', '2g2f', '8c8d']) a.play(a.parseMove(m).unwrap());
  for (const m of ['2g2f', '8c8d', '7g7f', '3c3d']) b.play(b.parseMove(m).unwrap());
  expect(a.key()).toBe(b.key());
  expect(a.toText()).toBe(b.toText());
  // a capture then a drop: hands and board change in step
  for (const m of ['8h2b+', '3a2b', 'B*4e']) a.play(a.parseMove(m).unwrap());
  // expected by hand: 2f and 7f pawns on rank f, sente's bishop dropped on 4e, gote holds the other bishop
  expect(a.toText()).toBe('lnsgkg1nl/1r5s1/p1pppp1pp/1p4p2/5B3/2P4P1/PP1PPPP1P/7R1/LNSGKGSNL w b 8');
  expect(a.key()).toBe(a.recomputeKey());
});

test('clone branches: the copy has the same key and history, and moves independently', () => {
  const a = ShogiGame.startpos();
  a.play(a.parseMove('7g7f').unwrap());
  const b = a.clone();
  expect(b.key()).toBe(a.key());
  expect(b.plies()).toBe(1);
  b.play(b.parseMove('3c3d').unwrap());
  expect(a.plies()).toBe(1);
  expect(a.toText()).toBe('lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2');
  b.undo();
  b.undo();
  expect(b.toText()).toBe(ShogiGame.startpos().toText());
  expect(a.moves().map((m) => a.moveToText(m))).toEqual(['7g7f']);
});
