/** Record details not covered by the engine tests: PGN comments and clocks, CSA end moves and scores. */
import { parseComment } from 'chessops/pgn';
import { describe, expect, it } from 'vitest';
import { csaEndMove, formatCsaRecord, senteScore } from '../../src/match/csa-record.js';
import type { GameRecord } from '../../src/match/game-record.js';
import { clockCommand, formatPgn, formatScore, moveComment, pgnTermination } from '../../src/match/pgn.js';
import { NO_TIME_CONTROL } from '../../src/match/time-control.js';
import { readCsa, readPgn } from '../records/read-back.js';

const tc = { ...NO_TIME_CONTROL, baseMs: 10_000, incMs: 100 };
const record = (over: Partial<GameRecord>): GameRecord => ({
  id: 3,
  pair: 1,
  round: '2.1',
  game: 'chess',
  variant: 'standard',
  opening: { start: 'startpos', moves: ['e2e4', 'e7e5'], source: 'book.epd:7' },
  players: { first: 'kishi', second: 'sf' },
  timeControls: { first: tc, second: tc },
  moves: [
    { move: 'g1f3', elapsedMs: 520, clockMs: 9_580, score: { cp: 31 }, depth: 12, pv: ['g1f3', 'b8c6'] },
    { move: 'b8c6', elapsedMs: 5, clockMs: 10_095 },
    { move: 'e1g1', elapsedMs: 1_000, clockMs: 8_680, score: { mate: 5 }, depth: 20 },
  ],
  end: { winner: 'first', reason: 'adjudication-resign', detail: 'sf resigns (adjudication)' },
  startedAt: '2026-01-02T03:04:05.000Z',
  durationMs: 9_000,
  finalPosition: '',
  ...over,
});

describe('PGN', () => {
  it('writes cutechess-style comments with a clock chessops reads back', () => {
    expect(formatScore({ cp: 31 })).toBe('+0.31');
    expect(formatScore({ cp: -100 })).toBe('-1.00');
    expect(formatScore({ mate: 5 })).toBe('+M5');
    expect(formatScore({ mate: -3 })).toBe('-M3');
    expect(clockCommand(3_723_450)).toBe('[%clk 1:02:03.5]');
    expect(clockCommand(9_600)).toBe('[%clk 0:00:09.6]');
    const c = moveComment({ move: 'e2e4', elapsedMs: 520, clockMs: 9_600, score: { cp: 31 }, depth: 12 });
    expect(c).toBe('+0.31/12 0.520s [%clk 0:00:09.6]');
    expect(parseComment(c).clock).toBe(9.6);
    expect(moveComment({ move: 'e2e4', elapsedMs: 5 })).toBe('0.005s');
  });

  it('maps end reasons to PGN terminations', () => {
    expect(pgnTermination('checkmate')).toBe('normal');
    expect(pgnTermination('hang')).toBe('time forfeit');
    expect(pgnTermination('crash')).toBe('abandoned');
    expect(pgnTermination('illegal-move')).toBe('rules infraction');
    expect(pgnTermination('adjudication-draw')).toBe('adjudication');
  });
});

describe('CSA', () => {
  it('maps end reasons to CSA special moves', () => {
    expect(['checkmate', 'resign', 'time-forfeit', 'sennichite', 'perpetual-check', 'entering-king', 'max-moves', 'crash'].map((r) => csaEndMove(r as never))).toEqual([
      '%TSUMI',
      '%TORYO',
      '%TIME_UP',
      '%SENNICHITE',
      '%OUTE_SENNICHITE',
      '%KACHI',
      '%MAX_MOVES',
      '%CHUDAN',
    ]);
  });

  it("writes scores from sente's view, mates as +-(100000 - plies)", () => {
    expect(senteScore({ cp: 120 }, 'first')).toBe(120);
    expect(senteScore({ cp: 120 }, 'second')).toBe(-120);
    expect(senteScore({ mate: 3 }, 'second')).toBe(-99997);
    expect(senteScore({ mate: -2 }, 'first')).toBe(-99998);
  });
});

