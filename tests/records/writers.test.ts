/** The records module's writers on positions the callers' tests do not reach: set-up starts, hands, Chess960. */
import { parsePgn, startingPosition } from 'chessops/pgn';
import { normalizedCsaLines, parseCsaHeader, parseCsaMovesOrDrops } from 'shogiops/notation/csa';
import { parseKifHeader } from 'shogiops/notation/kif';
import { makeSfen } from 'shogiops/sfen';
import { makeUsi } from 'shogiops/util';
import { describe, expect, it } from 'vitest';
import { usiMoves, writeCsa } from '../../src/records/csa.js';
import { writeKif } from '../../src/records/kif.js';
import { sanMoves, startFen, writePgn } from '../../src/records/pgn.js';

// Sente to move with a gold in hand: G*5b is mate.
const TSUME = '4k4/9/4P4/9/9/9/9/9/4K4 b G 1';

describe('PGN', () => {
  it('turns UCI into SAN, castling written either way, and refuses what is not legal', () => {
    const fen = 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1';
    expect(sanMoves(fen, ['e1g1', 'e8a8']).unwrap()).toEqual(['O-O', 'O-O-O']);
    expect(sanMoves(fen, ['e1h1']).unwrap()).toEqual(['O-O']);
    expect(sanMoves('startpos', ['e2e4', 'e2e4']).isErr).toBe(true);
    expect(sanMoves('not a fen', []).isErr).toBe(true);
    expect(startFen('startpos').unwrap()).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  });

  it('numbers the moves from the FEN tag and reads back', () => {
    const fen = 'r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 12';
    const pgn = writePgn({ tags: [['FEN', fen], ['SetUp', '1'], ['Result', '*']], moves: [{ san: 'O-O', comment: 'a } b' }, { san: 'O-O' }] });
    expect(pgn).toBe('[FEN "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 12"]\n[SetUp "1"]\n[Result "*"]\n\n12... O-O { a  b } 13. O-O *\n');
    const [game] = parsePgn(pgn);
    expect(startingPosition(game!.headers).unwrap().fullmoves).toBe(12);
    expect([...game!.moves.mainline()].map((n) => n.san)).toEqual(['O-O', 'O-O']);
  });
});

describe('CSA', () => {
  it('writes a set-up start with a hand as a board, and reads it back', () => {
    const text = writeCsa({ version: '2.2', names: { sente: 'a', gote: 'b' }, info: [], start: TSUME, moves: [{ usi: 'G*5b', time: 3 }], end: '%TSUMI' }).unwrap();
    expect(text).toContain('P+00KI\n+\n+0052KI\nT3\n%TSUMI\n');
    const pos = parseCsaHeader(text).unwrap();
    expect(makeSfen(pos)).toBe(TSUME);
    expect(parseCsaMovesOrDrops(pos, normalizedCsaLines(text).filter((l) => /^[+-]\d{4}/.test(l))).map(makeUsi)).toEqual(['G*5b']);
  });

  it('refuses illegal moves, with their number', () => {
    // The king may not take the gold the pawn protects.
    const mated = writeCsa({ version: '2.2', names: { sente: 'a', gote: 'b' }, info: [], start: TSUME, moves: [{ usi: 'G*5b' }, { usi: '5a5b' }] });
    expect(mated.isErr && mated.error.message).toBe('move 2 (5a5b) is not legal');
    const r = writeCsa({ version: '2.2', names: { sente: 'a', gote: 'b' }, info: [], start: 'startpos', moves: [{ usi: '7g7f' }, { usi: '7g7f' }] });
    expect(r.isErr && r.error.message).toBe('move 2 (7g7f) is not legal');
    expect(usiMoves('startpos', ['+7776FU', '+3334FU']).isErr).toBe(true);
    expect(usiMoves('startpos', ['+7776FU', '-3334FU']).unwrap()).toEqual(['7g7f', '3c3d']);
  });
});

describe('KIF', () => {
  it('writes a set-up start as a board diagram that shogiops reads back', () => {
    const text = writeKif({ headers: [['先手', 'a']], start: TSUME, moves: [{ usi: 'G*5b', ms: 61_000 }], end: '詰み' }).unwrap();
    expect(text).toContain('先手：a\n');
    expect(text).toContain('先手の持駒：金');
    expect(text).toContain('   1 ５二金打   ( 1:01/)\n   2 詰み\n');
    expect(makeSfen(parseKifHeader(text).unwrap())).toBe(TSUME);
    expect(writeKif({ headers: [], start: TSUME, moves: [{ usi: '5a5b' }] }).isErr).toBe(true);
  });
});
