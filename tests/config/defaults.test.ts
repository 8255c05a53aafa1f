/** The schema's defaults without the validator (src/config/defaults.ts) are what the validator fills into an empty config. */
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/defaults.js';
import { validateConfig } from '../../src/config/load.js';

describe('defaultConfig', () => {
  it('equals validateConfig({})', () => {
    expect(defaultConfig()).toEqual(validateConfig({}).unwrap());
  });

  it('gives a fresh copy each time', () => {
    const a = defaultConfig();
    (a.engine as { hashMb: number }).hashMb = 1;
    expect(defaultConfig().engine.hashMb).not.toBe(1);
  });
});