describe('whole records', () => {
  it('writes a match game as PGN that chessops reads back', () => {
    // e1g1 is castling only after f1 is free: play Bc4 first.
    const r = record({ opening: { start: 'startpos', moves: ['e2e4', 'e7e5', 'f1c4', 'f8c5'], source: 'book.epd:7' } });
    const pgn = formatPgn(r, 'test event');
    expect(pgn).toBe(
      [
        '[Event "test event"]',
        '[Site "?"]',
        '[Date "2026.01.02"]',
        '[Round "2.1"]',
        '[White "kishi"]',
        '[Black "sf"]',
        '[Result "1-0"]',
        '[TimeControl "10+0.1"]',
        '[Termination "adjudication"]',
        '[PlyCount "7"]',
        '',
        '1. e4 { book } e5 { book } 2. Bc4 { book } Bc5 { book } 3. Nf3 { +0.31/12 0.520s [%clk 0:00:09.6] } Nc6 { 0.005s [%clk 0:00:10.1] } 4. O-O { +M5/20 1.000s [%clk 0:00:08.7], sf resigns (adjudication) } 1-0',
        '',
        '',
      ].join('\n'),
    );
    const back = readPgn(pgn).ucis;
    expect(back).toEqual(['e2e4', 'e7e5', 'f1c4', 'f8c5', 'g1f3', 'b8c6', 'e1h1']);
  });

  it('writes a FEN start, and a game without moves with why it ended', () => {
    const fen = '4k3/8/8/8/8/8/8/4K2R b K - 0 40';
    const pgn = formatPgn(record({ opening: { start: fen, moves: [], source: 'x' }, moves: [], end: { winner: undefined, reason: 'crash', detail: 'kishi crashed' } }));
    expect(pgn).toContain('[FEN "4k3/8/8/8/8/8/8/4K2R b K - 0 40"]\n[SetUp "1"]');
    expect(pgn.endsWith('\n\n{ kishi crashed } 1/2-1/2\n\n')).toBe(true);
    expect(() => formatPgn(record({ moves: [{ move: 'e2e5', elapsedMs: 1 }] }))).toThrow('game 3: move 3 (e2e5) is not legal');
  });

  it('writes a match game as a CSA record that shogiops reads back', () => {
    const r = record({
      game: 'shogi',
      opening: { start: 'startpos', moves: ['7g7f'], source: 'taya36.sfen:1' },
      players: { first: 'kishi', second: 'fairy' },
      moves: [
        { move: '3c3d', elapsedMs: 1_500, clockMs: 9_600, score: { cp: -40 }, depth: 9, nodes: 1234, pv: ['3c3d', '8h2b+', '9z9z'] },
        { move: '8h2b+', elapsedMs: 200, clockMs: 9_900, score: { mate: 3 }, depth: 4 },
      ],
      end: { winner: 'first', reason: 'resign', detail: 'fairy resigns' },
    });
    const csa = formatCsaRecord(r, 'test event');
    expect(csa.split('\n')).toEqual([
      'V2.2',
      'N+kishi',
      'N-fairy',
      '$EVENT:test event',
      '$START_TIME:2026/01/02 03:04:05',
      '$END_TIME:2026/01/02 03:04:14',
      '$OPENING:taya36.sfen:1',
      "'round 2.1",
      "'time control 10+0.1",
      'PI',
      '+',
      '+7776FU',
      'T0',
      "'book",
      '-3334FU',
      'T1',
      "'** 40 -3334FU +8822UM",
      "'* 1500ms depth 9 nodes 1234 clock 9.600s",
      '+8822UM',
      'T0',
      "'** 99997",
      "'* 200ms depth 4 clock 9.900s",
      '%TORYO',
      "'summary:resign:kishi win:fairy resigns",
      '',
    ]);
    expect(readCsa(csa)).toEqual({ sfen: 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1', usis: ['7g7f', '3c3d', '8h2b+'] });
  });
});
