import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Finds missing optional prerequisites (PyTorch, chess/shogi engines): their tests skip, with a summary.
    globalSetup: ['tests/setup/prerequisites.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Two cores here: run test files in parallel, but not more than the machine has.
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
