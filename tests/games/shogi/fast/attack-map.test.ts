/**
 * The one-pass attack map (src/games/shogi/fast/attack-map.ts) against the board's own attack
 * test, cell by cell for both sides, along random games (drops and promotions included) from
 * positions with every piece kind on the board and in hand.
 */
import { expect, test } from 'vitest';
import { randomInt, seededRng } from '../../../../src/core/rng.js';
import { ShogiAttackMap } from '../../../../src/games/shogi/fast/attack-map.js';
import { FastShogiBoard, MAX_MOVES } from '../../../../src/games/shogi/fast/board.js';
import { BLACK_BIT, WHITE_BIT } from '../../../../src/games/shogi/fast/pieces.js';
import { SQUARES, squareName } from '../../../../src/games/shogi/fast/squares.js';

const STARTS = [
  'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1',
  'ln1g3nl/1r1sg1k2/p1pppsbpp/1p3p3/9/2P1P1P2/PPBP1P2P/2S1GS1R1/LN1GK2NL b Pp 1',
  '8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124',
];

test('every cell of both sides, along 30 random games, equals attacked()', () => {
  const rng = seededRng(52);
  const map = new ShogiAttackMap();
  const moves = new Int32Array(MAX_MOVES);
  let positions = 0;
  const bad: string[] = [];
  for (let game = 0; game < 30; game++) {
    const board = FastShogiBoard.fromSfen(STARTS[game % STARTS.length]!).unwrap();
    for (let ply = 0; ply < 100; ply++) {
      positions++;
      for (const bit of [BLACK_BIT, WHITE_BIT]) {
        map.compute(board, bit);
        for (let i = 0; i < 81; i++) {
          const sq = SQUARES[i]!;
          if (map.has(sq) !== board.attacked(sq, bit) && bad.length < 5) bad.push(`${board.toSfen()} ${squareName(sq)} by ${bit}`);
        }
      }
      const n = board.generateMoves(moves);
      if (n === 0) break;
      board.makeMove(moves[randomInt(rng, n)]!);
    }
  }
  expect(positions).toBeGreaterThan(1500);
  expect(bad).toEqual([]);
});
