import { describe, expect, test } from 'vitest';
import { ShogiGame } from '../../../src/games/shogi/shogi-game.js';
import { errorOf } from './helpers.js';

const game = (sfen: string, maxMoves?: number): ShogiGame => ShogiGame.fromSfen(sfen, { maxMoves }).unwrap();
const playAll = (g: ShogiGame, usis: string): void => {
  for (const u of usis.split(' ').filter((s) => s !== '')) {
    expect(g.outcome(), `game over before ${u}`).toBeUndefined();
    g.play(g.parseMove(u).unwrap());
  }
};
const usiMoves = (g: ShogiGame): Set<string> => new Set(g.legalMoves().map((m) => g.moveToText(m)));
const legal = (g: ShogiGame, usi: string): boolean => g.parseMove(usi).isOk;

describe('sennichite', () => {
  // sente's rook checks from 9a and 9b in turn; gote's king steps 1a <-> 1b
  const CHECKING = '8k/R8/9/9/9/9/9/9/4K4 b - 1';
  const CHECK_CYCLE = '9b9a 1a1b 9a9b 1b1a';

  test('perpetual check: the fourth repetition loses for the side that checked on every move', () => {
    const g = game(CHECKING);
    playAll(g, `${CHECK_CYCLE} ${CHECK_CYCLE}`);
    expect(g.repetitions()).toBe(3);
    expect(g.outcome()).toBeUndefined(); // third occurrence: play on
    playAll(g, '9b9a 1a1b 9a9b');
    expect(g.isCheck()).toBe(true);
    expect(g.outcome()).toBeUndefined();
    g.play(g.parseMove('1b1a').unwrap());
    expect(g.plies()).toBe(12);
    expect(g.repetitions()).toBe(4);
    expect(g.outcome()).toEqual({ winner: 'second', reason: 'perpetual-check' });
    g.undo();
    expect(g.outcome()).toBeUndefined();
  });

  test('perpetual check by gote loses for gote', () => {
    // mirror image: gote's rook checks from 9i and 9h, sente's king steps 1i <-> 1h
    const g = game('4k4/9/9/9/9/9/9/r8/8K w - 1');
    playAll(g, '9h9i 1i1h 9i9h 1h1i 9h9i 1i1h 9i9h 1h1i 9h9i 1i1h 9i9h 1h1i');
    expect(g.outcome()).toEqual({ winner: 'first', reason: 'perpetual-check' });
  });

  test('plain sennichite (no checks) is a draw on the fourth occurrence', () => {
    const g = ShogiGame.startpos();
    const shuffle = '5i5h 5a5b 5h5i 5b5a';
    playAll(g, `${shuffle} ${shuffle} 5i5h 5a5b 5h5i`);
    expect(g.outcome()).toBeUndefined();
    g.play(g.parseMove('5b5a').unwrap());
    expect(g.repetitions()).toBe(4); // the start position counts as the first occurrence
    expect(g.outcome()).toEqual({ winner: undefined, reason: 'sennichite' });
  });

  test('checks on only some moves of the cycle: a draw, not perpetual check', () => {
    // two checking cycles and one quiet cycle (rook via 9c, gote silver shuffles) between 1st and 4th occurrence
    const g = game('8k/R8/9/9/4s4/9/9/9/4K4 b - 1');
    playAll(g, `${CHECK_CYCLE} 9b9c 5e4f 9c9b 4f5e ${CHECK_CYCLE}`);
    expect(g.repetitions()).toBe(4);
    expect(g.outcome()).toEqual({ winner: undefined, reason: 'sennichite' });
  });

  test('the same board with the other side to move is a different position', () => {
    const g = ShogiGame.startpos();
    // a 3-ply triangle for sente and a 2-ply shuffle for gote put the start board back with gote to move
    playAll(g, '5i5h 5a5b 5h4h 5b5a 4h5i');
    expect(g.toText().split(' ').slice(0, 3)).toEqual(['lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL', 'w', '-']);
    expect(g.repetitions()).toBe(1);
  });
});

