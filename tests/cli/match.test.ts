/**
 * `kishi match` through commander, as the CLI runs it (in process): a two-game fake-engine match
 * writing its records, a gauntlet printing its rating table, and usage errors exiting 2.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { register, resolveMatchOptions } from '../../src/cli/match.js';
import type { MatchCliOptions } from '../../src/cli/match.js';
import { FAKE_ENGINE, tempDir } from '../match/helpers.js';
import { runCommand } from './run-command.js';

const fake = (name: string, extra = ''): string => `name=${name},cmd=${process.execPath},args=${FAKE_ENGINE} --name ${name}${extra}`;

const run = (args: string[]): ReturnType<typeof runCommand> => runCommand(register, 'match', args);

describe('kishi match (CLI)', () => {
  let saved: number | string | undefined;
  beforeEach(() => (saved = process.exitCode));
  afterEach(() => (process.exitCode = saved));

  it('plays a short match and writes PGN, logs and summary.json', async () => {
    const out = tempDir('cli');
    const r = await run(['-e', fake('good'), '-e', fake('bad', ' --fault illegal --at 3'), '--nodes', '1', '--games', '2', '--seed', '1', '--concurrency', '1', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Results of good vs bad (chess; nodes 1):');
    expect(r.out).toContain('Games: 2, Wins: 2, Losses: 0, Draws: 0, Points: 2 (100.0%)');
    expect(r.out).toContain('Ptnml(0-2): [0, 0, 0, 0, 1]');
    expect(r.out).toContain('Forfeits by bad: illegal-move 2');
    expect(r.err).toContain('game 1: bad played an illegal move "a1a1"');
    expect(r.err).toContain('[2/2] +2 =0 -0 (100.0%) Elo inf +- n/a ptnml inf +- n/a');
    for (const f of ['summary.json', 'games.pgn', 'games/0001.pgn', 'games/0002.pgn', 'logs/0001-bad.log']) expect(existsSync(join(out, f))).toBe(true);
  });

  it('runs a gauntlet and prints the Bradley-Terry table', async () => {
    const out = tempDir('cli-gauntlet');
    // The player beats "weak" (it plays illegal moves) and draws "even" (move cap).
    const r = await run([
      '--gauntlet',
      '-e',
      fake('player'),
      '-e',
      `${fake('weak', ' --fault illegal --at 2')},rating=1000`,
      '-e',
      `${fake('even')},rating=1500`,
      '--nodes',
      '1',
      '--games',
      '2',
      '--maxmoves',
      '3',
      '--seed',
      '1',
      '--concurrency',
      '1',
      '--out',
      out,
    ]);
    expect(r.code).toBe(0);
    // 3 points of 4 against anchors 1000 and 1500: the maximum-likelihood rating is 1531.3.
    expect(r.out).toContain(
      [
        '#  player     elo     +-  interval          points  games  score  w/d/l  note',
        '-  ------  ------  -----  ----------------  ------  -----  -----  -----  ------',
        '1  player  1531.3  446.4  [1084.8, 1977.7]       3      4  75.0%  2/2/0',
        '2  even    1500.0      -  -                      1      2  50.0%  0/2/0  anchor',
        '3  weak    1000.0      -  -                      0      2   0.0%  0/0/2  anchor',
      ].join('\n'),
    );
    expect(existsSync(join(out, 'gauntlet.json'))).toBe(true);
    expect(readFileSync(join(out, 'ratings.txt'), 'utf8')).toContain('player');
  });

  it('exits 2 on bad usage', async () => {
    expect((await run(['-e', '/usr/games/stockfish', '--nodes', '1'])).code).toBe(2);
    expect((await run(['-e', fake('a'), '-e', fake('b')])).code).toBe(2); // no time control
    expect((await run(['-e', fake('a'), '-e', fake('b'), '--nodes', '1', '--sprt', 'elo0=5,elo1=0'])).code).toBe(2);
    const bad = await run(['-e', fake('a'), '-e', fake('b'), '--tc', '10+x']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('bad time control "10+x"');
  });

  it('exits 1 when an engine cannot start', async () => {
    const r = await run(['-e', fake('a'), '-e', 'cmd=/nonexistent/engine', '--nodes', '1', '--out', tempDir('cli-missing')]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('cannot start /nonexistent/engine');
  });

  it('resolves options into a match config', () => {
    const o: MatchCliOptions = {
      engine: ['cmd=/a,name=a', 'cmd=/b,name=b,tc=5+0.05'],
      game: 'chess',
      variant: 'standard',
      tc: '10+0.1',
      margin: '20',
      games: '10',
      order: 'random',
      seed: '3',
      repeat: true,
      resign: 'movecount=4,score=700',
      draw: 'movenumber=30,movecount=6,score=5',
      maxmoves: '150',
      sprt: 'elo0=0,elo1=5',
      anchor: [],
      hangTimeout: '60',
      grace: '1000',
      startTimeout: '30',
      logLines: '50',
      out: '/tmp/x',
      queueName: 'kishi', // --queue-name's default
    };
    const r = resolveMatchOptions(o).unwrap();
    expect(r.entries.map((e) => e.tc)).toEqual([
      { baseMs: 10_000, incMs: 100, movesPerSession: 0, byoyomiMs: 0, marginMs: 20 },
      { baseMs: 5000, incMs: 50, movesPerSession: 0, byoyomiMs: 0, marginMs: 20 },
    ]);
    expect(r.config.adjudication).toEqual({
      resign: { moveCount: 4, score: 700, twoSided: true },
      draw: { moveNumber: 30, moveCount: 6, score: 5 },
      maxMoves: 150,
    });
    expect(r.config.sprt).toEqual({ elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: 'normalized' });
    expect(r.config.openings).toEqual([{ start: 'startpos', moves: [], source: 'startpos' }]);
    expect(r.config.seed).toBe(3);
  });
});
