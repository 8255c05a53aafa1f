import { describe, expect, it } from 'vitest';
import { normaliseEngineMove, parseEpdLine, parseEpdOperations, themeOf } from '../../../src/match/suite/epd.js';
import { judge } from '../../../src/match/suite/suite-runner.js';
import type { SuitePosition } from '../../../src/match/suite/suite-runner.js';

describe('EPD', () => {
  it('splits operations with quoted operands', () => {
    expect(parseEpdOperations('bm Qd1+ Qe2; id "BK.01"; c0 "Qxb7=10, Qf3=3";')).toEqual([
      ['bm', ['Qd1+', 'Qe2']],
      ['id', ['BK.01']],
      ['c0', ['Qxb7=10, Qf3=3']],
    ]);
  });

  it('themes drop the trailing number', () => {
    expect(themeOf('STS(v1.0) Undermining.001')).toBe('STS(v1.0) Undermining');
    expect(themeOf('WAC.001')).toBe('WAC');
    expect(themeOf('BK.24')).toBe('BK');
  });

  it('reads bm/am in SAN as UCI moves', () => {
    const p = parseEpdLine('1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id "BK.01";', 'bk:1', 'bk').unwrap();
    expect(p).toMatchObject({ fen: '1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1', id: 'BK.01', theme: 'BK', bestMoves: ['d6d1'], avoidMoves: [] });
  });

  it('reads STS points from c7/c8 (SAN), c9/c8 (UCI) and c0', () => {
    const fen = 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq -';
    const a = parseEpdLine(`${fen} bm O-O; c7 "O-O Ra8+ Kf1"; c8 "10 5 1"; id "STS(v1) Castle.001";`, 's:1', 's').unwrap();
    // Castling in chessops' king-takes-rook form.
    expect(a.points).toEqual({ e1h1: 10, a1a8: 5, e1f1: 1 });
    const b = parseEpdLine(`${fen} bm O-O; c9 "e1g1 a1a8"; c8 "10 4";`, 's:2', 's').unwrap();
    expect(b.points).toEqual({ e1h1: 10, a1a8: 4 });
    expect(b.theme).toBe('s');
    const c = parseEpdLine(`${fen} bm O-O; c0 "O-O=10, Kd2=2";`, 's:3', 's').unwrap();
    expect(c.points).toEqual({ e1h1: 10, e1d2: 2 });
    expect(normaliseEngineMove(a.fen, 'e1g1')).toBe('e1h1');
    expect(normaliseEngineMove(a.fen, 'e1e3')).toBeUndefined();
  });

  it('judges bm, am and STS points', () => {
    const fen = 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1';
    const pos = (expect_: SuitePosition['expect']): SuitePosition => ({ game: 'chess', start: fen, id: 'x', theme: 't', source: 's', expect: expect_ });
    expect(judge(pos({ kind: 'epd', best: ['e1h1'], avoid: [], points: {} }), 'e1g1', undefined)).toEqual({ solved: true, points: 1 });
    expect(judge(pos({ kind: 'epd', best: [], avoid: ['a1a8'], points: {} }), 'a1a8', undefined)).toEqual({ solved: false, points: 0 });
    expect(judge(pos({ kind: 'epd', best: [], avoid: ['a1a8'], points: {} }), 'a1a7', undefined)).toEqual({ solved: true, points: 1 });
    expect(judge(pos({ kind: 'epd', best: ['e1h1'], avoid: [], points: { e1h1: 10, a1a8: 5 } }), 'a1a8', undefined)).toEqual({ solved: false, points: 5 });
    expect(judge(pos({ kind: 'epd', best: ['e1h1'], avoid: [], points: {} }), 'e1e5', undefined)).toEqual({ solved: false, points: 0 });
  });

  it('judges tsume: a mate in one by the rules, a reported mate, a false no-mate claim', () => {
    const sfen = 'Kbg4nl/3sk1gs1/2n4pp/1G1p5/1pP4P1/4S4/P2PPG2P/1L7/LNS4NL w 7P2Rpb 1';
    const p = (e: SuitePosition['expect']): SuitePosition => ({ game: 'shogi', start: sfen, id: 'x', theme: 't', source: 's', expect: e });
    // B*8b mates at once (checked by the rules, whatever the engine says); P*5e does not.
    expect(judge(p({ kind: 'mate', plies: 1 }), 'B*8b', undefined).solved).toBe(true);
    expect(judge(p({ kind: 'mate', plies: 1 }), 'P*5e', undefined).solved).toBe(false);
    expect(judge(p({ kind: 'mate', plies: 1 }), 'B*5f', { mate: 1 }).solved).toBe(false); // 5f is occupied: illegal
    expect(judge(p({ kind: 'mate', plies: 3 }), 'P*5e', { mate: 3 }).solved).toBe(true);
    expect(judge(p({ kind: 'mate', plies: 3 }), 'P*5e', { mate: 5 }).solved).toBe(false);
    expect(judge(p({ kind: 'no-mate', plies: 1 }), 'P*5e', { cp: 300 }).solved).toBe(true);
    expect(judge(p({ kind: 'no-mate', plies: 1 }), 'P*5e', { mate: 1 }).solved).toBe(false);
  });
});
