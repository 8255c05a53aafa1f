/**
 * Rules and API of the internal shogi board on hand-made positions; every legal move list here is
 * also compared with shogiops.
 */
import { describe, expect, it } from 'vitest';
import {
  BLACK,
  BLACK_BIT,
  FastShogiBoard,
  KING,
  NULL_MOVE,
  PAWN,
  Repetition,
  WHITE,
  isDropMove,
  makeBoardMove,
  moveDropType,
  moveFrom,
  movePromotes,
  moveTo,
  moveToUsi,
  newMoveList,
  parseUsiSyntax,
  squareOfFileRank,
} from '../../../../src/games/shogi/fast/index.js';
import { seededRng as makeRandom } from '../../../../src/core/rng.js';
import { shogiopsFromSfen, shogiopsLegalUsi } from './shogiops-reference.js';

const STARTPOS = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
const MATSURI = 'l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1';

const board = (sfen: string): FastShogiBoard => FastShogiBoard.fromSfen(sfen).unwrap();

/** Legal moves as sorted USI, after checking they equal shogiops'. */
const legal = (sfen: string): string[] => {
  const b = board(sfen);
  const list = newMoveList();
  const n = b.generateMoves(list);
  const mine = Array.from(list.subarray(0, n), moveToUsi).sort();
  expect(mine).toEqual(shogiopsLegalUsi(shogiopsFromSfen(sfen)).sort());
  return mine;
};

const play = (b: FastShogiBoard, ...usis: string[]): void => {
  for (const u of usis) {
    const m = b.parseUsi(u);
    if (m === undefined) throw new Error(`illegal ${u} in ${b.toSfen()}`);
    b.makeMove(m);
  }
};

describe('FastShogiBoard.fromSfen / toSfen', () => {
  it('round-trips SFEN', () => {
    for (const sfen of [STARTPOS, MATSURI, 'R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1']) {
      expect(board(sfen).toSfen()).toBe(sfen);
    }
    expect(board('lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -').toSfen()).toBe(STARTPOS);
  });

  it('rejects invalid positions with ERR_SFEN', () => {
    for (const bad of [
      'garbage',
      'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1',
      'P3k4/9/9/9/9/9/9/9/4K4 b - 1', // pawn that can never move
      '4k4/9/9/9/9/9/9/9/4K4 b 3R 1', // three rooks
      '4k4/4R4/9/9/9/9/9/9/4K4 b - 1', // the side not to move is in check
      '4k4/9/9/9/9/9/9/9/3KK4 b - 1', // two black kings
    ]) {
      const r = FastShogiBoard.fromSfen(bad);
      expect(r.isErr).toBe(true);
      if (r.isErr) expect(r.error.code).toBe('ERR_SFEN');
    }
  });

  it('exposes pieces, hands, kings, turn and ply', () => {
    const b = board(MATSURI);
    expect(b.turn).toBe(WHITE);
    expect(b.kingSquare(WHITE)).toBe(squareOfFileRank(1, 1));
    expect(b.kingSquare(BLACK)).toBe(squareOfFileRank(2, 8));
    expect(b.pieceAt(squareOfFileRank(2, 8))).toBe(BLACK_BIT | KING);
    expect(b.handCount(WHITE, PAWN)).toBe(5);
    expect(b.handCount(BLACK, PAWN)).toBe(0);
    expect(b.parseUsi('P*2c')).toBeUndefined(); // nifu: white has a pawn on 2e
    play(b, 'P*4d');
    expect(b.ply).toBe(1);
    expect(b.turn).toBe(BLACK);
    expect(b.handCount(WHITE, PAWN)).toBe(4);
    expect(b.toSfen()).toBe('l6nl/5+P1gk/2np1S3/p1p2p1Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL b RGgsn4p 2');
  });
});

