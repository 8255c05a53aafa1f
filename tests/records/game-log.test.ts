import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GameLogHeader } from '../../src/records/game-log.js';
import { GameLogWriter, parseGameLog, readGameLog } from '../../src/records/game-log.js';
import { CHESS_START_FEN, chessHeader } from './fixtures.js';

const header: GameLogHeader = chessHeader({ players: { first: { name: 'Kishi' }, second: { name: 'Opp', rating: 1500 } } });
const pos = CHESS_START_FEN;

describe('game log (JSON lines, version 1)', () => {
  it('writes a .part file while the game runs and publishes it with the result', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kishi-log-')), 'g1.jsonl');
    const w = GameLogWriter.open(file, header);
    w.move({ ply: 0, side: 'first', move: 'e2e4', ours: true, position: pos, search: { score: { cp: 20 }, depth: 5, nodes: 100, timeMs: 3, pv: ['e2e4', 'e7e5'], pvLeaf: 'x' } });
    w.move({ ply: 0, side: 'first', move: 'e2e4', ours: true, position: pos });
    w.move({ ply: 1, side: 'second', move: 'e7e5', ours: false, position: 'p1' });
    expect(existsSync(file)).toBe(false);
    w.finish({ winner: 'first', status: 'resign', plies: 2, endedAt: '2026-01-01T00:01:00.000Z' });
    expect(existsSync(`${file}.part`)).toBe(false);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(lines.map((l) => l.type)).toEqual(['header', 'move', 'move', 'result']);
    const log = readGameLog(file).unwrap();
    expect(log.moves.map((m) => m.move)).toEqual(['e2e4', 'e7e5']);
    expect(log.moves[0]?.search?.pv).toEqual(['e2e4', 'e7e5']);
    expect(log.result?.status).toBe('resign');
  });

  it('resumes a .part file after a restart without duplicating moves', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kishi-log-')), 'g1.jsonl');
    GameLogWriter.open(file, header).move({ ply: 0, side: 'first', move: 'e2e4', ours: true, position: pos, search: { score: { cp: 9 }, depth: 1, nodes: 1, timeMs: 1, pv: [] } });
    const again = GameLogWriter.open(file, header);
    expect(again.recoveredMoves().map((m) => m.search?.score)).toEqual([{ cp: 9 }]);
    again.move({ ply: 0, side: 'first', move: 'e2e4', ours: true, position: pos });
    again.move({ ply: 1, side: 'second', move: 'c7c5', ours: false, position: 'p1' });
    const text = readFileSync(`${file}.part`, 'utf8');
    expect(text.split('\n').filter((l) => l.includes('"type":"header"')).length).toBe(1);
    expect(text.split('\n').filter((l) => l.includes('"move":"e2e4"')).length).toBe(1);
  });

  it('applies takebacks and tolerates a truncated last line', () => {
    const lines = [
      JSON.stringify(header),
      JSON.stringify({ type: 'move', ply: 0, side: 'first', move: 'e2e4', ours: true, position: pos }),
      JSON.stringify({ type: 'move', ply: 1, side: 'second', move: 'e7e5', ours: false, position: 'p' }),
      JSON.stringify({ type: 'takeback', plies: 1 }),
      JSON.stringify({ type: 'move', ply: 1, side: 'second', move: 'c7c5', ours: false, position: 'p' }),
      '{"type":"mo',
    ];
    const log = parseGameLog(lines.join('\n')).unwrap();
    expect(log.moves.map((m) => m.move)).toEqual(['e2e4', 'c7c5']);
    expect(parseGameLog('{"type":"move"}').isErr).toBe(true);
    expect(parseGameLog(JSON.stringify({ ...header, version: 2 })).isErr).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'kishi-log-'));
    writeFileSync(join(dir, 'x.jsonl'), 'nope\n{}\n{}\n');
    expect(readGameLog(join(dir, 'x.jsonl')).isErr).toBe(true);
  });
});
