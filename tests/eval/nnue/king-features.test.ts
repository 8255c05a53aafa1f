/**
 * The king-relative feature sets, shogi `king-bucket-9` (src/eval/nnue/shogi-king-features.ts) and
 * chess `king-bucket-4` (src/eval/nnue/chess-king-features.ts): the bucket tables, and the left-right
 * mirroring, which makes a position and its mirror image identical inputs (in shogi whenever both
 * kings stand off the centre file), whatever the weights.
 */
import { describe, expect, it } from 'vitest';
import { ShogiNnue } from '../../../src/eval/nnue/shogi-nnue.js';
import { ChessNnue } from '../../../src/eval/nnue/chess-nnue.js';
import { CHESS_CODES, CHESS_KB_FEATURE_OF, CHESS_KB_FEATURES_COUNT, CHESS_KB_VIEWS, chessKbView } from '../../../src/eval/nnue/chess-king-features.js';
import { FastChessBoard } from '../../../src/games/chess/fast/board.js';
import { SHOGI_KB_FEATURE_OF, SHOGI_KB_FEATURES_COUNT, SHOGI_KB_VIEWS, shogiKbView } from '../../../src/eval/nnue/shogi-king-features.js';
import { SHOGI_CODES } from '../../../src/eval/nnue/shogi-features.js';
import { SHOGI_KZ_VIEWS, SHOGI_KZ_ZONE_OF, shogiKzView } from '../../../src/eval/nnue/shogi-king-zone-features.js';
import { FastShogiBoard } from '../../../src/games/shogi/fast/board.js';
import { randomNetwork } from './random-network.js';
import { mirrorFen } from './mirror-fen.js';

/** Dense square of a USI square ("5i": file 5, rank i). */
const sq = (usi: string): number => (usi.charCodeAt(1) - 97) * 9 + (9 - Number(usi[0]));

/** The SFEN of the left-right mirror image (files 1 <-> 9). */
const mirrorSfen = (sfen: string): string => {
  const [board, ...rest] = sfen.split(' ');
  const rows = board!.split('/').map((row) => {
    const cells: string[] = [];
    for (let i = 0; i < row.length; i++) {
      const ch = row[i]!;
      if (ch >= '1' && ch <= '9') for (let k = 0; k < Number(ch); k++) cells.push('');
      else if (ch === '+') cells.push(`+${row[++i]!}`);
      else cells.push(ch);
    }
    let out = '';
    let empty = 0;
    for (const c of cells.reverse()) {
      if (c === '') empty++;
      else {
        if (empty > 0) out += String(empty);
        empty = 0;
        out += c;
      }
    }
    return out + (empty > 0 ? String(empty) : '');
  });
  return [rows.join('/'), ...rest].join(' ');
};

const evaluate = (net: ReturnType<typeof randomNetwork>, sfen: string): number => {
  const b = FastShogiBoard.fromSfen(sfen).unwrap();
  const n = new ShogiNnue(net);
  n.attach(b);
  return n.evaluate(b);
};

