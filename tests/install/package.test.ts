/**
 * The install a fresh clone gets: `npm ci` needs package-lock.json in sync with package.json, and
 * `engines.node` must be a floor every runtime dependency accepts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface LockEntry {
  readonly version?: string;
  readonly dev?: boolean;
  readonly optional?: boolean;
  readonly engines?: { readonly node?: string };
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
}
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as LockEntry & { readonly engines: { readonly node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { readonly packages: Readonly<Record<string, LockEntry>> };

/** The lowest major version a node range admits (`>=22`, `>= 22`, `^20.19.0 || >=23`, `6.* || >= 10.*`). */
function floorMajor(range: string): number {
  const majors = range.split('||').map((alt) => {
    const m = /(\d+)/.exec(alt.trim());
    return alt.trim() === '*' || m === null ? 0 : Number(m[1]);
  });
  return Math.min(...majors);
}

/** Whether a node major version satisfies a range, for the simple forms npm packages use. */
function admits(range: string, major: number): boolean {
  return range.split('||').some((alt) => {
    const a = alt.trim();
    if (a === '*' || a === '') return true;
    const m = /^(>=|\^)?\s*(\d+)(?:\.(\d+|\*))?/.exec(a);
    if (m === null) return true;
    const n = Number(m[2]);
    if (m[1] === '>=') return major >= n;
    return major === n;
  });
}

describe('install', () => {
  it('package-lock.json is in sync with package.json (what npm ci checks)', () => {
    const root = lock.packages[''];
    expect(root?.dependencies).toEqual(pkg.dependencies);
    expect(root?.devDependencies).toEqual(pkg.devDependencies);
    expect(root?.engines).toEqual(pkg.engines);
    for (const name of [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})]) {
      expect(lock.packages[`node_modules/${name}`], name).toBeDefined();
    }
    // Every optional platform package rollup may pick is locked (npm ci on another platform needs them).
    const rollup = lock.packages['node_modules/rollup'];
    for (const dep of Object.keys((rollup as { optionalDependencies?: Record<string, string> } | undefined)?.optionalDependencies ?? {})) {
      expect(lock.packages[`node_modules/${dep}`], dep).toBeDefined();
    }
  });

  it('engines.node is a floor that every runtime dependency accepts', () => {
    const floor = floorMajor(pkg.engines.node);
    const refused = Object.entries(lock.packages)
      .filter(([path, e]) => path !== '' && e.dev !== true && e.engines?.node !== undefined && !admits(e.engines.node, floor))
      .map(([path, e]) => `${path.replace(/^.*node_modules\//, '')}@${e.version} needs node ${e.engines!.node}`);
    expect(refused).toEqual([]);
  });

  it('onnxruntime-node installs without its CUDA download, offline, and npm warns about no config key', () => {
    // npm 11.19+ skips the script that allowScripts denies; CI (and npm 10) set ONNXRUNTIME_NODE_INSTALL=skip.
    expect((pkg as { allowScripts?: Record<string, boolean> }).allowScripts?.['onnxruntime-node']).toBe(false);
    expect(readFileSync('.ci/run', 'utf8')).toMatch(/^export ONNXRUNTIME_NODE_INSTALL=skip$/m);
    // npm 11 prints "Unknown project config" on every command for a .npmrc key that is not its own (issue 44).
    const npmrc = existsSync('.npmrc') ? readFileSync('.npmrc', 'utf8') : '';
    expect(npmrc).not.toMatch(/onnxruntime/);
    const npm = spawnSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8', timeout: 60_000 });
    expect(npm.status).toBe(0);
    expect(npm.stderr).not.toMatch(/Unknown (project|user) config/);
  });

  it('.ci/run installs with npm ci', () => {
    expect(readFileSync('.ci/run', 'utf8')).toMatch(/^npm ci && npm test$/m);
  });
});
