/**
 * Test harness: a local lichess server, a bot with fast timings (so stalls, reconnects and rate limits run
 * in milliseconds), a temp records directory, and the schema checker on every message the server sends.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Player } from '../../../../src/player/player.js';
import { parseConfig } from '../../../../src/config/load.js';
import type { LichessConfig } from '../../../../src/config/sections/lichess.js';
import { Dispatcher } from '../../../../src/bot/dispatcher.js';
import type { BotTimings } from '../../../../src/protocols/lichess/game-server.js';
import { LichessBot } from '../../../../src/protocols/lichess/game-server.js';
import type { LichessTestServerOptions } from '../../../../src/protocols/lichess/fake/server.js';
import { LichessTestServer } from '../../../../src/protocols/lichess/fake/server.js';
import type { Transcript } from '../../../../src/log/transcript.js';
import { FirstLegalPlayer } from '../../../fakes/player.js';
import { SchemaChecker } from './schemas.js';

export const TOKEN = ['lip', 'TestTokenDoNotLeak0123456789'].join('_');

type DeepPartial<T> = { [K in keyof T]?: T[K] extends readonly unknown[] ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K] };

function merge<T>(base: T, over: DeepPartial<T> | undefined): T {
  if (over === undefined) return base;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = v !== null && typeof v === 'object' && !Array.isArray(v) && b !== null && typeof b === 'object' ? merge(b, v as DeepPartial<typeof b>) : v;
  }
  return out as T;
}

export const FAST_TIMINGS: Partial<BotTimings> = {
  silenceMs: 1500,
  gameSilenceMs: 1500,
  reconnectMinMs: 20,
  reconnectMaxMs: 200,
  gameReconnectMaxMs: 200,
  requestTimeoutMs: 2000,
  rateLimitScale: 0.2,
  retryMinDelayMs: 10,
  retryMaxDelayMs: 100,
  retryForMs: 3000,
  claimMarginMs: 50,
  acceptHoldMs: 2000,
  checkinMs: 300,
  matchmakingTickMs: 50,
};

export interface HarnessOptions {
  readonly server?: Partial<LichessTestServerOptions>;
  readonly config?: DeepPartial<LichessConfig>;
  readonly player?: () => Player;
  readonly timings?: Partial<BotTimings>;
  readonly recordsDir?: string;
  /** Do not start the bot (tests that start it themselves). */
  readonly noStart?: boolean;
  readonly transcript?: Transcript;
  readonly token?: string;
  readonly ponder?: boolean;
}

export interface Harness {
  readonly server: LichessTestServer;
  readonly schemas: SchemaChecker;
  readonly config: LichessConfig;
  readonly recordsDir: string;
  readonly players: Player[];
  bot: LichessBot;
  /** The promise of `bot.start()` (settles when the bot stops). */
  running: Promise<void>;
  /** A fresh bot against the same server and records (a restarted process). */
  newBot(): LichessBot;
  close(): Promise<void>;
}

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const schemas = new SchemaChecker();
  const token = opts.token ?? TOKEN;
  const server = new LichessTestServer({
    bot: { username: 'KishiBot', token },
    keepAliveMs: 100,
    firstMoveMs: 5000,
    claimWinSeconds: 0,
    challengeExpiryMs: 5000,
    onSend: schemas.check,
    ...opts.server,
  });
  await server.start();
  const defaults = parseConfig('').unwrap().lichess;
  const config = merge<LichessConfig>(
    merge<LichessConfig>(defaults, {
      enabled: true,
      url: server.url,
      abortTimeS: 5,
      greeting: { hello: 'Hi {opponent}, I am {me}!', goodbye: 'Good game, {opponent}!', helloSpectators: 'Hello spectators', goodbyeSpectators: 'Bye spectators' },
    }),
    opts.config,
  );
  const recordsDir = opts.recordsDir ?? mkdtempSync(join(tmpdir(), 'kishi-lichess-'));
  const players: Player[] = [];
  const makeBot = (): LichessBot => {
    const dispatcher = new Dispatcher(async () => {
      const p = opts.player ? opts.player() : new FirstLegalPlayer();
      players.push(p);
      return p;
    });
    return new LichessBot({
      config,
      token,
      ...(opts.transcript ? { transcript: opts.transcript } : {}),
      moveOverheadMs: 50,
      ponder: opts.ponder ?? false,
      dispatcher,
      recordsDir,
      timings: { ...FAST_TIMINGS, ...opts.timings },
    });
  };
  const harness: Harness = {
    server,
    schemas,
    config,
    recordsDir,
    players,
    bot: makeBot(),
    running: Promise.resolve(),
    newBot: () => makeBot(),
    close: async () => {
      await harness.bot.stop(false).catch(() => {});
      await server.stop();
    },
  };
  if (!opts.noStart) harness.running = (await startBot(harness.bot)).running;
  return harness;
}

/** Starts a bot (preparing its dispatcher) and waits until its event stream is open. */
export async function startBot(bot: LichessBot): Promise<{ running: Promise<void> }> {
  const d = (bot as unknown as { opts: { dispatcher: Dispatcher } }).opts.dispatcher;
  (await d.prepare(['chess'])).unwrap();
  const running = bot.start();
  running.catch(() => {});
  const t0 = Date.now();
  while (bot.stats.eventStreamOpens === 0) {
    if (Date.now() - t0 > 5000) throw new Error('the bot did not open its event stream');
    const failed = await Promise.race([running.then(() => true, () => true), new Promise<boolean>((r) => setTimeout(() => r(false), 10))]);
    if (failed) break;
  }
  return { running };
}
