/**
 * The CSA `GameServer`: plays game after game on a CSA server (floodgate), reconnecting and logging in
 * again after each game (the server closes the socket) and after errors, with exponential backoff.
 * shogi-server checks no password: `LOGIN:incorrect` means a malformed LOGIN (Kishi checks its own before
 * sending it) or a name another connection still holds, such as our own old socket after a restart or a
 * dropped connection; the bot retries with the same backoff, at most `refusedRetries` times in a row, then
 * stops with one line, and the password never appears in what it logs. A `##[ERROR]` answer to our request
 * for a game (a bad game name, a colour on floodgate, a handicap game without a colour) is permanent: the
 * bot stops with the server's line instead of asking again. Each game is written
 * as a .csa record and a JSON-lines game log (src/records/game-log.ts, the same format as lichess
 * games), both under `records.dir/csa/`.
 *
 * Players come from a `PlayerSource`: the dispatcher's pool under `kishi run` (server-factory.ts), or a
 * single Player (the built-in engine, or an external USI engine) under `kishi csa`.
 */
import { join } from 'node:path';
import type { GameServer } from '../../bot/server.js';
import type { CsaPhase, CsaStatus } from '../../bot/server-status.js';
import type { Secrets } from '../../config/load.js';
import { ConfigError } from '../../config/load.js';
import type { KishiConfig } from '../../config/schema.js';
import { KishiError, Result } from '../../core/result.js';
import { GameLogWriter } from '../../records/game-log.js';
import { childLogger } from '../../log/logger.js';
import type { Transcript } from '../../log/transcript.js';
import { fileTranscript, nullTranscript } from '../../log/transcript.js';
import type { Player } from '../../player/player.js';
import { startEnginePlayer } from '../../engines/engine-player.js';
import { CsaClient, DEFAULT_CLIENT_TIMING } from './client.js';
import type { ClientState, CsaClientOptions, CsaLog, FinishedGame } from './client.js';
import type { CsaGame, LoggedMove } from './csa-game.js';
import { csaLogin } from './login.js';
import { recordFileName, writeCsaRecord } from './record.js';

/** A Player lent for one session (one connection, usually one game). */
export interface PlayerLease {
  readonly player: Player;
  /** Gives it back; `broken` when it failed and must not be reused. */
  release(broken?: boolean): Promise<void>;
}

/** Where the bot gets its Players. */
export interface PlayerSource {
  /** A Player ready for a new game; throws when none can be made (the bot then stops). */
  acquire(): Promise<PlayerLease>;
  /** Releases whatever the source holds. */
  close(): Promise<void>;
}

/** One Player made on first use and reused; replaced when it broke or its process died. */
export function singlePlayerSource(make: () => Promise<Player>): PlayerSource {
  let current: Player | undefined;
  return {
    async acquire(): Promise<PlayerLease> {
      const alive = (current as (Player & { alive?: boolean }) | undefined)?.alive;
      if (current !== undefined && alive === false) {
        await current.close().catch(() => {});
        current = undefined;
      }
      current ??= await make();
      const player = current;
      return {
        player,
        release: async (broken = false) => {
          if (!broken || current !== player) return;
          current = undefined;
          await player.close().catch(() => {});
        },
      };
    },
    async close(): Promise<void> {
      const p = current;
      current = undefined;
      await p?.close().catch(() => {});
    },
  };
}

export interface CsaBotOptions {
  /** Name in logs and records (`floodgate`). */
  readonly name: string;
  readonly client: Omit<CsaClientOptions, 'transcript' | 'log'>;
  /** Directory for the .csa records and the game logs; none when undefined. */
  readonly recordsDir: string | undefined;
  readonly transcript?: Transcript;
  /** First wait before reconnecting after a failure, ms; doubles up to `reconnectMaxMs`. */
  readonly reconnectMs: number;
  readonly reconnectMaxMs: number;
  /** Wait before reconnecting after a finished game, ms. */
  readonly afterGameDelayMs: number;
  /** Stop after this many games (0: no limit); a game lost to a dropped connection does not count. */
  readonly maxGames: number;
  /** Refused logins in a row tolerated after a successful one in this process (the server may still hold our old socket). */
  readonly refusedRetries?: number;
  readonly log?: CsaLog;
  /** Called after each finished game (records already written). */
  readonly onGameEnd?: (finished: FinishedGame, files: { readonly record?: string; readonly gameLog?: string }) => void;
}

