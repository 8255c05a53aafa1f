import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: [
      // Compiles src/ and tools/ into dist/ when a source changed since the last build: worker threads and
      // child processes run dist/, so they test the same code as the test files do (tests/setup/build.ts).
      'tests/setup/build.ts',
      // Finds missing optional prerequisites (PyTorch, chess/shogi engines): their tests skip, with a summary.
      'tests/setup/prerequisites.ts',
    ],
    // Every test starts on a fresh turn of the worker's event loop (why: tests/setup/yield-between-tests.ts).
    setupFiles: ['tests/setup/yield-between-tests.ts'],
    // Vitest's own report, then every skipped test with its reason (tests/setup/skip-report.ts).
    reporters: ['default', './tests/setup/skip-report.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Two cores here: run test files in parallel, but not more than the machine has.
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
