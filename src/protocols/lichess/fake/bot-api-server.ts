/**
 * The core of the local Bot API servers, shared by the lichess profile (server.ts) and the lishogi profile
 * (lishogi-server.ts), as the client shares its code through a server profile: the HTTP server's
 * lifecycle, the request log, injected HTTP faults (http-faults.ts), the ndjson streams and their faults
 * (stream-conn.ts: lines split or merged across chunks, keep-alive gaps, a stream stalled with its socket
 * open or dropped, now or when a game reaches a ply), timers, ids and the `onSend` hook every sent message
 * goes through. A profile keeps its own world (accounts, games, challenges, rules and clocks), routes the
 * requests and writes its server's wire shapes.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FaultResponse, HttpFault } from './http-faults.js';
import { serveFault } from './http-faults.js';
import { seededRandom } from './opponents.js';
import type { ChunkMode } from './stream-conn.js';
import { StreamConn } from './stream-conn.js';

/** The schemas of the core's own answers (`{ok: true}`, a 400 and a 404), in every profile's schema set. */
export type CoreSchemaName = 'Ok' | 'Error' | 'NotFound';

/**
 * The schemas both servers have (each its own file of that name: tests/fixtures/lichess/schemas/,
 * tests/fixtures/lishogi/schemas/), as lishogi kept lila's Bot API messages and changed their fields.
 */
export type BotApiSchemaName =
  | CoreSchemaName
  | 'ChallengeEvent'
  | 'ChallengeCanceledEvent'
  | 'ChallengeDeclinedEvent'
  | 'GameStartEvent'
  | 'GameFinishEvent'
  | 'GameFullEvent'
  | 'GameStateEvent'
  | 'ChatLineEvent'
  | 'ChallengeJson'
  | 'UserExtended';

/** One message the server sent, with the name of the bundled schema it must satisfy (undefined: none exists). */
export interface SentMessageOf<S extends string> {
  readonly channel: 'event' | 'game' | 'http';
  /** For http: `METHOD path`. */
  readonly where: string;
  readonly schema: S | undefined;
  readonly message: unknown;
}

/** One request as the server saw it (a profile adds who sent it); `status` is what it was answered (-1: a fault). */
export interface RequestRecord {
  readonly method: string;
  readonly path: string;
  readonly body: string;
  status: number;
}

/** The counters every profile keeps, for assertions. */
export interface CoreStats<R extends RequestRecord> {
  readonly requests: R[];
  faultsServed: number;
  stalls: number;
  drops: number;
}

/** The options every profile takes. */
export interface BotApiServerOptions<S extends string> {
  /** Blank keep-alive line interval, milliseconds (the profile's server's own by default). */
  readonly keepAliveMs?: number;
  /** Seed for colours, chunk splitting and random opponents. */
  readonly seed?: number;
  readonly onSend?: (sent: SentMessageOf<S>) => void;
}

/** What differs between the servers in the core's own work. */
export interface BotApiServerHabits {
  /** The first letter of game and challenge ids. */
  readonly idPrefix: string;
  /** The keep-alive interval without `keepAliveMs`, milliseconds (lichess: 7000; lishogi: 6000). */
  readonly keepAliveMs: number;
  /** How often the profile's `tick` looks at the clocks, milliseconds. */
  readonly tickMs: number;
  /** How long an idle connection is kept open, milliseconds (undefined: Node's default). */
  readonly idleConnectionMs?: number;
  /** The error text of a 404 without one of its own. */
  readonly notFoundText: string;
  /** A request whose handler throws is answered 500 with the error (otherwise the error is left to fail the test). */
  readonly answerErrors: boolean;
}

/** One request being served. */
export interface RequestContext<R extends RequestRecord> {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  readonly method: string;
  readonly path: string;
  readonly body: string;
  readonly record: R;
  /** `METHOD path`, for `onSend`. */
  readonly where: string;
}

