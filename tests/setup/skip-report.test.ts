/** The end-of-run list of skipped tests (tests/setup/skip-report.ts). */
import { describe, expect, it } from 'vitest';
import { type Skipped, skipReport } from './skip-report.js';

const redis: Skipped = { file: 'tests/queue/fleet.test.ts', name: 'a fleet > needs what this machine lacks', todo: false, note: 'redis-server not found' };
const bare: Skipped = { file: 'tests/a.test.ts', name: 'x > y', todo: false, note: undefined };

describe('skip report', () => {
  it('lists every skip with its note, and says when a skip has none', () => {
    expect(skipReport([redis, bare], false)).toEqual([
      'Skipped tests (2):',
      '  tests/queue/fleet.test.ts > a fleet > needs what this machine lacks: skipped, redis-server not found',
      '  tests/a.test.ts > x > y: skipped, no reason given',
    ]);
  });

  it('under -t lists only the skips with a note and counts the others', () => {
    expect(skipReport([redis, bare, bare], true)).toEqual([
      'Skipped tests (1):',
      '  tests/queue/fleet.test.ts > a fleet > needs what this machine lacks: skipped, redis-server not found',
      '(2 tests left out by the -t pattern are not listed)',
    ]);
  });

  it('says nothing when nothing was skipped', () => {
    expect(skipReport([], false)).toEqual([]);
  });
});
