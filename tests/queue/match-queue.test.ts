/**
 * `kishi match --queue` against a real redis-server: a fixed-node match between two Kishi engines
 * played by two workers gives the same counts, and the same result of every game, as the same match
 * played locally (same seed, same openings; fixed nodes make each game deterministic).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MatchSummary } from '../../src/match/match-runner.js';
import { kishi, killAll } from './processes.js';
import { haveRedis, NO_REDIS, startRedis, type TestRedis } from './redis-server.js';

const MATCH = ['match', '-e', 'cmd=kishi,name=A', '-e', 'cmd=kishi,name=B,option.Hash=8', '--nodes', '300', '-n', '4', '--seed', '11', '--openings', 'data/openings/chess-balanced.epd', '-q'];

const outcome = (s: MatchSummary): unknown => ({
  results: s.results,
  games: s.games.map((g) => ({ id: g.id, first: g.first, second: g.second, opening: g.opening, result: g.result, reason: g.reason, plies: g.plies, final: g.final })),
});

describe.skipIf(!haveRedis())('match over the job queue', () => {
  let redis: TestRedis;
  let tmp: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'kishi-queue-match-'));
    redis = await startRedis();
  });

  afterAll(async () => {
    await killAll();
    await redis?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('gives the same counts and game results as the local match', async () => {
    const local = kishi([...MATCH, '--concurrency', '1', '--out', join(tmp, 'local')]);
    for (let k = 0; k < 2; k++) await kishi(['worker', '--queue', redis.url, '--concurrency', '1']).waitFor(/takes jobs from/, 90_000);
    const queued = kishi([...MATCH, '--out', join(tmp, 'queued'), '--queue', redis.url]);
    expect(await local.exited).toBe(0);
    expect(await queued.exited, queued.output()).toBe(0);
    expect(queued.output()).toMatch(/worker \S+: games 1 \S+, 2 \S+ in/);
    const read = (d: string): MatchSummary => JSON.parse(readFileSync(join(tmp, d, 'summary.json'), 'utf8')) as MatchSummary;
    const a = read('local');
    const b = read('queued');
    expect(a.gamesPlayed).toBe(4);
    expect(outcome(b)).toEqual(outcome(a));
  }, 360_000);
});

// Without the server, one visible skipped line says why.
if (!haveRedis()) describe('match over the job queue', () => it.skip(NO_REDIS, () => {}));
