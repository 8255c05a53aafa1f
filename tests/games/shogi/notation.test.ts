import { describe, expect, test } from 'vitest';
import { makeCsaMoveOrDrop, parseCsaMoveOrDrop } from 'shogiops/notation/csa';
import { parseSfen } from 'shogiops/sfen';
import { makeUsi } from 'shogiops/util';
import { ShogiGame } from '../../../src/games/shogi/shogi-game.js';
import type { MoveOrDrop } from '../../../src/games/shogi/shogi-game.js';
import { parseCsaPosition } from '../../../src/games/shogi/csa-position.js';
import { errorOf, mulberry32, walkRandomGames } from './helpers.js';

const normalize = (m: MoveOrDrop): MoveOrDrop =>
  'role' in m ? { role: m.role, to: m.to } : { from: m.from, to: m.to, promotion: m.promotion === true };

const play = (game: ShogiGame, usis: string): ShogiGame => {
  for (const u of usis.split(' ').filter((s) => s !== '')) game.play(game.parseMove(u).unwrap());
  return game;
};

describe('USI <-> CSA, fixed examples', () => {
  // [moves played first, USI, CSA]; expected pairs from the CSA/USI fact sheet (CSA protocol 1.2.1 and the USI protocol)
  const cases: [string, string, string][] = [
    ['', '7g7f', '+7776FU'],
    ['7g7f', '3c3d', '-3334FU'],
    ['7g7f 3c3d', '8h2b+', '+8822UM'],
    ['7g7f 3c3d', '8h2b', '+8822KA'],
    ['7g7f 3c3d 8h2b+', '3a2b', '-3122GI'],
    ['7g7f 3c3d 8h2b+ 3a2b', 'B*4e', '+0045KA'],
    ['7g7f 3c3d 8h2b+ 3a2b 2g2f 3d3e 2f2e', 'B*3d', '-0034KA'],
    ['7g7f 3c3d 8h2b+ 3a2b 2g2f 3d3e 2f2e B*3d 2e2d', '3d6g+', '-3467UM'],
  ];
  test.each(cases)('after [%s]: %s <-> %s', (before, usi, csa) => {
    const game = play(ShogiGame.startpos(), before);
    const md = game.parseMove(usi).unwrap();
    expect(game.moveToCsa(md)).toBe(csa);
    expect(normalize(game.parseCsaMove(csa).unwrap())).toEqual(normalize(md));
    expect(game.usiToCsa(usi).unwrap()).toBe(csa);
    expect(game.csaToUsi(csa).unwrap()).toBe(usi);
    // the server echoes moves with ",T<seconds>"; that form is accepted too
    expect(normalize(game.parseCsaMove(`${csa},T12`).unwrap())).toEqual(normalize(md));
  });

  test('a move into the camp offers both, a forced one only the promotion', () => {
    const game = ShogiGame.fromSfen('4k4/9/9/1P7/9/9/9/9/4K4 b - 1').unwrap();
    expect(game.parseCsaMove('+8483TO').isOk).toBe(true);
    expect(game.parseCsaMove('+8483FU').isOk).toBe(true);
    const forced = ShogiGame.fromSfen('4k4/1P7/9/9/9/9/9/9/4K4 b - 1').unwrap();
    expect(forced.parseCsaMove('+8281TO').isOk).toBe(true);
    expect(errorOf(forced.parseCsaMove('+8281FU'))?.message).toMatch(/must promote/);
  });
});

test('round trips over random games: USI <-> internal <-> CSA, SFEN out(in(x)) == x', () => {
  let movesChecked = 0;
  let positions = 0;
  walkRandomGames(
    () => ShogiGame.startpos(),
    1200,
    7,
    250,
    (game, _move, ply) => {
      const sfen = game.toText();
      const again = ShogiGame.fromSfen(sfen).unwrap();
      expect(again.toText()).toBe(sfen);
      expect(again.key()).toBe(game.key());
      positions++;
      if (ply % 5 !== 0) return;
      const ops = parseSfen('standard', sfen).unwrap();
      for (const m of game.legalMoves()) {
        const usi = game.moveToText(m);
        const csa = game.moveToCsa(m);
        expect(normalize(game.parseMove(usi).unwrap())).toEqual(normalize(m));
        expect(normalize(game.parseCsaMove(csa).unwrap())).toEqual(normalize(m));
        expect(game.usiToCsa(usi).unwrap()).toBe(csa);
        expect(game.csaToUsi(csa).unwrap()).toBe(usi);
        // independent writers and reader: shogiops' (unsigned) CSA and USI
        expect(csa).toBe((ops.turn === 'sente' ? '+' : '-') + makeCsaMoveOrDrop(ops, m));
        expect(usi).toBe(makeUsi(m));
        expect(normalize(parseCsaMoveOrDrop(ops, csa)!)).toEqual(normalize(m));
        movesChecked++;
      }
    },
  );
  expect(positions).toBe(1200);
  expect(movesChecked).toBe(12525); // every legal move at every 5th ply (seeded walk)
});

