/**
 * Lets each test worker's event loop turn between tests. Vitest runs the tests of a file one after another
 * through promises (microtasks) alone, so a file of synchronous tests (the shogi differential sweep: ten
 * chunks of 13 s) holds the worker's event loop for their sum. Vitest's worker waits at most 60 s for the
 * answer to its own report calls, and a loop held longer than that on a loaded two-core machine fails the
 * whole run with `Timeout calling "onTaskUpdate"` although every test passed. Two turns of the loop before
 * each test let those answers in; a single synchronous test must still stay well under a minute.
 */
import { beforeEach } from 'vitest';

// Kept before any test can install fake timers.
const immediate = globalThis.setImmediate;

beforeEach(async () => {
  for (let i = 0; i < 2; i++) await new Promise<void>((resolve) => immediate(() => resolve()));
});
