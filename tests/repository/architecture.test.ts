/**
 * ARCHITECTURE.md stays true to the code where a machine can tell: every repository path it names
 * (`src/...`, `tests/...`, `tools/...`, ...) exists, every folder of its layer table is a folder of
 * src/, and the table's rows are the layers of tests/repository/layers.test.ts, top to bottom.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LAYERS } from './layers.test.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const text = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');

/** The layer table's rows: the backticked folders of its second column. */
const tableRows = (): string[][] =>
  text
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| layer ') && !l.startsWith('|---'))
    .map((l) => [...l.split('|')[2]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\/$/, '')));

describe('ARCHITECTURE.md', () => {
  it('names only paths that exist', () => {
    const paths = [...new Set([...text.matchAll(/`((?:src|tests|tools|data|models|trainer|docs|web|bin)\/[^`\s]*)`/g)].map((m) => m[1]!))];
    expect(paths.length).toBeGreaterThan(20);
    expect(paths.filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
  });

  it("has one row per layer, top to bottom, with each layer's folders", () => {
    const rows = tableRows();
    expect(rows).toEqual([...LAYERS].reverse().map((folders) => [...folders]));
    for (const row of rows) for (const f of row) expect(existsSync(join(ROOT, 'src', f)), f).toBe(true);
  });
});
