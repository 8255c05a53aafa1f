/**
 * `kishi fake-server lichess|lishogi`: the local Bot API servers the tests play against
 * (src/protocols/lichess/fake/, src/protocols/lishogi/fake/), started on a port so that real clients
 * (lichess-bot, `kishi run`, a browser on the JSON endpoints) can be run against them. It prints the URL
 * and the token(s) a client should use, and stops on SIGINT/SIGTERM.
 *
 *   kishi fake-server lichess --port 8080                       one BOT account, two online bots to challenge
 *   kishi fake-server lichess --port 8080 --challenge-every 5   and a challenge to the bot whenever it is idle
 *   kishi fake-server lishogi --port 8081 --accounts 2          two BOT accounts that can challenge each other
 *
 * The tokens are made up here (random unless --token), never real ones; they are printed because a client
 * needs them. The servers listen on 127.0.0.1 only.
 *
 * Exit codes: 0 after a stop by signal, 1 when the port cannot be opened, 2 for bad usage.
 */
import { randomBytes } from 'node:crypto';
import { InvalidArgumentError, Option } from 'commander';
import type { Command } from 'commander';
import { LichessTestServer } from '../protocols/lichess/fake/server.js';
import type { TestUserSpec } from '../protocols/lichess/fake/server.js';
import { LishogiTestServer } from '../protocols/lishogi/fake/lishogi-server.js';
import type { LishogiAccountSpec } from '../protocols/lishogi/fake/lishogi-server.js';

export const FAKE_SERVERS = ['lichess', 'lishogi'] as const;
export type FakeServerName = (typeof FAKE_SERVERS)[number];

interface FakeServerCliOptions {
  readonly port: number;
  readonly token?: string;
  readonly bot: string;
  readonly accounts: number;
  readonly challengeEvery: number;
  readonly clock: { readonly limit: number; readonly increment: number };
  readonly keepAliveMs?: number;
  readonly seed: number;
}

/** What the command started: the lines it printed, and how to stop it. */
export interface StartedFakeServer {
  readonly url: string;
  readonly lines: readonly string[];
  stop(): Promise<void>;
}

/** The online BOT accounts of the fake lichess that accept the bot's challenges (matchmaking) and play. */
const LICHESS_SPARRING: readonly TestUserSpec[] = [
  { username: 'FakeGreedyBot', title: 'BOT', rating: 1600, online: true, onChallenge: 'accept', opponent: { then: 'greedy', seed: 1, delayMs: 200 } },
  { username: 'FakeRandomBot', title: 'BOT', rating: 1400, online: true, onChallenge: 'accept', opponent: { then: 'random', seed: 2, delayMs: 200 } },
];

const fakeToken = (prefix: string): string => `${prefix}_fake${randomBytes(12).toString('hex')}`;

const intArg =
  (min: number, max: number) =>
  (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`an integer from ${min} to ${max}`);
    return n;
  };

const clockArg = (v: string): { limit: number; increment: number } => {
  const m = /^(\d+)\+(\d+)$/.exec(v);
  if (m === null) throw new InvalidArgumentError('seconds+increment, e.g. 180+2');
  return { limit: Number(m[1]), increment: Number(m[2]) };
};

/** Starts the fake lichess: one BOT account (the client's), two sparring bots, optional incoming challenges. */
async function startLichess(o: FakeServerCliOptions): Promise<StartedFakeServer> {
  const token = o.token ?? fakeToken('lip');
  const server = new LichessTestServer({
    bot: { username: o.bot, token },
    users: LICHESS_SPARRING,
    seed: o.seed,
    ...(o.keepAliveMs !== undefined ? { keepAliveMs: o.keepAliveMs } : {}),
  });
  const url = await server.start(o.port);
  let timer: NodeJS.Timeout | undefined;
  let last: string | undefined;
  let n = 0;
  if (o.challengeEvery > 0) {
    // A challenge whenever the bot has no game and none is waiting, as a player in the lobby would send.
    timer = setInterval(() => {
      if (server.activeBotGames() > 0 || (last !== undefined && server.challengeStatus(last)?.status === 'created')) return;
      n++;
      last = server.challenge({ from: 'FakeChallenger', rating: 1500, clock: o.clock, opponent: { then: n % 2 === 0 ? 'random' : 'greedy', seed: n, delayMs: 300 } });
    }, o.challengeEvery * 1000);
  }
  return {
    url,
    lines: [
      `fake lichess at ${url} (lichess-org/api shapes; the bot's game streams send a keep-alive every ${o.keepAliveMs ?? 7000} ms)`,
      `  BOT account ${o.bot}, token ${token}`,
      `  online bots that accept its challenges: ${LICHESS_SPARRING.map((u) => u.username).join(', ')}`,
      o.challengeEvery > 0
        ? `  FakeChallenger challenges ${o.bot} (${o.clock.limit}+${o.clock.increment}) every ${o.challengeEvery} s while it is idle`
        : '  no incoming challenges (--challenge-every S sends some)',
      `  kishi run: LICHESS_TOKEN=${token} with lichess.url: ${url}; lichess-bot: token ${token}, url: ${url}/`,
    ],
    stop: async () => {
      clearInterval(timer);
      await server.stop();
    },
  };
}