/** JSON answers to the request being served, each recorded and passed to `onSend`. */
export interface Reply<S extends string> {
  readonly send: (status: number, body: unknown, schema: S | CoreSchemaName | undefined) => void;
  readonly ok: () => void;
  readonly bad: (error: string) => void;
  readonly notFound: (error?: string) => void;
}

/**
 * The open streams of one game, each under the key of who holds it; a new stream under a key closes the one
 * it had (lila: a second stream from the same User-Agent; lishogi: from the same player).
 */
export type GameStreams = Map<string, StreamConn>;

interface PlyHook {
  readonly gameId: string;
  readonly ply: number;
  readonly action: 'stall' | 'drop';
  /** Fires once, or every time the game is at that ply. */
  readonly once: boolean;
  /** Only the stream held under this key. */
  readonly holder?: string;
  done: boolean;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A response that goes nowhere: a request served for its effect only (an `applied504` fault). */
function sinkResponse(): ServerResponse {
  const sink = { writeHead: () => sink, end: () => sink, flushHeaders: () => {}, on: () => sink, write: () => true } as unknown as ServerResponse;
  return sink;
}

/**
 * A local Bot API server without its world: a profile extends it with its accounts, games and challenges,
 * routes the requests (`route`) and writes its server's shapes. `S`: the profile's schema names; `R`: its
 * request log entries.
 */
export abstract class BotApiServer<S extends string, R extends RequestRecord> {
  private server: Server | undefined;
  private readonly faults: HttpFault[] = [];
  private chunkMode: ChunkMode = 'normal';
  private keepAliveGapUntil = 0;
  private readonly plyHooks: PlyHook[] = [];
  private nextId = 1;
  private ticker: NodeJS.Timeout | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** The open event stream of each account, by its id (lila and lishogi keep one an account). */
  private readonly eventStreams = new Map<string, StreamConn>();
  protected readonly random: () => number;
  /** What happened, for assertions. */
  abstract readonly stats: CoreStats<R>;
  /** The base URL once started. */
  url = '';

  protected constructor(
    private readonly coreOpts: BotApiServerOptions<S | CoreSchemaName>,
    private readonly habits: BotApiServerHabits,
  ) {
    this.random = seededRandom(coreOpts.seed ?? 7);
  }

  // ---- the profile's part -------------------------------------------------------------------------

  /** Serves one request (faults already applied). */
  protected abstract route(ctx: RequestContext<R>, reply: Reply<S>): Promise<void>;

  /** The request's log entry: `base` and who sent it. */
  protected abstract requestRecord(req: IncomingMessage, base: RequestRecord): R;

  /** The streams of every game, to drop at `stop`. */
  protected abstract gameStreams(): Iterable<GameStreams>;

  /** Runs every `tickMs`: flags fall here. */
  protected abstract tick(): void;

  // ---- lifecycle ----------------------------------------------------------------------------------

