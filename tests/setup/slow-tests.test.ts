/** The fast tier's list of left-out files stays true: each entry is a test file that exists, named once. */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SLOW_TESTS } from './slow-tests.js';

describe('tests/setup/slow-tests.ts', () => {
  it('names existing test files, each once, each with a reason', () => {
    const files = SLOW_TESTS.map((t) => t.file);
    expect(files.filter((f) => !existsSync(f) || !f.endsWith('.test.ts'))).toEqual([]);
    expect(new Set(files).size).toBe(files.length);
    expect(SLOW_TESTS.filter((t) => t.why.trim() === '')).toEqual([]);
  });
});
