/**
 * Differential test: on 100,000 positions from seeded random playouts the internal generator
 * must produce exactly shogiops' legal moves (as USI strings), the same SFEN and check status,
 * and make/unmake must restore the SFEN and the key (which must equal the recomputed key).
 *
 * Playouts prefer checking moves half of the time (and among them, half of the time checks that
 * only king moves answer) so that checks, double checks, evasions, pins, mates and uchifuzume
 * positions are frequent; they start from the initial position, the matsuri and
 * max-moves perft positions, positions with large hands, one without a black king (tsume
 * style), and rook batteries for discovered and double checks. The walk picks moves from
 * shogiops' list, so it depends on the rules only, not on the internal generator's move order
 * (the coverage counts below are deterministic). The run is split into chunks so the worker
 * stays responsive.
 */
import { describe, expect, it } from 'vitest';
import { makeSfen } from 'shogiops/sfen';
import { parseUsi } from 'shogiops/util';
import {
  BISHOP,
  BLACK,
  DIRS,
  DRAGON,
  FastShogiBoard,
  HORSE,
  LANCE,
  PAWN,
  ROOK,
  isDropMove,
  makeDrop,
  moveFrom,
  moveToUsi,
  newMoveList,
  squareName,
} from '../../../../src/games/shogi/fast/index.js';
import { seededRng as makeRandom } from '../../../../src/core/rng.js';
import { shogiopsFromSfen, shogiopsLegalUsi } from './shogiops-reference.js';

const STARTS = [
  'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1',
  'l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1',
  'R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1',
  '4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L9P9p 1',
  '4k4/9/9/9/9/9/9/9/4K4 w R2B2G2S2N2L9Pr2g2s2n2l9p 1',
  '4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1',
  // Batteries for discovered and double checks.
  '4k4/9/9/9/4N4/9/9/9/4R3K b GS2Pgs2p 1',
  'k8/9/G8/9/9/9/9/9/R3K4 b SPsp 1',
  'r3k4/9/9/9/9/9/g8/9/K8 w SPsp 1',
];
const CHUNKS = 10;
const PER_CHUNK = 10_000;
const MAX_PLIES = 200;

interface Stats {
  positions: number;
  moves: number;
  inCheck: number;
  doubleCheck: number;
  withPin: number;
  mates: number;
  uchifuzume: number;
  promotionChoices: number;
  drops: number;
}

/** Whether the side to move has a piece pinned to its king (independent of the generator). */
const hasPin = (b: FastShogiBoard): boolean => {
  const us = b.turn;
  const k = b.kingSquare(us);
  if (k < 0) return false;
  const own = us === BLACK ? 16 : 32;
  const enemy = own ^ 48;
  for (let d = 0; d < 8; d++) {
    const step = DIRS[d]!;
    let s = k + step;
    while (b.pieceAt(s) === 0) s += step;
    if ((b.pieceAt(s) & 48) !== own) continue;
    let s2 = s + step;
    while (b.pieceAt(s2) === 0) s2 += step;
    const p = b.pieceAt(s2);
    if ((p & 48) !== enemy) continue;
    const t = p & 15;
    const lanceFacingKing = t === LANCE && step === (enemy === 32 ? -10 : 10);
    if ((d & 1) === 1 ? t === BISHOP || t === HORSE : t === ROOK || t === DRAGON || lanceFacingKing) return true;
  }
  return false;
};

/** Whether every reply to `m` is a king move. */
const onlyKingReplies = (b: FastShogiBoard, m: number, list: Int32Array): boolean => {
  b.makeMove(m);
  const king = b.kingSquare(b.turn);
  const n = b.generateMoves(list);
  let only = true;
  for (let i = 0; i < n && only; i++) if (moveFrom(list[i]!) !== king || isDropMove(list[i]!)) only = false;
  b.unmakeMove();
  return only;
};

const total: Stats = {
  positions: 0,
  moves: 0,
  inCheck: 0,
  doubleCheck: 0,
  withPin: 0,
  mates: 0,
  uchifuzume: 0,
  promotionChoices: 0,
  drops: 0,
};

