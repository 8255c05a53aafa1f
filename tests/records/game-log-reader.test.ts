import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GameLogHeader } from '../../src/records/game-log.js';
import { GameLogWriter } from '../../src/records/game-log.js';
import {
  GAME_LOG_READ_VERSIONS,
  formatGameLogProblem,
  listGameLogs,
  parseGameLogText,
  readGameLogDir,
  readGameLogFile,
} from '../../src/records/game-log-reader.js';
import { CHESS_START_FEN, chessHeader } from './fixtures.js';

const header: GameLogHeader = chessHeader({ clock: { initialMs: 180000, incrementMs: 2000 } });
const START = CHESS_START_FEN;
const move = (ply: number, mv: string, extra: object = {}): string =>
  JSON.stringify({ type: 'move', ply, side: ply % 2 === 0 ? 'first' : 'second', move: mv, ours: ply % 2 === 0, position: START, ...extra });
const search = { search: { score: { cp: 20 }, depth: 4, nodes: 900, timeMs: 12, pv: ['e2e4', 'e7e5'], pvLeaf: 'x' } };
const result = JSON.stringify({ type: 'result', winner: 'first', status: 'mate', plies: 2, endedAt: '2026-01-01T00:03:00.000Z' });

describe('game log reader', () => {
  it('knows version 1', () => {
    expect(GAME_LOG_READ_VERSIONS).toEqual([1]);
  });

  it('reads what the writer writes, with line numbers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-reader-'));
    const w = GameLogWriter.open(join(dir, 'g1.jsonl'), header);
    w.move({ ply: 0, side: 'first', move: 'e2e4', ours: true, position: START, clockMs: { first: 179000, second: 180000 }, ...search });
    w.move({ ply: 1, side: 'second', move: 'e7e5', ours: false, position: START });
    w.takeback(1);
    w.move({ ply: 1, side: 'second', move: 'c7c5', ours: false, position: START });
    // A .part file (a game in progress) is not listed.
    GameLogWriter.open(join(dir, 'g2.jsonl'), { ...header, gameId: 'g2' });
    expect(listGameLogs(dir)).toEqual([]);
    w.finish({ winner: null, status: 'draw', plies: 2, endedAt: '2026-01-01T00:03:00.000Z' });
    expect(listGameLogs(dir)).toEqual([join(dir, 'g1.jsonl')]);
    const r = readGameLogFile(join(dir, 'g1.jsonl'));
    expect(r.problems).toEqual([]);
    expect(r.log!.intact).toBe(true);
    expect(r.log!.moves.map((m) => [m.move, m.line])).toEqual([
      ['e2e4', 2],
      ['c7c5', 5],
    ]);
    expect(r.log!.moves[0]!.search!.pv).toEqual(['e2e4', 'e7e5']);
    expect(r.log!.result).toEqual({ type: 'result', winner: null, status: 'draw', plies: 2, endedAt: '2026-01-01T00:03:00.000Z', line: 6 });
  });

  it('reports a malformed line with its file and line number and carries on', () => {
    const text = [JSON.stringify(header), move(0, 'e2e4', search), '{"type":"move","ply":1,', move(2, 'g1f3', search), result].join('\n') + '\n';
    const r = parseGameLogText(text, 'logs/a.jsonl');
    expect(r.problems.map(formatGameLogProblem)).toEqual([
      'logs/a.jsonl:3: not JSON: skipped',
      // (line 4, ply 2 after the lost ply 1, is skipped as a consequence, without a second report)
    ]);
    expect(r.log!.moves.map((m) => m.move)).toEqual(['e2e4']);
    expect(r.log!.intact).toBe(false);
    expect(r.log!.result?.status).toBe('mate');
    const gap = parseGameLogText([JSON.stringify(header), move(0, 'e2e4', search), move(2, 'g1f3', search)].join('\n') + '\n', 'g.jsonl');
    expect(gap.problems.map(formatGameLogProblem)).toEqual(['g.jsonl:3: move for ply 2 after 1 plies (a gap): skipped']);
  });

  it('checks the fields of every line', () => {
    const bad = [
      JSON.stringify(header),
      move(0, 'e2e4', { search: { score: { cp: 'x' }, depth: 1, nodes: 1, timeMs: 1, pv: [] } }),
      JSON.stringify({ type: 'result', winner: 'nobody', status: 'mate', plies: 2, endedAt: 'x' }),
      JSON.stringify({ type: 'comment', text: 'hi' }),
      JSON.stringify({ ...header, gameId: 'again' }),
      '[1,2]',
    ].join('\n');
    const r = parseGameLogText(bad, 'b.jsonl');
    expect(r.problems.map((p) => `${p.line} ${p.message}`)).toEqual([
      '2 move: search.score needs cp or mate: skipped',
      '3 result: winner is not first/second/null: skipped',
      '4 unknown line type "comment": skipped',
      '5 second header: skipped',
      '6 not an object with a "type": skipped',
    ]);
    expect(r.log!.intact).toBe(false);
  });

  it('refuses a file of an unknown version, without a header, or with a bad header', () => {
    const v2 = parseGameLogText(`${JSON.stringify({ ...header, version: 2 })}\n${move(0, 'e2e4')}\n`, 'v2.jsonl');
    expect(v2.log).toBeUndefined();
    expect(v2.problems.map(formatGameLogProblem)).toEqual(['v2.jsonl:1: unknown game log version 2 (this reader knows 1): file skipped']);
    expect(parseGameLogText(`${move(0, 'e2e4')}\n`, 'n.jsonl').problems[0]!.message).toBe('move line before the header: file skipped');
    expect(parseGameLogText('', 'e.jsonl').problems.map(formatGameLogProblem)).toEqual(['e.jsonl: no header line: file skipped']);
    const h = parseGameLogText(`${JSON.stringify({ ...header, ourSide: 'white' })}\n`, 'h.jsonl');
    expect(h.problems[0]!.message).toBe('header: ourSide "white" is not first/second: file skipped');
    expect(h.problems[0]!.fatal).toBe(true);
  });

  it('reads a directory: good files, and every problem of the bad ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-reader-'));
    mkdirSync(join(dir, 'lichess'));
    writeFileSync(join(dir, 'lichess', 'good.jsonl'), [JSON.stringify(header), move(0, 'e2e4', search), move(1, 'e7e5'), result].join('\n') + '\n');
    writeFileSync(join(dir, 'v9.jsonl'), `${JSON.stringify({ ...header, version: 9 })}\n`);
    writeFileSync(join(dir, 'cut.jsonl'), [JSON.stringify(header), move(0, 'e2e4', search), '{"type":"mo'].join('\n'));
    const { logs, problems } = readGameLogDir(dir);
    expect(logs.map((l) => l.file)).toEqual([join(dir, 'cut.jsonl'), join(dir, 'lichess', 'good.jsonl')]);
    expect(problems.map(formatGameLogProblem)).toEqual([
      `${join(dir, 'cut.jsonl')}:3: truncated line (no line end): skipped`,
      `${join(dir, 'v9.jsonl')}:1: unknown game log version 9 (this reader knows 1): file skipped`,
    ]);
    expect(readGameLogFile(join(dir, 'missing.jsonl')).problems[0]!.fatal).toBe(true);
  });
});
