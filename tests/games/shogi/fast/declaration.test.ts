/**
 * The declaration rule on the internal board (`canDeclareOnBoard`, what the engines ask at the root)
 * agrees with the shogiops rule (`canDeclare` of src/games/shogi/entering-king.ts): on the rule's
 * edge cases (28 and 27 points, 9 pieces, the king outside the camp, check, the side not to move),
 * and on every position of seeded random walks from declaring positions of both sides.
 */
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../../../src/core/rng.js';
import { FastShogiBoard, newMoveList } from '../../../../src/games/shogi/fast/board.js';
import { canDeclareOnBoard } from '../../../../src/games/shogi/fast/declaration.js';
import { canDeclare } from '../../../../src/games/shogi/entering-king.js';
import { parseShogiSfen } from '../../../../src/games/shogi/sfen.js';

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
    expect(canDeclareOnBoard(board)).toBe(expected);
    expect(byShogiops(board)).toBe(expected);
  });

  it('agrees with shogiops along random walks from declaring positions of both sides', () => {
    const rng = seededRng(43);
    const list = newMoveList();
    let declaring = 0;
    let positions = 0;
    for (const [sfen] of CASES.slice(0, 3)) {
      for (let walk = 0; walk < 20; walk++) {
        const board = FastShogiBoard.fromSfen(sfen).unwrap();
        for (let ply = 0; ply < 12; ply++) {
          const fast = canDeclareOnBoard(board);
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
