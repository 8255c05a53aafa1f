/**
 * Online TD-Leaf on lichess, end to end: `kishi run` (runServers) against the local lichess server with
 * `learning.online: true`. An aborted game leaves the live weights alone; a finished game replaces them
 * atomically (the previous version kept as `.prev`), and the next game's Player is made with them.
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runServers } from '../../../src/cli/run.js';
import { Signals } from '../../bot/signals.js';
import { parseConfig } from '../../../src/config/load.js';
import type { OnlineOutcome } from '../../../src/learning/tdleaf/online.js';
import { historyPath } from '../../../src/learning/tdleaf/online.js';
import { LichessTestServer } from '../../../src/protocols/lichess/fake/server.js';
import { learningPlayerFactory } from '../../bot/learning-player.js';

const TOKEN = ['lip', 'OnlineLearnToken0123456789'].join('_');

const until = async (pred: () => boolean, ms = 20_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('online learning on lichess (kishi run, local lichess server)', () => {
  it('learns after each finished game, never from an aborted one, and the next game plays with the new weights', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-lichess-online-'));
    const weights = join(dir, 'chess-live.json');
    copyFileSync('models/chess-material.json', weights);
    const original = readFileSync(weights, 'utf8');
    const server = new LichessTestServer({ bot: { username: 'LearnBot', token: TOKEN }, keepAliveMs: 100, firstMoveMs: 1500 });
    await server.start();
    try {
      const config = parseConfig(
        [
          `lichess: {enabled: true, url: "${server.url}"}`,
          'log: {transcripts: false}',
          `records: {dir: "${join(dir, 'records')}"}`,
          `engine: {chessEval: linear, chessWeights: "${weights}"}`,
          'learning: {online: true, minMoves: 1}',
        ].join('\n'),
      ).unwrap();
      const { factory, loads } = learningPlayerFactory(weights, 1500);
      const outcomes: OnlineOutcome[] = [];
      const signals = new Signals();
      const run = runServers({ config, secrets: { lichessToken: TOKEN }, playerFactory: factory, signals, say: () => {}, onLearnt: (o) => outcomes.push(o) });
      await server.waitFor(() => server.stats.eventStreamOpens === 1);
      expect(loads).toEqual([original]);

      // 1. Aborted: we (white) move, the opponent never does.
      const aborted = server.challenge({ from: 'Staller', color: 'black', opponent: { then: 'stall' } });
      expect((await server.waitForEnd(aborted)).status).toBe('aborted');
      await until(() => outcomes.length === 1);
      expect(outcomes[0]).toMatchObject({ status: 'skipped', reason: 'aborted', gameId: aborted });
      expect(readFileSync(weights, 'utf8')).toBe(original);
      expect(existsSync(`${weights}.prev`)).toBe(false);

      // 2. A finished game (the opponent resigns at ply 16): the weights move, the old version is kept.
      const first = server.challenge({ from: 'Randy', color: 'black', opponent: { then: 'random', seed: 5, maxPlies: 16 } });
      expect((await server.waitForEnd(first)).status).toBe('resign');
      await until(() => outcomes.length === 2);
      expect(outcomes[1]).toMatchObject({ status: 'updated', gameId: first, weightsFile: weights });
      const afterFirst = readFileSync(weights, 'utf8');
      expect(afterFirst).not.toBe(original);
      expect(readFileSync(`${weights}.prev`, 'utf8')).toBe(original);
      expect(JSON.parse(afterFirst).manifest.provenance).toMatchObject({ method: 'tdleaf-online', games: 1 });

      // 3. The next game: its Player is made with the new weights, and learns on from them.
      const second = server.challenge({ from: 'Randy', color: 'white', opponent: { then: 'random', seed: 6, maxPlies: 15 } });
      expect((await server.waitForEnd(second)).status).toBe('resign');
      await until(() => outcomes.length === 3);
      expect(loads.length).toBe(2);
      expect(loads[1]).toBe(afterFirst);
      expect(outcomes[2]).toMatchObject({ status: 'updated', gameId: second });
      expect(readFileSync(`${weights}.prev`, 'utf8')).toBe(afterFirst);
      expect(JSON.parse(readFileSync(weights, 'utf8')).manifest.provenance).toMatchObject({ method: 'tdleaf-online', games: 2 });
      const history = readFileSync(historyPath(weights), 'utf8').trim().split('\n').map((l) => JSON.parse(l).game);
      expect(history).toEqual([`lichess/${first}`, `lichess/${second}`]);
      // No temporary files left by the atomic writes.
      expect(readdirSync(dir).sort()).toEqual(['chess-live.json', 'chess-live.json.prev', 'chess-live.json.tdleaf-history.jsonl', 'records']);

      signals.send(true);
      expect(await run).toBe(0);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
