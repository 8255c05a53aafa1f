/**
 * An external UCI/USI engine behind the `Player` port, so that anything that plays with a Player
 * (the CSA client: `kishi csa --engine usi:<command>` and `csa.engine`, the USI-CSA bridge) plays
 * with it. The dialogue is {@link EngineClient}'s, the same as `kishi match` uses; this adapter only
 * maps requests and answers:
 * - `go`: the request's clock (or its `movetimeMs`, which then replaces the clock as USI has no
 *   movetime), depth, nodes, `infinite`, `mate` (USI only) and `ponder`; no deadline: the caller
 *   stops the search (`stop`), as with every Player. The caller's clock already carries its safety
 *   margin, so the times go out as they are.
 * - answers: `bestmove resign` and `bestmove win` pass through as the moves `resign` and `win`; an
 *   engine that dies makes the pending `go` reject (ERR_ENGINE_EXIT).
 * - `stop`, `ponderhit`, `newGame` (`isready`, `usinewgame`), `gameOver` (USI `gameover`), `close`.
 */
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import type { GoRequest, GoResult, Player, SearchInfo } from '../player/player.js';
import type { EngineClientOptions, EngineOptionSpec } from './engine-client.js';
import { EngineClient, EngineFailure } from './engine-client.js';
import { parseEngineSpec, protocolFor } from './engine-spec.js';
import type { EngineGoRequest } from './match-engine.js';

export class EnginePlayer implements Player {
  private pending: Promise<unknown> | undefined;

  private constructor(
    private readonly client: EngineClient,
    private readonly game: GameKind,
  ) {}

  /** Spawns the engine and runs its handshake. */
  static async start(opts: EngineClientOptions): Promise<Result<EnginePlayer, EngineFailure>> {
    const client = await EngineClient.start(opts);
    if (client.isErr) return Result.err(client.error);
    return Result.ok(new EnginePlayer(client.value, opts.game));
  }

  /** The engine's `id name` (or the spec's name). */
  get name(): string {
    return this.client.name;
  }

  /** The engine's options, by lower-case name. */
  get options(): ReadonlyMap<string, EngineOptionSpec> {
    return this.client.options;
  }

  /** False once the engine process has exited. */
  get alive(): boolean {
    return this.client.alive();
  }

  supports(game: GameKind): boolean {
    return game === this.game;
  }

  go(request: GoRequest, onInfo?: (info: SearchInfo) => void): Promise<GoResult> {
    if (!this.client.alive()) return Promise.reject(new KishiError('ERR_ENGINE_EXIT', `${this.name}: the engine is not running`));
    if (this.pending !== undefined || this.client.busy) return Promise.reject(new KishiError('ERR_ENGINE_BUSY', `${this.name}: a search is already running`));
    const l = request.limits;
    if (l?.mate === true && this.client.protocol !== 'usi') return Promise.reject(new KishiError('ERR_ENGINE_MATE', `${this.name}: a mate search needs a USI engine`));
    const req: EngineGoRequest = {
      start: request.start,
      moves: request.moves,
      ...(request.clock !== undefined && l?.movetimeMs === undefined ? { clock: request.clock } : {}),
      ...(l?.movetimeMs !== undefined ? { movetimeMs: l.movetimeMs } : {}),
      ...(l?.depth !== undefined ? { depth: l.depth } : {}),
      ...(l?.nodes !== undefined ? { nodes: l.nodes } : {}),
      ...(l?.infinite === true ? { infinite: true } : {}),
      ...(l?.mate === true ? { mate: true } : {}),
      ...(request.ponder === true ? { ponder: true } : {}),
    };
    const search = this.client.go(req, undefined, onInfo).then((reply): GoResult => {
      if (reply.kind === 'move') return { move: reply.move, ...(reply.ponder !== undefined ? { ponder: reply.ponder } : {}), ...(reply.info ? { info: reply.info } : {}) };
      if (reply.kind === 'crash') throw new KishiError('ERR_ENGINE_EXIT', `${this.name}: ${reply.detail}`);
      throw new KishiError('ERR_ENGINE_TIMEOUT', `${this.name}: no bestmove`);
    });
    this.pending = search;
    const clear = (): void => {
      if (this.pending === search) this.pending = undefined;
    };
    search.then(clear, clear);
    return search;
  }

  stop(): void {
    this.client.stop();
  }

  ponderhit(): void {
    this.client.ponderhit();
  }

  /** Ends a search still running, then `isready` (and USI `usinewgame`). */
  async newGame(): Promise<void> {
    await this.settle();
    const r = await this.client.newGame();
    if (r.isErr) throw r.error;
  }

  /** Tells the engine how the game ended (USI `gameover win|lose|draw`), after stopping a ponder search. */
  gameOver(result: 'win' | 'lose' | 'draw'): void {
    this.client.stop();
    this.client.gameOver(result);
  }

  async close(): Promise<void> {
    await this.settle();
    await this.client.close();
  }

  /** Stops the pending search, if any, and waits for its answer (or its failure). */
  private async settle(): Promise<void> {
    const p = this.pending;
    if (p === undefined) return;
    this.client.stop();
    await p.catch(() => undefined);
  }
}

/** The protocols an engine spec may name for a game of `game`. */
const protocolsFor = (game: GameKind): string => (game === 'shogi' ? 'usi' : 'uci');

/**
 * Starts the engine of a spec string (`usi:<command line>`, the `--engine` / `csa.engine` form, or
 * the `kishi match` key=value form) for games of `game`; Err when the spec names another protocol.
 */
export async function startEnginePlayer(
  spec: string,
  game: GameKind,
  opts: Omit<EngineClientOptions, 'spec' | 'game'> = {},
): Promise<Result<EnginePlayer, KishiError>> {
  const parsed = parseEngineSpec(spec);
  if (parsed.isErr) return Result.err(parsed.error);
  if (protocolFor(parsed.value, game) !== protocolsFor(game)) {
    return Result.err(new KishiError('ERR_ENGINE_SPEC', `${game} needs a ${protocolsFor(game).toUpperCase()} engine, got ${JSON.stringify(spec)}`));
  }
  return EnginePlayer.start({ ...opts, spec: parsed.value, game });
}