  async start(port = 0): Promise<string> {
    const server = createServer((req, res) => {
      const served = this.handle(req, res);
      if (!this.habits.answerErrors) return void served;
      void served.catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: String(e) }));
      });
    });
    if (this.habits.idleConnectionMs !== undefined) server.keepAliveTimeout = this.habits.idleConnectionMs;
    this.server = server;
    // A port in use rejects (kishi fake-server says so) instead of an unhandled 'error' event.
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const addr = server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${addr.port}`;
    this.ticker = setInterval(() => this.tick(), this.habits.tickMs);
    return this.url;
  }

  async stop(): Promise<void> {
    clearInterval(this.ticker);
    // Challenge expiries and first-move deadlines are among these timers.
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    const games = [...this.gameStreams()].flatMap((streams) => [...streams.values()]);
    for (const s of [...this.eventStreams.values(), ...games]) s.drop();
    const server = this.server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  // ---- fault injection ----------------------------------------------------------------------------

  /** The next `times` requests matching `path` (and `method`) get `response` instead of being served. */
  failRequests(match: { readonly method?: string; readonly path: RegExp }, response: FaultResponse, times = 1, retryAfterS?: number): void {
    this.faults.push({ ...match, times, response, ...(retryAfterS !== undefined ? { retryAfterS } : {}) });
  }

  setChunkMode(mode: ChunkMode): void {
    this.chunkMode = mode;
  }

  /** No keep-alives on any stream for `ms`. */
  keepAliveGap(ms: number): void {
    this.keepAliveGapUntil = Date.now() + ms;
  }

  /** When game `gameId` (`*`: any) reaches `ply` plies, its game streams (only `holder`'s, if given) stall or drop. */
  protected addPlyHook(gameId: string, ply: number, action: 'stall' | 'drop', once: boolean, holder?: string): void {
    this.plyHooks.push({ gameId, ply, action, once, ...(holder !== undefined ? { holder } : {}), done: false });
  }

  /** Fires the ply hooks of a game still going at `ply` on its streams. */
  protected runPlyHooks(gameId: string, ply: number, streams: GameStreams): void {
    for (const h of this.plyHooks) {
      if (h.done || (h.gameId !== '*' && h.gameId !== gameId) || h.ply !== ply) continue;
      if (h.once) h.done = true;
      for (const [holder, s] of [...streams]) {
        if (h.holder !== undefined && h.holder !== holder) continue;
        if (h.action === 'stall') this.stallStream(s);
        else this.dropStream(s);
      }
    }
  }

  /** Silences a stream with its socket left open (counted even without a stream). */
  protected stallStream(s: StreamConn | undefined): void {
    this.stats.stalls++;
    s?.stall();
  }

  /** Destroys a stream's socket (counted even without a stream). */
  protected dropStream(s: StreamConn | undefined): void {
    this.stats.drops++;
    s?.drop();
  }

  // ---- plumbing -----------------------------------------------------------------------------------

  protected newId(): string {
    return `${this.habits.idPrefix}${String(this.nextId++).padStart(7, '0')}`;
  }

  /** Runs `fn` after `ms` unless the server stops first. */
  protected later(ms: number, fn: () => void): NodeJS.Timeout {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
    return t;
  }

  protected emit(sent: SentMessageOf<S | CoreSchemaName>): void {
    this.coreOpts.onSend?.(sent);
  }

  /** Sends one line on a stream and tells `onSend`. */
  protected deliver(conn: StreamConn, channel: 'event' | 'game', where: string, schema: S | undefined, message: unknown): void {
    this.emit({ channel, where, schema, message });
    conn.send(message);
  }

  /** Opens an ndjson stream on `res` with the server's keep-alives and chunk faults. */
  protected openStream(res: ServerResponse, userAgent: string, onClose: () => void): StreamConn {
    return new StreamConn(
      res,
      {
        keepAliveMs: this.coreOpts.keepAliveMs ?? this.habits.keepAliveMs,
        chunkMode: () => this.chunkMode,
        keepAliveGap: () => Date.now() < this.keepAliveGapUntil,
        random: this.random,
        onClose,
      },
      userAgent,
    );
  }

  /** Opens `owner`'s event stream on `res`; the one it had is closed (a second connection with the same token). */
  protected openEventStream(owner: string, res: ServerResponse, userAgent: string): StreamConn {
    this.closeEventStream(owner);
    const conn: StreamConn = this.openStream(res, userAgent, () => {
      if (this.eventStreams.get(owner) === conn) this.eventStreams.delete(owner);
    });
    this.eventStreams.set(owner, conn);
    return conn;
  }

  /** `owner`'s open event stream, if any (stalled ones included: their sockets are open). */
  protected eventStreamOf(owner: string): StreamConn | undefined {
    return this.eventStreams.get(owner);
  }

  /** Ends `owner`'s event stream normally, if it has one. */
  protected closeEventStream(owner: string): void {
    this.eventStreams.get(owner)?.close();
    this.eventStreams.delete(owner);
  }

  /** Sends one event to `owner`, if its event stream is open; `where` names the stream for `onSend`. */
  protected sendEvent(owner: string, where: string, schema: S, message: unknown): void {
    const s = this.eventStreams.get(owner);
    if (s === undefined || !s.isOpen()) return;
    this.deliver(s, 'event', where, schema, message);
  }

  /** Opens a stream of a game under `holder` on `res`; the one `holder` had is closed. */
  protected openGameStream(streams: GameStreams, holder: string, res: ServerResponse, userAgent: string): StreamConn {
    streams.get(holder)?.close();
    const conn: StreamConn = this.openStream(res, userAgent, () => {
      if (streams.get(holder) === conn) streams.delete(holder);
    });
    streams.set(holder, conn);
    return conn;
  }

  /** Sends one line on every open game stream not stalled; `where` names each for `onSend`. */
  protected broadcastOn(streams: GameStreams, where: (holder: string) => string, schema: S, message: unknown): void {
    for (const [holder, s] of streams) {
      if (!s.isOpen() || s.isStalled()) continue;
      this.deliver(s, 'game', where(holder), schema, message);
    }
  }

  /** Ends every stream of a game normally (after its last `gameState`). */
  protected closeGameStreams(streams: GameStreams): void {
    for (const s of streams.values()) s.close();
    streams.clear();
  }

  /** Resolves with what the waiter it adds to `waiters` is given (a game, when it ends), or fails after `timeoutMs` with `why()`. */
  protected waitOn<T>(waiters: ((x: T) => void)[], timeoutMs: number, why: () => string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(why())), timeoutMs);
      waiters.push((x) => {
        clearTimeout(timer);
        resolve(x);
      });
    });
  }

  /** Resolves when `pred` holds (polling every 10 ms). */
  async waitFor(pred: () => boolean, timeoutMs = 10_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!pred()) {
      if (Date.now() > until) throw new Error('waitFor: timed out');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  // ---- HTTP ---------------------------------------------------------------------------------------

  private reply(ctx: RequestContext<R>): Reply<S> {
    const send = (status: number, body: unknown, schema: S | CoreSchemaName | undefined): void => {
      ctx.record.status = status;
      this.emit({ channel: 'http', where: ctx.where, schema, message: body });
      ctx.res.writeHead(status, { 'Content-Type': 'application/json' });
      ctx.res.end(JSON.stringify(body));
    };
    return {
      send,
      ok: () => send(200, { ok: true }, 'Ok'),
      bad: (error) => send(400, { error }, 'Error'),
      notFound: (error = this.habits.notFoundText) => send(404, { error }, 'NotFound'),
    };
  }

  private serve(ctx: RequestContext<R>): Promise<void> {
    return this.route(ctx, this.reply(ctx));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const path = url.pathname;
    const body = method === 'POST' ? await readBody(req) : '';
    const record = this.requestRecord(req, { method, path: path + url.search, body, status: 0 });
    this.stats.requests.push(record);
    const ctx: RequestContext<R> = { req, res, url, method, path, body, record, where: `${method} ${path}` };
    const fault = this.faults.find((f) => f.times > 0 && (f.method === undefined || f.method === method) && f.path.test(path));
    if (fault === undefined) return this.serve(ctx);
    fault.times--;
    this.stats.faultsServed++;
    const r = fault.response;
    if (r === 'applied504') {
      // Served for its effect, then the client is told it failed.
      await this.serve({ ...ctx, res: sinkResponse() });
      record.status = -504;
      res.writeHead(504, { 'Content-Type': 'text/html' });
      res.end('<html><body><h1>504 Gateway Time-out</h1></body></html>');
      return;
    }
    if (typeof r === 'object' && 'delayMs' in r) {
      await new Promise<void>((resolve) => this.later(r.delayMs, resolve));
      return this.serve(ctx);
    }
    record.status = -1;
    serveFault(res, fault, path);
  }
}
