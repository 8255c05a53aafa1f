import { normalizedKifLines, parseKifHeader, parseKifMovesOrDrops } from 'shogiops/notation/kif';
import { makeSfen } from 'shogiops/sfen';
import { makeUsi } from 'shogiops/util';
import { describe, expect, it } from 'vitest';
import { csaOf, kifOf, pgnOf } from '../../src/web/game-records.js';
import type { RecordData } from '../../src/web/game-records.js';
import { readCsa, readPgn } from '../records/read-back.js';

const base: RecordData = {
  game: 'shogi',
  names: { first: 'Ann', second: 'Kishi' },
  control: { initialMs: 600_000, incrementMs: 0, byoyomiMs: 10_000 },
  moves: ['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e'],
  moveMs: [1_000, 2_000, 3_000, 4_000, 65_000],
  result: { winner: 'first', reason: 'resign' },
  startedAt: new Date('2026-01-02T03:04:05Z'),
};

describe('web game records', () => {
  it('writes PGN that chessops reads back to the same moves', () => {
    const moves = ['e2e4', 'e7e5', 'd1h5', 'b8c6', 'f1c4', 'g8f6', 'h5f7'];
    const pgn = pgnOf({ ...base, game: 'chess', control: { initialMs: 300_000, incrementMs: 3_000, byoyomiMs: 0 }, moves, result: { winner: 'first', reason: 'checkmate' } }).unwrap();
    expect(pgn).toContain('[White "Ann"]');
    expect(pgn).toContain('[Result "1-0"]');
    expect(pgn).toContain('[TimeControl "300+3"]');
    const { ucis: back, pos } = readPgn(pgn);
    expect(back).toEqual(moves);
    expect(pos.isCheckmate()).toBe(true);
  });

  it('writes CSA moves, times and the end, which shogiops reads back', () => {
    const csa = csaOf(base).unwrap();
    expect(csa.split('\n')).toEqual([
      "'CSA encoding=UTF-8",
      'V3.0',
      'N+Ann',
      'N-Kishi',
      '$EVENT:Kishi local game',
      '$START_TIME:2026/01/02 03:04:05',
      '$TIME:600+10+0',
      'PI',
      '+',
      '+7776FU',
      'T1',
      '-3334FU',
      'T2',
      '+8822UM',
      'T3',
      '-3122GI',
      'T4',
      '+0045KA',
      'T65',
      '%TORYO',
      '',
    ]);
    expect(readCsa(csa).usis).toEqual(base.moves);
  });

  it('refuses a move the rules do not allow', () => {
    expect(csaOf({ ...base, moves: ['7g7f', '7g7f'] }).isErr).toBe(true);
    expect(kifOf({ ...base, moves: ['1a1b'] }).isErr).toBe(true);
    expect(pgnOf({ ...base, game: 'chess', moves: ['e2e5'] }).isErr).toBe(true);
  });

  it('writes KIF moves with their origin squares, drops and the end, which shogiops reads back', () => {
    const text = kifOf(base).unwrap();
    const pos = parseKifHeader(text).unwrap();
    expect(makeSfen(pos)).toBe('lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1');
    const lines = normalizedKifLines(text)
      .filter((l) => /^\s*\d+\s/.test(l))
      .map((l) => l.replace(/^\s*\d+\s+/, '').replace(/\s+\(.*$/, ''));
    expect(parseKifMovesOrDrops(lines.slice(0, -1)).map(makeUsi)).toEqual(base.moves);
    const kif = text.split('\n');
    expect(kif).toContain('先手：Ann');
    expect(kif).toContain('   1 ７六歩(77)   ( 0:01/)');
    expect(kif).toContain('   3 ２二角成(88)   ( 0:03/)');
    expect(kif).toContain('   4 同　銀(31)   ( 0:04/)');
    expect(kif).toContain('   5 ４五角打   ( 1:05/)');
    expect(kif).toContain('   6 投了');
  });
});