const runPlayouts = (seed: number, positions: number): void => {
  const rnd = makeRandom(seed);
  const list = newMoveList();
  const replyList = newMoveList();
  const stats = total;
  let done = 0;
  while (done < positions) {
    const start = STARTS[Math.floor(rnd() * STARTS.length)]!;
    const fast = FastShogiBoard.fromSfen(start).unwrap();
    const pos = shogiopsFromSfen(start);
    for (let ply = 0; ply < MAX_PLIES && done < positions; ply++) {
      done++;
      stats.positions++;
      // Plain comparisons first: expect() in this loop would dominate the run time.
      const sfen = makeSfen(pos);
      if (fast.toSfen() !== sfen) expect(fast.toSfen()).toBe(sfen);
      const ctx = pos.ctx();
      const check = ctx.checkers.nonEmpty();
      if (fast.inCheck() !== check) expect({ sfen, check: fast.inCheck() }).toEqual({ sfen, check });
      const n = fast.generateMoves(list);
      const codes = new Map<string, number>();
      for (let i = 0; i < n; i++) codes.set(moveToUsi(list[i]!), list[i]!);
      const ref = shogiopsLegalUsi(pos, ctx);
      // Same sets: no duplicates in our list, same size, every reference move present.
      if (codes.size !== n || ref.length !== n || !ref.every((u) => codes.has(u))) {
        expect({ sfen, moves: [...codes.keys()].sort(), n }).toEqual({ sfen, moves: [...ref].sort(), n: ref.length });
      }
      stats.moves += n;
      if (check) stats.inCheck++;
      if (ctx.checkers.moreThanOne()) stats.doubleCheck++;
      if (hasPin(fast)) stats.withPin++;
      for (const u of ref) {
        if (u.endsWith('+')) stats.promotionChoices++;
        if (u[1] === '*') stats.drops++;
      }
      if (n === 0) {
        if (check) stats.mates++;
        break;
      }
      // Uchifuzume seen: a pawn drop in front of the enemy king, missing from the list, that mates.
      const us = fast.turn;
      const ek = fast.kingSquare((us ^ 1) as 0 | 1);
      if (ek >= 0 && fast.handCount(us, PAWN) > 0) {
        const sq = us === BLACK ? ek + 10 : ek - 10;
        if (fast.pieceAt(sq) === 0 && !codes.has(`P*${squareName(sq)}`)) {
          fast.makeMove(makeDrop(PAWN, sq));
          const replies = fast.generateMoves(replyList);
          fast.unmakeMove();
          if (replies === 0 && fast.inCheck() === false) stats.uchifuzume++;
        }
      }
      // make/unmake of a few random moves restores the position and the key.
      const hi = fast.hashHi;
      const lo = fast.hashLo;
      for (let k = 0; k < 2; k++) {
        const m = list[Math.floor(rnd() * n)]!;
        fast.makeMove(m);
        const [rhi, rlo] = fast.recomputeKey();
        if (rhi !== fast.hashHi || rlo !== fast.hashLo) {
          const move = moveToUsi(m);
          expect({ sfen, move, key: [fast.hashHi, fast.hashLo] }).toEqual({ sfen, move, key: [rhi, rlo] });
        }
        fast.unmakeMove();
        if (fast.hashHi !== hi || fast.hashLo !== lo) {
          expect({ sfen, key: [fast.hashHi, fast.hashLo] }).toEqual({ sfen, key: [hi, lo] });
        }
      }
      if (fast.toSfen() !== sfen) expect(fast.toSfen()).toBe(sfen);
      // Next move: half of the time a checking move if there is one.
      let choice = ref[Math.floor(rnd() * ref.length)]!;
      if (rnd() < 0.5) {
        const checking = ref.filter((u) => {
          fast.makeMove(codes.get(u)!);
          const gives = fast.inCheck();
          fast.unmakeMove();
          return gives;
        });
        // Half of those times, a check that only king moves answer (double checks, near mates).
        const kingOnly = rnd() < 0.5 ? checking.filter((u) => onlyKingReplies(fast, codes.get(u)!, replyList)) : [];
        if (kingOnly.length > 0) choice = kingOnly[Math.floor(rnd() * kingOnly.length)]!;
        else if (checking.length > 0) choice = checking[Math.floor(rnd() * checking.length)]!;
      }
      fast.makeMove(codes.get(choice)!);
      pos.play(parseUsi(choice)!);
    }
  }
};

describe('FastShogiBoard vs shogiops on random positions', () => {
  for (let chunk = 0; chunk < CHUNKS; chunk++) {
    it(`agrees on positions ${chunk * PER_CHUNK + 1}..${(chunk + 1) * PER_CHUNK}`, () => {
      runPlayouts(20240601 + chunk, PER_CHUNK);
    });
  }

  it('covered 100,000 positions with checks, pins, mates, uchifuzume, drops and promotions', () => {
    console.log('differential coverage', total);
    expect(total.positions).toBe(CHUNKS * PER_CHUNK);
    // Measured: 26516 in check, 111 double checks, 3279 with a pin, 638 mates, 539 uchifuzume.
    expect(total.inCheck).toBeGreaterThan(20_000);
    expect(total.doubleCheck).toBeGreaterThan(80);
    expect(total.withPin).toBeGreaterThan(2_500);
    expect(total.mates).toBeGreaterThan(400);
    expect(total.uchifuzume).toBeGreaterThan(400);
    expect(total.promotionChoices).toBeGreaterThan(200_000);
    expect(total.drops).toBeGreaterThan(2_000_000);
  });
});
