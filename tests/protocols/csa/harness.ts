/** Shared set-up for client and bot tests against the local CSA server. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Player } from '../../../src/player/player.js';
import type { CsaClientOptions, CsaLog } from '../../../src/protocols/csa/client.js';
import { CsaBot, singlePlayerSource } from '../../../src/protocols/csa/game-server.js';
import type { CsaBotOptions } from '../../../src/protocols/csa/game-server.js';
import { memoryTranscript } from '../../../src/log/transcript.js';

export interface MemLog extends CsaLog {
  readonly lines: string[];
  /** Lines at info level and above. */
  notable(): string[];
}

export function memLog(): MemLog {
  const lines: string[] = [];
  return {
    lines,
    debug: (m) => lines.push(`debug ${m}`),
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
    notable: () => lines.filter((l) => !l.startsWith('debug')),
  };
}

export function clientOptions(port: number, user: string, over: Partial<CsaClientOptions> = {}): CsaClientOptions {
  return {
    host: '127.0.0.1',
    port,
    user,
    secret: `pw-${user}`,
    gameName: 'csatest-300-10F',
    x1: false,
    connectTimeoutMs: 2000,
    keepAliveMs: 40_000,
    minBlankGapMs: 30_000,
    replyTimeoutMs: 30_000,
    safetyMarginMs: 100,
    comments: true,
    ponder: false,
    closeWaitMs: 300,
    ...over,
  };
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'kishi-csa-'));
}

export interface TestBot {
  readonly bot: CsaBot;
  readonly log: MemLog;
  readonly dir: string;
  readonly transcript: ReturnType<typeof memoryTranscript>;
}

export function testBot(
  port: number,
  user: string,
  player: () => Promise<Player>,
  client: Partial<CsaClientOptions> = {},
  over: Partial<CsaBotOptions> = {},
): TestBot {
  const log = memLog();
  const dir = tempDir();
  const transcript = memoryTranscript(100_000);
  const bot = new CsaBot(
    {
      name: 'csatest',
      client: clientOptions(port, user, client),
      recordsDir: join(dir, 'csa'),
      transcript,
      reconnectMs: 50,
      reconnectMaxMs: 400,
      afterGameDelayMs: 20,
      maxGames: 1,
      log,
      ...over,
    },
    singlePlayerSource(player),
  );
  return { bot, log, dir, transcript };
}

/**
 * Starts the bots one after the other, each once the previous one has logged in, so the first one
 * waits first (and gets black with `colours: 'first-black'`); resolves when all have finished.
 */
export async function startInOrder(
  server: { readonly logins: readonly string[] },
  ...bots: { bot: { start(): Promise<void> }; user: string }[]
): Promise<void> {
  const runs: Promise<void>[] = [];
  for (const b of bots) {
    const before = server.logins.filter((n) => n === b.user).length;
    runs.push(b.bot.start());
    const deadline = Date.now() + 10_000;
    while (server.logins.filter((n) => n === b.user).length === before && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  await Promise.all(runs);
}
