/**
 * The entry `kishi run` loads (src/cli/run.ts `csaFactory`): the floodgate/CSA GameServer, playing with
 * Players leased from the run's dispatcher (or with the external engine of `csa.engine`).
 */
import type { Dispatcher } from '../../bot/dispatcher.js';
import type { GameServer } from '../../bot/server.js';
import type { Secrets } from '../../config/load.js';
import type { KishiConfig } from '../../config/schema.js';
import { KishiError, Result } from '../../core/result.js';
import { createCsaBot } from './game-server.js';
import type { PlayerSource } from './game-server.js';

/** Players for shogi games, leased from the dispatcher's pool one session at a time. */
export function dispatcherSource(dispatcher: Dispatcher): PlayerSource {
  return {
    async acquire() {
      const lease = await dispatcher.acquire('shogi', 'standard');
      if (lease.isErr) throw lease.error;
      return lease.value;
    },
    // The dispatcher belongs to `kishi run`, which closes it.
    async close() {},
  };
}

/**
 * `createCsaServer({ config, secrets, dispatcher })`: a bad login config is an `ERR_CONFIG` error listing every problem.
 * Each finished game's log goes back to the dispatcher (`gameRecorded`: online learning), unless an
 * external engine (`csa.engine`) played it.
 */
export function createCsaServer(ctx: {
  readonly config: KishiConfig;
  readonly secrets: Secrets;
  readonly dispatcher: Dispatcher;
}): Result<GameServer, KishiError> {
  const ours = ctx.config.csa.engine === '';
  const bot = createCsaBot(ctx.config, ctx.secrets, dispatcherSource(ctx.dispatcher), {
    onGameEnd: (_finished, files) => {
      if (ours && files.gameLog !== undefined) ctx.dispatcher.gameRecorded(files.gameLog);
    },
  });
  if (bot.isErr) return Result.err(new KishiError('ERR_CONFIG', bot.error.message));
  return Result.ok(bot.value);
}
