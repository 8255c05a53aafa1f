/**
 * `kishi csa`: the CSA client alone (floodgate or any shogi-server), playing with the built-in engine or,
 * with `--engine usi:<command>`, with an external USI engine (the USI-CSA bridge). The password comes from
 * CSA_PASSWORD only; the login sent is `<game>,<password>` (or `<password> x1` in x1 mode).
 *
 *   CSA_PASSWORD=trip kishi csa --user mybot --game-name floodgate-300-10F
 *   CSA_PASSWORD=trip kishi csa --engine usi:/usr/games/fairy-stockfish --games 1
 *   CSA_PASSWORD=trip kishi csa --x1 --query %%WHO %%LIST
 *
 * Exit codes: 0 after a clean stop, 1 for a runtime failure (login refused, no engine), 2 for bad usage
 * or a bad config. The first SIGINT/SIGTERM finishes the game in progress, a second one leaves at once.
 */
import { existsSync } from 'node:fs';
import { Option } from 'commander';
import type { Command } from 'commander';
import { loadConfig, validateConfig } from '../config/load.js';
import { defaultConfigPath } from '../config/default-path.js';
import { checkLogDir } from '../config/log-dir.js';
import type { KishiConfig } from '../config/schema.js';
import { SECRET_ENV } from '../config/schema.js';
import { configureLogging, childLogger } from '../log/logger.js';
import { registerSecret } from '../log/redact.js';
import { createPlayer } from '../player/factory.js';
import { createCsaBot, singlePlayerSource } from '../protocols/csa/game-server.js';
import type { PlayerSource } from '../protocols/csa/game-server.js';
import { csaLogin } from '../protocols/csa/login.js';
import { x1Query } from '../protocols/csa/x1.js';
import { gracefulStopNotice } from './run.js';

interface CsaCliOptions {
  readonly config?: string;
  readonly engine?: string;
  readonly host?: string;
  readonly port?: string;
  readonly user?: string;
  readonly gameName?: string;
  /** The old spelling of --game-name: refused with a pointer to the new one. */
  readonly game?: string;
  readonly x1?: boolean;
  readonly games?: string;
  readonly margin?: string;
  readonly ponder?: boolean;
  readonly comments: boolean;
  readonly query?: string[];
}


/** The config with the command-line overrides applied, validated like the file itself. */
export function csaCliConfig(opts: CsaCliOptions): { config?: KishiConfig; error?: string } {
  if (opts.game !== undefined) return { error: `kishi csa: --game is now --game-name (--game-name ${opts.game}); -g/--game names chess or shogi in the other commands` };
  let base: unknown = {};
  const file = opts.config ?? defaultConfigPath();
  if (opts.config !== undefined || existsSync(file)) {
    const loaded = loadConfig(file);
    if (loaded.isErr) return { error: loaded.error.message };
    base = loaded.value;
  }
  const b = base as Record<string, Record<string, unknown>>;
  const num = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));
  const csa: Record<string, unknown> = { ...(b['csa'] ?? {}), enabled: true };
  const set = (key: string, v: unknown): void => {
    if (v !== undefined) csa[key] = v;
  };
  set('host', opts.host);
  set('port', num(opts.port));
  set('user', opts.user);
  set('gameName', opts.gameName);
  set('x1', opts.x1);
  set('engine', opts.engine);
  set('maxGames', num(opts.games));
  set('marginMs', num(opts.margin));
  if (!opts.comments) csa['comments'] = false;
  const engine = { ...(b['engine'] ?? {}), ...(opts.ponder === true ? { ponder: true } : {}) };
  const merged = validateConfig({ ...b, csa, engine }, 'command line');
  if (merged.isErr) return { error: merged.error.message };
  return { config: merged.value };
}

export function register(program: Command): void {
  program
    .command('csa')
    .description('play shogi on a CSA server (floodgate) with the built-in engine or an external USI engine')
    .option('-c, --config <file>', 'config file (YAML) (default: config/kishi.yaml here, else the one shipped with kishi; the defaults when neither exists)')
    .option('--engine <spec>', 'usi:<command>: play with an external USI engine, e.g. usi:/usr/games/fairy-stockfish')
    .option('--host <host>', 'server host (csa.host)')
    .option('--port <port>', 'server port (csa.port)')
    .option('--user <name>', 'login name (csa.user)')
    // Not --game: everywhere else -g/--game picks chess or shogi; this is the server's game name.
    // The old spelling is kept, hidden, only to say so (commander would suggest --games).
    .option('--game-name <name>', 'game name such as floodgate-300-10F (csa.gameName)')
    .addOption(new Option('--game <name>').hideHelp())
    .option('--x1', 'log in in extended (x1) mode')
    .option('--games <n>', 'stop after this many games (csa.maxGames)')
    .option('--margin <ms>', 'safety margin per move, ms, at least 1000 (csa.marginMs)')
    .option('--ponder', 'think on the opponent\'s time')
    .option('--no-comments', 'do not send the floodgate comment with our moves')
    .option('--query <commands...>', 'x1 mode: send these %% commands (e.g. %%WHO), print the answers and exit')
    .action(async (opts: CsaCliOptions) => {
      const { config, error } = csaCliConfig(opts);
      if (config === undefined) {
        console.error(error);
        process.exit(2);
      }
      const secret = process.env[SECRET_ENV.csaPassword]?.trim();
      registerSecret(secret);
      const logDir = checkLogDir(config.log.dir);
      if (logDir.isErr) {
        console.error(`kishi csa: ${logDir.error.message}`);
        process.exit(2);
      }
      configureLogging({ level: config.log.level, dir: config.log.dir });
      const log = childLogger('cli/csa');

      if (opts.query !== undefined) {
        const login = csaLogin({ ...config.csa, x1: true }, secret);
        if (login.isErr) {
          console.error(login.error.message);
          process.exit(2);
        }
        const answers = await x1Query({
          host: config.csa.host,
          port: config.csa.port,
          user: login.value.user,
          secret: login.value.secret,
          commands: opts.query,
          timeoutMs: 20_000,
        });
        if (answers.isErr) {
          console.error(`kishi csa: ${answers.error.message}`);
          process.exit(1);
        }
        for (const line of answers.value) console.log(line);
        return;
      }

      // The built-in engine, unless csa.engine (or --engine) names an external one.
      const builtin: PlayerSource = singlePlayerSource(async () => {
        const p = createPlayer(config.engine, 'shogi');
        if (p.isErr) throw p.error;
        return p.value;
      });
      const bot = createCsaBot(config, { ...(secret !== undefined ? { csaPassword: secret } : {}) }, builtin);
      if (bot.isErr) {
        console.error(bot.error.message);
        process.exit(2);
      }
      let signals = 0;
      const onSignal = (): void => {
        signals++;
        // Said as `kishi run` says it: a game in progress is finished, none is not promised.
        log.info(signals === 1 ? `stopping; ${gracefulStopNotice([bot.value])}` : 'leaving now');
        void bot.value.stop(signals === 1);
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      try {
        await bot.value.start();
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        log.error(message);
        const hint = config.csa.engine === '' ? ' (no built-in engine? play with --engine usi:<command>)' : '';
        console.error(`kishi csa: ${message}${/weights|engine/i.test(message) ? hint : ''}`);
        process.exit(1);
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });
}
