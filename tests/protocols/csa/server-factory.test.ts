/** `createCsaServer(ctx)`, the entry `kishi run` loads: config checks, and a game with a dispatcher's Player. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Dispatcher } from '../../../src/bot/dispatcher.js';
import { parseConfig } from '../../../src/config/load.js';
import { createCsaServer } from '../../../src/protocols/csa/server-factory.js';
import { CsaTestServer } from '../../../src/testing/csa-server/server.js';
import { RandomMover } from '../../fakes/player.js';
import { startInOrder, tempDir, testBot } from './harness.js';

let server: CsaTestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const config = (port: number, dir: string, extra = '') =>
  parseConfig(
    [
      `csa: {enabled: true, host: 127.0.0.1, port: ${port}, user: kishi, gameName: csatest-300-10F, maxGames: 1${extra}}`,
      `records: {dir: ${join(dir, 'records')}}`,
      `log: {dir: ${join(dir, 'logs')}, transcripts: false}`,
    ].join('\n'),
  ).unwrap();

describe('createCsaServer', () => {
  it('refuses a login without the secret part, or with the game name inside the secret', () => {
    const dispatcher = new Dispatcher(async () => new RandomMover(1));
    const c = config(4081, tempDir());
    const none = createCsaServer({ config: c, secrets: {}, dispatcher });
    expect(none.isErr && none.error.message).toContain('CSA_PASSWORD is not set: floodgate needs the login <gameName>,<secret>');
    const both = createCsaServer({ config: c, secrets: { csaPassword: 'csatest-300-10F,x' }, dispatcher });
    expect(both.isErr && both.error.code).toBe('ERR_CONFIG');
    expect(createCsaServer({ config: c, secrets: { csaPassword: 'trip' }, dispatcher }).isOk).toBe(true);
  });

  it('plays a game with a Player leased from the dispatcher and gives it back', async () => {
    server = new CsaTestServer({ unitMs: 10, maxMoves: 10, closeAfterGameMs: 50, colours: 'first-black' });
    const port = await server.start();
    const dir = tempDir();
    const dispatcher = new Dispatcher(async () => new RandomMover(5));
    await dispatcher.prepare(['shogi']);
    const csa = createCsaServer({ config: config(port, dir), secrets: { csaPassword: 'trip' }, dispatcher }).unwrap();
    expect(csa.name).toBe('csa');
    const opp = testBot(port, 'opp', async () => new RandomMover(2));
    await startInOrder(server, { bot: csa, user: 'kishi' }, { bot: opp.bot, user: 'opp' });
    expect(server.finished.map((g) => [g.black, g.reason])).toEqual([['kishi', 'MAX_MOVES']]);
    expect(dispatcher.activeLeases()).toBe(0);
    expect(readdirSync(join(dir, 'records', 'csa')).filter((f) => f.endsWith('.csa'))).toHaveLength(1);
    await dispatcher.close();
  });
});