/** The client's state as the watch view groups it: a game offered but not yet agreed counts as waiting. */
export function csaPhase(state: ClientState): CsaPhase {
  switch (state) {
    case 'connecting':
    case 'logging-in':
      return 'connecting';
    case 'waiting':
    case 'summary':
    case 'agreeing':
    case 'game-over':
      return 'waiting';
    case 'playing':
      return 'in-game';
    case 'idle':
    case 'closed':
      return 'disconnected';
  }
}

export class CsaBot implements GameServer {
  readonly name: string;
  private stopping: 'none' | 'graceful' | 'now' = 'none';
  private client: CsaClient | undefined;
  private gamesPlayed = 0;
  private wake: (() => void) | undefined;
  private readonly log: CsaLog;
  private gameLog: GameLogWriter | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly opts: CsaBotOptions,
    private readonly players: PlayerSource,
  ) {
    this.name = opts.name;
    this.log = opts.log ?? childLogger(`csa/${opts.name}`);
  }

  /** Games finished with a result so far (not those lost to a dropped connection). */
  get games(): number {
    return this.gamesPlayed;
  }

  activeGames(): number {
    return this.client?.currentGame !== undefined ? 1 : 0;
  }

  /** Where the client stands (read-only, for the watch view): not connected, waiting for a game, in a game. */
  status(): CsaStatus {
    const state = this.client?.currentState ?? 'closed';
    return { kind: 'csa', name: this.name, phase: csaPhase(state), state, gamesPlayed: this.gamesPlayed };
  }

  /** Plays until `stop`, `maxGames`, or a refused login or a missing engine (which reject). */
  start(): Promise<void> {
    this.running ??= this.loop().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Stops; with `graceful` the game in progress is played out first. Resolves once the bot has stopped. */
  async stop(graceful: boolean): Promise<void> {
    this.stopping = graceful ? 'graceful' : 'now';
    this.wake?.();
    this.client?.stop(graceful);
    await this.running?.catch(() => undefined);
  }

  private async loop(): Promise<void> {
    let delay = this.opts.reconnectMs;
    let loggedInBefore = false;
    let refusedInARow = 0;
    const maxRefused = this.opts.refusedRetries ?? DEFAULT_REFUSED_RETRIES;
    try {
      while (this.stopping === 'none' && (this.opts.maxGames === 0 || this.gamesPlayed < this.opts.maxGames)) {
        const lease = await this.players.acquire();
        const client = new CsaClient(
          { ...this.opts.client, ...(this.opts.transcript ? { transcript: this.opts.transcript } : {}), log: this.log, loggedInBefore },
          lease.player,
          {
            onGameStart: (g) => this.openGameLog(g, lease.player.name),
            onMove: (_g, m) => this.logMove(m),
            onGameEnd: (f) => this.onGameEnd(f),
            wantMoreGames: () => this.stopping === 'none' && (this.opts.maxGames === 0 || this.gamesPlayed < this.opts.maxGames),
          },
        );
        this.client = client;
        const end = await client.run();
        this.client = undefined;
        const dead = (lease.player as Player & { alive?: boolean }).alive === false;
        await lease.release(end.playerFailed || dead);
        if (end.kind === 'rejected') {
          // A permanent error: the server refused the game we ask for; asking again gets the same answer.
          throw new KishiError('ERR_CSA_REJECTED', `${this.name}: the server refused the game ${this.opts.client.gameName}: ${end.message}`);
        }
        if (end.kind === 'refused') {
          // shogi-server checks no password: LOGIN:incorrect means a name still held by another connection
          // (ours, after a restart or a dropped socket, until the server notices it is gone). Transient,
          // but bounded: another process really holding the name would refuse us forever.
          refusedInARow++;
          if (refusedInARow > maxRefused) {
            throw new KishiError(
              'ERR_CSA_LOGIN',
              `${this.name}: login refused for ${this.opts.client.user} ${refusedInARow} times in a row: another connection still holds the name; giving up`,
            );
          }
        } else if (end.loggedIn) {
          loggedInBefore = true;
          refusedInARow = 0;
        }
        if (this.stopping !== 'none') break;
        if (end.kind === 'refused') {
          const why = loggedInBefore ? ', which logged in before: the server may still hold our dropped connection' : ': the name is held by another connection (perhaps ours before a restart)';
          this.log.warn(`${this.name}: login refused for ${this.opts.client.user}${why}; retry ${refusedInARow} of ${maxRefused} in ${seconds(delay)} s`);
          await this.sleep(delay);
          delay = Math.min(delay * 2, this.opts.reconnectMaxMs);
          continue;
        }
        if (this.opts.maxGames !== 0 && this.gamesPlayed >= this.opts.maxGames) {
          this.log.info(`${this.name}: played ${this.gamesPlayed} of ${this.opts.maxGames} games; done`);
          break;
        }
        if (end.games > 0 && !end.duringGame) {
          delay = this.opts.reconnectMs;
          this.log.debug(`session ended after a game (${end.message}); logging in again`);
          await this.sleep(this.opts.afterGameDelayMs);
        } else {
          this.log.warn(`${this.name}: session ended (${end.kind}: ${end.message}); reconnecting in ${seconds(delay)} s`);
          await this.sleep(delay);
          delay = Math.min(delay * 2, this.opts.reconnectMaxMs);
        }
      }
    } finally {
      await this.players.close();
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done(): void {
        clearTimeout(t);
        resolve();
      }
      this.wake = done;
    });
  }

  private gameLogFile(gameId: string): string | undefined {
    const dir = this.opts.recordsDir;
    return dir === undefined ? undefined : join(dir, recordFileName(gameId).replace(/\.csa$/, '.jsonl'));
  }

  private openGameLog(g: CsaGame, engine: string): void {
    this.gameLog = undefined;
    const file = this.gameLogFile(g.summary.gameId);
    if (file === undefined) return;
    const s = g.summary;
    const rule = g.us === '+' ? s.time.black : s.time.white;
    try {
      this.gameLog = GameLogWriter.open(file, {
        type: 'header',
        version: 1,
        game: 'shogi',
        variant: 'standard',
        server: this.name,
        gameId: s.gameId,
        start: g.startText(),
        ourSide: g.us === '+' ? 'first' : 'second',
        players: { first: { name: s.blackName }, second: { name: s.whiteName } },
        clock: {
          initialMs: rule.totalTime * rule.unitMs,
          incrementMs: rule.increment * rule.unitMs,
          ...(rule.byoyomi > 0 ? { byoyomiMs: rule.byoyomi * rule.unitMs } : {}),
        },
        engine,
        startedAt: g.startedAt.toISOString(),
      });
      for (const m of g.logMoves) this.logMove(m); // moves of a Position block
    } catch (e) {
      this.log.warn(`game ${s.gameId}: cannot open the game log: ${(e as Error).message}`);
    }
  }

  private logMove(m: LoggedMove): void {
    const i = m.info;
    this.gameLog?.move({
      ply: m.ply,
      side: m.side,
      move: m.move,
      ours: m.ours,
      position: m.position,
      clockMs: m.clockMs,
      ...(i && m.ours
        ? {
            search: {
              score: i.score,
              depth: i.depth,
              ...(i.seldepth !== undefined ? { seldepth: i.seldepth } : {}),
              nodes: i.nodes,
              nps: i.nps,
              timeMs: i.timeMs,
              pv: i.pv,
              ...(m.pvLeaf !== undefined ? { pvLeaf: m.pvLeaf } : {}),
            },
          }
        : {}),
    });
  }

  private onGameEnd(f: FinishedGame): void {
    // A game lost to a dropped connection is not one of the `maxGames` the user asked for.
    if (f.result !== 'aborted') this.gamesPlayed++;
    const g = f.game;
    const s = g.summary;
    const files: { record?: string; gameLog?: string } = {};
    const lastIsSpecial = g.recordMoves[g.recordMoves.length - 1]?.csa.startsWith('%') ?? false;
    const end = f.reason === 'DISCONNECTED' ? '%CHUDAN' : f.reason !== undefined && !lastIsSpecial ? RECORD_END[f.reason] : undefined;
    if (this.opts.recordsDir !== undefined) {
      try {
        files.record = writeCsaRecord(this.opts.recordsDir, {
          summary: s,
          startTime: g.startedAt,
          endTime: f.endedAt,
          moves: g.recordMoves,
          ...(end !== undefined ? { end } : {}),
          result: `${summaryWord(f)}:${s.blackName} ${sideResult(f, '+')}:${s.whiteName} ${sideResult(f, '-')}`,
        });
      } catch (e) {
        this.log.error(`cannot write the record of ${s.gameId}: ${String(e)}`);
      }
    }
    if (this.gameLog !== undefined) {
      try {
        const winner = f.result === 'win' ? (g.us === '+' ? 'first' : 'second') : f.result === 'loss' ? (g.us === '+' ? 'second' : 'first') : null;
        this.gameLog.finish({
          winner,
          status: f.result === 'aborted' ? 'aborted' : (f.reason ?? 'unknown').toLowerCase(),
          plies: g.plies(),
          endedAt: f.endedAt.toISOString(),
        });
        files.gameLog = this.gameLog.file;
      } catch (e) {
        this.log.error(`cannot finish the game log of ${s.gameId}: ${String(e)}`);
      }
      this.gameLog = undefined;
    }
    this.opts.onGameEnd?.(f, files);
  }
}

