import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FastShogiBoard, MAX_MOVES } from '../../../../src/games/shogi/fast/board.js';
import { mateIn1, mateIn1All, mateMovesReference } from '../../../../src/games/shogi/fast/mate1.js';
import { mate1Perft } from '../../../../tools/compare/mate1-perft.js';

const lines = (file: string): string[] =>
  readFileSync(new URL(`../../../../data/suites/${file}`, import.meta.url), 'utf8').split('\n').filter(Boolean);

const board = (sfen: string): FastShogiBoard => FastShogiBoard.fromSfen(sfen).unwrap();

/** The USI texts of the reference's mating moves and of `mateIn1All`'s, sorted. */
const both = (sfen: string): [string[], string[]] => {
  const b = board(sfen);
  const out = new Int32Array(MAX_MOVES);
  const ref = Array.from(out.subarray(0, mateMovesReference(b, out)), (m) => b.moveToUsi(m)).sort();
  const fast = Array.from(out.subarray(0, mateIn1All(b, out)), (m) => b.moveToUsi(m)).sort();
  return [ref, fast];
};

describe('mate in one (shogi)', () => {
  it('solves every vendored mate-in-1 problem with a move that mates, and agrees with the reference', () => {
    const problems = lines('tsume_mate-1-ply.sfen');
    expect(problems.length).toBe(200);
    for (const sfen of problems) {
      const b = board(sfen);
      const before = b.toSfen();
      const m = mateIn1(b);
      expect(m, sfen).not.toBe(0);
      expect(b.toSfen()).toBe(before);
      b.makeMove(m);
      expect(b.inCheck(), sfen).toBe(true);
      expect(b.generateMoves(new Int32Array(MAX_MOVES)), sfen).toBe(0);
      const [ref, fast] = both(sfen);
      expect(fast, sfen).toEqual(ref);
    }
  });

  it('finds nothing in the vendored no-mate-in-1 positions', () => {
    for (const sfen of lines('tsume_no-mate-1-ply.sfen')) {
      expect(mateIn1(board(sfen)), sfen).toBe(0);
      expect(both(sfen)[0], sfen).toEqual([]);
    }
  });

  it('never mates with a pawn drop, but a pawn push may mate', () => {
    // White king 1a walled in by its lance (2a) and silver (2b); black's gold on 2c guards 1b.
    // P*1b would mate: uchifuzume, so there is no mate in one.
    const pawnDrop = '7lk/7s1/7G1/9/9/9/9/9/4K4 b P 1';
    expect(both(pawnDrop)).toEqual([[], []]);
    expect(mateIn1(board(pawnDrop))).toBe(0);
    // The same net with the pawn already on 1c: the push mates, promoted or not (and so does the
    // gold, guarded by the pawn).
    expect(both('7lk/7s1/7GP/9/9/9/9/9/4K4 b - 1')).toEqual([
      ['1c1b', '1c1b+', '2c1b'],
      ['1c1b', '1c1b+', '2c1b'],
    ]);
  });

  // Positions from seeded random playouts (tools/compare/mate1-perft.ts), each with one mate.
  it.each([
    ['a promotion', '3Gs1s2/6s1l/1bkp1g1pp/4pPp1P/l7L/1ppP5/lPG1P1GP1/2K2+nP+n1/+br3SNN1 w RP3p 124', '7f7g+'],
    ['a lance drop from afar', '6+N2/1k4r1l/3pKlr2/lpgg4p/6G2/2P6/+bP1PP1bs1/2S1G2p1/1S2N1Ps1 w 2N7Pl2p 148', 'L*5a'],
    ['a discovered double check', '6+N2/1k3lr1l/3p1Lr2/lpgg1K2p/6G2/2P6/+bP1PP1bs1/2S1G2p1/1S2N1Ps1 w 2N7P2p 146', '3c4c'],
    ['a knight drop', 'ln7/1S4+B1r/pg2sp3/4p1k1p/2s2PN2/P1pG2P1P/1P3G2+p/R6pL/g2NS1L1K w BL6Pn 160', 'N*2g'],
  ])('finds mate by %s', (_what, sfen, mate) => {
    expect(both(sfen)).toEqual([[mate], [mate]]);
    const b = board(sfen);
    expect(b.moveToUsi(mateIn1(b))).toBe(mate);
  });

  it('agrees with the slow reference on 3000 random playout positions (tools/compare/mate1-perft.ts runs 100,000)', () => {
    const r = mate1Perft(3000, 7);
    expect(r.disagreements).toEqual([]);
    expect(r.fastMoves).toBe(r.referenceMoves);
    // The playouts must reach mates for the comparison to mean something.
    expect(r.matePositions).toBeGreaterThan(30);
  });
});
