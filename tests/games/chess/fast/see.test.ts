/** Static exchange evaluation on hand-made chess positions (values: pawn 100, rook 500, queen 975). */
import { describe, expect, test } from 'vitest';
import { FastChessBoard } from '../../../../src/games/chess/fast/board.js';
import { see, seeGe } from '../../../../src/games/chess/fast/see.js';
import { seededRandom } from './helpers.js';

const seeOf = (fen: string, uci: string): number => {
  const b = FastChessBoard.fromFen(fen).unwrap();
  const m = b.parseUci(uci);
  expect(m, `${uci} legal in ${fen}`).not.toBe(0);
  const before = b.toFen();
  const v = see(b, m);
  expect(b.toFen()).toBe(before);
  return v;
};

describe('chess SEE', () => {
  test('an undefended pawn is won, a defended one costs the rook', () => {
    expect(seeOf('4k3/8/8/4p3/8/8/8/4RK2 w - - 0 1', 'e1e5')).toBe(100);
    expect(seeOf('4k3/8/3p4/4p3/8/8/8/4RK2 w - - 0 1', 'e1e5')).toBe(100 - 500);
  });

  test('x-ray: a rook behind a rook recaptures', () => {
    expect(seeOf('4r1k1/8/8/4p3/8/8/4R3/4RK2 w - - 0 1', 'e2e5')).toBe(100);
    expect(seeOf('4r1k1/8/8/4p3/8/8/8/4RK2 w - - 0 1', 'e1e5')).toBe(100 - 500);
  });

  test('x-ray: a queen behind the capturing pawn', () => {
    // dxe5 fxe5 Qxe5: a pawn up; without the queen, pawn for pawn.
    expect(seeOf('6k1/8/5p2/4p3/3P4/2Q5/8/6K1 w - - 0 1', 'd4e5')).toBe(100);
    expect(seeOf('6k1/8/5p2/4p3/3P4/8/8/6K1 w - - 0 1', 'd4e5')).toBe(0);
  });

  test('promotion counts the new queen, and losing it', () => {
    expect(seeOf('8/P5k1/8/8/8/8/8/6K1 w - - 0 1', 'a7a8q')).toBe(975 - 100);
    expect(seeOf('7r/P5k1/8/8/8/8/8/6K1 w - - 0 1', 'a7a8q')).toBe(-100);
  });

  test('a king cannot recapture on a defended square', () => {
    expect(seeOf('8/8/5k2/4p3/3Q4/8/8/4RK2 w - - 0 1', 'd4e5')).toBe(100);
    expect(seeOf('8/8/5k2/4p3/3Q4/8/8/5K2 w - - 0 1', 'd4e5')).toBe(100 - 975);
  });

  test('black to move, en passant and quiet moves', () => {
    expect(seeOf('4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1', 'e4d3')).toBe(100);
    // A knight moving to a safe square, and to one a pawn attacks.
    expect(seeOf('4k3/8/8/8/8/2n5/3P4/4K3 b - - 0 1', 'c3b5')).toBe(0);
    expect(seeOf('4k3/8/8/8/8/2n5/3P4/4K3 b - - 0 1', 'c3e4')).toBe(0);
    expect(seeOf('4k3/8/8/8/8/1p6/8/2N3K1 w - - 0 1', 'c1a2')).toBe(-325);
    expect(seeOf('4k3/8/8/8/8/1p6/8/R1N3K1 w - - 0 1', 'c1a2')).toBe(-325 + 100);
  });
});

describe('seeGe', () => {
  test('equals see >= threshold on every legal move of random games (promotions and last-rank recaptures included)', () => {
    const rng = seededRandom(5);
    const list = new Int32Array(256);
    const thresholds = [-1000, -300, -100, -1, 0, 1, 100, 200, 500];
    let decided = 0;
    const wrong: string[] = [];
    for (const fen of ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', '1r2k3/2P5/8/8/8/8/5p2/4K1R1 w - - 0 1']) {
      for (let game = 0; game < 4; game++) {
        const b = FastChessBoard.fromFen(fen).unwrap();
        for (let ply = 0; ply < 100; ply++) {
          const n = b.generateMoves(list);
          if (n === 0) break;
          for (let i = 0; i < n; i++) {
            const v = see(b, list[i]!);
            for (const t of thresholds) {
              if (seeGe(b, list[i]!, t) !== v >= t) wrong.push(`${b.toFen()} ${b.moveToUci(list[i]!)} see ${v} threshold ${t}`);
              decided++;
            }
          }
          b.makeMove(list[Math.floor(rng() * n)]!);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(decided).toBeGreaterThan(50_000);
  });
});