describe('maximum moves (Max_Moves)', () => {
  test('the move that reaches the limit is played, then the game is a draw', () => {
    const g = ShogiGame.startpos({ maxMoves: 4 });
    playAll(g, '7g7f 3c3d 2g2f');
    expect(g.outcome()).toBeUndefined();
    g.play(g.parseMove('8c8d').unwrap());
    expect(g.moveCount()).toBe(4);
    expect(g.outcome()).toEqual({ winner: undefined, reason: 'max-moves' });
  });

  test('counts from the SFEN move number', () => {
    const g = game('lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 256', 256);
    expect(g.outcome()).toBeUndefined();
    g.play(g.parseMove('7g7f').unwrap());
    expect(g.outcome()).toEqual({ winner: undefined, reason: 'max-moves' });
    expect(ShogiGame.startpos().maxMoves).toBe(0); // no limit unless given
  });

  test('a mate on the limit move is still a max-moves draw (the server stops the game first)', () => {
    const g = game('7nk/7p1/7GP/9/9/9/9/9/4K4 b - 256', 256);
    g.play(g.parseMove('1c1b').unwrap());
    expect(g.legalMoves()).toHaveLength(0);
    expect(g.outcome()).toEqual({ winner: undefined, reason: 'max-moves' });
  });

  test('sennichite on the limit move takes precedence over max-moves', () => {
    const g = ShogiGame.startpos({ maxMoves: 12 });
    playAll(g, '5i5h 5a5b 5h5i 5b5a 5i5h 5a5b 5h5i 5b5a 5i5h 5a5b 5h5i');
    g.play(g.parseMove('5b5a').unwrap());
    expect(g.outcome()).toEqual({ winner: undefined, reason: 'sennichite' });
  });
});

describe('checkmate and stalemate', () => {
  test('a pawn *move* may give mate; no legal moves in check loses', () => {
    const g = game('7nk/7p1/7GP/9/9/9/9/9/4K4 b - 1');
    expect(g.isCheck()).toBe(false);
    g.play(g.parseMove('1c1b').unwrap());
    expect(g.isCheck()).toBe(true);
    expect(g.legalMoves()).toEqual([]);
    expect(g.countLegalMoves()).toBe(0);
    expect(g.outcome()).toEqual({ winner: 'first', reason: 'checkmate' });
  });

  test('no legal moves without check also loses in shogi', () => {
    // gote's lone king on 1a: 2a, 2b, 1b all covered by the silver on 3b and the gold on 2c
    const g = game('8k/6S2/7G1/9/9/9/9/9/4K4 w - 1');
    expect(g.isCheck()).toBe(false);
    expect(g.legalMoves()).toEqual([]);
    expect(g.outcome()).toEqual({ winner: 'first', reason: 'stalemate' });
  });
});

