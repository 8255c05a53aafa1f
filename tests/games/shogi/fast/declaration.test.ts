/**
 * The internal board's entering-king declaration (fast/declaration.ts) against the shogiops one of
 * src/games/shogi/entering-king.ts, on hand-made positions at each edge of the CSA 27-point rule and
 * on random games.
 */
import { describe, expect, it } from 'vitest';
import { parseSfen } from 'shogiops/sfen';
import { seededRng as makeRandom } from '../../../../src/core/rng.js';
import { canDeclareWin } from '../../../../src/games/shogi/fast/declaration.js';
import { FastShogiBoard, newMoveList } from '../../../../src/games/shogi/fast/index.js';
import { canDeclare } from '../../../../src/games/shogi/entering-king.js';

import { parseShogiSfen } from '../../../../src/games/shogi/sfen.js';

const board = (sfen: string): FastShogiBoard => FastShogiBoard.fromSfen(sfen).unwrap();
const reference = (sfen: string): boolean => canDeclare(parseSfen('standard', sfen).unwrap());

/** Sente: 18 pieces in the zone worth 8 + 10 + 8 = 26 points; gold and pawn in hand make 28. */
const SENTE_28 = '+L+N+SG1G+S+N+L/1R2K2B1/1PPPPPPPP/9/9/9/9/9/4k4 b GP 1';

describe('canDeclareWin (CSA 27-point rule)', () => {
  const cases: [string, string, boolean][] = [
    ['sente with 28 points', SENTE_28, true],
    ['sente with 27 points (sente needs 28)', '+L+N+SG1G+S+N+L/1R2K2B1/1PPPPPPPP/9/9/9/9/9/4k4 b G 1', false],
    ['gote with 27 points (gote needs 27)', '4K4/9/9/9/9/9/1pppppppp/1b2k2r1/+l+n+sg1g+s+n+l w g 1', true],
    ['gote with 26 points', '4K4/9/9/9/9/9/1pppppppp/1b2k2r1/+l+n+sg1g+s+n+l w - 1', false],
    ['sente to move but gote could declare', '4K4/9/9/9/9/9/1pppppppp/1b2k2r1/+l+n+sg1g+s+n+l b g 1', false],
    ['king outside the zone', '+L+N+SG1G+S+N+L/1R5B1/1PPPPPPPP/4K4/9/9/9/9/4k4 b G2P 1', false],
    ['9 pieces in the zone, enough points in hand', '+L+N+SG1G+S+N+L/4K4/9/9/9/9/9/9/4k4 b 2R2BG 1', false],
    ['10 pieces in the zone, points in hand', '+L+N+SG1G+S+N+L/1R2K2B1/9/9/9/9/9/9/4k4 b RBG 1', true],
    ['in check', '+L+N+SG1G+S+N+L/1R1rK2B1/1PPPPPPPP/9/9/9/9/9/4k4 b GP 1', false],
  ];
  for (const [name, sfen, expected] of cases) {
    it(name, () => {
      expect(reference(sfen)).toBe(expected);
      const b = board(sfen);
      expect(canDeclareWin(b)).toBe(expected);
      expect(b.toSfen()).toBe(sfen);
    });
  }

  it('agrees with the shogiops rule along random games from zone-heavy positions', () => {
    const rng = makeRandom(41);
    const list = newMoveList();
    let declarable = 0;
    let tested = 0;
    for (const start of [SENTE_28, '4K4/9/9/9/9/9/1pppppppp/1b2k2r1/+l+n+sg1g+s+n+l w g 1']) {
      for (let game = 0; game < 20; game++) {
        const b = board(start);
        for (let ply = 0; ply < 30; ply++) {
          const sfen = b.toSfen();
          const fast = canDeclareWin(b);
          expect(fast, sfen).toBe(reference(sfen));
          tested++;
          if (fast) declarable++;
          const n = b.generateMoves(list);
          if (n === 0) break;
          b.makeMove(list[Math.floor(rng() * n)]!);
        }
      }
    }
    expect(tested).toBeGreaterThan(500);
    // Both outcomes occur, so the comparison covers each side of the rule.
    expect(declarable).toBeGreaterThan(10);
    expect(declarable).toBeLessThan(tested);
  });
});

const byShogiops = (board: FastShogiBoard): boolean => canDeclare(parseShogiSfen(board.toSfen()).unwrap());

const CASES: readonly (readonly [string, boolean, string])[] = [
  ['GGSS5/PPPPK4/RB7/9/9/9/9/9/8k b RB 1', true, 'sente: 10 pieces, 28 points'],
  ['GGSS5/PPPPK4/RB7/9/9/9/9/9/8k b R4P 1', false, 'sente: 27 points'],
  ['K8/9/9/9/9/9/7br/4kpppp/5ssgg w r4p 1', true, 'gote: exactly 27 points'],
  ['GGSS5/PPP1K4/RB7/9/9/9/9/9/8k b RBP 1', false, '9 pieces in the camp'],
  ['GGSS5/PPPP5/RB7/4K4/9/9/9/9/8k b RB 1', false, 'the king outside the camp'],
  ['GGSS1g3/PPPPK4/RB7/9/9/9/9/9/8k b RB 1', false, 'in check'],
  ['GGSS5/PPPPK4/RB7/9/9/9/9/9/8k w RB 1', false, 'gote to move'],
  ['lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1', false, 'the start position'],
];

describe('the declaration on the internal board', () => {
  it.each(CASES)('%s: %s (%s)', (sfen, expected) => {
    const board = FastShogiBoard.fromSfen(sfen).unwrap();
    expect(canDeclareWin(board)).toBe(expected);
    expect(byShogiops(board)).toBe(expected);
  });

  it('agrees with shogiops along random walks from declaring positions of both sides', () => {
    const rng = makeRandom(43);
    const list = newMoveList();
    let declaring = 0;
    let positions = 0;
    for (const [sfen] of CASES.slice(0, 3)) {
      for (let walk = 0; walk < 20; walk++) {
        const board = FastShogiBoard.fromSfen(sfen).unwrap();
        for (let ply = 0; ply < 12; ply++) {
          const fast = canDeclareWin(board);
          expect(fast, board.toSfen()).toBe(byShogiops(board));
          positions++;
          if (fast) declaring++;
          const n = board.generateMoves(list);
          if (n === 0) break;
          board.makeMove(list[Math.floor(rng() * n)]!);
        }
      }
    }
    // The walks pass through both answers, so the comparison is not of two constant `false`s.
    expect(declaring).toBeGreaterThan(10);
    expect(positions - declaring).toBeGreaterThan(10);
  });
});
