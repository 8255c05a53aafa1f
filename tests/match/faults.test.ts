/**
 * Broken engines lose, and the loss is logged with their last output: illegal move, crash (and the
 * restart after it), hang, loss on time, resignation, a false entering-king declaration, and an
 * engine that stops answering `isready`. The fake engine (tests/fixtures/engines/fake-engine.mjs)
 * misbehaves at its Nth search of each game; the good fake answers at once, so these games are
 * short and exact.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMatch } from '../../src/match/match-runner.js';
import type { MatchEvent } from '../../src/match/match-runner.js';
import { parseResultJson } from '../../src/core/json.js';
import { clockTc, entry, fakeSpec, matchConfig, nodesTc, tempDir } from './helpers.js';

describe('forfeits', () => {
  it('an illegal move loses, with the move and the last lines logged', async () => {
    const out = tempDir('illegal');
    const m = await runMatch(
      matchConfig({ engines: [entry(fakeSpec('good'), nodesTc(1)), entry(fakeSpec('bad', ['--fault', 'illegal', '--at', '2']), nodesTc(1))], outDir: out }),
    );
    expect(m.results.wdl).toEqual({ wins: 2, draws: 0, losses: 0 });
    expect(m.results.endReasons).toEqual({ 'illegal-move': 2 });
    expect(m.results.forfeits).toEqual({ bad: { 'illegal-move': 2 } });
    expect(m.results.pentanomial).toEqual([0, 0, 0, 0, 1]);
    // Game 1: bad is black; its second move is the 4th ply.
    expect(m.games[0]!.plies).toBe(3);
    expect(m.games[0]!.detail).toMatch(/^bad played an illegal move "a1a1" in /);
    const log = readFileSync(join(out, m.games[0]!.log!), 'utf8');
    expect(log).toContain('< bestmove a1a1');
    expect(log).toContain('> go nodes 1');
    const pgn = readFileSync(join(out, 'games', '0001.pgn'), 'utf8');
    expect(pgn).toContain('[Termination "rules infraction"]');
    expect(pgn).toContain('[Result "1-0"]');
  });

  it('a crash loses, is logged with stderr, and the engine is restarted for the next game', async () => {
    const out = tempDir('crash');
    const events: MatchEvent[] = [];
    const m = await runMatch(
      matchConfig({
        engines: [entry(fakeSpec('crashy', ['--fault', 'crash', '--at', '3']), nodesTc(1)), entry(fakeSpec('good'), nodesTc(1))],
        games: 4,
        outDir: out,
        onEvent: (e) => events.push(e),
      }),
    );
    expect(m.results.wdl).toEqual({ wins: 0, draws: 0, losses: 4 });
    expect(m.results.endReasons).toEqual({ crash: 4 });
    expect(m.results.pentanomial).toEqual([2, 0, 0, 0, 0]);
    expect(events.filter((e) => e.type === 'restart').length).toBe(3);
    expect(m.games.map((g) => g.plies)).toEqual([4, 5, 4, 5]);
    const log = readFileSync(join(out, m.games[0]!.log!), 'utf8');
    expect(log).toContain('< info string fake engine: about to crash');
    expect(log).toContain('! fake engine: segmentation fault (simulated)');
    expect(log).toContain('process ended: exit code 3');
    expect(m.games[0]!.detail).toBe('crashy crashed: the engine ended during its search (exit code 3)');
  });

  it('a hung engine loses at its deadline and is killed', async () => {
    const m = await runMatch(
      matchConfig({
        engines: [entry(fakeSpec('good'), clockTc(10_000)), entry(fakeSpec('hung', ['--fault', 'hang', '--at', '1']), clockTc(300))],
        games: 1,
        graceMs: 200,
      }),
    );
    expect(m.results.wdl).toEqual({ wins: 1, draws: 0, losses: 0 });
    expect(m.games[0]!.reason).toBe('hang');
    expect(m.games[0]!.detail).toBe('hung did not move within 300 ms nor answer stop: killed');
    expect(m.results.forfeits).toEqual({ hung: { hang: 1 } });
  });

  it('a hang under a nodes limit is caught by the hang timeout', async () => {
    const m = await runMatch(
      matchConfig({ engines: [entry(fakeSpec('hung', ['--fault', 'hang', '--at', '1']), nodesTc(1)), entry(fakeSpec('good'), nodesTc(1))], games: 1, hangTimeoutMs: 300, graceMs: 100 }),
    );
    expect(m.results.wdl).toEqual({ wins: 0, draws: 0, losses: 1 });
    expect(m.games[0]!.reason).toBe('hang');
    expect(m.games[0]!.plies).toBe(0);
  });

  it('an engine that overruns its clock but answers stop loses on time', async () => {
    const out = tempDir('flag');
    const m = await runMatch(
      matchConfig({
        engines: [entry(fakeSpec('slow', ['--fault', 'flag', '--at', '2']), clockTc(1000, 100)), entry(fakeSpec('good'), clockTc(1000, 100))],
        games: 2,
        outDir: out,
      }),
    );
    expect(m.results.wdl).toEqual({ wins: 0, draws: 0, losses: 2 });
    expect(m.results.endReasons).toEqual({ 'time-forfeit': 2 });
    expect(m.games[0]!.detail).toMatch(/^slow loses on time \(no move after \d+ ms, allowed \d+ ms\)$/);
    const log = readFileSync(join(out, m.games[0]!.log!), 'utf8');
    expect(log).toMatch(/> go wtime \d+ btime \d+ winc 100 binc 100/);
    expect(log).toContain('> stop');
    const pgn = readFileSync(join(out, 'games', '0001.pgn'), 'utf8');
    expect(pgn).toContain('[Termination "time forfeit"]');
    expect(pgn).toContain('[TimeControl "1+0.1"]');
  });

  it('USI: resign loses normally; a false win declaration is a forfeit', async () => {
    const resign = await runMatch(
      matchConfig({ game: 'shogi', engines: [entry(fakeSpec('good'), nodesTc(1)), entry(fakeSpec('quitter', ['--fault', 'resign', '--at', '2']), nodesTc(1))] }),
    );
    expect(resign.results.wdl).toEqual({ wins: 2, draws: 0, losses: 0 });
    expect(resign.results.endReasons).toEqual({ resign: 2 });
    expect(resign.results.forfeits).toEqual({});
    const win = await runMatch(
      matchConfig({ game: 'shogi', engines: [entry(fakeSpec('good'), nodesTc(1)), entry(fakeSpec('liar', ['--fault', 'win', '--at', '1']), nodesTc(1))], games: 1 }),
    );
    expect(win.results.endReasons).toEqual({ 'illegal-declaration': 1 });
    expect(win.games[0]!.result).toBe('1-0');
  });

  it('an engine that stops answering isready forfeits the game it cannot start', async () => {
    const m = await runMatch(
      // The timeout also bounds the start-up handshake, which takes a few hundred ms on a busy machine.
      matchConfig({ engines: [entry(fakeSpec('good'), nodesTc(1)), entry(fakeSpec('mute', ['--fault', 'no-readyok']), nodesTc(1))], games: 1, startTimeoutMs: 2000 }),
    );
    expect(m.games[0]!.reason).toBe('crash');
    expect(m.games[0]!.detail).toBe('mute did not start the game: mute: no readyok within 2000 ms');
    expect(m.results.wdl.wins).toBe(1);
  });

  it('an engine that cannot be started forfeits every game', async () => {
    const m = await runMatch(
      matchConfig({
        engines: [entry(fakeSpec('good'), nodesTc(1)), entry({ name: 'ghost', command: '/nonexistent/engine', args: [], options: {}, time: {}, kishi: false }, nodesTc(1))],
        games: 2,
      }),
    );
    expect(m.results.wdl).toEqual({ wins: 2, draws: 0, losses: 0 });
    expect(m.games.map((g) => g.reason)).toEqual(['crash', 'crash']);
    expect(m.games[0]!.detail).toContain('cannot start /nonexistent/engine');
  });

  it('writes summary.json with infinities as strings that read back', async () => {
    const out = tempDir('summary');
    await runMatch(matchConfig({ engines: [entry(fakeSpec('good'), nodesTc(1)), entry(fakeSpec('bad', ['--fault', 'illegal']), nodesTc(1))], outDir: out }));
    const text = readFileSync(join(out, 'summary.json'), 'utf8');
    expect(text).toContain('"elo": "Infinity"');
    const back = parseResultJson(text) as { results: { trinomial: { elo: number } } };
    expect(back.results.trinomial.elo).toBe(Number.POSITIVE_INFINITY);
    expect(existsSync(join(out, 'games.pgn'))).toBe(true);
  });
});
