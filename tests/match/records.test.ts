/** Record details not covered by the engine tests: PGN comments and clocks, CSA end moves and scores. */
import { parseComment } from 'chessops/pgn';
import { describe, expect, it } from 'vitest';
import { csaEndMove, senteScore } from '../../src/match/csa-record.js';
import { clockCommand, formatScore, moveComment, pgnTermination } from '../../src/match/pgn.js';

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
