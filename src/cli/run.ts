/**
 * `kishi run`: the bot. Loads the config and the secrets, prepares the engine (`createPlayer` from
 * `src/player/factory.ts`; no engine, no play), then starts every enabled server in one process through the
 * dispatcher.
 * Servers plug in through `SERVER_FACTORIES`, keyed by their config section: lichess is here; the CSA
 * client (floodgate) registers by exporting `createCsaServer(ctx)` from `src/protocols/csa/server-factory.ts`.
 *
 * Exit codes: 0 after a clean stop, 1 for a runtime failure (no engine, a server refused us), 2 for bad
 * usage, a bad config or a missing secret (one line naming the environment variable).
 * The first SIGINT/SIGTERM stops accepting games and finishes (or resigns, per `lichess.onShutdown`) the
 * games in progress, and ends the local page's at once (`GameServer.gracefulStop` says which, and the
 * line printed says so); a second one leaves at once.
 *
 * Online learning (`learning.online: true`): every server hands each finished game's log to the
 * dispatcher (`gameRecorded`), which runs TD-Leaf on it (`onGameFinished`, src/learning/tdleaf/online.ts:
 * never aborted games or games lost on time to the network); the Players are wrapped by
 * `reloadingPlayerFactory`, so the next game plays with the weights the update wrote.
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import { Result } from '../core/result.js';
import { KishiError } from '../core/result.js';
import { loadConfig, readSecrets } from '../config/load.js';
import { defaultConfigPath } from '../config/default-path.js';
import { checkLogDir } from '../config/log-dir.js';
import type { Secrets } from '../config/load.js';
import type { GameServer, GracefulStop } from '../bot/server.js';
import { serverNames, SERVERS } from '../bot/servers.js';
import type { ServerStatus } from '../bot/server-status.js';
import type { KishiConfig } from '../config/schema.js';
import { Dispatcher } from '../bot/dispatcher.js';
import type { PlayerFactory } from '../bot/dispatcher.js';
import type { ServerFactory } from '../bot/server-context.js';
import { onGameFinished, weightsStamp } from '../learning/tdleaf/online.js';
import type { OnlineOutcome } from '../learning/tdleaf/online.js';
import { reloadingPlayerFactory } from '../learning/tdleaf/reloading-player.js';
import { configureLogging, childLogger, FILE_ONLY } from '../log/logger.js';
import { registerSecret } from '../log/redact.js';
import { fileTranscript } from '../log/transcript.js';
import { createPlayer } from '../player/factory.js';
import { LichessBot } from '../protocols/lichess/game-server.js';
import { createCsaServer } from '../protocols/csa/server-factory.js';
import { createLishogiServer } from '../protocols/lishogi/server-factory.js';
import { createWebServer, localOnlyConfig, webWanted } from '../web/server-factory.js';

export type { ServerContext, ServerFactory } from '../bot/server-context.js';

const lichessFactory: ServerFactory = {
  section: 'lichess',
  enabled: (c) => c.lichess.enabled,
  games: ['chess'],
  create: async ({ config, secrets, dispatcher }) => {
    const token = secrets.lichessToken;
    if (token === undefined) return Result.err(new KishiError('ERR_SECRET', 'lichess is enabled but LICHESS_TOKEN is not set in the environment'));
    return Result.ok(
      new LichessBot({
        config: config.lichess,
        token,
        moveOverheadMs: config.engine.moveOverheadMs,
        ponder: config.engine.ponder,
        dispatcher,
        recordsDir: config.records.dir,
        ...(config.log.transcripts ? { transcript: fileTranscript(join(config.log.dir, 'lichess-wire.log')) } : {}),
      }),
    );
  },
};

/** lishogi.org through its Bot API (the lichess bot with the lishogi profile); `lishogi.engine` may bridge a USI engine. */
const lishogiFactory: ServerFactory = {
  section: 'lishogi',
  enabled: (c) => c.lishogi.enabled,
  games: ['shogi'],
  create: async (ctx) => createLishogiServer(ctx),
};

/** The CSA server (floodgate); with `csa.engine` set it bridges an external USI engine instead of ours. */
const csaFactory: ServerFactory = {
  section: 'csa',
  enabled: (c) => c.csa.enabled,
  games: ['shogi'],
  create: async (ctx) => createCsaServer(ctx),
};

