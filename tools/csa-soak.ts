/**
 * CSA soak (not a test; issue 48's acceptance): the CSA bot against the local shogi-server-like server of
 * tests/fakes/csa-server, with transient faults that must be retried and permanent errors that must end the
 * command with one clear line.
 *
 *   npx vite-node tools/csa-soak.ts -- --games 30 --seed 1
 *
 * Transient (one bot, `alice`, asks for `--games` completed games against `bob`): before each of alice's
 * games one fault drawn by the seed: a connection dropped mid-game, a server gone silent, a half-open
 * connection (the server notices the close only 0.3-1.5 s later, so alice's re-LOGIN gets `LOGIN:incorrect`
 * meanwhile), garbage lines, or none; and every `--restart-every` seconds the server restarts (every socket
 * closed, a new server on the same port a moment later). Alice must finish her games; a dropped game does
 * not count.
 * Permanent (each its own run, the bot alone): `##[ERROR]` answers to the game request (x1 with a colour for
 * a floodgate game, x1 with a bad game name, CSA mode with a colour for a floodgate game) and a name held by
 * another live connection for good (`LOGIN:incorrect` on every retry). Each must end `start()` with one error, at
 * most the bounded number of LOGINs, no endless loop.
 * Players: RandomMover (instant), so that the protocol layer is what is measured.
 */
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CsaClientOptions, CsaLog } from '../src/protocols/csa/client.js';
import { CsaBot, singlePlayerSource } from '../src/protocols/csa/game-server.js';
import { seededRng } from '../src/core/rng.js';
import type { Fault } from '../tests/fakes/csa-server/server.js';
import { CsaTestServer } from '../tests/fakes/csa-server/server.js';
import { RandomMover } from '../tests/fakes/player.js';

interface Args {
  games: number;
  seed: number;
  restartEveryS: number;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { games: 30, seed: 1, restartEveryS: 7 };
  for (let i = 0; i < argv.length; i++) {
    const v = Number(argv[i + 1]);
    if (argv[i] === '--games') args.games = v;
    else if (argv[i] === '--seed') args.seed = v;
    else if (argv[i] === '--restart-every') args.restartEveryS = v;
  }
  return args;
}

