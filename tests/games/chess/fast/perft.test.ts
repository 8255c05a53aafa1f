/**
 * Perft tables for the internal generator (`FastChessBoard.perft`, bulk counting).
 * Standard positions: chessprogramming.org "Perft Results" (positions 1-6; Kiwipete by Peter McKenzie).
 * Chess960 positions: chessprogramming.org "Chess960 Perft Results" (the first six) plus our own
 * castling edge cases; every count up to depth 4 was cross-checked with chessops' `perft`, and
 * depth 3 is cross-checked live below.
 */
import { Chess } from 'chessops/chess';
import { perft as chessopsPerft } from 'chessops/debug';
import { parseFen } from 'chessops/fen';
import { describe, expect, test } from 'vitest';
import { FastChessBoard } from '../../../../src/games/chess/fast/index.js';

type PerftCase = [id: string, fen: string, ...counts: number[]];

const STANDARD: PerftCase[] = [
  ['startpos', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 20, 400, 8902, 197281, 4865609],
  ['kiwipete', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 48, 2039, 97862, 4085603],
  ['pos-3', '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', 14, 191, 2812, 43238, 674624],
  ['pos-4', 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', 6, 264, 9467, 422333],
  ['pos-5', 'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8', 44, 1486, 62379, 2103487],
  ['pos-6', 'r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10', 46, 2079, 89890, 3894594],
  // Regression cases (counts from chessops' perft): en passant that would expose the king along
  // the rank or the file, promotions around a checked king.
  ['ep-rank-pin', '8/8/8/K2pP2q/8/8/8/7k w - d6 0 2', 6, 120, 776, 18011],
  ['ep-file-pin', '8/8/3k4/8/3pP3/8/8/3QK3 b - e3 0 1', 8, 141, 946, 20823],
  ['promo-check', 'n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1', 24, 496, 9483, 182838],
];

const CHESS960: PerftCase[] = [
  ['960-1', 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9', 21, 528, 12189, 326672],
  ['960-2', '2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9', 21, 807, 18002, 667366],
  ['960-3', 'b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9', 20, 479, 10471, 273318],
  ['960-4', 'qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9', 22, 593, 13440, 382958],
  ['960-5', '1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9', 28, 1120, 31058, 1171749],
  ['960-6', 'qnbnr1kr/ppp1b1pp/4p3/3p1p2/8/2NPP3/PPP1BPPP/QNB1R1KR w HEhe - 1 9', 29, 899, 26578, 824055],
  ['960-start', 'nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1', 18, 324, 6680, 136992],
  ['960-b-rook', '1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9', 29, 502, 14569, 287739],
  // King on b1 between rooks on a1 and c1: the a-side rook jumps over the king.
  ['960-rkr', 'rkr5/8/8/8/8/8/8/RKR5 w CAca - 0 1', 20, 328, 6855, 138584],
  // Enemy rooks on a1/h1 behind our castling rooks: the king's destination is tested with the rook moved.
  ['960-shield', '4k3/8/8/8/8/8/8/rR2K1Rr w GB - 0 1', 10, 194, 3664, 80533],
];

const run = (fen: string, chess960: boolean, counts: number[]): void => {
  const board = FastChessBoard.fromFen(fen, chess960).unwrap();
  counts.forEach((expected, i) => expect(board.perft(i + 1), `depth ${i + 1}`).toBe(expected));
  expect(board.ply).toBe(0);
};

describe('FastChessBoard perft', () => {
  test.each(STANDARD)('%s', (_id, fen, ...counts) => run(fen, false, counts));
  test.each(CHESS960)('%s', (_id, fen, ...counts) => run(fen, true, counts));

  test.each(CHESS960)('%s agrees with chessops at depth 3', (_id, fen) => {
    const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
    expect(FastChessBoard.fromFen(fen, true).unwrap().perft(3)).toBe(chessopsPerft(pos, 3, false));
  });

  test('perftDivide sums to perft and keys moves by UCI', () => {
    const board = FastChessBoard.fromFen(STANDARD[1]![1], false).unwrap();
    const divide = board.perftDivide(2);
    expect(divide.size).toBe(48);
    expect(divide.get('e1h1')).toBe(43);
    expect([...divide.values()].reduce((a, b) => a + b, 0)).toBe(2039);
  });
});
