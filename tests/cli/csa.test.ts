/** `kishi csa`: options and config, a whole game through the bridge, x1 queries, refusals. */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { csaCliConfig, register } from '../../src/cli/csa.js';
import { CsaTestServer } from '../fakes/csa-server/server.js';
import { ScriptedPlayer } from '../fakes/player.js';
import { startInOrder, tempDir, testBot } from '../protocols/csa/harness.js';
import { describeIf, engineMissing } from '../setup/skip.js';

const FAIRY = '/usr/games/fairy-stockfish';
let server: CsaTestServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  delete process.env['CSA_PASSWORD'];
  await server?.stop();
  server = undefined;
});

const base = { config: '/nonexistent/kishi.yaml', comments: true };

function program(): Command {
  const p = new Command();
  p.exitOverride();
  register(p);
  return p;
}

/** Makes process.exit throw so that a test can see the code. */
function trapExit(): { errors: string[] } {
  const errors: string[] = [];
  vi.spyOn(process, 'exit').mockImplementation(((code?: number) => {
    throw new Error(`exit ${code ?? 0}`);
  }) as never);
  vi.spyOn(console, 'error').mockImplementation((m: unknown) => void errors.push(String(m)));
  return { errors };
}

function configFile(dir: string): string {
  const file = join(dir, 'kishi.yaml');
  writeFileSync(file, [`log: {dir: ${join(dir, 'logs')}, level: warn}`, `records: {dir: ${join(dir, 'records')}}`].join('\n'));
  return file;
}

describe('kishi csa options', () => {
  it('applies the command line over the config and validates the result', () => {
    const dir = tempDir();
    const c = csaCliConfig({ ...base, config: configFile(dir), host: 'localhost', port: '4082', user: 'bot', gameName: 'floodgate-600-10F', games: '3', x1: true, comments: false, engine: 'usi:/x/y' });
    expect(c.error).toBeUndefined();
    expect(c.config!.csa).toMatchObject({ enabled: true, host: 'localhost', port: 4082, user: 'bot', gameName: 'floodgate-600-10F', maxGames: 3, x1: true, comments: false, engine: 'usi:/x/y' });
    expect(c.config!.records.dir).toBe(join(dir, 'records'));
    // A -B/-W colour suffix is a valid name (direct games; floodgate refuses it at the login check).
    expect(csaCliConfig({ ...base, config: configFile(dir), gameName: 'mygame-600-10-W' }).config?.csa.gameName).toBe('mygame-600-10-W');
    const bad = csaCliConfig({ ...base, config: configFile(dir), gameName: 'floodgate-300-10X', margin: '500', engine: 'gnushogi' });
    expect(bad.error).toContain('csa.gameName');
    expect(bad.error).toContain('csa.marginMs');
    expect(bad.error).toContain('csa.engine');
    expect(csaCliConfig({ ...base, config: '/nonexistent/x.yaml' }).error).toContain('file not found');
    // the old --game (the server's game name) points at --game-name: -g/--game is chess or shogi elsewhere
    expect(csaCliConfig({ ...base, config: configFile(dir), game: 'floodgate-300-10F' }).error).toMatch(/--game is now --game-name/);
  });

  it('refuses to log in without the secret part of the password', async () => {
    const { errors } = trapExit();
    const dir = tempDir();
    await expect(program().parseAsync(['csa', '--config', configFile(dir)], { from: 'user' })).rejects.toThrow('exit 2');
    expect(errors.join('\n')).toContain('CSA_PASSWORD is not set: floodgate needs the login <gameName>,<secret>');
    process.env['CSA_PASSWORD'] = 'floodgate-300-10F,trip';
    await expect(program().parseAsync(['csa', '--config', configFile(dir)], { from: 'user' })).rejects.toThrow('exit 2');
    expect(errors.join('\n')).toContain('CSA_PASSWORD must hold only the secret part');
  });
});

describeIf(existsSync(FAIRY), engineMissing(FAIRY))('kishi csa --engine usi:fairy-stockfish', () => {
  it('plays a game as the USI-CSA bridge, writes its records and masks the password', async () => {
    server = new CsaTestServer({ unitMs: 10, closeAfterGameMs: 50, colours: 'first-black' });
    const port = await server.start();
    const dir = tempDir();
    process.env['CSA_PASSWORD'] = 'sekrit-trip';
    // The opponent (black) plays one move and resigns on its second turn.
    const opp = testBot(port, 'opp', async () => new ScriptedPlayer(['7g7f', 'resign']), { gameName: 'csatest-300-10F' });
    const cli = program().parseAsync(
      ['csa', '--config', configFile(dir), '--engine', `usi:${FAIRY}`, '--host', '127.0.0.1', '--port', String(port), '--user', 'fairy', '--game-name', 'csatest-300-10F', '--games', '1'],
      { from: 'user' },
    );
    await startInOrder(server, { bot: opp.bot, user: 'opp' });
    await cli;
    const g = server.finished[0]!;
    expect([g.black, g.white, g.reason, g.winner, g.moves.length]).toEqual(['opp', 'fairy', 'RESIGN', '-', 2]);
    // fairy's reply carried its comment (black's view, PV from the reply on).
    expect(g.moves[1]!.comment).toMatch(/^'\* -?\d+( [+-]\d{4}[A-Z]{2})*$/);
    const records = readdirSync(join(dir, 'records', 'csa')).sort();
    expect(records).toEqual([`${g.id}.csa`, `${g.id}.jsonl`]);
    const wire = readFileSync(join(dir, 'logs', 'csa-wire.log'), 'utf8');
    expect(wire).toContain('> LOGIN fairy csatest-300-10F,***');
    expect(wire).not.toContain('sekrit-trip');
    expect(readFileSync(join(dir, 'logs', 'usi-engine.log'), 'utf8')).toContain('> usi');
  }, 30_000);
});

describe('kishi csa --query', () => {
  it('prints the x1 answers', async () => {
    server = new CsaTestServer();
    const port = await server.start();
    process.env['CSA_PASSWORD'] = 'pw-q';
    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((m: unknown) => void out.push(String(m)));
    const dir = tempDir();
    await program().parseAsync(['csa', '--config', configFile(dir), '--host', '127.0.0.1', '--port', String(port), '--user', 'q', '--query', '%%VERSION', '%%LIST'], {
      from: 'user',
    });
    expect(out).toEqual(['##[LOGIN] +OK x1', '##[VERSION] Shogi Server revision 20201206', '##[VERSION] +OK', '##[LIST] +OK']);
  });
});
