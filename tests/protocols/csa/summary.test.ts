import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGameSummary, parseTimeUnit } from '../../../src/protocols/csa/summary.js';
import { STARTPOS_SFEN } from '../../../src/protocols/csa/shogi-rules.js';

/** The summary alice received in a real shogi-server transcript. */
function transcriptSummary(file: string, who: string): string[] {
  const lines = readFileSync(new URL(`../../fixtures/csa/${file}`, import.meta.url), 'utf8').split('\n');
  const out: string[] = [];
  let on = false;
  for (const l of lines) {
    const m = /^\s*[\d.]+\s+(\S+)\s+<<\s+"(.*)"$/.exec(l);
    if (!m || m[1] !== who) continue;
    if (m[2] === 'BEGIN Game_Summary') on = true;
    if (on) out.push(m[2]!);
    if (m[2] === 'END Game_Summary') break;
  }
  return out;
}

describe('Game_Summary', () => {
  it('parses the floodgate summary shogi-server sent', () => {
    const s = parseGameSummary(transcriptSummary('transcript-floodgate-300-10F.txt', 'alice')).unwrap();
    expect(s.gameId).toBe('csatest+floodgate-300-10F+bob+alice+20261120213800');
    expect([s.blackName, s.whiteName, s.yourTurn, s.toMove]).toEqual(['bob', 'alice', '-', '+']);
    expect(s.protocolVersion).toBe('1.2');
    expect(s.declaration).toBe('Jishogi 1.1');
    expect(s.maxMoves).toBe(256);
    expect(s.rematchOnDraw).toBe(false);
    expect(s.time.black).toEqual({ unitMs: 1000, totalTime: 300, byoyomi: 0, increment: 10, leastTimePerMove: 0, roundup: false, delay: 0 });
    expect(s.time.white).toEqual(s.time.black);
    expect(s.startSfen).toBe(STARTPOS_SFEN);
    expect(s.moves).toEqual([]);
    expect(s.positionLines).toHaveLength(10);
  });

  it('reads Time_Unit in sec, msec and min', () => {
    expect([parseTimeUnit('1sec'), parseTimeUnit('1msec'), parseTimeUnit('100msec'), parseTimeUnit('1min'), parseTimeUnit('sec')]).toEqual([
      1000, 1, 100, 60000, 1000,
    ]);
    expect(parseTimeUnit('2hours')).toBeUndefined();
  });

  const base = (time: string[], position: string[]): string[] => [
    'BEGIN Game_Summary',
    'Protocol_Version:1.2',
    'Protocol_Mode:Server',
    'Format:Shogi 1.0',
    'Game_ID:g1',
    'Name+:a',
    'Name-:b',
    'Your_Turn:+',
    'To_Move:-',
    ...time,
    'BEGIN Position',
    ...position,
    'END Position',
    'END Game_Summary',
  ];

  it('reads separate Time+ / Time- blocks, min units, roundup, least time, byoyomi and delay', () => {
    const s = parseGameSummary(
      base(
        [
          'BEGIN Time',
          'Time_Unit:1min',
          'Least_Time_Per_Move:1',
          'Time_Roundup:YES',
          'END Time',
          'BEGIN Time+',
          'Total_Time:10',
          'Byoyomi:1',
          'END Time+',
          'BEGIN Time-',
          'Total_Time:5',
          'Increment:2',
          'Delay:3',
          'END Time-',
        ],
        ['PI', '-'],
      ),
    ).unwrap();
    expect(s.time.black).toEqual({ unitMs: 60000, totalTime: 10, byoyomi: 1, increment: 0, leastTimePerMove: 1, roundup: true, delay: 0 });
    expect(s.time.white).toEqual({ unitMs: 60000, totalTime: 5, byoyomi: 0, increment: 2, leastTimePerMove: 1, roundup: true, delay: 3 });
    expect(s.maxMoves).toBeUndefined();
    expect(s.startSfen).toBe('lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1');
  });

  it('reads a handicap, hands with 00AL, and moves already played with their times', () => {
    const s = parseGameSummary(
      base(
        ['BEGIN Time', 'Time_Unit:1sec', 'Total_Time:600', 'Byoyomi:10', 'END Time'],
        ['PI82HI22KA', '-', '-5142OU,T3', '+7776FU,T12', "'a comment", '-4132KI', 'T5'],
      ),
    ).unwrap();
    expect(s.startSfen).toBe('lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1');
    expect(s.moves).toEqual([
      { csa: '-5142OU', usi: '5a4b', time: 3 },
      { csa: '+7776FU', usi: '7g7f', time: 12 },
      { csa: '-4132KI', usi: '4a3b', time: 5 },
    ]);
    const hands = parseGameSummary(
      base(['BEGIN Time', 'Total_Time:1', 'END Time'], [
        'P1 *  *  *  *  *  *  * -OU * ',
        'P2 *  *  *  *  *  *  *  *  * ',
        'P3 *  *  *  *  *  *  *  *  * ',
        'P4 *  *  *  *  *  *  *  *  * ',
        'P5 *  *  *  *  *  *  *  *  * ',
        'P6 *  *  *  *  *  *  *  *  * ',
        'P7 *  *  *  *  *  *  *  *  * ',
        'P8 *  *  *  *  *  *  *  *  * ',
        'P9 *  *  *  * +OU *  *  *  * ',
        'P+00HI00FU00FU',
        'P-00AL',
        '+',
      ]),
    ).unwrap();
    expect(hands.startSfen).toBe('7k1/9/9/9/9/9/9/9/4K4 b R2Pr2b4g4s4n4l16p 1');
  });

  it('accepts board rows whose trailing spaces were stripped', () => {
    const rows = transcriptSummary('transcript-direct-300-10F.txt', 'bob').map((l) => l.replace(/\s+$/, ''));
    expect(parseGameSummary(rows).unwrap().startSfen).toBe(STARTPOS_SFEN);
  });

  it('refuses what it cannot play, quoting the bad input', () => {
    const err = (lines: string[]): string => {
      const r = parseGameSummary(lines);
      return r.isErr ? r.error.message : 'ok';
    };
    expect(err(base(['BEGIN Time', 'Time_Unit:1hour', 'END Time'], ['PI', '+']))).toBe('bad Time_Unit "1hour"');
    expect(err(base(['BEGIN Time', 'Total_Time:x', 'END Time'], ['PI', '+']))).toBe('bad Total_Time "x"');
    expect(err(base([], ['PI']))).toBe('invalid CSA position: no side-to-move line ("+" or "-")');
    expect(err(base([], ['PI', '+', '+5554FU']))).toBe(
      'invalid CSA position: move 1: illegal move "+5554FU" in lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1: no piece on 55',
    );
    expect(err(base([], ['PI', '+', '+2824HI']))).toBe(
      'invalid CSA position: move 1: illegal move "+2824HI" in lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1: the rook on 2h cannot reach 2d',
    );
    expect(err(['Game_ID:x', 'Name+:a', 'Name-:b'])).toBe('the Game_Summary has no Your_Turn');
    expect(err(base(['BEGIN Time', 'Total_Time:1'], ['PI', '+']))).toBe('bad line in the Time block: "BEGIN Position"');
  });
});