describe('shogi king-bucket-9 features', () => {
  it('buckets the own king square by rank zone and file zone, mirrored right of the centre', () => {
    // Black: own back rank is rank i. view = bucket * 2 + mirrored.
    expect(shogiKbView(0, sq('5i'))).toBe(2 * 2); // back rank, centre file
    expect(shogiKbView(0, sq('9i'))).toBe(0); // back rank, files 9-8
    expect(shogiKbView(0, sq('1i'))).toBe(1); // the same bucket, mirrored
    expect(shogiKbView(0, sq('8h'))).toBe(3 * 2); // second rank, files 9-8
    expect(shogiKbView(0, sq('3h'))).toBe(4 * 2 + 1); // second rank, files 3-4, mirrored
    expect(shogiKbView(0, sq('5e'))).toBe(8 * 2); // beyond, centre
    // White sees the board turned: its back rank is rank a, its files 9-8 are files 1-2.
    expect(shogiKbView(1, sq('5a'))).toBe(2 * 2);
    expect(shogiKbView(1, sq('1a'))).toBe(0);
    expect(shogiKbView(1, sq('9a'))).toBe(1);
    expect(shogiKbView(1, -1)).toBe(2 * 2); // no king: as on its start square
  });

  it('maps every piece code of every view to a distinct row inside the feature count', () => {
    for (let p = 0; p < 2; p++) {
      for (let v = 0; v < SHOGI_KB_VIEWS; v++) {
        const rows = new Set<number>();
        let used = 0;
        for (let c = 0; c < SHOGI_CODES; c++) {
          const f = SHOGI_KB_FEATURE_OF[(p * SHOGI_KB_VIEWS + v) * SHOGI_CODES + c]!;
          if (f < 0) continue;
          expect(f).toBeLessThan(SHOGI_KB_FEATURES_COUNT);
          expect(Math.floor(f / 2344)).toBe(v >> 1);
          rows.add(f);
          used++;
        }
        expect(rows.size).toBe(used);
        expect(used).toBe(2344);
      }
    }
  });

  it('evaluates a position and its mirror image alike when both kings are off the centre file', () => {
    const net = randomNetwork('shogi', 16, 'screlu', 21, 'king-bucket-9');
    const offCentre = [
      'lnsg1gsnl/1r1k3b1/ppppppppp/9/9/9/PPPPPPPPP/1B1K3R1/LNSG1GSNL b - 1',
      'ln1g3nl/1ks2r3/1ppp1g1pp/p3ppp2/9/2P1P1P1P/PPSP1P3/1KG2G1R1/LN5NL w BSPbs 40',
      '8k/9/9/9/9/9/9/9/K8 b RBGSNLPrbgsnlp 1',
    ];
    for (const sfen of offCentre) {
      const m = mirrorSfen(sfen);
      expect(m).not.toBe(sfen);
      expect(evaluate(net, m)).toBe(evaluate(net, sfen));
    }
    // With a king on the centre file the two differ (the inputs are not mirrored there).
    const centre = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2';
    expect(evaluate(net, mirrorSfen(centre))).not.toBe(evaluate(net, centre));
  });

  it('king-zone: a piece next to the own king gets the row of its offset, from either side alike', () => {
    const zone = (p: number, king: string, side: number, type: number, at: string): number =>
      SHOGI_KZ_ZONE_OF[(p * SHOGI_KZ_VIEWS + shogiKzView(p, sq(king))) * SHOGI_CODES + (side * 16 + type) * 81 + sq(at)]!;
    const GOLD = 7;
    // Black king 5i, own gold on 4h: one rank up, one file to the right = offset (dr -1, dc +1) = 8.
    expect(zone(0, '5i', 0, GOLD, '4h')).toBe(2344 + 6 * 24 + 8);
    // White king 5a, own gold on 6b: the same relation seen from white.
    expect(zone(1, '5a', 1, GOLD, '6b')).toBe(2344 + 6 * 24 + 8);
    // The opponent's gold there: the "their" block.
    expect(zone(0, '5i', 1, GOLD, '4h')).toBe(2344 + 20 * 24 + 8);
    // Outside the 5x5 zone, and the king itself: no zone row.
    expect(zone(0, '5i', 0, GOLD, '2h')).toBe(-1);
    expect(zone(0, '5i', 0, 8, '5i')).toBe(-1);
  });
});

/** Square a1 = 0 of an algebraic square. */
const csq = (name: string): number => (Number(name[1]) - 1) * 8 + name.charCodeAt(0) - 97;

const evaluateChess = (net: ReturnType<typeof randomNetwork>, fen: string): number => {
  const b = FastChessBoard.fromFen(fen).unwrap();
  const n = new ChessNnue(net);
  n.attach(b);
  return n.evaluate(b);
};

describe('chess king-bucket-4 features', () => {
  it('buckets the own king square by rank and file, mirrored on files e-h', () => {
    // view = bucket * 2 + mirrored; buckets: rank 1 a-b, rank 1 c-d, rank 2, ranks 3-8.
    expect(chessKbView(0, csq('b1'))).toBe(0);
    expect(chessKbView(0, csq('g1'))).toBe(1); // as b1, mirrored
    expect(chessKbView(0, csq('c1'))).toBe(2);
    expect(chessKbView(0, csq('e1'))).toBe(3); // as d1, mirrored
    expect(chessKbView(0, csq('e2'))).toBe(5);
    expect(chessKbView(0, csq('d5'))).toBe(6);
    // Black sees the board turned: its first rank is rank 8.
    expect(chessKbView(1, csq('e8'))).toBe(3);
    expect(chessKbView(1, csq('b8'))).toBe(0);
    expect(chessKbView(1, csq('a7'))).toBe(4);
    expect(chessKbView(1, csq('e1'))).toBe(7);
  });

  it('maps every piece code of every view to a distinct row of its bucket', () => {
    for (let p = 0; p < 2; p++) {
      for (let v = 0; v < CHESS_KB_VIEWS; v++) {
        const rows = new Set<number>();
        for (let c = 0; c < CHESS_CODES; c++) {
          const f = CHESS_KB_FEATURE_OF[(p * CHESS_KB_VIEWS + v) * CHESS_CODES + c]!;
          if (f < 0) continue;
          expect(f).toBeLessThan(CHESS_KB_FEATURES_COUNT);
          expect(Math.floor(f / 768)).toBe(v >> 1);
          rows.add(f);
        }
        expect(rows.size).toBe(768);
      }
    }
  });

  it('evaluates every position and its mirror image alike', () => {
    const net = randomNetwork('chess', 16, 'screlu', 22, 'king-bucket-4', 8);
    for (const fen of [
      'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
      'r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8',
      '2kr3r/ppp2ppp/8/8/8/8/PPP2PPP/R3K2R w KQ - 0 1',
      '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
    ]) {
      const m = mirrorFen(fen);
      expect(evaluateChess(net, m)).toBe(evaluateChess(net, fen));
    }
    // The base features have no such symmetry.
    const base = randomNetwork('chess', 16, 'screlu', 22);
    const fen = 'r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w - - 0 8';
    expect(evaluateChess(base, mirrorFen(fen))).not.toBe(evaluateChess(base, fen));
  });
});