/** A log kept in memory, with the level of each line. */
function memLog(): CsaLog & { readonly lines: string[] } {
  const lines: string[] = [];
  return { lines, debug: () => {}, info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`), error: (m) => lines.push(`error ${m}`) };
}

const SERVER_OPTS = { unitMs: 10, maxMoves: 24, closeAfterGameMs: 50, colours: 'alternate' as const };
const FAST_CLIENT = { keepAliveMs: 150, minBlankGapMs: 100, replyTimeoutMs: 300 };

function bot(port: number, user: string, seed: number, maxGames: number, client: Partial<CsaClientOptions> = {}, refusedRetries?: number) {
  const log = memLog();
  const csaBot = new CsaBot(
    {
      name: 'soak',
      client: {
        host: '127.0.0.1',
        port,
        user,
        secret: `pw-${user}`,
        gameName: 'csatest-300-10F',
        x1: false,
        connectTimeoutMs: 2000,
        safetyMarginMs: 100,
        comments: true,
        ponder: false,
        closeWaitMs: 300,
        ...FAST_CLIENT,
        ...client,
      },
      recordsDir: join(mkdtempSync(join(tmpdir(), 'kishi-csa-soak-')), 'csa'),
      reconnectMs: 50,
      reconnectMaxMs: 800,
      afterGameDelayMs: 20,
      maxGames,
      log,
      ...(refusedRetries !== undefined ? { refusedRetries } : {}),
    },
    singlePlayerSource(async () => new RandomMover(seed)),
  );
  return { bot: csaBot, log };
}

async function transient(args: Args) {
  const rand = seededRng(args.seed);
  let server = new CsaTestServer(SERVER_OPTS);
  const port = await server.start();
  const servers = [server];
  const faults: Record<string, number> = { drop: 0, silent: 0, 'half-open': 0, garbage: 0, none: 0, restart: 0 };
  const drawFault = (): Fault | undefined => {
    const r = rand();
    const afterPlies = 2 + Math.floor(rand() * 14);
    const f: Fault | undefined =
      r < 0.2
        ? { kind: 'drop', player: 'alice', afterPlies }
        : r < 0.4
          ? { kind: 'silent', player: 'alice', afterPlies }
          : r < 0.6
            ? { kind: 'half-open', player: 'alice', afterPlies, holdMs: 300 + Math.floor(rand() * 1200) }
            : r < 0.75
              ? { kind: 'garbage', player: 'alice', afterPlies }
              : undefined;
    faults[f?.kind ?? 'none']!++;
    return f;
  };
  const first = drawFault();
  if (first) server.inject(first);
  const a = bot(port, 'alice', 1, args.games);
  // bob plays as long as alice needs him.
  const b = bot(port, 'bob', 2, 0);
  const t0 = Date.now();
  let seen = 0;
  let restarting = false;
  const monitor = setInterval(() => {
    if (restarting) return;
    const finished = servers.reduce((n, s) => n + s.finished.length, 0);
    if (finished > seen) {
      seen = finished;
      const f = drawFault();
      if (f) server.inject(f);
    }
  }, 20);
  const restarter = setInterval(() => {
    restarting = true;
    faults.restart!++;
    void (async () => {
      await server.stop();
      await new Promise((r) => setTimeout(r, 200));
      server = new CsaTestServer({ ...SERVER_OPTS, port });
      servers.push(server);
      await server.start();
      restarting = false;
    })();
  }, args.restartEveryS * 1000);
  const runB = b.bot.start().catch((e: unknown) => e);
  let aFailed: string | undefined;
  await a.bot.start().catch((e: unknown) => (aFailed = e instanceof Error ? e.message : String(e)));
  clearInterval(monitor);
  clearInterval(restarter);
  await b.bot.stop(false);
  await runB;
  await server.stop();
  const finished = servers.flatMap((s) => s.finished);
  const byReason = new Map<string, number>();
  for (const g of finished) byReason.set(g.reason, (byReason.get(g.reason) ?? 0) + 1);
  const logins = servers.flatMap((s) => s.logins).filter((n) => n === 'alice').length;
  return {
    gamesAsked: args.games,
    aliceFailed: aFailed ?? null,
    serverGames: finished.length,
    byReason: Object.fromEntries(byReason),
    faults,
    aliceLogins: logins,
    aliceErrors: a.log.lines.filter((l) => l.startsWith('error')),
    refusedLoginRetries: a.log.lines.filter((l) => l.includes('which logged in before')).length,
    seconds: Math.round((Date.now() - t0) / 100) / 10,
  };
}

/** One permanent error: the bot alone (or with a holder of its name); how `start()` ends, and how fast. */
async function permanent(label: string, client: Partial<CsaClientOptions>, setup?: (server: CsaTestServer, port: number) => Promise<() => Promise<void>>) {
  const server = new CsaTestServer(SERVER_OPTS);
  const port = await server.start();
  const cleanup = setup ? await setup(server, port) : async () => {};
  const a = bot(port, 'carol', 3, 1, client, 3);
  const t0 = Date.now();
  let ended: string | undefined;
  const timer = setTimeout(() => void a.bot.stop(false), 60_000);
  await a.bot.start().then(
    () => (ended = 'resolved (no error)'),
    (e: unknown) => (ended = e instanceof Error ? e.message : String(e)),
  );
  clearTimeout(timer);
  await cleanup();
  await server.stop();
  return {
    case: label,
    ended,
    seconds: Math.round((Date.now() - t0) / 100) / 10,
    logins: server.logins.filter((n) => n === 'carol').length,
    errorLines: a.log.lines.filter((l) => l.startsWith('error')),
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const t = await transient(args);
  const p = [
    await permanent('x1, a colour for a floodgate game', { x1: true, gameName: 'floodgate-300-10F-B' }),
    await permanent('x1, a bad game name', { x1: true, gameName: 'csatest-abc' }),
    await permanent('CSA mode, a colour for a floodgate game', { gameName: 'floodgate-300-10F-B' }),
    await permanent('the name held by another live connection for good', {}, async (_server, port) => {
      // Another client logged in as carol (another password) and stays: shogi-server answers every LOGIN
      // of carol with LOGIN:incorrect while it stays.
      const holder = connect(port, '127.0.0.1');
      holder.on('error', () => {});
      await new Promise<void>((r) => holder.once('connect', () => r()));
      holder.write('LOGIN carol someone-else\n');
      await new Promise((r) => setTimeout(r, 200));
      return async () => void holder.destroy();
    }),
  ];
  console.log(JSON.stringify({ seed: args.seed, transient: t, permanent: p }, null, 2));
  process.exit(0);
}

void main();
