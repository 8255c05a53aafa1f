/**
 * Online TD-Leaf on a CSA server (floodgate), end to end: `kishi run` (runServers, csa section) against
 * the local CSA server and a random mover, with `learning.online: true`. A game cut off by a dropped
 * connection leaves the live weights alone; a finished game replaces them atomically (the previous
 * version kept as `.prev`), and the next game's Player is made with them.
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runServers } from '../../../src/cli/run.js';
import { parseConfig } from '../../../src/config/load.js';
import type { OnlineOutcome } from '../../../src/learning/tdleaf/online.js';
import { historyPath } from '../../../src/learning/tdleaf/online.js';
import { CsaTestServer } from '../../../src/testing/csa-server/server.js';
import { learningPlayerFactory } from '../../bot/learning-player.js';
import { RandomMover } from '../../fakes/player.js';
import { testBot } from './harness.js';

let server: CsaTestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('online learning on a CSA server (kishi run, local CSA server)', () => {
  it('learns after each finished game, never from one cut off by the network, and the next game plays with the new weights', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-csa-online-'));
    const weights = join(dir, 'shogi-live.json');
    copyFileSync('models/shogi-material.json', weights);
    const original = readFileSync(weights, 'utf8');
    server = new CsaTestServer({ unitMs: 1000, maxMoves: 30, closeAfterGameMs: 50, colours: 'alternate' });
    const port = await server.start();
    // Our first game: the connection drops after 4 plies (it does not count toward maxGames: 2 more follow).
    server.inject({ kind: 'drop', player: 'kishi', afterPlies: 4 });
    const config = parseConfig(
      [
        `csa: {enabled: true, host: "127.0.0.1", port: ${port}, user: kishi, gameName: csatest-300-10F, reconnectSec: 1, maxGames: 2}`,
        'log: {transcripts: false}',
        `records: {dir: "${join(dir, 'records')}"}`,
        `engine: {shogiWeights: "${weights}"}`,
        'learning: {online: true, minMoves: 1}',
      ].join('\n'),
    ).unwrap();
    const { factory, loads } = learningPlayerFactory(weights, 1500);
    const outcomes: OnlineOutcome[] = [];
    const versions: string[] = [];
    const previous: string[] = [];
    const opponent = testBot(port, 'randy', async () => new RandomMover(11), {}, { maxGames: 0 });
    const opponentRun = opponent.bot.start();
    const code = await runServers({
      config,
      secrets: { csaPassword: 'pw-kishi' },
      playerFactory: factory,
      say: () => {},
      onLearnt: (o) => {
        outcomes.push(o);
        versions.push(readFileSync(weights, 'utf8'));
        previous.push(existsSync(`${weights}.prev`) ? readFileSync(`${weights}.prev`, 'utf8') : '(none)');
      },
    });
    await opponent.bot.stop(false);
    await opponentRun;
    expect(code).toBe(0);

    const games = server.finished.filter((g) => g.black === 'kishi' || g.white === 'kishi');
    expect(games.length).toBe(3);
    expect(games.slice(1).map((g) => ['MAX_MOVES', 'RESIGN', 'SENNICHITE', 'OUTE_SENNICHITE', 'JISHOGI'].includes(g.reason))).toEqual([true, true]);
    // 1. Cut off: not learnt from, the weights untouched.
    expect(outcomes.map((o) => o.status)).toEqual(['skipped', 'updated', 'updated']);
    expect(outcomes[0]!.reason).toBe('aborted');
    expect(versions[0]).toBe(original);
    expect(previous[0]).toBe('(none)');
    // 2. Finished: new weights, the previous version kept.
    expect(versions[1]).not.toBe(original);
    expect(previous[1]).toBe(original);
    expect(JSON.parse(versions[1]!).manifest.provenance).toMatchObject({ method: 'tdleaf-online', games: 1 });
    // 3. The next game's Player was made with them, and learnt on from them.
    expect(loads).toEqual([original, versions[1]]);
    expect(readFileSync(`${weights}.prev`, 'utf8')).toBe(versions[1]);
    expect(JSON.parse(readFileSync(weights, 'utf8')).manifest.provenance).toMatchObject({ method: 'tdleaf-online', games: 2 });
    const history = readFileSync(historyPath(weights), 'utf8').trim().split('\n').map((l) => JSON.parse(l).game);
    expect(history).toEqual([`csa/${outcomes[1]!.gameId}`, `csa/${outcomes[2]!.gameId}`]);
    expect(existsSync(join(dir, 'records', 'csa'))).toBe(true);
    // No temporary files left by the atomic writes.
    expect(readdirSync(dir).sort()).toEqual(['records', 'shogi-live.json', 'shogi-live.json.prev', 'shogi-live.json.tdleaf-history.jsonl']);
  }, 90_000);
});