describe('drops: uchifuzume and nifu', () => {
  test('uchifuzume: a pawn drop that mates is illegal; a lance drop there is legal and mates', () => {
    // gote king 1a boxed in by its own knight (2a) and pawn (2b); sente gold 1c guards 1b
    const g = game('7nk/7p1/8G/9/9/9/9/9/4K4 b LP 1');
    expect(legal(g, 'P*1b')).toBe(false);
    expect(usiMoves(g).has('P*1b')).toBe(false);
    expect(errorOf(g.parseMove('P*1b'))?.message).toMatch(/uchifuzume/);
    expect(g.isLegal({ role: 'pawn', to: 16 })).toBe(false); // 1b
    expect(legal(g, 'P*1d')).toBe(true);
    expect(legal(g, 'L*1b')).toBe(true);
    g.play(g.parseMove('L*1b').unwrap());
    expect(g.outcome()).toEqual({ winner: 'first', reason: 'checkmate' });
  });

  test('uchifuzume when the only defender that could take the pawn is pinned', () => {
    // the gote gold on 2a could take on 1b, but the sente rook on 9a pins it to the king
    expect(legal(game('R6gk/7p1/8G/9/9/9/9/9/4K4 b P 1'), 'P*1b')).toBe(false);
    // without the pin the gold can take: the pawn check is legal
    expect(legal(game('7gk/7p1/8G/9/9/9/9/9/4K4 b P 1'), 'P*1b')).toBe(true);
    // a pawn drop check the king can answer by capturing is legal
    expect(legal(game('7nk/7p1/9/9/9/9/9/9/4K4 b P 1'), 'P*1b')).toBe(true);
  });

  test('uchifuzume applies to gote too', () => {
    // mirror of the first case: sente king 9i, own knight 8i and pawn 8h, gote gold 9g guards 9h
    const g = game('4k4/9/9/9/9/9/g8/1P7/KN7 w p 1');
    expect(legal(g, 'P*9h')).toBe(false);
    expect(legal(g, 'P*9f')).toBe(true);
  });

  test('nifu: no second unpromoted pawn on a file; tokins and enemy pawns do not count', () => {
    const g = game('4k4/9/9/9/9/9/4P4/9/4K4 b P 1');
    expect(legal(g, 'P*5e')).toBe(false);
    expect(errorOf(g.parseMove('P*5e'))?.message).toMatch(/nifu/);
    expect(legal(g, 'P*4e')).toBe(true);
    expect([...usiMoves(g)].filter((u) => u.startsWith('P*5'))).toEqual([]);
    expect(legal(game('4k4/9/9/9/9/9/4+P4/9/4K4 b P 1'), 'P*5e')).toBe(true);
    expect(legal(game('4k4/4p4/9/9/9/9/9/9/4K4 b P 1'), 'P*5e')).toBe(true);
  });

  test('no drops where the piece could never move', () => {
    const g = game('4k4/9/9/9/9/9/9/9/4K4 b NLP 1');
    for (const u of ['P*1a', 'L*1a', 'N*1a', 'N*1b']) expect(legal(g, u), u).toBe(false);
    for (const u of ['P*1b', 'L*1b', 'N*1c']) expect(legal(g, u), u).toBe(true);
    const w = game('4k4/9/9/9/9/9/9/9/4K4 w nlp 1');
    for (const u of ['P*1i', 'L*1i', 'N*1i', 'N*1h']) expect(legal(w, u), u).toBe(false);
    for (const u of ['P*1h', 'L*1h', 'N*1g']) expect(legal(w, u), u).toBe(true);
  });
});

describe('promotion', () => {
  // position and expectations from shogiops test/variant/shogi.test.ts "test promotions"
  const g = game('4k4/9/7S1/1+PG3NS1/9/9/9/9/4K3L b - 1');
  test.each([
    ['8d8c+', false, 'a tokin cannot promote'],
    ['7d7c+', false, 'a gold cannot promote'],
    ['1i1a', false, 'a lance on the last rank must promote'],
    ['1i1a+', true, ''],
    ['3d2b', false, 'a knight on the second-last rank must promote'],
    ['3d2b+', true, ''],
    ['2c1d+', true, 'promotion when leaving the zone'],
    ['2c1d', true, ''],
    ['2d1c+', true, 'promotion when entering the zone'],
    ['2d1c', true, ''],
  ] as [string, boolean, string][])('%s legal: %s (%s)', (usi, expected) => {
    expect(legal(g, usi)).toBe(expected);
    expect(usiMoves(g).has(usi)).toBe(expected);
  });

  test('a pawn into the camp may stay unpromoted; forced promotion messages', () => {
    const p = game('4k4/9/9/1P7/9/9/9/9/4K4 b - 1');
    expect(usiMoves(p)).toContain('8d8c');
    expect(usiMoves(p)).toContain('8d8c+');
    expect(errorOf(game('4k4/9/9/9/9/9/9/9/4K3L b - 1').parseMove('1i1a'))?.message).toMatch(/must promote on 1a/);
    expect(errorOf(ShogiGame.startpos().parseMove('7g7f+'))?.message).toMatch(/cannot promote/);
  });

  test('gote promotes on ranks g-i and must promote a pawn on rank i', () => {
    const w = game('4k4/9/9/9/9/9/9/4p4/K8 w - 1');
    expect(legal(w, '5h5i')).toBe(false);
    expect(legal(w, '5h5i+')).toBe(true);
    w.play(w.parseMove('5h5i+').unwrap());
    expect(w.toText()).toBe('4k4/9/9/9/9/9/9/9/K3+p4 b - 2');
  });

  test('capturing a promoted piece puts the unpromoted piece in hand; undo restores it', () => {
    const c = game('4k4/9/9/9/4+r4/4G4/9/9/4K4 b - 1');
    c.play(c.parseMove('5f5e').unwrap());
    expect(c.toText()).toBe('4k4/9/9/9/4G4/9/9/9/4K4 w R 2');
    c.undo();
    expect(c.toText()).toBe('4k4/9/9/9/4+r4/4G4/9/9/4K4 b - 1');
  });
});