describe('FastShogiBoard rules', () => {
  it('forbids a pawn drop that mates (uchifuzume) but not other mating drops', () => {
    // White king 9a; a pawn on 9b would be protected by the knight, 8a is covered by the gold on
    // 7b, and the white gold on 8b is pinned by the bishop.
    const sfen = 'k8/1gG6/9/1N1B5/9/9/9/9/4K4 b PL 1';
    const moves = legal(sfen);
    expect(moves).not.toContain('P*9b');
    expect(moves).toContain('L*9b');
    expect(moves).toContain('P*9c');
    // Without the pin the gold can take the pawn, so the drop is legal.
    expect(legal('k8/1gG6/9/1N7/9/9/9/9/4K4 b PL 1')).toContain('P*9b');
    // A pawn-drop check the king can escape is legal.
    expect(legal('k8/1g7/9/1N7/9/9/9/9/4K4 b P 1')).toContain('P*9b');
  });

  it('forbids a second unpromoted pawn on a file (nifu), but a tokin does not count', () => {
    const pawnDrops = (sfen: string): string[] => legal(sfen).filter((u) => u.startsWith('P*'));
    const withPawn = pawnDrops('4k4/9/9/9/9/9/4P4/9/4K4 b P 1');
    expect(withPawn.filter((u) => u[2] === '5')).toEqual([]);
    expect(withPawn.length).toBe(64);
    expect(pawnDrops('4k4/9/9/9/9/9/4+P4/9/4K4 b P 1').length).toBe(70);
  });

  it('never leaves a piece without a move: drops and forced promotion', () => {
    const drops = (sfen: string, letter: string): string[] => legal(sfen).filter((u) => u.startsWith(`${letter}*`));
    expect(drops('4k4/9/9/9/9/9/9/9/4K4 b LN 1', 'L').length).toBe(71);
    expect(drops('4k4/9/9/9/9/9/9/9/4K4 b LN 1', 'L').some((u) => u.endsWith('a'))).toBe(false);
    expect(drops('4k4/9/9/9/9/9/9/9/4K4 b LN 1', 'N').length).toBe(62);
    expect(drops('4k4/9/9/9/9/9/9/9/4K4 w ln 1', 'N').some((u) => /[hi]$/.test(u))).toBe(false);
    expect(legal('4k4/9/9/7P1/9/9/9/9/4K4 b - 1')).toEqual(expect.arrayContaining(['2d2c', '2d2c+']));
    const last = legal('4k4/7P1/9/9/9/9/9/9/4K4 b - 1');
    expect(last).toContain('2b2a+');
    expect(last).not.toContain('2b2a');
    const knight = legal('4k4/9/7N1/9/9/9/9/9/4K4 b - 1');
    expect(knight.filter((u) => u.startsWith('2c'))).toEqual(['2c1a+', '2c3a+']);
    // A move out of the zone may promote; a move outside it may not.
    expect(legal('4k4/9/7S1/9/9/9/9/9/4K4 b - 1')).toEqual(expect.arrayContaining(['2c1d', '2c1d+']));
    expect(legal('4k4/9/9/9/9/9/9/7B1/4K4 b - 1').filter((u) => u.endsWith('+'))).toEqual(['2h7c+', '2h8b+', '2h9a+']);
  });

  it('keeps pinned pieces on their pin line', () => {
    expect(legal('4k4/9/9/9/4r4/9/4R4/9/4K4 b - 1').filter((u) => u.startsWith('5g'))).toEqual(['5g5e', '5g5f', '5g5h']);
    expect(legal('4k4/9/9/9/4r4/9/4N4/9/4K4 b - 1').filter((u) => u.startsWith('5g'))).toEqual([]);
  });

  it('answers check by capture, interposition or king move, and double check by king moves only', () => {
    const b = board('4k4/9/4R4/9/8B/9/9/9/4K4 w - 1');
    expect(b.inCheck()).toBe(true);
    expect(legal('4k4/9/4R4/9/8B/9/9/9/4K4 w - 1')).toEqual(['5a4a', '5a6a', '5a6b']);
    const single = legal('4k4/9/4R4/9/9/9/9/9/4K4 w gp 1');
    expect(single).toEqual(expect.arrayContaining(['G*5b', 'P*5b']));
    expect(single.filter((u) => u.includes('*') && !u.endsWith('5b'))).toEqual([]);
  });

  it('handles positions without a black king (tsume style)', () => {
    const b = board('4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1');
    expect(b.kingSquare(BLACK)).toBe(-1);
    legal('4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1');
    play(b, 'G*5b');
    expect(b.inCheck()).toBe(true);
    expect(b.generateMoves(newMoveList())).toBe(0);
  });

  it('generates exactly the captures with capturesOnly, in and out of check', () => {
    const rnd = makeRandom(99);
    const all = newMoveList();
    const caps = newMoveList();
    let positions = 0;
    for (let game = 0; game < 20; game++) {
      const b = board(game % 2 === 0 ? STARTPOS : MATSURI);
      for (let ply = 0; ply < 120; ply++) {
        const n = b.generateMoves(all);
        if (n === 0) break;
        const expected = Array.from(all.subarray(0, n))
          .filter((m) => !isDropMove(m) && b.pieceAt(moveTo(m)) !== 0)
          .sort((x, y) => x - y);
        const c = b.generateMoves(caps, true);
        expect(Array.from(caps.subarray(0, c)).sort((x, y) => x - y)).toEqual(expected);
        positions++;
        b.makeMove(all[Math.floor(rnd() * n)]!);
      }
    }
    expect(positions).toBeGreaterThan(1000);
  });
});

