/**
 * Test harness for lishogi: the local server's lishogi profile with several bot accounts, and one Kishi
 * bot (the lichess bot with the lishogi profile) per account, each playing with Kishi's engine or with an
 * external USI engine bridged to its account; fast stream timings so stalls and reconnects run in
 * milliseconds; the lishogi schemas checked on every message the server sends.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../../../../src/config/load.js';
import type { LichessConfig } from '../../../../src/config/sections/lichess.js';
import { Dispatcher } from '../../../../src/bot/dispatcher.js';
import type { Transcript } from '../../../../src/log/transcript.js';
import { createPlayer } from '../../../../src/player/factory.js';
import { LichessBot } from '../../../../src/protocols/lichess/game-server.js';
import { lishogiBotConfig } from '../../../../src/protocols/lishogi/bot-config.js';
import { lishogiProfile } from '../../../../src/protocols/lishogi/profile.js';
import { usiEngineDispatcher } from '../../../../src/protocols/lishogi/server-factory.js';
import type { LishogiTestServerOptions } from '../../../../src/protocols/lishogi/fake/lishogi-server.js';
import { LishogiTestServer } from '../../../../src/protocols/lishogi/fake/lishogi-server.js';
import type { SentMessage } from '../../../../src/protocols/lichess/fake/server.js';
import { SchemaChecker } from '../../lichess/helpers/schemas.js';
import { FAST_TIMINGS } from '../../lichess/helpers/harness.js';

export const LISHOGI_SCHEMAS = fileURLToPath(new URL('../../../fixtures/lishogi/schemas', import.meta.url));

/** Who plays behind an account: Kishi's engine, or an external USI engine (`usi:<command>`). */
export type Engine = { readonly kind: 'kishi' } | { readonly kind: 'usi'; readonly spec: string };

export interface BotSpec {
  readonly username: string;
  readonly token: string;
  readonly engine: Engine;
  readonly transcript?: Transcript;
  /** Think on the opponent's time (engine.ponder). */
  readonly ponder?: boolean;
  /** Search this many nodes per move at every speed (lishogi.goOverrides), instead of the time plan. */
  readonly nodes?: number;
}

export interface LishogiHarnessOptions {
  readonly bots: readonly BotSpec[];
  readonly server?: Partial<LishogiTestServerOptions>;
  /** YAML of the lishogi section (merged into `enabled: true` and the server's URL). */
  readonly configYaml?: string;
  /** Edits the bot config (tests shrink limits). */
  readonly edit?: (c: LichessConfig) => LichessConfig;
}

export interface LishogiHarness {
  readonly server: LishogiTestServer;
  readonly schemas: SchemaChecker;
  readonly bots: Map<string, LichessBot>;
  readonly recordsDir: string;
  close(): Promise<void>;
}

/** Kishi's own engine for shogi, small and single-threaded. */
const kishiDispatcher = (): Dispatcher =>
  new Dispatcher(async (game) => {
    const engine = parseConfig('engine:\n  hashMb: 8\n  threads: 1\n').unwrap().engine;
    const p = createPlayer(engine, game);
    if (p.isErr) throw p.error;
    return p.value;
  });

export async function startLishogi(opts: LishogiHarnessOptions): Promise<LishogiHarness> {
  const schemas = new SchemaChecker(LISHOGI_SCHEMAS);
  // The server holds a bot's move 50 ms (lishogi: 750 ms), and the bots' profile counts those 50 ms.
  const botMoveDelayMs = opts.server?.botMoveDelayMs ?? 50;
  const profile = lishogiProfile(botMoveDelayMs);
  const server = new LishogiTestServer({
    accounts: opts.bots.map((b) => ({ username: b.username, token: b.token, title: 'BOT' as const })),
    keepAliveMs: 100,
    botMoveDelayMs,
    firstMoveMs: 20_000,
    challengeExpiryMs: 10_000,
    // The checker only reads the schema name, the place and the message.
    onSend: (sent) => schemas.check(sent as unknown as SentMessage),
    ...opts.server,
  });
  const url = await server.start();
  const yaml = `lishogi:\n  enabled: true\n  url: ${url}\n  abortTimeS: 20\n${opts.configYaml ?? '  challenge:\n    speeds: [ultraBullet, bullet, blitz]\n'}`;
  const section = parseConfig(yaml).unwrap().lishogi;
  const base = lishogiBotConfig(section);
  const config = opts.edit ? opts.edit(base) : base;
  const recordsDir = mkdtempSync(join(tmpdir(), 'kishi-lishogi-'));
  const bots = new Map<string, LichessBot>();
  const dispatchers: Dispatcher[] = [];
  for (const b of opts.bots) {
    const dispatcher = b.engine.kind === 'kishi' ? kishiDispatcher() : usiEngineDispatcher(b.engine.spec, false);
    (await dispatcher.prepare(['shogi'])).unwrap();
    dispatchers.push(dispatcher);
    const nodes = b.nodes;
    const goOverrides =
      nodes === undefined
        ? config.goOverrides
        : (Object.fromEntries(Object.keys(config.goOverrides).map((speed) => [speed, { nodes, depth: 0, movetimeMs: 0 }])) as LichessConfig['goOverrides']);
    const bot = new LichessBot({
      profile,
      config: { ...config, goOverrides },
      token: b.token,
      // A margin a user would keep on a slow link, not the fewest milliseconds that pass on a quiet
      // machine: with 60 ms, a move of the 0 + 2 s game with the 750 ms hold landed after its period once
      // under CI's load (the search stops ~100 ms before the planned limit; the rest is the overhead).
      moveOverheadMs: 300,
      ponder: b.ponder ?? false,
      dispatcher,
      recordsDir: join(recordsDir, b.username),
      // The server's keep-alive is 100 ms: a game stream silent for 600 ms is stalled (lishogi: 6 s and 10 s).
      timings: { ...FAST_TIMINGS, silenceMs: 800, gameSilenceMs: 600 },
      ...(b.transcript ? { transcript: b.transcript } : {}),
    });
    bots.set(b.username, bot);
  }
  const running = [...bots.values()].map((b) => b.start().catch((e: unknown) => e));
  await server.waitFor(() => server.stats.eventStreamsOpened >= opts.bots.length, 20_000);
  return {
    server,
    schemas,
    bots,
    recordsDir,
    close: async () => {
      await Promise.all([...bots.values()].map((b) => b.stop(false).catch(() => {})));
      await Promise.all(running);
      await Promise.all(dispatchers.map((d) => d.close().catch(() => {})));
      await server.stop();
    },
  };
}
