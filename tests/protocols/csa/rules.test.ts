import { describe, expect, it } from 'vitest';
import { blackViewCp, floodgateComment } from '../../../src/protocols/csa/comment.js';
import { formatCsaRecord } from '../../../src/protocols/csa/record.js';
import {
  STARTPOS_SFEN,
  canDeclareWin,
  legalUsiMoves,
  parseCsaMove,
  parseUsiMove,
  playMove,
  positionFromSfen,
  usiLineToCsa,
} from '../../../src/protocols/csa/shogi-rules.js';
import { parseGameSummary } from '../../../src/protocols/csa/summary.js';
import { CsaGame } from '../../../src/protocols/csa/csa-game.js';

const start = () => positionFromSfen('startpos').unwrap();

describe('CSA <-> USI moves', () => {
  it('converts moves, drops and promotions both ways', () => {
    const pos = start();
    const line = ['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e'];
    expect(usiLineToCsa(pos, line)).toEqual(['+7776FU', '-3334FU', '+8822UM', '-3122GI', '+0045KA']);
    for (const [usi, csa] of [
      ['7g7f', '+7776FU'],
      ['3c3d', '-3334FU'],
      ['8h2b+', '+8822UM'],
      ['3a2b', '-3122GI'],
      ['B*4e', '+0045KA'],
    ] as const) {
      const m = parseCsaMove(pos, csa).unwrap();
      expect(m.usi).toBe(usi);
      expect(parseUsiMove(pos, usi).unwrap().csa).toBe(csa);
      playMove(pos, m);
    }
  });

  it('refuses moves out of turn, of missing pieces, with a wrong piece name, or illegal', () => {
    const pos = start();
    const msg = (csa: string): string => {
      const r = parseCsaMove(pos, csa);
      return r.isErr ? r.error.message : 'ok';
    };
    expect(msg('-3334FU')).toBe('-3334FU: it is + (sente) to move');
    expect(msg('+5554FU')).toBe('+5554FU: no piece on 55');
    expect(msg('+7776KY')).toBe('+7776KY: 77 holds FU, which cannot become KY');
    expect(msg('+7775FU')).toBe('illegal move +7775FU');
    expect(msg('+7776TO')).toBe('illegal move +7776TO');
    expect(msg('7776FU')).toBe('not a CSA move: "7776FU"');
    expect(legalUsiMoves(pos)).toHaveLength(30);
  });

  it('knows the 27-point declaration rule', () => {
    // Black king on 1a... with 10 pieces in the camp worth 28 points (rook, bishop + 8 golds/pawns... )
    const yes = positionFromSfen('KGGGG4/PPPPPPRB1/9/9/9/9/9/9/8k b RB2S 1').unwrap();
    // In camp: 4 golds, 6 pawns, rook, bishop (12 pieces, 4+6+5+5=20) + hand R B 2S (5+5+2=12) = 32.
    expect(canDeclareWin(yes)).toBe(true);
    const fewPieces = positionFromSfen('KGGGG4/BR7/9/9/9/9/9/9/8k b RB2S10P 1').unwrap();
    expect(canDeclareWin(fewPieces)).toBe(false); // 6 pieces in the camp
    const fewPoints = positionFromSfen('KGGGGSSSS/PP7/9/9/9/9/9/9/8k b - 1').unwrap();
    expect(canDeclareWin(fewPoints)).toBe(false); // 10 pieces but 10 points
    expect(canDeclareWin(start())).toBe(false);
    // White needs 27: mirror image with one point less.
    const white = positionFromSfen('8K/9/9/9/9/9/9/1rbpppppp/4ggggk w rb2s 1').unwrap();
    expect(canDeclareWin(white)).toBe(true);
  });
});

describe('floodgate comment', () => {
  const info = (score: { cp: number } | { mate: number }, pv: string[]) => ({ depth: 10, score, nodes: 1, nps: 1, timeMs: 1, pv });

  it('gives the score from black and the PV from the reply on', () => {
    const pos = start();
    expect(floodgateComment(pos, '7g7f', info({ cp: 30 }, ['7g7f', '3c3d', '2g2f']), '+')).toBe("'* 30 -3334FU +2726FU");
    const afterBlack = start();
    playMove(afterBlack, parseUsiMove(afterBlack, '7g7f').unwrap());
    // White's engine says +12 for white: black's view is -12 (ShogiHome e2e scenario 1).
    expect(floodgateComment(afterBlack, '3c3d', info({ cp: 12 }, ['3c3d', '2g2f']), '-')).toBe("'* -12 +2726FU");
    // A PV that does not start with the move played is dropped, the score kept.
    expect(floodgateComment(pos, '7g7f', info({ cp: 5 }, ['2g2f', '3c3d']), '+')).toBe("'* 5");
    expect(floodgateComment(pos, '7g7f', undefined, '+')).toBeUndefined();
  });

  it('turns mate scores into big centipawn values', () => {
    expect(blackViewCp(info({ mate: 3 }, []), '+')).toBe(99997);
    expect(blackViewCp(info({ mate: -2 }, []), '+')).toBe(-99998);
    expect(blackViewCp(info({ mate: 3 }, []), '-')).toBe(-99997);
  });
});

describe('CSA record', () => {
  it('writes the server times and our comments like shogi-server records', () => {
    const summary = parseGameSummary([
      'Game_ID:wdoor+floodgate-300-10F+a+b+20240101120000',
      'Name+:a',
      'Name-:b',
      'Your_Turn:+',
      'Max_Moves:256',
      'BEGIN Time',
      'Time_Unit:1sec',
      'Total_Time:300',
      'Increment:10',
      'END Time',
      'BEGIN Position',
      'PI',
      '+',
      'END Position',
    ]).unwrap();
    const game = CsaGame.fromSummary(summary).unwrap();
    game.applyEcho('+7776FU', 3, { csa: '+7776FU', comment: "'* 30 -3334FU" }).unwrap();
    game.applyEcho('-3334FU', 0).unwrap();
    game.applySpecial('%TORYO', undefined);
    const text = formatCsaRecord({
      summary,
      startTime: new Date(Date.UTC(2024, 0, 1, 12, 0, 0)),
      endTime: new Date(Date.UTC(2024, 0, 1, 12, 0, 9)),
      moves: game.recordMoves,
      result: 'RESIGN:a lose:b win',
    }).unwrap();
    // The header is pinned by record.test.ts (a real server's game); here the times, our comment and the end.
    expect(text.split('\n').slice(0, 6)).toEqual(['V2.2', 'N+a', 'N-b', '$EVENT:wdoor+floodgate-300-10F+a+b+20240101120000', '$START_TIME:2024/01/01 12:00:00', '$END_TIME:2024/01/01 12:00:09']);
    expect(text.split('\n').slice(text.split('\n').indexOf('PI'))).toEqual(['PI', '+', '+7776FU', 'T3', "'** 30 -3334FU", '-3334FU', 'T0', '%TORYO', "'summary:RESIGN:a lose:b win", '']);
    expect(game.clock.remaining('+')).toBe(307);
    expect(game.logMoves.map((m) => [m.move, m.side, m.ours, m.timeMs])).toEqual([
      ['7g7f', 'first', true, 3000],
      ['3c3d', 'second', false, 0],
      ['resign', 'first', true, undefined],
    ]);
    expect(STARTPOS_SFEN).toBe(summary.startSfen);
  });
});
