/**
 * How `kishi run` makes the local web server: with `web.enabled: auto` it starts when no account
 * (lichess, CSA) is enabled, so `npm start` on a fresh clone serves the page; `always` runs it beside
 * the bots, `never` not at all. Games of the engine the config names lease Players from the shared
 * dispatcher (so online learning sees them); the other engine the page offers gets its own pool.
 * The watch view (`/watch`) needs the token of `KISHI_WEB_TOKEN` when `web.host` is not this machine.
 */
import { Dispatcher } from '../bot/dispatcher.js';
import type { ServerContext } from '../bot/server-context.js';
import type { KishiConfig } from '../config/schema.js';
import { KishiError, Result } from '../core/result.js';
import { registerSecret } from '../log/redact.js';
import { historyPath, liveWeightsPath } from '../learning/tdleaf/online.js';
import { createPlayer } from '../player/factory.js';
import type { WebEngine } from './messages.js';
import { WebServer } from './web-server.js';

/** Whether `kishi run` starts the web server with this config. */
export const webWanted = (c: KishiConfig): boolean =>
  c.web.enabled === 'always' || (c.web.enabled === 'auto' && !c.lichess.enabled && !c.lishogi.enabled && !c.csa.enabled);

/**
 * The config `kishi run` plays with when no enabled account has its secret (`missing`: the config
 * paths readSecrets names, `lichess.enabled` / `lishogi.enabled` / `csa.enabled`) and `web.enabled` is `auto`: the
 * accounts turned off, so only the local page is served. Undefined when an account can still play
 * or the page is not automatic: then a missing secret stops `kishi run` as before.
 */
export function localOnlyConfig(c: KishiConfig, missing: readonly string[]): KishiConfig | undefined {
  if (c.web.enabled !== 'auto') return undefined;
  const lichessUsable = c.lichess.enabled && !missing.includes('lichess.enabled');
  const lishogiUsable = c.lishogi.enabled && !missing.includes('lishogi.enabled');
  const csaUsable = c.csa.enabled && !missing.includes('csa.enabled');
  if (lichessUsable || lishogiUsable || csaUsable) return undefined;
  return { ...c, lichess: { ...c.lichess, enabled: false }, lishogi: { ...c.lishogi, enabled: false }, csa: { ...c.csa, enabled: false } };
}

export function createWebServer(ctx: ServerContext): Result<WebServer, KishiError> {
  const { config, dispatcher } = ctx;
  const others = new Map<WebEngine, Dispatcher>();
  const poolFor = (engine: WebEngine): Dispatcher => {
    if (engine === config.engine.search) return dispatcher;
    let pool = others.get(engine);
    if (pool === undefined) {
      pool = new Dispatcher(async (game) => {
        const player = createPlayer({ ...config.engine, search: engine }, game);
        if (player.isErr) throw player.error;
        return player.value;
      });
      others.set(engine, pool);
    }
    return pool;
  };
  if (!config.web.host) return Result.err(new KishiError('ERR_CONFIG', 'web.host is empty'));
  // The watch view's token, for a server that listens beyond this machine; a secret, so from the environment only.
  const watchToken = process.env.KISHI_WEB_TOKEN?.trim() || undefined;
  registerSecret(watchToken);
  return Result.ok(
    new WebServer({
      config: config.web,
      recordsDir: config.records.dir,
      policy: config.lichess.drawOrResign,
      moveOverheadMs: config.engine.moveOverheadMs,
      ...(watchToken !== undefined ? { watchToken } : {}),
      ...(ctx.serverStatus ? { serverStatus: ctx.serverStatus } : {}),
      alphazeroDirs: config.web.watchAlphazeroDirs,
      tdleafHistories: (['chess', 'shogi'] as const).map((game) => ({ game, file: historyPath(liveWeightsPath(config, game)) })),
      lease: (engine, game) => poolFor(engine).acquire(game, 'standard'),
      onStop: async () => {
        await Promise.all([...others.values()].map((d) => d.close()));
      },
    }),
  );
}
