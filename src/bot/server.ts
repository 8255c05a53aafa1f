import type { ServerStatus } from './server-status.js';

/**
 * What a graceful `stop` does with the games in progress, so that `kishi run` says on the first
 * Ctrl-C what will happen: play them out, resign them, or end them at once as abandoned (the local
 * page, where a person cannot be kept waiting).
 */
export type GracefulStop = 'finish' | 'resign' | 'abandon';

/**
 * A game server Kishi plays on (lichess and lishogi through their Bot API, a CSA server such as floodgate;
 * the list is `SERVERS` of servers.ts).
 * `kishi run` starts every enabled server in one process; the dispatcher hands each of their games to the
 * game adapter and Player for its game and variant.
 */
export interface GameServer {
  /** Short name used in logs and records (`lichess`, `floodgate`). */
  readonly name: string;
  /** Connects and serves until `stop` completes or a fatal error (bad credentials) rejects. Must not block the event loop. */
  start(): Promise<void>;
  /**
   * Stops accepting new games. With `graceful`, current games are played out (or resigned, per config)
   * before the promise resolves; without it, connections are closed at once.
   */
  stop(graceful: boolean): Promise<void>;
  /** Number of games in progress now. */
  activeGames(): number;
  /** What a graceful `stop` does with the games in progress now; `finish` when absent. */
  gracefulStop?(): GracefulStop;
  /** What an observer may see of it now (queue, connection); servers without one show nothing. */
  status?(): ServerStatus;
}