/** The local web page (src/web/): by default only when no account is enabled, so `npm start` works on a fresh clone. */
const webFactory: ServerFactory = {
  section: 'web',
  enabled: webWanted,
  games: ['chess', 'shogi'],
  create: async (ctx) => createWebServer(ctx),
};

/** Every server kind. */
export const SERVER_FACTORIES: readonly ServerFactory[] = [lichessFactory, lishogiFactory, csaFactory, webFactory];

/** The engine: `createPlayer(config.engine, game)` from `src/player/factory.ts`. Never a stand-in mover. */
export function enginePlayerFactory(config: KishiConfig): PlayerFactory {
  return async (game) => {
    const player = createPlayer(config.engine, game);
    if (player.isErr) throw player.error;
    return player.value;
  };
}

export interface RunOptions {
  readonly config: KishiConfig;
  readonly secrets: Secrets;
  readonly playerFactory: PlayerFactory;
  readonly factories?: readonly ServerFactory[];
  /** Resolves when the servers should stop: `graceful` first, then `now`. */
  readonly signals?: SignalSource;
  /** Lines for the user (stderr). */
  readonly say?: (line: string) => void;
  /** Each online-learning outcome (tests; they are logged either way). */
  readonly onLearnt?: (outcome: OnlineOutcome, logFile: string) => void;
}

/** Where stop requests come from (process signals in production, a test's controller otherwise). */
export interface SignalSource {
  onStop(handler: (graceful: boolean) => void): void;
}