describe('FastShogiBoard moves', () => {
  it('encodes moves as USI both ways', () => {
    for (const sfen of [STARTPOS, MATSURI]) {
      const b = board(sfen);
      const list = newMoveList();
      const n = b.generateMoves(list);
      for (let i = 0; i < n; i++) {
        const m = list[i]!;
        expect(b.parseUsi(moveToUsi(m))).toBe(m);
        expect(parseUsiSyntax(b.moveToUsi(m))).toBe(m);
      }
    }
    const m = parseUsiSyntax('8h2b+')!;
    expect([moveFrom(m), moveTo(m), movePromotes(m), moveDropType(m)]).toEqual([
      squareOfFileRank(8, 7),
      squareOfFileRank(2, 1),
      true,
      0,
    ]);
    expect(m).toBe(makeBoardMove(squareOfFileRank(8, 7), squareOfFileRank(2, 1), true));
    const d = parseUsiSyntax('P*5e')!;
    expect([isDropMove(d), moveDropType(d), moveTo(d)]).toEqual([true, PAWN, squareOfFileRank(5, 4)]);
    expect(moveToUsi(NULL_MOVE)).toBe('0000');
  });

  it('rejects illegal or malformed USI', () => {
    const b = board(STARTPOS);
    for (const bad of ['7g7e', '7g7f+', 'P*5e', '5a5b', '1a1b', '', 'xx', '7g7f7e', '0a1b', 'K*5e']) {
      expect(b.parseUsi(bad)).toBeUndefined();
    }
    expect(b.parseUsi('7g7f')).toBeDefined();
    expect(b.isLegal(b.parseUsi('7g7f')!)).toBe(true);
  });

  it('make/unmake restores the position; clone is independent', () => {
    const b = board(MATSURI);
    const c = b.clone();
    play(b, 'P*4d', '2d2c+', '1b2c');
    expect(b.ply).toBe(3);
    expect(c.toSfen()).toBe(MATSURI);
    const copy = b.clone();
    b.unmakeMove();
    b.unmakeMove();
    b.unmakeMove();
    expect(b.toSfen()).toBe(MATSURI);
    expect([b.hashHi, b.hashLo]).toEqual([c.hashHi, c.hashLo]);
    expect(copy.ply).toBe(3);
    copy.unmakeMove();
    expect(copy.ply).toBe(2);
    expect(() => board(STARTPOS).unmakeMove()).toThrow();
  });
});

describe('FastShogiBoard.repetition', () => {
  it('reports a plain repetition as a draw, counting occurrences', () => {
    const b = board(STARTPOS);
    expect(b.repetition()).toBe(Repetition.None);
    play(b, '5i5h', '5a5b', '5h5i', '5b5a');
    expect(b.repetition()).toBe(Repetition.Draw);
    expect(b.repetition(2)).toBe(Repetition.None);
    play(b, '5i5h', '5a5b', '5h5i', '5b5a', '5i5h', '5a5b', '5h5i', '5b5a');
    expect(b.repetition(3)).toBe(Repetition.Draw);
    expect(b.repetition(4)).toBe(Repetition.None);
  });

  it('reports perpetual check as a loss for the checking side', () => {
    const b = board('4k4/9/9/9/9/9/9/9/4K3R b - 1');
    play(b, '1i1a', '5a5b', '1a1b', '5b5a', '1b1a');
    expect(b.inCheck()).toBe(true);
    expect(b.checkAt(1)).toBe(true);
    expect(b.checkAt(2)).toBe(false);
    expect(b.turn).toBe(WHITE);
    expect(b.repetition()).toBe(Repetition.Win);
    play(b, '5a5b');
    expect(b.repetition()).toBe(Repetition.Loss);
    expect(b.keyAt(6)).toEqual(b.keyAt(2));
    expect(moveToUsi(b.moveAt(0))).toBe('1i1a');
  });

  it('does not look back across a null move', () => {
    const b = board(STARTPOS);
    play(b, '5i5h', '5a5b', '5h5i', '5b5a');
    b.makeNullMove();
    b.makeNullMove();
    expect(b.repetition()).toBe(Repetition.None);
    expect(b.moveAt(4)).toBe(NULL_MOVE);
    b.unmakeNullMove();
    b.unmakeNullMove();
    expect(b.repetition()).toBe(Repetition.Draw);
  });
});

describe('givesCheck on random games', () => {
  it('equals inCheck after makeMove for every legal move (drops, promotions, discovered checks)', () => {
    const rng = makeRandom(17);
    const list = new Int32Array(1024);
    let checks = 0;
    let tested = 0;
    for (let game = 0; game < 6; game++) {
      const b = FastShogiBoard.fromSfen(STARTPOS).unwrap();
      for (let ply = 0; ply < 150; ply++) {
        const n = b.generateMoves(list);
        if (n === 0) break;
        const before = b.toSfen();
        for (let i = 0; i < n; i++) {
          const m = list[i]!;
          b.makeMove(m);
          const expected = b.inCheck();
          b.unmakeMove();
          expect(b.givesCheck(m)).toBe(expected);
          tested++;
          if (expected) checks++;
        }
        expect(b.toSfen()).toBe(before);
        b.makeMove(list[Math.floor(rng() * n)]!);
      }
    }
    expect(tested).toBeGreaterThan(10_000);
    expect(checks).toBeGreaterThan(100);
  });
});