/** Refused logins in a row tolerated after a successful login (with the default backoff, about 20 minutes). */
const DEFAULT_REFUSED_RETRIES = 8;

const seconds = (ms: number): string => (ms < 10_000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000)));

/** The terminal line written into the record for an end the server decided. */
const RECORD_END: Readonly<Record<string, string>> = {
  TIME_UP: '%TIME_UP',
  SENNICHITE: '%SENNICHITE',
  OUTE_SENNICHITE: '%OUTE_SENNICHITE',
  MAX_MOVES: '%MAX_MOVES',
  ILLEGAL_MOVE: '%ILLEGAL_MOVE',
  CHUDAN: '%CHUDAN',
};

/**
 * shogi-server's word for how a game ended, as its own records write it (`'summary:<word>:…`, the
 * `log_summary_type` of its game_result.rb): `toryo`, `time up`, `abnormal` for a dropped connection…
 */
const SUMMARY_WORDS: Readonly<Record<string, string>> = {
  RESIGN: 'toryo',
  TIME_UP: 'time up',
  ILLEGAL_MOVE: 'illegal move',
  SENNICHITE: 'sennichite',
  OUTE_SENNICHITE: 'oute_sennichite',
  JISHOGI: 'kachi',
  MAX_MOVES: 'max_moves',
  CHUDAN: 'chudan',
  ILLEGAL_ACTION: 'illegal action',
  DISCONNECTED: 'abnormal',
};