/** SIGINT/SIGTERM: the first asks for a graceful stop, the second for an immediate one. */
export const processSignals: SignalSource = {
  onStop(handler) {
    let count = 0;
    const on = (): void => {
      count++;
      handler(count === 1);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  },
};

/** Online TD-Leaf on one finished game's log; logs what it did. */
async function learnFrom(file: string, opts: RunOptions): Promise<OnlineOutcome> {
  const log = childLogger('learning');
  const outcome = await onGameFinished(file, opts.config);
  for (const p of outcome.problems) log.warn(p);
  const game = `${outcome.game ?? '?'} game ${outcome.gameId ?? file}`;
  if (outcome.status === 'updated') {
    log.info(`${game}: weights ${outcome.weightsFile} updated (${outcome.changedWeights} changed, largest ${outcome.largestChange?.toFixed(2)} cp)`);
  } else if (outcome.status === 'error') log.error(`${game}: not learnt from: ${outcome.reason}`);
  else log.info(`${game}: not learnt from (${outcome.reason ?? outcome.status})`);
  opts.onLearnt?.(outcome, file);
  return outcome;
}

/**
 * What the first Ctrl-C does to the games in progress, as each server will do it: played out, resigned,
 * or (the local page) ended at once as abandoned.
 */
export function gracefulStopNotice(servers: readonly GameServer[]): string {
  const count: Record<GracefulStop, number> = { finish: 0, resign: 0, abandon: 0 };
  for (const s of servers) count[s.gracefulStop?.() ?? 'finish'] += s.activeGames();
  const parts: string[] = [];
  if (count.finish > 0) parts.push(`${count.finish} game(s) in progress will be finished`);
  if (count.resign > 0) parts.push(`${count.resign} game(s) in progress will be resigned`);
  if (count.abandon > 0) parts.push(`${count.abandon} game(s) on the local page end now as abandoned`);
  if (parts.length === 0) return 'no game in progress';
  // Only finishing and resigning wait for a server: then a second signal has something to cut short.
  return count.finish + count.resign > 0 ? `${parts.join('; ')} (send the signal again to leave at once)` : parts.join('; ');
}

/** Starts every enabled server and serves until they stop; returns the exit code. */
export async function runServers(opts: RunOptions): Promise<number> {
  const say = opts.say ?? ((line: string) => console.error(line));
  const log = childLogger('run');
  const factories = (opts.factories ?? SERVER_FACTORIES).filter((f) => f.enabled(opts.config));
  if (factories.length === 0) {
    const sections = SERVERS.map((s) => `${s.section}.enabled`);
    say(`kishi run: no server is enabled in the config (set ${sections.slice(0, -1).join(', ')} or ${sections.at(-1)}, or web.enabled)`);
    return 2;
  }
  const online = opts.config.learning.online;
  const dispatcher = new Dispatcher(
    online ? reloadingPlayerFactory(opts.playerFactory, (game) => weightsStamp(opts.config, game)) : opts.playerFactory,
    online ? { onGameRecorded: (file) => learnFrom(file, opts) } : {},
  );
  if (online && opts.config.lichess.enabled && !opts.config.lichess.records.gameLog) {
    say('kishi run: learning.online is on but lichess.records.gameLog is off: lichess games will not be learnt from');
  }
  const games = [...new Set(factories.flatMap((f) => f.games))];
  const prepared = await dispatcher.prepare(games);
  if (prepared.isErr) {
    say(`kishi run: ${prepared.error.message}`);
    return 1;
  }
  const servers: GameServer[] = [];
  for (const f of factories) {
    // The watch view reads every server's status through this, never the servers themselves.
    const serverStatus = (): ServerStatus[] => servers.flatMap((s) => (s.status ? [s.status()] : []));
    const created = await f.create({ config: opts.config, secrets: opts.secrets, dispatcher, serverStatus });
    if (created.isErr) {
      say(`kishi run: ${f.section}: ${created.error.message}`);
      await dispatcher.close();
      return 1;
    }
    servers.push(created.value);
  }
  let stopping: Promise<unknown> | undefined;
  const stopAll = (graceful: boolean): void => {
    if (graceful) say(`kishi run: stopping; ${gracefulStopNotice(servers)}`);
    else say('kishi run: leaving now');
    stopping = Promise.all(servers.map((s) => s.stop(graceful).catch(() => {})));
  };
  opts.signals?.onStop(stopAll);
  let failed = false;
  await Promise.all(
    servers.map((s) =>
      s.start().catch(async (e: unknown) => {
        failed = true;
        say(`kishi run: ${s.name}: ${(e as Error).message}`);
        log.error(`${s.name}: ${(e as Error).message}`, FILE_ONLY);
        // One server failing for good stops the process: the user must fix it.
        await Promise.all(servers.filter((o) => o !== s).map((o) => o.stop(false).catch(() => {})));
      }),
    ),
  );
  await stopping;
  await dispatcher.close();
  return failed ? 1 : 0;
}

export function register(program: Command): void {
  program
    .command('run')
    .description(`play on the servers enabled in the config (${serverNames()}); with no account, serve the local web page`)
    .option('-c, --config <file>', 'config file (YAML) (default: config/kishi.yaml here, else the one shipped with kishi)')
    .action(async (opts: { config?: string }) => {
      const config = loadConfig(opts.config ?? defaultConfigPath());
      if (config.isErr) {
        console.error(config.error.message);
        process.exit(2);
      }
      let run = config.value;
      const read = readSecrets(run);
      let secrets: Secrets = read.isOk ? read.value : {};
      if (read.isErr) {
        // No account can play (every enabled one lacks its secret): with `web.enabled: auto` the
        // local page is served instead, so a fresh clone's `npm start` works; otherwise stop here.
        const local = localOnlyConfig(run, read.error.issues.map((i) => i.path));
        if (local === undefined) {
          for (const issue of read.error.issues) console.error(`kishi run: ${issue.message}`);
          process.exit(2);
        }
        for (const issue of read.error.issues) console.error(`kishi run: ${issue.message}: serving the local page only`);
        run = local;
        secrets = {};
      }
      registerSecret(secrets.lichessToken);
      registerSecret(secrets.lishogiToken);
      registerSecret(secrets.csaPassword);
      const logDir = checkLogDir(run.log.dir);
      if (logDir.isErr) {
        console.error(`kishi run: ${logDir.error.message}`);
        process.exit(2);
      }
      configureLogging({ level: run.log.level, dir: run.log.dir });
      // The dispatcher creates a first Player per game before any server starts: a missing engine
      // (weights file, model) fails here with one line, never with a stand-in mover.
      const code = await runServers({
        config: run,
        secrets,
        playerFactory: enginePlayerFactory(run),
        signals: processSignals,
      });
      process.exit(code);
    });
}
