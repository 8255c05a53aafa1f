/**
 * The floodgate client's CSA record from what a real shogi-server sent (tests/fixtures/csa), read back by
 * shogiops; and a real server record (fairy-stockfish against itself) through the records module's writer.
 */
import { readFileSync } from 'node:fs';
import { parseCsaHeader } from 'shogiops/notation/csa';
import { makeSfen } from 'shogiops/sfen';
import { describe, expect, it } from 'vitest';
import { CsaGame } from '../../../src/protocols/csa/csa-game.js';
import { formatCsaRecord } from '../../../src/protocols/csa/record.js';
import { parseGameSummary } from '../../../src/protocols/csa/summary.js';
import { usiMoves, writeCsa } from '../../../src/records/csa.js';
import { csaMoveLines, readCsa } from '../../records/read-back.js';
import { readTranscript } from './replay.js';

const moveLines = csaMoveLines;
const readBack = readCsa;

describe('CSA record of a real server game', () => {
  it("writes what shogi-server sent bob (transcript-floodgate-300-10F), and shogiops reads it back", () => {
    const received = readTranscript('transcript-floodgate-300-10F.txt')
      .filter((e) => e.who === 'bob' && e.dir === '<<')
      .map((e) => e.line);
    const summaryLines = received.slice(received.indexOf('BEGIN Game_Summary') + 1, received.indexOf('END Game_Summary'));
    const summary = parseGameSummary(summaryLines).unwrap();
    const game = CsaGame.fromSummary(summary).unwrap();
    const echoes: string[] = [];
    for (const line of received) {
      const m = /^([+-]\d{4}[A-Z]{2}),T(\d+)$/.exec(line);
      if (m) {
        game.applyEcho(m[1]!, Number(m[2]), echoes.length === 0 ? { csa: m[1]!, comment: "'* 42 -3334FU" } : undefined).unwrap();
        echoes.push(m[1]!);
      } else if (line === '%TORYO') game.applySpecial(line, undefined);
    }
    expect(echoes).toEqual(['+7776FU', '-3334FU', '+2726FU', '-8384FU']);
    const text = formatCsaRecord({
      summary,
      startTime: new Date(Date.UTC(2026, 10, 20, 21, 38, 0)),
      moves: game.recordMoves,
      result: 'RESIGN:bob lose:alice win',
    }).unwrap();
    expect(text.split('\n')).toEqual([
      'V2.2',
      'N+bob',
      'N-alice',
      '$EVENT:csatest+floodgate-300-10F+bob+alice+20261120213800',
      '$START_TIME:2026/11/20 21:38:00',
      "'Max_Moves:256",
      "'Time_Unit:1sec",
      "'Total_Time:300",
      "'Byoyomi:0",
      "'Increment:10",
      "'Least_Time_Per_Move:0",
      'PI',
      '+',
      '+7776FU',
      'T1',
      "'** 42 -3334FU",
      '-3334FU',
      'T0',
      '+2726FU',
      'T2',
      '-8384FU',
      'T0',
      '%TORYO',
      "'summary:RESIGN:bob lose:alice win",
      '',
    ]);
    const back = readBack(text);
    expect(back.sfen).toBe(summary.startSfen);
    expect(back.usis).toEqual(game.usiMoves);
    expect(moveLines(text)).toEqual(echoes);
  });

  it('refuses a server move the rules do not allow instead of writing it', () => {
    const summary = parseGameSummary(['Game_ID:g', 'Name+:a', 'Name-:b', 'Your_Turn:+', 'BEGIN Position', 'PI', '+', 'END Position']).unwrap();
    const r = formatCsaRecord({ summary, startTime: new Date(0), moves: [{ csa: '+7776FU' }, { csa: '+2726FU' }] });
    expect(r.isErr && r.error.message).toBe('move 2 (+2726FU) is not legal');
  });

  it("rewrites a real server record's start and 56 moves with shogiops and reads them back", () => {
    const original = readFileSync(new URL('../../fixtures/csa/game-fairy-vs-fairy.csa', import.meta.url), 'utf8');
    const lines = original.split('\n');
    const start = makeSfen(parseCsaHeader(lines.filter((l) => /^(P[1-9I+-]|[+-]$)/.test(l)).join('\n')).unwrap());
    const usis = usiMoves(start, moveLines(original)).unwrap();
    expect(usis).toHaveLength(56);
    const text = writeCsa({
      version: '2.2',
      names: { sente: 'fsA', gote: 'fsB' },
      info: [['EVENT', 'csatest+csatest-10-1F+fsA+fsB+20261120215018']],
      start,
      moves: usis.map((usi) => ({ usi })),
      end: '%TIME_UP',
    }).unwrap();
    expect(moveLines(text)).toEqual(moveLines(original));
    expect(readBack(text)).toEqual({ sfen: start, usis });
  });
});
