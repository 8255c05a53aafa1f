/**
 * How `kishi run` makes its servers: one `ServerFactory` per config section (lichess, csa, later lishogi),
 * each given the config, the secrets and the shared dispatcher. The CSA client plugs in by exporting
 * `createCsaServer(ctx: ServerContext)` from `src/protocols/csa/server-factory.ts`.
 */
import type { Secrets } from '../config/load.js';
import type { KishiConfig } from '../config/schema.js';
import type { GameKind } from '../core/game.js';
import type { KishiError, Result } from '../core/result.js';
import type { Dispatcher } from './dispatcher.js';
import type { GameServer } from './server.js';
import type { ServerStatusSource } from './server-status.js';

/** What a server factory gets. */
export interface ServerContext {
  readonly config: KishiConfig;
  readonly secrets: Secrets;
  /**
   * Leases a Player per game (`acquire(game, variant)`), shared by every server. A server hands each
   * finished game's log back with `dispatcher.gameRecorded(file)` (or the lease's `gameRecorded`): the
   * hook of online learning (`learning.online`), never called for games an external engine played.
   */
  readonly dispatcher: Dispatcher;
  /** The status of every server of this run (the ones created so far and later): the watch view's queue panel. */
  readonly serverStatus?: ServerStatusSource;
}

/** One kind of server `kishi run` can start, keyed by its config section. */
export interface ServerFactory {
  readonly section: string;
  readonly enabled: (config: KishiConfig) => boolean;
  /** The games its Players must play (prepared before any server starts). */
  readonly games: readonly GameKind[];
  readonly create: (ctx: ServerContext) => Promise<Result<GameServer, KishiError>>;
}
