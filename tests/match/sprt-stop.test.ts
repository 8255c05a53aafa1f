/** The match stops when the SPRT concludes, and the summary says so. */
import { describe, expect, it } from 'vitest';
import { runMatch } from '../../src/match/match-runner.js';
import { entry, fakeSpec, matchConfig, nodesTc } from './helpers.js';

// Seven WW pairs take the logistic GLLR for elo1 = 200 past the upper bound (2.94 less the overshoot).
const EXPECTED_GAMES = 14;
describe('SPRT in a match', () => {
  it('stops early once H1 is accepted', async () => {
    const m = await runMatch(
      matchConfig({
        engines: [entry(fakeSpec('good'), nodesTc(1)), entry(fakeSpec('bad', ['--fault', 'illegal', '--at', '1']), nodesTc(1))],
        games: 100,
        concurrency: 1,
        sprt: { elo0: 0, elo1: 200, model: 'logistic' },
      }),
    );
    expect(m.stoppedEarly).toBe('sprt');
    expect(m.sprt?.status.decision).toBe('H1');
    expect(m.gamesPlayed).toBe(2 * m.sprt!.status.samples);
    expect(m.gamesPlayed).toBe(EXPECTED_GAMES);
    expect(m.sprt!.status.llr).toBeGreaterThan(m.sprt!.status.upper - m.sprt!.status.overshootUpper);
  });
});