/** The record's summary word for a finished game, in shogi-server's words. */
export function summaryWord(f: Pick<FinishedGame, 'reason' | 'game'>): string {
  if (f.reason === undefined) return 'unknown';
  // A declaration the server found wrong ends with #ILLEGAL_MOVE: shogi-server calls it `illegal kachi`.
  const last = f.game.recordMoves[f.game.recordMoves.length - 1]?.csa;
  if (f.reason === 'ILLEGAL_MOVE' && last === '%KACHI') return 'illegal kachi';
  return SUMMARY_WORDS[f.reason] ?? f.reason.toLowerCase();
}

const sideResult = (f: FinishedGame, side: '+' | '-'): string => {
  if (f.result === 'aborted') return 'unknown';
  if (f.result === 'draw') return 'draw';
  const weWon = f.result === 'win';
  const ours = f.game.us === side;
  return weWon === ours ? 'win' : 'lose';
};

/** The bot's options from the config (`csa`, `records`, `log`, `engine.ponder`) and the checked login. */
export function csaBotOptions(config: KishiConfig, secrets: Secrets): Result<CsaBotOptions, ConfigError> {
  const c = config.csa;
  const login = csaLogin(c, secrets.csaPassword);
  if (login.isErr) return Result.err(login.error);
  if (c.reconnectMaxSec < c.reconnectSec) {
    return Result.err(new ConfigError('config', [{ path: 'csa.reconnectMaxSec', message: 'must be at least csa.reconnectSec' }]));
  }
  const name = c.gameName.startsWith('floodgate-') ? 'floodgate' : 'csa';
  return Result.ok({
    name,
    client: {
      host: c.host,
      port: c.port,
      user: login.value.user,
      secret: login.value.secret,
      gameName: login.value.gameName,
      x1: login.value.x1,
      connectTimeoutMs: DEFAULT_CLIENT_TIMING.connectTimeoutMs,
      keepAliveMs: c.keepAliveSec * 1000,
      minBlankGapMs: DEFAULT_CLIENT_TIMING.minBlankGapMs,
      replyTimeoutMs: c.replyTimeoutSec * 1000,
      safetyMarginMs: c.marginMs,
      // No engine.moveOverheadMs on top: the budget (planBudget) already keeps back csa.marginMs and the
      // measured round trip, floodgate's network lag; both would cost a byoyomi period twice the margin.
      moveOverheadMs: 0,
      comments: c.comments,
      ponder: config.engine.ponder,
      closeWaitMs: DEFAULT_CLIENT_TIMING.closeWaitMs,
    },
    recordsDir: join(config.records.dir, 'csa'),
    transcript: config.log.transcripts ? fileTranscript(join(config.log.dir, 'csa-wire.log')) : nullTranscript,
    reconnectMs: c.reconnectSec * 1000,
    reconnectMaxMs: c.reconnectMaxSec * 1000,
    afterGameDelayMs: 1000,
    maxGames: c.maxGames,
  });
}

