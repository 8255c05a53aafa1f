/**
 * The dispatcher hands every game, from any server (lichess, floodgate), to a Player for its game and
 * variant. Players come from one factory (the alpha-beta or MCTS engine, `src/player/factory.ts`) and are
 * pooled: a game leases one, and its release returns it (after `newGame()`) for the next game, so a
 * worker thread is not started per game. Each game has its own Player because games think at once.
 *
 * Finished games come back here too: a server hands each finished game's log (its result line written)
 * to `gameRecorded`, directly or through the game's lease, and the dispatcher runs `onGameRecorded`
 * (online TD-Leaf learning in `kishi run`, src/learning/tdleaf/online.ts). `acquire` waits for the
 * updates still running before it readies a Player, so the next game plays with the weights they wrote
 * (the Players reload them at `newGame()`, src/learning/tdleaf/reloading-player.ts).
 */
import type { GameKind } from '../core/game.js';
import { Result } from '../core/result.js';
import { KishiError } from '../core/result.js';
import type { Player } from '../player/player.js';

/** Makes a Player able to play `game`; the variant is a hint (lichess key, `standard` for shogi). */
export type PlayerFactory = (game: GameKind, variant: string) => Promise<Player>;

/** A Player lent to one game. */
export interface PlayerLease {
  readonly player: Player;
  /** Gives the Player back; `broken` closes it instead of pooling it (it failed mid-game). */
  release(broken?: boolean): Promise<void>;
  /** The game's log is complete (`Dispatcher.gameRecorded`); may come before or after `release`. */
  gameRecorded?(logFile: string): void;
}

export interface DispatcherOptions {
  /** Idle Players kept per game kind. */
  readonly maxIdle?: number;
  /** Runs for every finished game's log (online learning); its failures are the hook's to report. */
  readonly onGameRecorded?: (logFile: string) => Promise<unknown>;
}

export class Dispatcher {
  private readonly idle = new Map<GameKind, Player[]>();
  private readonly leased = new Set<Player>();
  /** One Player per game kind created at `prepare`, used to answer `supports` synchronously. */
  private readonly probes = new Map<GameKind, Player>();
  private closed = false;
  private readonly maxIdle: number;
  private readonly onGameRecorded: ((logFile: string) => Promise<unknown>) | undefined;
  /** `onGameRecorded` runs not yet settled. */
  private readonly recording = new Set<Promise<unknown>>();

  constructor(
    private readonly factory: PlayerFactory,
    opts: DispatcherOptions = {},
  ) {
    this.maxIdle = opts.maxIdle ?? 4;
    this.onGameRecorded = opts.onGameRecorded;
  }

  /** A game finished and its log `logFile` is complete: runs `onGameRecorded` (the next `acquire` waits for it). */
  gameRecorded(logFile: string): void {
    const hook = this.onGameRecorded;
    if (hook === undefined) return;
    const run: Promise<unknown> = Promise.resolve()
      .then(() => hook(logFile))
      .catch(() => undefined)
      .finally(() => this.recording.delete(run));
    this.recording.add(run);
  }

  /** Resolves once every `onGameRecorded` run started so far has settled. */
  async recorded(): Promise<void> {
    while (this.recording.size > 0) await Promise.all([...this.recording]);
  }

  /** Creates a first Player for each game kind (fails early when no engine can be made). */
  async prepare(games: readonly GameKind[]): Promise<Result<void, KishiError>> {
    for (const game of games) {
      if (this.probes.has(game)) continue;
      try {
        const player = await this.factory(game, 'standard');
        this.probes.set(game, player);
        this.pool(game).push(player);
      } catch (e) {
        return Result.err(new KishiError('ERR_NO_ENGINE', `no engine available for ${game}: ${(e as Error).message}`));
      }
    }
    return Result.ok(undefined);
  }

  /** Whether the prepared engine plays this game and variant. */
  supports(game: GameKind, variant: string): boolean {
    return this.probes.get(game)?.supports(game, variant) ?? false;
  }

  /** The name of the engine that plays `game` (greetings, `!name`). */
  engineName(game: GameKind): string {
    return this.probes.get(game)?.name ?? 'kishi';
  }

  /** Leases a Player for one game, ready for a new game (after the updates of games finished so far). */
  async acquire(game: GameKind, variant: string): Promise<Result<PlayerLease, KishiError>> {
    if (this.closed) return Result.err(new KishiError('ERR_CLOSED', 'the dispatcher is closed'));
    if (this.recording.size > 0) {
      await this.recorded();
      if (this.closed) return Result.err(new KishiError('ERR_CLOSED', 'the dispatcher is closed'));
    }
    const pool = this.pool(game);
    let player: Player | undefined;
    const index = pool.findIndex((p) => p.supports(game, variant));
    if (index >= 0) player = pool.splice(index, 1)[0];
    if (player === undefined) {
      try {
        player = await this.factory(game, variant);
      } catch (e) {
        return Result.err(new KishiError('ERR_NO_ENGINE', `cannot start an engine for ${game}/${variant}: ${(e as Error).message}`));
      }
      if (!player.supports(game, variant)) {
        await player.close().catch(() => {});
        return Result.err(new KishiError('ERR_UNSUPPORTED', `the engine does not play ${game}/${variant}`));
      }
    }
    try {
      await player.newGame();
    } catch (e) {
      await player.close().catch(() => {});
      return Result.err(new KishiError('ERR_NO_ENGINE', `engine failed to reset: ${(e as Error).message}`));
    }
    this.leased.add(player);
    const leased = player;
    let released = false;
    return Result.ok({
      player: leased,
      release: async (broken = false) => {
        if (released) return;
        released = true;
        this.leased.delete(leased);
        // A closed probe still answers `supports` and `name`, which only read static data.
        if (broken || this.closed || this.pool(game).length >= this.maxIdle) await leased.close().catch(() => {});
        else this.pool(game).push(leased);
      },
      gameRecorded: (logFile) => this.gameRecorded(logFile),
    });
  }

  /** Players lent out now. */
  activeLeases(): number {
    return this.leased.size;
  }

  /** Closes every Player, idle or lent, after the updates still running. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.recording.size > 0) await this.recorded();
    const all = new Set<Player>([...this.leased, ...[...this.idle.values()].flat(), ...this.probes.values()]);
    this.idle.clear();
    this.leased.clear();
    this.probes.clear();
    await Promise.all([...all].map((p) => p.close().catch(() => {})));
  }

  private pool(game: GameKind): Player[] {
    let pool = this.idle.get(game);
    if (pool === undefined) {
      pool = [];
      this.idle.set(game, pool);
    }
    return pool;
  }
}
