import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Dispatcher } from '../../src/bot/dispatcher.js';
import { runServers, SERVER_FACTORIES } from '../../src/cli/run.js';
import { Signals } from './signals.js';
import { parseConfig } from '../../src/config/load.js';
import { LichessTestServer } from '../../src/testing/lichess-server/server.js';
import { FirstLegalPlayer } from '../protocols/lichess/helpers/test-player.js';

const TOKEN = ['lip', 'RunTestToken0123456789'].join('_');

describe('kishi run', () => {
  it('has a server factory per config section, lichess, csa and web', () => {
    expect(SERVER_FACTORIES.map((f) => f.section)).toEqual(['lichess', 'csa', 'web']);
  });

  it('finds the CSA server through its factory seam (src/protocols/csa/server-factory.ts)', async () => {
    const csa = SERVER_FACTORIES.find((f) => f.section === 'csa');
    const config = parseConfig('csa: {enabled: true}\nlog: {transcripts: false}\n').unwrap();
    expect(csa?.enabled(config)).toBe(true);
    expect(csa?.games).toEqual(['shogi']);
    const created = await csa!.create({ config, secrets: { csaPassword: 'pw-for-test' }, dispatcher: new Dispatcher(async () => new FirstLegalPlayer()) });
    expect(created.isOk).toBe(true);
    expect(created.isOk && created.value.activeGames()).toBe(0);
  });

  it('exits 2 when no server is enabled', async () => {
    const lines: string[] = [];
    const config = parseConfig('web: {enabled: never}').unwrap();
    const code = await runServers({ config, secrets: {}, playerFactory: async () => new FirstLegalPlayer(), say: (l) => lines.push(l) });
    expect([code, lines]).toEqual([2, ['kishi run: no server is enabled in the config (set lichess.enabled or csa.enabled, or web.enabled)']]);
  });

  it('fails at start-up, exit 1, when no engine can be made', async () => {
    const lines: string[] = [];
    const config = parseConfig('lichess: {enabled: true}\nlog: {transcripts: false}\n').unwrap();
    const code = await runServers({
      config,
      secrets: { lichessToken: TOKEN },
      playerFactory: async () => {
        throw new Error('ERR_WEIGHTS models/chess-linear.json: file not found');
      },
      say: (l) => lines.push(l),
    });
    expect([code, lines]).toEqual([1, ['kishi run: no engine available for chess: ERR_WEIGHTS models/chess-linear.json: file not found']]);
  });

  it('plays on lichess, then stops gracefully on the first signal after finishing the game', async () => {
    const server = new LichessTestServer({ bot: { username: 'RunBot', token: TOKEN }, keepAliveMs: 100 });
    await server.start();
    try {
      const config = parseConfig(`lichess: {enabled: true, url: "${server.url}"}\nlog: {transcripts: false}\nrecords: {dir: "${mkdtempSync(join(tmpdir(), 'kishi-run-'))}"}\n`).unwrap();
      const signals = new Signals();
      const lines: string[] = [];
      const run = runServers({
        config,
        secrets: { lichessToken: TOKEN },
        playerFactory: async () => new FirstLegalPlayer({ script: ['e2e4', 'f1c4', 'd1h5', 'h5f7'] }),
        signals,
        say: (l) => lines.push(l),
      });
      await server.waitFor(() => server.stats.eventStreamOpens === 1);
      const id = server.challenge({ from: 'Victim', color: 'black', opponent: { script: ['e7e5', { type: 'pause', ms: 300 }, 'b8c6', 'g8f6'] } });
      await server.waitFor(() => (server.game(id)?.plies() ?? 0) >= 2);
      signals.send(true);
      expect(await run).toBe(0);
      expect(server.game(id)?.status).toBe('mate');
      expect(lines).toEqual(['kishi run: stopping; 1 game(s) in progress will be finished (send the signal again to leave at once)']);
    } finally {
      await server.stop();
    }
  });

  it('exits 1 with one line when lichess refuses the account', async () => {
    const server = new LichessTestServer({ bot: { username: 'Human', token: TOKEN, title: null } });
    await server.start();
    try {
      const config = parseConfig(`lichess: {enabled: true, url: "${server.url}"}\nlog: {transcripts: false}\n`).unwrap();
      const lines: string[] = [];
      const code = await runServers({ config, secrets: { lichessToken: TOKEN }, playerFactory: async () => new FirstLegalPlayer(), say: (l) => lines.push(l) });
      expect(code).toBe(1);
      expect(lines).toEqual(['kishi run: lichess: the lichess account Human is not a BOT account; run `kishi lichess upgrade` to upgrade it (irreversible)']);
    } finally {
      await server.stop();
    }
  });
});
