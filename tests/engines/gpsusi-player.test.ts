/**
 * gpsusi (Debian package gpsshogi) behind the Player port. A file of its own because gpsusi needs 5-10 s
 * of CPU just to load its tables (over 30 s of wall time on a loaded machine): it runs in the full suite (`npm test`, CI) and is left out of the fast
 * tier (tests/setup/slow-tests.ts).
 */
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { startEnginePlayer } from '../../src/engines/engine-player.js';
import { describeIf } from '../setup/skip.js';

const GPSUSI = '/usr/games/gpsusi';
const shogi = { game: 'shogi' as const, variant: 'standard', start: 'startpos' };

describeIf(existsSync(GPSUSI), `${GPSUSI} not found (Debian package gpsshogi; .ci/run installs it)`)('gpsusi as a Player', () => {
  it('handshakes and answers a byoyomi search', async () => {
    // Loading the tables took over 30 s (the default start timeout) on a loaded two-core machine.
    const e = (await startEnginePlayer(`cmd=${GPSUSI},option.LimitDepth=4,option.Thread=1`, 'shogi', { startTimeoutMs: 150_000 })).unwrap();
    expect(e.name).toMatch(/^gpsshogi/);
    await e.newGame();
    const r = await e.go({ ...shogi, moves: [], clock: { firstMs: 0, secondMs: 0, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 300 } });
    expect(r.move).toMatch(/^[1-9][a-i][1-9][a-i]\+?$/);
    await e.close();
  }, 240_000);
});