test('SFEN text: startpos, canonical output, optional move number', () => {
  const start = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
  expect(ShogiGame.fromSfen('startpos').unwrap().toText()).toBe(start);
  expect(ShogiGame.startpos().toText()).toBe(start);
  expect(ShogiGame.fromSfen(` ${start}  `).unwrap().toText()).toBe(start);
  // hand letters in any order and repeated are read; output is canonical (R B G S N L P, sente first)
  const g = ShogiGame.fromSfen('7lk/9/8S/9/9/9/9/7L1/8K b pPP').unwrap();
  expect(g.toText()).toBe('7lk/9/8S/9/9/9/9/7L1/8K b 2Pp 1');
  const matsuri = 'l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1';
  expect(ShogiGame.fromSfen(matsuri).unwrap().toText()).toBe(matsuri);
  expect(ShogiGame.fromSfen('4k4/9/9/9/9/9/9/9/4K4 b - 12345').unwrap().toText()).toBe('4k4/9/9/9/9/9/9/9/4K4 b - 12345');
});

describe('bad input gives Err naming the input, never throws', () => {
  const badSfens: [string, RegExp][] = [
    ['', /3 or 4/],
    ['nonsense', /3 or 4/],
    ['lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL', /3 or 4/],
    ['lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 extra', /3 or 4/],
    ['lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1', /8 ranks/],
    ['lnsgkgsnl/1r5b1/ppppppppp/9/55/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1', /two digits/],
    ['lnsgkgsnl/1r5b1/ppppppppp/9/8/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1', /8 squares/],
    ['lnsgkgsnl/1r5b1/ppppppppp/9/4x4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1', /unknown piece "x"/],
    ['lnsgkgsnl/1r5b1/ppppppppp/9/4+K4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1', /unknown piece "\+K"/],
    ['lnsgkgsnl/1r5b1/ppppppppp/9/4+G4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1', /unknown piece/],
    ['lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL+ b - 1', /unknown piece/],
    ['lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1', /turn/],
    ['lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2 1', /bad hands/],
    ['lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b +P 1', /bad hands/],
    ['lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b K 1', /cannot be in hand/],
    ['lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 0P 1', /count/],
    ['lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 0', /move number/],
    ['lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - x', /move number/],
    // well-formed but not a legal position
    ['9/9/9/9/9/9/9/9/4K4 b - 1', /gote has 0 kings/],
    // a tsume may leave out the attacker's king, never the king to be mated (the side not to move)
    ['8k/9/8P/9/9/9/9/9/9 w G 1', /sente has 0 kings, expected 1/],
    ['9/9/9/9/9/9/9/9/9 b G 1', /gote has 0 kings/],
    ['9/9/9/9/9/9/9/9/3KK4 w - 1', /sente has 2 kings/],
    ['4k4/9/9/9/9/9/9/9/3KK4 b - 1', /sente has 2 kings/],
    ['4k4/9/9/9/9/9/4P4/4P4/4K4 b - 1', /nifu/],
    ['P3k4/9/9/9/9/9/9/9/4K4 b - 1', /can never move/],
    ['4k4/N8/9/9/9/9/9/9/4K4 b - 1', /can never move/],
    ['4k4/9/9/9/9/9/9/9/4K4 b 3R 1', /3 rooks/],
    ['4k4/9/9/9/9/9/9/9/4K4 b 10p9P 1', /19 pawns/],
    ['4k4/4R4/9/9/9/9/9/9/4K4 b - 1', /not to move \(gote\) is in check/],
  ];
  test.each(badSfens)('SFEN "%s"', (sfen, reason) => {
    const r = ShogiGame.fromSfen(sfen);
    expect(r.isErr).toBe(true);
    expect(errorOf(r)?.code).toBe('ERR_SFEN');
    expect(errorOf(r)?.message).toContain(`"${sfen}"`);
    expect(errorOf(r)?.message).toMatch(reason);
  });

  const game = ShogiGame.startpos();
  const malformedUsi = ['', '7g7', '7g7g', '0a1b', '7j7f', 'B*', 'K*5e', 'b*5e', '+P*5e', '7g7f++', '7g7f ', '7G7F', '10a9a', '7g7f='];
  test.each(malformedUsi)('malformed USI "%s"', (text) => {
    const r = game.parseMove(text);
    expect(errorOf(r)?.code).toBe('ERR_USI_MOVE');
    expect(errorOf(r)?.message).toContain(`"${text}"`);
  });

  const illegalUsi: [string, RegExp][] = [
    ['7g7e', /cannot reach 7e/],
    ['7g7f+', /cannot promote/],
    ['P*5e', /no pawn in hand/],
    ['5a5b', /belongs to the opponent/],
    ['5e5d', /no piece on 5e/],
    ['5i4i', /cannot reach/],
  ];
  test.each(illegalUsi)('illegal USI "%s"', (text, reason) => {
    const r = game.parseMove(text);
    expect(errorOf(r)?.code).toBe('ERR_ILLEGAL_MOVE');
    expect(errorOf(r)?.message).toContain(`"${text}"`);
    expect(errorOf(r)?.message).toContain(game.toText());
    expect(errorOf(r)?.message).toMatch(reason);
  });

  const malformedCsa = ['', '7776FU', '+7776F', '+7776XX', '+7776FUX', '+0776FU', '+7770FU', '+7777FU', '+0034OU', '+0034TO', '+7776FU,X', '+7776FU,T', '*7776FU', '+7776fu'];
  test.each(malformedCsa)('malformed CSA "%s"', (text) => {
    const r = game.parseCsaMove(text);
    expect(errorOf(r)?.code).toBe('ERR_CSA_MOVE');
    expect(errorOf(r)?.message).toContain(`"${text}"`);
  });

  const illegalCsa: [string, RegExp][] = [
    ['-3334FU', /\+ \(sente\) to move/],
    ['+7776KI', /holds FU, which cannot become KI/],
    ['+7775FU', /cannot reach/],
    ['+0055FU', /no pawn in hand/],
    ['+7776TO', /cannot promote/],
    ['+5554FU', /no piece on 55/],
    ['+5152OU', /belongs to the opponent/],
  ];
  test.each(illegalCsa)('illegal CSA "%s"', (text, reason) => {
    const r = game.parseCsaMove(text);
    expect(errorOf(r)?.code).toBe('ERR_ILLEGAL_MOVE');
    expect(errorOf(r)?.message).toContain(`"${text}"`);
    expect(errorOf(r)?.message).toMatch(reason);
  });

  test('isLegal rejects malformed move objects', () => {
    const junk = [
      { from: 999, to: 1 },
      { from: 1.5, to: 2 },
      { from: 9, to: 26 }, // file 10 is off the 9x9 board
      { role: 'king', to: 40 },
      { role: 'tokin', to: 40 },
      { from: 102, to: 86, midStep: 94 },
      { from: 102, to: 86, promotion: 'yes' },
      { from: 102, to: 102 },
      null,
    ] as unknown as MoveOrDrop[];
    for (const m of junk) expect(game.isLegal(m)).toBe(false);
    expect(game.isLegal({ from: 102, to: 86 })).toBe(true); // 7g7f without a promotion flag
  });

  test('random garbage never throws: every parser answers Err', () => {
    const rng = mulberry32(99);
    const alphabet = 'lnsgkbrpLNSGKBRP+*/-_0123456789abcdefghiwT,%\' \n';
    const junk = (n: number): string =>
      Array.from({ length: n }, () => alphabet[Math.floor(rng() * alphabet.length)]).join('');
    const g = ShogiGame.startpos();
    let errs = 0;
    for (let i = 0; i < 3000; i++) {
      const text = junk(1 + Math.floor(rng() * 40));
      const results = [ShogiGame.fromSfen(text), g.parseMove(text), g.parseCsaMove(text), parseCsaPosition(text)];
      for (const r of results) if (r.isErr) errs++;
    }
    expect(errs).toBe(12000);
  });
});

describe('tsume positions without the attacker\'s king', () => {
  test('sente to move without a king: legal moves, never in check, G*1b mates', () => {
    const game = ShogiGame.fromSfen('8k/9/8P/9/9/9/9/9/9 b G 1').unwrap();
    expect(game.isCheck()).toBe(false);
    expect(game.legalMoves().length).toBeGreaterThan(0);
    play(game, 'G*1b');
    expect(game.isCheck()).toBe(true);
    expect(game.outcome()).toEqual({ winner: 'first', reason: 'checkmate' });
  });

  test('gote as the attacker (gote to move, no gote king)', () => {
    const game = ShogiGame.fromSfen('9/9/9/9/9/9/p8/9/K8 w g 1').unwrap();
    play(game, 'G*9h');
    expect(game.outcome()).toEqual({ winner: 'second', reason: 'checkmate' });
  });
});
