/** One seeded generator: mulberry32 lives in src/core/rng.ts only; everything else imports it. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** mulberry32's increment, the one constant every copy of it carries. */
const INCREMENT = /0x6d2b79f5/i;

describe('one rng', () => {
  it('mulberry32 is written once, in src/core/rng.ts', () => {
    const files = execFileSync('git', ['ls-files', '--', 'src', 'tools', 'trainer', 'tests'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => /\.(ts|mts|mjs|js)$/.test(f) && !f.endsWith('one-rng.test.ts'));
    expect(files.filter((f) => INCREMENT.test(readFileSync(join(ROOT, f), 'utf8')))).toEqual(['src/core/rng.ts']);
  });
});
