/**
 * The repository is self-contained: no code, test, script, config or document reads or cites data by
 * a path outside the repository (one machine's absolute paths, a shared folder beside the
 * clone). Data the code needs is vendored under data/ or tests/fixtures/ with its source and licence.
 * Model manifests and weight files are in scope too: their provenance names commands relative to the
 * repository and run directories by name.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SELF = relative(ROOT, fileURLToPath(import.meta.url));

/** Where the rule applies: folders (every file under them) and single files. */
const SCOPE = ['src', 'tests', 'tools', 'trainer', 'docs', 'config', 'bin', 'data', 'models', 'README.md', 'ARCHITECTURE.md'];
const TEXT = /\.(ts|mts|mjs|js|py|md|yaml|yml|json|txt|sh)$/;

/** A path outside the repository: one machine's folders, or the shared folder next to a checkout. */
const OUTSIDE: readonly RegExp[] = [
  /(^|[\s'"`(=])\/work\//,
  /(^|[\s'"`(=])\/(home|Users)\/[a-z]/,
  /\.\.\/shared\b/,
  /\bshared\/(data|docs|specs|seeds)\b/,
  /['"]\.\.['"]\s*,\s*['"]shared['"]/, // path.join(root, '..', 'shared', ...)
  /(^|[\s'"`(])\.kishi\/notes\//, // a developer's notes, ignored by git
];

function trackedFiles(): string[] {
  try {
    return execFileSync('git', ['ls-files', '--', ...SCOPE], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    // Not a git checkout (an unpacked archive): every file in scope.
    const out: string[] = [];
    const walk = (rel: string): void => {
      const st = statSync(join(ROOT, rel), { throwIfNoEntry: false });
      if (st === undefined) return;
      if (st.isFile()) out.push(rel);
      else if (st.isDirectory()) for (const e of readdirSync(join(ROOT, rel))) walk(join(rel, e));
    };
    SCOPE.forEach(walk);
    return out;
  }
}

/** `file:line: text` for every line of a text in scope that names a path outside the repository. */
export function outsidePaths(files: readonly string[], read: (file: string) => string): string[] {
  const hits: string[] = [];
  for (const f of files) {
    if (!TEXT.test(f)) continue;
    read(f)
      .split('\n')
      .forEach((line, i) => {
        if (OUTSIDE.some((re) => re.test(line))) hits.push(`${f}:${i + 1}: ${line.trim()}`);
      });
  }
  return hits;
}

// The forbidden paths are assembled from pieces so that this file does not itself contain them.
const MACHINE = ['', 'work', ''].join('/');
const SHARED = ['..', 'shared'].join('/');

describe('self-contained repository', () => {
  it('finds the paths it forbids', () => {
    const texts: Record<string, string> = {
      'a.ts': `const D = '${MACHINE}shared/data';`,
      'b.md': `see ${SHARED}/docs/x.md`,
      'c.ts': '// copies of shared/specs/lichess',
      'd.ts': "readFileSync('data/suites/wac300.epd')",
      'e.ts': "spawn('/usr/games/stockfish')",
      'f.txt': `${MACHINE}x`,
      'g.ts': "resolve(packageRoot(), '..', 'shared', 'data')",
      'h.md': 'details in .kishi/notes/x.md',
      'i.yaml': '# e.g. ~/.kishi/chess-linear.json',
    };
    expect(outsidePaths(Object.keys(texts), (f) => texts[f]!)).toEqual([
      `a.ts:1: const D = '${MACHINE}shared/data';`,
      `b.md:1: see ${SHARED}/docs/x.md`,
      'c.ts:1: // copies of shared/specs/lichess',
      `f.txt:1: ${MACHINE}x`,
      "g.ts:1: resolve(packageRoot(), '..', 'shared', 'data')",
      'h.md:1: details in .kishi/notes/x.md',
    ]);
  });

  it('no tracked code, test, script, config or document names a path outside the repository', () => {
    const files = trackedFiles().filter((f) => f !== SELF);
    expect(files.length).toBeGreaterThan(100);
    expect(outsidePaths(files, (f) => readFileSync(join(ROOT, f), 'utf8'))).toEqual([]);
  });
});
