/**
 * Suites and tests that need something this machine may lack (an engine in /usr/games, redis-server,
 * Chromium, PyTorch, the shipped models): they run when it is there, and otherwise stand as one skipped
 * test whose note names what is missing, which vitest prints beside the skip and
 * tests/setup/skip-report.ts lists at the end of the run (`describe.skipIf` skips without a word).
 */
import { describe, it } from 'vitest';

type Body = () => void;
type Fn = () => unknown;

/** `describe(name, body)` when `present`, else one skipped test whose note is `missing`. */
export function describeIf(present: boolean, missing: string): (name: string, body: Body) => void {
  if (present) return (name, body) => describe(name, body);
  return (name) => describe(name, () => it('needs what this machine lacks', (ctx) => ctx.skip(missing)));
}

/** `it(name, fn, timeout)` when `present`, else the same test skipped with the note `missing`. */
export function itIf(present: boolean, missing: string): (name: string, fn: Fn, timeout?: number) => void {
  if (present) return (name, fn, timeout) => it(name, fn, timeout);
  return (name) => it(name, (ctx) => ctx.skip(missing));
}

/** The note for an engine binary that is missing (Debian's engines live in /usr/games). */
export const engineMissing = (path: string): string => `${path} not found (a Debian package; .ci/run installs it)`;
