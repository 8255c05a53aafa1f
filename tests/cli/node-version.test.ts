/**
 * Kishi checks the Node version before anything else (bin/kishi.js, src/core/node-version.ts): an old
 * Node gets one line saying what is needed and why, and exit 2; Node 20 and newer run.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem, SUPPORTED_NODE_MAJOR } from '../../src/core/node-version.js';

/** Runs bin/kishi.js with `process.versions.node` made to read `version`. */
const kishiOn = (version: string, ...args: string[]) =>
  spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,Object.defineProperty(process,"versions",{value:{...process.versions,node:"${version}"}});`, 'bin/kishi.js', ...args],
    { encoding: 'utf8', timeout: 30_000 },
  );

describe('the Node version check', () => {
  it('accepts Node 20 and newer, refuses older versions saying what is needed and why', () => {
    for (const v of ['20.0.0', '20.20.2', '22.12.0', '24.1.0', '30.0.0']) expect(nodeVersionProblem(v), v).toBeUndefined();
    for (const v of ['18.19.0', '16.20.2', 'v19.9.0', 'nonsense']) {
      expect(nodeVersionProblem(v), v).toMatch(/^Node .* is too old: Kishi needs Node 22 or newer \(chessops needs @badrap\/result, which declares node >= 22; /);
    }
  });

  it('agrees with package.json engines.node', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(`>=${SUPPORTED_NODE_MAJOR}`);
  });

  it('bin/kishi.js says it in one line and exits 2 on Node 18, before loading the CLI', () => {
    const r = kishiOn('18.19.0', '--version');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([`kishi: ${nodeVersionProblem('18.19.0')!}`]);
  });

  it('bin/kishi.js runs on Node 20', () => {
    const r = kishiOn('20.20.2', '--version');
    expect([r.status, r.stdout.trim(), r.stderr]).toEqual([0, '0.1.0', '']);
  });
});
