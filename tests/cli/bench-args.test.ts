/**
 * `npm run bench` (tools/bench.ts) on bad arguments: a clear message with the usage and exit code 2,
 * never a stack trace; `--list` names the modules without running them.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const bench = (...args: string[]) => spawnSync('node', ['dist/tools/bench.js', ...args], { encoding: 'utf8', timeout: 60_000 });

describe('bench arguments', () => {
  it('rejects an unknown option with the usage', () => {
    const r = bench('--bogus');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("Unknown option '--bogus'");
    expect(r.stderr).toContain('usage: npm run bench');
    expect(r.stderr).not.toContain('    at ');
  });

  it('rejects a repetition count that is not a positive integer', () => {
    const r = bench('--reps', '0', '--filter', 'nnue');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--reps must be a positive integer, got 0');
  });

  it('lists the modules', () => {
    const r = bench('--list');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^nnue\s+alpha-beta nodes\/s/m);
  });
});
