/**
 * The one-pass attack map (src/games/chess/fast/attack-map.ts) against the board's own attack
 * test, square by square for both colours, along random games from positions with every piece
 * kind, castling, en passant and promotions.
 */
import { expect, test } from 'vitest';
import { randomInt, seededRng } from '../../../../src/core/rng.js';
import { ChessAttackMap } from '../../../../src/games/chess/fast/attack-map.js';
import { FastChessBoard } from '../../../../src/games/chess/fast/board.js';
import { to88 } from '../../../../src/games/chess/fast/tables.js';

const STARTS = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  'n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1',
  '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
];

test('every square of both colours, along 40 random games, equals isSquareAttacked', () => {
  const rng = seededRng(51);
  const map = new ChessAttackMap();
  const moves = new Int32Array(256);
  let positions = 0;
  const bad: string[] = [];
  for (let game = 0; game < 40; game++) {
    const board = FastChessBoard.fromFen(STARTS[game % STARTS.length]!).unwrap();
    for (let ply = 0; ply < 80; ply++) {
      positions++;
      for (const by of [0, 1]) {
        map.compute(board, by);
        for (let sq = 0; sq < 64; sq++) {
          if (map.has(to88(sq)) !== board.isSquareAttacked(sq, by) && bad.length < 5) bad.push(`${board.toFen()} square ${sq} by ${by}`);
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
