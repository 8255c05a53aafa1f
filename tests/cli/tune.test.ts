/**
 * `kishi tune` through commander, in process: parameter lists and their errors, usage errors
 * exiting 2, and two real SPSA iterations of the alpha-beta players (tiny node counts), resumed
 * from the state file by a second run, printing a tuning string that the engine config's `searchTuning` accepts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSpsaParams, register } from '../../src/cli/tune.js';
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
});
