/**
 * `kishi tune` through commander, in process: parameter lists and their errors, usage errors
 * exiting 2, and two real SPSA iterations of the alpha-beta players (tiny node counts), resumed
 * from the state file by a second run, printing a tuning string that the engine config's `searchTuning` accepts.
 * `--search mcts`: the MCTS keys from each game's defaults, and real pairs of the MCTS players in
 * a process of its own (the compiled CLI), where nothing but the players' workers keeps it alive.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSpsaParams, register } from '../../src/cli/tune.js';
import { mctsTunableDefaults } from '../../src/player/mcts-cpu-nets.js';
import { cpuTuningFromText } from '../../src/player/mcts-cpu-tuning.js';
import { DEFAULT_TUNING, parseTuning } from '../../src/search/alphabeta/tuning.js';
import { tempDir } from '../match/helpers.js';
import { runCommand } from './run-command.js';

const run = (args: string[]): ReturnType<typeof runCommand> => runCommand(register, 'tune', args);

describe('kishi tune', () => {
  it('reads name and name:step entries from the game\'s defaults, with their ranges', () => {
    const ps = parseSpsaParams('rfpMargin, lmrDivisor:0.3,lmpBase', 'shogi', 0.01).unwrap();
    expect(ps.map((p) => [p.name, p.start, p.cEnd, p.integer, p.rEnd])).toEqual([
      ['rfpMargin', DEFAULT_TUNING.shogi.rfpMargin, DEFAULT_TUNING.shogi.rfpMargin / 10, true, 0.01],
      ['lmrDivisor', 2.25, 0.3, false, 0.01],
      ['lmpBase', 3, 1, true, 0.01],
    ]);
    expect(parseSpsaParams('nope', 'chess', 0.002).isErr).toBe(true);
    expect(parseSpsaParams('rfpMargin,rfpMargin', 'chess', 0.002).isErr).toBe(true);
    expect(parseSpsaParams('rfpMargin:-3', 'chess', 0.002).isErr).toBe(true);
  });

  it('exits 2 on usage errors', async () => {
    const dir = tempDir('tune-usage');
    expect((await run(['-o', dir, '--nodes', '100', '--tc', '1+0.1'])).err).toMatch(/exactly one of --nodes and --tc/);
    const bad = await run(['-o', dir, '--nodes', '100', '--params', 'lmrDivisor,bogus']);
    expect([bad.code, bad.err]).toEqual([2, expect.stringMatching(/unknown search tuning parameter 'bogus'/)]);
  });

  it('plays real pairs, resumes from its state and prints a usable tuning string', async () => {
    const dir = tempDir('tune-run');
    const args = ['-g', 'chess', '-o', dir, '--params', 'rfpMargin,lmrDivisor', '--nodes', '300', '--maxmoves', '12', '--eval', 'linear', '--seed', '4', '-q'];
    const first = await run([...args, '--iterations', '1']);
    expect(first.code).toBe(0);
    expect(first.out).toContain('1/1 iterations');
    const second = await run([...args, '--iterations', '2']);
    expect(second.code).toBe(0);
    expect(second.out).toContain('2/2 iterations');
    expect(readFileSync(join(dir, 'history.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    const line = second.out.split('\n').find((l) => l.startsWith('searchTuning='))!;
    const tuned = parseTuning(line.slice('searchTuning="'.length, -1), DEFAULT_TUNING.chess).unwrap();
    expect(Math.abs(tuned.rfpMargin - 110)).toBeLessThan(40);
  }, 60_000);

  it('reads the MCTS keys from each game\'s defaults, and only those', () => {
    const shogi = parseSpsaParams('cpuct,fpu:0.1', 'shogi', 0.002, 'mcts').unwrap();
    expect(shogi.map((p) => [p.name, p.start, p.cEnd, p.integer])).toEqual([
      ['cpuct', 2.5, 0.25, false],
      ['fpu', 0.33, 0.1, false],
    ]);
    expect(parseSpsaParams('cpuct', 'chess', 0.002, 'mcts').unwrap()[0]!.start).toBe(mctsTunableDefaults('chess').cpuct);
    expect(mctsTunableDefaults('chess').cpuct).not.toBe(2.5);
    expect(parseSpsaParams('rfpMargin', 'chess', 0.002, 'mcts').isErr).toBe(true);
    expect(parseSpsaParams('cpuct', 'chess', 0.002).isErr).toBe(true);
  });

  it('plays MCTS pairs in a process of its own and prints a usable mctsTuning string', () => {
    const dir = tempDir('tune-mcts');
    // The compiled CLI (tests/setup/build.ts keeps dist/ up to date): in-process workers alone must keep it running.
    const r = spawnSync(process.execPath, ['bin/kishi.js', 'tune', '--search', 'mcts', '-g', 'shogi', '-o', dir, '--params', 'cpuct,ptau', '--nodes', '60', '--maxmoves', '10', '--iterations', '2', '--seed', '5', '-q'], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('2/2 iterations');
    expect(readFileSync(join(dir, 'history.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    const line = r.stdout.split('\n').find((l) => l.startsWith('mctsTuning='))!;
    const tuned = cpuTuningFromText(line.slice('mctsTuning="'.length, -1)).unwrap();
    expect(Math.abs(tuned.options.cpuctInit! - 2.5)).toBeLessThan(1);
    expect(Math.abs(tuned.evaluator.policyTemperature! - 1)).toBeLessThan(0.5);
  }, 150_000);
});
