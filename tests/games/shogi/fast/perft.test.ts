/**
 * Perft of the internal shogi generator, pinned to literals that were cross-checked against
 * shogiops' own `perft` (shogiops/debug) at every depth listed (max-moves d3 against shogiops'
 * legal-move lists with bulk counting, its full perft being too slow). The live cross-check below
 * repeats the shallow depths against shogiops on every run.
 */
import { describe, expect, it } from 'vitest';
import { perft as shogiopsPerft } from 'shogiops/debug';
import { FastShogiBoard } from '../../../../src/games/shogi/fast/index.js';
import { shogiopsFromSfen } from './shogiops-reference.js';

/** [name, sfen, perft(1), perft(2), ...]. */
const PERFT: readonly [string, string, ...number[]][] = [
  ['startpos', 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1', 30, 900, 25470, 719731],
  // "Matsuri" (festival) position, a standard shogi perft test with hands on both sides.
  ['matsuri', 'l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1', 207, 28684, 4809015],
  // The position with the most legal moves known (593), nearly all drops.
  ['max-moves', 'R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1', 593, 105677, 53393368],
  // Positions from seeded random playouts: promoted pieces on the board, hands on both sides.
  ['random-a', '1nspkg1+P1/2lg1gs2/1p1npp3/2p2P3/p2G5/7R1/1PPS1BP1+r/lL7/BNK2S3 b NL6Pp 91', 170, 8824, 1253786],
  ['random-b', 'l2rk3B/3p3Pn/npg+Sp1s2/2p3+BNp/9/7S1/P1SP1GP1P/3G5/+n2K4L b RGLPl7p 91', 225, 19201, 3557770],
  ['random-c', '4sg1ns/5kr2/lp7/6+b2/1gP2p3/4N2P1/P3PP3/s2G2G2/3K5 b B2L3Prs2nl8p 91', 159, 45798, 6070071],
];

describe('FastShogiBoard.perft', () => {
  it.each(PERFT)('%s', (_name, sfen, ...counts) => {
    const board = FastShogiBoard.fromSfen(sfen).unwrap();
    counts.forEach((count, i) => expect(board.perft(i + 1)).toBe(count));
    expect(board.toSfen()).toBe(FastShogiBoard.fromSfen(sfen).unwrap().toSfen());
    expect(board.perft(0)).toBe(1);
  });

  it.each(PERFT)('%s agrees with shogiops perft at shallow depth', (name, sfen) => {
    const board = FastShogiBoard.fromSfen(sfen).unwrap();
    const pos = shogiopsFromSfen(sfen);
    const depth = name === 'max-moves' ? 1 : 2;
    for (let d = 1; d <= depth; d++) expect(board.perft(d)).toBe(shogiopsPerft(pos, d));
  });

  it('divide sums to perft', () => {
    const board = FastShogiBoard.fromSfen(PERFT[1]![1]).unwrap();
    const split = board.divide(2);
    expect(split.size).toBe(207);
    expect([...split.values()].reduce((a, b) => a + b, 0)).toBe(28684);
  });
});
