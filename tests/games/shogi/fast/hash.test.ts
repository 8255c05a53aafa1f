/**
 * Zobrist keys of the internal board: the incremental key equals the key recomputed from scratch
 * after every make and unmake in seeded random games, and it identifies positions (transpositions
 * meet, hands and side to move count).
 */
import { describe, expect, it } from 'vitest';
import { FastShogiBoard, newMoveList } from '../../../../src/games/shogi/fast/index.js';
import { seededRng as makeRandom } from '../../../../src/core/rng.js';

const STARTPOS = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
const STARTS = [
  STARTPOS,
  'l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1',
  '4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L9P9p 1',
];

const key = (b: FastShogiBoard): [number, number] => [b.hashHi, b.hashLo];
const play = (b: FastShogiBoard, ...usis: string[]): void => {
  for (const u of usis) {
    const m = b.parseUsi(u);
    if (m === undefined) throw new Error(`illegal ${u} in ${b.toSfen()}`);
    b.makeMove(m);
  }
};

describe('FastShogiBoard hash', () => {
  it('incremental equals recomputed after every make and unmake in random games', () => {
    const rnd = makeRandom(7);
    const list = newMoveList();
    let checked = 0;
    for (let game = 0; game < 30; game++) {
      const b = FastShogiBoard.fromSfen(STARTS[game % STARTS.length]!).unwrap();
      const keys: [number, number][] = [key(b)];
      for (let ply = 0; ply < 150; ply++) {
        const n = b.generateMoves(list);
        if (n === 0) break;
        // Every legal move once: make, compare, unmake, compare.
        for (let i = 0; i < n; i++) {
          b.makeMove(list[i]!);
          const [hi, lo] = b.recomputeKey();
          if (hi !== b.hashHi || lo !== b.hashLo) expect([b.hashHi, b.hashLo]).toEqual([hi, lo]);
          b.unmakeMove();
          const last = keys[keys.length - 1]!;
          if (b.hashHi !== last[0] || b.hashLo !== last[1]) expect(key(b)).toEqual(last);
          checked++;
        }
        b.makeMove(list[Math.floor(rnd() * n)]!);
        expect(b.recomputeKey()).toEqual(key(b));
        keys.push(key(b));
      }
      // Unwind the whole game: each key comes back, and it still equals the recomputed one.
      while (keys.length > 1) {
        b.unmakeMove();
        keys.pop();
        expect(key(b)).toEqual(keys[keys.length - 1]);
        expect(b.recomputeKey()).toEqual(key(b));
      }
      expect(b.ply).toBe(0);
    }
    expect(checked).toBeGreaterThan(250_000);
  });

  it('transpositions have equal keys; hands and side to move change the key', () => {
    const a = FastShogiBoard.fromSfen(STARTPOS).unwrap();
    const b = FastShogiBoard.fromSfen(STARTPOS).unwrap();
    play(a, '7g7f', '3c3d', '2g2f');
    play(b, '2g2f', '3c3d', '7g7f');
    expect(key(a)).toEqual(key(b));
    expect(a.toSfen().split(' ').slice(0, 3)).toEqual(b.toSfen().split(' ').slice(0, 3));
    const fresh = FastShogiBoard.fromSfen(a.toSfen()).unwrap();
    expect(key(fresh)).toEqual(key(a));

    // Bishop exchange: one bishop in each hand vs the same board with both in black's hand.
    play(a, '8c8d', '8h2b+', '3a2b');
    const sfen = a.toSfen();
    expect(sfen).toBe('lnsgkg1nl/1r5s1/p1pppp1pp/1p4p2/9/2P4P1/PP1PPPP1P/7R1/LNSGKGSNL b Bb 7');
    const other = FastShogiBoard.fromSfen(sfen.replace('Bb', '2B')).unwrap();
    expect(key(other)).not.toEqual(key(a));
    const whiteToMove = FastShogiBoard.fromSfen(sfen.replace(' b ', ' w ')).unwrap();
    expect(key(whiteToMove)).not.toEqual(key(a));
    expect(FastShogiBoard.fromSfen(sfen).unwrap().recomputeKey()).toEqual(key(a));
  });

  it('null move toggles only the side key', () => {
    const b = FastShogiBoard.fromSfen(STARTPOS).unwrap();
    const before = key(b);
    b.makeNullMove();
    expect(b.turn).toBe(1);
    expect(b.recomputeKey()).toEqual(key(b));
    expect(key(b)).not.toEqual(before);
    b.unmakeNullMove();
    expect(key(b)).toEqual(before);
    expect(b.turn).toBe(0);
  });
});
