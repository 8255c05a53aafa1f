// The fast tier, `npm run test:fast`: the whole suite less the files in tests/setup/slow-tests.ts (engine
// games, browser, job queue, training and soak runs), what a developer runs between edits; under 3 minutes
// on two cores. CI runs everything (`npm test`).
import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import { SLOW_TESTS } from './tests/setup/slow-tests.js';
import base from './vitest.config.js';

export default mergeConfig(base, defineConfig({ test: { exclude: [...configDefaults.exclude, ...SLOW_TESTS.map((t) => t.file)] } }));
