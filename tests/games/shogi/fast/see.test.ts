/**
 * Static exchange evaluation on hand-made shogi positions. A capture is worth the piece's board
 * value plus its value in hand: pawn 100 + 100, lance 350 + 350, gold 600 + 600, promoted silver
 * 600 + 550.
 */
import { describe, expect, it } from 'vitest';
import { FastShogiBoard } from '../../../../src/games/shogi/fast/board.js';
import { see, seeGe } from '../../../../src/games/shogi/fast/see.js';
import { seededRng } from '../../../../src/core/rng.js';

const seeOf = (sfen: string, usi: string): number => {
  const b = FastShogiBoard.fromSfen(sfen).unwrap();
  const m = b.parseUsi(usi);
  expect(m, `${usi} legal in ${sfen}`).toBeDefined();
  const before = b.toSfen();
  const v = see(b, m!);
  expect(b.toSfen()).toBe(before);
  return v;
};

describe('shogi SEE', () => {
  it('counts the captured piece twice (board and hand)', () => {
    expect(seeOf('4k4/9/9/4p4/4P4/9/9/9/4K4 b - 1', '5e5d')).toBe(200);
    expect(seeOf('4k4/9/4g4/4p4/4P4/9/9/9/4K4 b - 1', '5e5d')).toBe(0);
  });

  it('white to move', () => {
    expect(seeOf('4k4/9/9/9/4p4/4P4/9/9/4K4 w - 1', '5e5f')).toBe(200);
    expect(seeOf('4k4/9/9/9/4p4/4P4/4G4/9/4K4 w - 1', '5e5f')).toBe(0);
  });

  it('x-ray: a lance behind a lance', () => {
    // Lx5d Gx5d Lx5d: a pawn up. Without the second lance, the lance is lost for a pawn.
    expect(seeOf('4k4/9/4g4/4p4/9/9/9/4L4/4L3K b - 1', '5h5d')).toBe(200);
    expect(seeOf('4k4/9/4g4/4p4/9/9/9/4L4/8K b - 1', '5h5d')).toBe(200 - 700);
  });

  it('promotion adds its gain, and a promoted piece is worth more to take', () => {
    expect(seeOf('k8/9/4p4/4S4/9/9/9/9/4K4 b - 1', '5d5c+')).toBe(200 + 50);
    expect(seeOf('k8/9/4p4/4S4/9/9/9/9/4K4 b - 1', '5d5c')).toBe(200);
    expect(seeOf('k8/4g4/4p4/4S4/9/9/9/9/4K4 b - 1', '5d5c+')).toBe(250 - 1150);
    expect(seeOf('k8/4g4/4p4/4S4/9/9/9/9/4K4 b - 1', '5d5c')).toBe(200 - 1100);
  });

  it('a recapture that enters the zone promotes', () => {
    // Gx3c (a lance), then the pawn on 3d takes the gold and promotes to a tokin.
    expect(seeOf('k8/7g1/6L2/6P2/9/9/9/9/4K4 w - 1', '2b3c')).toBe(700 - (1200 + 500));
    // Px3c+ wins a pawn and promotes; the gold takes the tokin (600 + 100): even.
    expect(seeOf('k8/6g2/6p2/6P2/9/9/9/9/4K4 b - 1', '3d3c+')).toBe(0);
  });

  it('drops start an exchange with nothing taken', () => {
    expect(seeOf('4k4/9/9/4p4/9/9/9/9/4K4 b P 1', 'P*5e')).toBe(-200);
    expect(seeOf('4k4/9/9/4p4/9/9/9/9/4K4 b P 1', 'P*4e')).toBe(0);
  });
});

describe('seeGe', () => {
  it('equals see >= threshold on every legal move of random games (drops, promotions included)', () => {
    const rng = seededRng(5);
    const list = new Int32Array(1024);
    const thresholds = [-2000, -500, -200, -1, 0, 1, 200, 500, 1000];
    let decided = 0;
    const wrong: string[] = [];
    for (let game = 0; game < 4; game++) {
      const b = FastShogiBoard.fromSfen('lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1').unwrap();
      for (let ply = 0; ply < 120; ply++) {
        const n = b.generateMoves(list);
        if (n === 0) break;
        for (let i = 0; i < n; i++) {
          const v = see(b, list[i]!);
          for (const t of thresholds) {
            if (seeGe(b, list[i]!, t) !== v >= t) wrong.push(`${b.toSfen()} ${b.moveToUsi(list[i]!)} see ${v} threshold ${t}`);
            decided++;
          }
        }
        b.makeMove(list[Math.floor(rng() * n)]!);
      }
    }
    expect(wrong).toEqual([]);
    expect(decided).toBeGreaterThan(50_000);
  });
});