describe('entering-king declaration (CSA 27-point rule)', () => {
  // sente: king 5b; G G S S on rank a, four pawns on rank b, R B on rank c = 10 pieces, 18 points; R B in hand = 10
  const SENTE_28 = 'GGSS5/PPPPK4/RB7/9/9/9/9/9/8k b RB 1';

  test('legal for sente with 10 pieces in the zone and 28 points', () => {
    const g = game(SENTE_28);
    expect(g.declarationStatus('first')).toEqual({ kingInZone: true, piecesInZone: 10, points: 28 });
    expect(g.declarationPoints('first')).toBe(28);
    expect(g.canDeclareWin()).toBe(true);
  });

  test('illegal for sente with 27 points (gote would need only 27)', () => {
    const g = game('GGSS5/PPPPK4/RB7/9/9/9/9/9/8k b R4P 1');
    expect(g.declarationPoints('first')).toBe(27);
    expect(g.canDeclareWin()).toBe(false);
  });

  test('legal for gote with exactly 27 points', () => {
    const g = game('K8/9/9/9/9/9/7br/4kpppp/5ssgg w r4p 1');
    expect(g.declarationStatus('second')).toEqual({ kingInZone: true, piecesInZone: 10, points: 27 });
    expect(g.canDeclareWin()).toBe(true);
  });

  test('illegal with only 9 pieces in the zone, even with 28 points', () => {
    const g = game('GGSS5/PPP1K4/RB7/9/9/9/9/9/8k b RBP 1');
    expect(g.declarationStatus('first')).toEqual({ kingInZone: true, piecesInZone: 9, points: 28 });
    expect(g.canDeclareWin()).toBe(false);
  });

  test('illegal with the king outside the zone', () => {
    const g = game('GGSS5/PPPP5/RB7/4K4/9/9/9/9/8k b RB 1');
    expect(g.declarationStatus('first').kingInZone).toBe(false);
    expect(g.canDeclareWin()).toBe(false);
  });

  test('illegal in check', () => {
    const g = game('GGSS1g3/PPPPK4/RB7/9/9/9/9/9/8k b RB 1');
    expect(g.isCheck()).toBe(true);
    expect(g.declarationPoints('first')).toBe(28);
    expect(g.canDeclareWin()).toBe(false);
  });

  test('only the side to move declares; the start position scores 0 and 1 + 0', () => {
    const w = game('GGSS5/PPPPK4/RB7/9/9/9/9/9/8k w RB 1');
    expect(w.canDeclareWin()).toBe(false); // gote to move, gote cannot
    const s = ShogiGame.startpos();
    expect(s.declarationPoints('first')).toBe(0);
    expect(s.canDeclareWin()).toBe(false);
  });
});

test('isCheck and turn', () => {
  const g = ShogiGame.startpos();
  expect(g.kind).toBe('shogi');
  expect(g.turn()).toBe('first');
  expect(g.isCheck()).toBe(false);
  playAll(g, '7g7f 3c3d 8h2b+');
  expect(g.turn()).toBe('second');
  expect(g.isCheck()).toBe(false);
  const c = game('4k4/9/9/9/9/9/9/4r4/4K4 b - 1');
  expect(c.isCheck()).toBe(true);
  expect([...usiMoves(c)].sort()).toEqual(['5i4i', '5i5h', '5i6i']); // 4h and 6h are on the rook's rank
});
