/**
 * `runSuite` against the fake engine (exact answers: it plays the 4th of its sorted legal moves,
 * index (0 * 7 + 3) mod n, in a position without moves played) and against the Debian engines on a
 * few easy positions.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { makeSan } from 'chessops/san';
import { makeUci, parseUci } from 'chessops/util';
import { describe, expect, it } from 'vitest';
import { loadSuite, runSuite } from '../../../src/match/suite/suite-runner.js';
import { FAIRY, STOCKFISH, fakeSpec, haveEngine, tempDir } from '../helpers.js';
import { engineMissing, itIf } from '../../setup/skip.js';

/** The fake engine's move and another legal move, in SAN. */
function fakeChoice(fen: string): { fake: string; other: string } {
  const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  const ucis: string[] = [];
  for (const [from, dests] of pos.allDests()) for (const to of dests) ucis.push(makeUci({ from, to }));
  ucis.sort();
  const fake = ucis[3 % ucis.length]!;
  const other = ucis.find((u) => u !== fake)!;
  const san = (u: string): string => makeSan(pos, parseUci(u)!);
  return { fake: san(fake), other: san(other) };
}

describe('runSuite', () => {
  it('counts solved positions and STS points per theme (fake engine)', async () => {
    const dir = tempDir('suite');
    const fens = ['2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - -', '8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - -', '5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - -'];
    const [a, b, c] = fens.map(fakeChoice);
    const lines = [
      `${fens[0]} bm ${a!.fake}; id "T1.001";`,
      `${fens[1]} bm ${b!.other}; id "T1.002";`,
      `${fens[2]} bm ${c!.other}; c0 "${c!.other}=10, ${c!.fake}=4"; id "T2.001";`,
    ];
    const file = join(dir, 'mini.epd');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const positions = loadSuite(file, 'chess').unwrap();
    const s = await runSuite({ engine: fakeSpec('fake'), game: 'chess', positions, files: [file], limits: { nodes: 1 }, concurrency: 2, hangTimeoutMs: 5000, startTimeoutMs: 10_000 });
    expect(s.engine).toBe('fake');
    expect(s.results.map((r) => [r.id, r.solved, r.points, r.maxPoints])).toEqual([
      ['T1.001', true, 1, 1],
      ['T1.002', false, 0, 1],
      ['T2.001', false, 4, 10],
    ]);
    expect(s.themes).toEqual([
      { theme: 'T1', positions: 2, solved: 1, points: 1, maxPoints: 2 },
      { theme: 'T2', positions: 1, solved: 0, points: 4, maxPoints: 10 },
    ]);
    expect([s.solved, s.points, s.maxPoints]).toEqual([1, 5, 12]);
  });

  itIf(haveEngine(STOCKFISH), engineMissing(STOCKFISH))('Stockfish 15.1 solves four of the first five WAC positions at 50k nodes', async () => {
    const file = 'data/suites/wac300.epd';
    const positions = loadSuite(file, 'chess').unwrap().slice(0, 5);
    const s = await runSuite({
      engine: { command: STOCKFISH, args: [], options: { Threads: '1' }, time: {}, kishi: false },
      game: 'chess',
      positions,
      files: [file],
      limits: { nodes: 50_000 },
      concurrency: 1,
      hangTimeoutMs: 30_000,
      startTimeoutMs: 30_000,
    });
    // One thread, fixed nodes, a fresh hash per position: deterministic for a given build.
    expect(s.results.filter((r) => !r.solved).map((r) => r.id)).toEqual(['WAC.002']);
    expect(s.themes).toEqual([{ theme: 'WAC', positions: 5, solved: 4, points: 4, maxPoints: 5 }]);
  });

  itIf(haveEngine(FAIRY), engineMissing(FAIRY))('fairy-stockfish solves ten mate-in-1 and ten mate-in-3 tsume', async () => {
    const files = ['data/suites/tsume_mate-1-ply.sfen', 'data/suites/tsume_mate-3-ply.sfen'];
    const positions = files.flatMap((f) => loadSuite(f, 'shogi').unwrap().slice(0, 10));
    const s = await runSuite({
      engine: { command: FAIRY, args: [], options: {}, time: {}, kishi: false },
      game: 'shogi',
      positions,
      files,
      limits: { nodes: 20_000 },
      concurrency: 2,
      hangTimeoutMs: 30_000,
      startTimeoutMs: 30_000,
    });
    expect(s.themes.map((t) => [t.theme, t.solved, t.positions])).toEqual([
      ['tsume_mate-1-ply', 10, 10],
      ['tsume_mate-3-ply', 10, 10],
    ]);
  });
});