/** Starts the fake lishogi: `accounts` BOT accounts, each with its token (lishogi's 750 ms bot move hold). */
async function startLishogi(o: FakeServerCliOptions): Promise<StartedFakeServer> {
  const accounts: LishogiAccountSpec[] = Array.from({ length: o.accounts }, (_, i) => ({
    username: o.accounts === 1 ? o.bot : `${o.bot}${i + 1}`,
    token: o.token !== undefined ? (o.accounts === 1 ? o.token : `${o.token}${i + 1}`) : fakeToken('lish'),
    title: 'BOT',
  }));
  const server = new LishogiTestServer({ accounts, seed: o.seed, ...(o.keepAliveMs !== undefined ? { keepAliveMs: o.keepAliveMs } : {}) });
  const url = await server.start(o.port);
  return {
    url,
    lines: [
      // The commit the fake follows: src/protocols/lishogi/fake/lishogi-server.ts.
      `fake lishogi at ${url} (WandererXII/lishogi@acb3b122 shapes; the bot's game streams send a keep-alive every ${o.keepAliveMs ?? 6000} ms)`,
      ...accounts.map((a) => `  BOT account ${a.username}, token ${a.token}`),
      '  accounts challenge each other through POST /api/challenge/{username}',
      `  kishi run: LISHOGI_TOKEN=<token> with lishogi.url: ${url}`,
    ],
    stop: () => server.stop(),
  };
}

/** Starts the named fake server; the lines say where it is and which tokens to use. */
export function startFakeServer(name: FakeServerName, o: FakeServerCliOptions): Promise<StartedFakeServer> {
  return name === 'lichess' ? startLichess(o) : startLishogi(o);
}

export function register(program: Command): void {
  program
    .command('fake-server')
    .description('serve the local fake lichess or lishogi (the Bot API the tests play against) for real clients such as lichess-bot')
    .argument('<server>', `${FAKE_SERVERS.join(' | ')}`, (v: string): FakeServerName => {
      if (!(FAKE_SERVERS as readonly string[]).includes(v)) throw new InvalidArgumentError(`one of ${FAKE_SERVERS.join(', ')}`);
      return v as FakeServerName;
    })
    .option('--port <n>', 'port on 127.0.0.1 (0: any free one)', intArg(0, 65535), 0)
    .option('--token <token>', 'the token of the bot account (lishogi with several accounts: this plus 1, 2, ...); default: random')
    .option('--bot <name>', 'the bot account name (lishogi with several accounts: this plus 1, 2, ...)', 'KishiBot')
    .option('--accounts <n>', 'lishogi: how many BOT accounts', intArg(1, 16), 2)
    .option('--challenge-every <s>', 'lichess: challenge the bot every this many seconds while it is idle (0: never)', intArg(0, 3600), 0)
    .addOption(new Option('--clock <limit+inc>', 'lichess: the clock of those challenges, seconds').argParser(clockArg).default({ limit: 180, increment: 2 }, '180+2'))
    .option('--keep-alive-ms <ms>', "the streams' keep-alive cadence (default: the real server's, 7000 / 6000)", intArg(100, 600_000))
    .option('--seed <n>', 'seed of colours and the sparring bots', intArg(0, 2 ** 31 - 1), 1)
    .action(async (name: FakeServerName, opts: FakeServerCliOptions) => {
      let started: StartedFakeServer;
      try {
        started = await startFakeServer(name, opts);
      } catch (e) {
        console.error(`kishi fake-server: cannot listen on port ${opts.port}: ${e instanceof Error ? e.message : String(e)}`);
        process.exit(1);
      }
      for (const line of started.lines) console.log(line);
      console.log('Ctrl-C stops it.');
      await new Promise<void>((resolve) => {
        const onSignal = (): void => {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
          resolve();
        };
        process.on('SIGINT', onSignal);
        process.on('SIGTERM', onSignal);
      });
      await started.stop();
      console.log(`fake ${name} stopped`);
    });
}