/** A source over an external USI engine (`usi:<command>`), with its own transcript. */
export function usiPlayerSource(config: KishiConfig, spec: string): PlayerSource {
  const log = childLogger('usi-engine');
  return singlePlayerSource(async () => {
    const transcript = config.log.transcripts ? fileTranscript(join(config.log.dir, 'usi-engine.log')) : nullTranscript;
    const e = await startEnginePlayer(spec, 'shogi', { ponder: config.engine.ponder, transcript, onWarning: (m) => log.warn(m) });
    if (e.isErr) throw e.error;
    log.info(`engine ${e.value.name} started (${spec})`);
    return e.value;
  });
}

/**
 * The CSA bot on `config.csa`, after checking the login (CSA_PASSWORD must hold the secret part). Players
 * come from `players`, or from the external USI engine of `csa.engine` when one is set.
 */
export function createCsaBot(
  config: KishiConfig,
  secrets: Secrets,
  players: PlayerSource,
  hooks: Pick<CsaBotOptions, 'onGameEnd'> = {},
): Result<CsaBot, ConfigError> {
  const opts = csaBotOptions(config, secrets);
  if (opts.isErr) return Result.err(opts.error);
  const source = config.csa.engine !== '' ? usiPlayerSource(config, config.csa.engine) : players;
  return Result.ok(new CsaBot({ ...opts.value, ...hooks }, source));
}
