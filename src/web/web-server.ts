/**
 * The local web server: `kishi run` with no account configured (or `web.enabled: always`) serves a
 * page on which a person plays Kishi at chess or shogi (src/web/page/ is bundled by page-bundle.ts).
 * Plain node:http for the page, its assets and the record downloads; one WebSocket per tab (the `ws`
 * package) for the game itself. It listens on 127.0.0.1 unless `web.host` says otherwise.
 *
 * Each game belongs to the socket that started it. Another tab asking for the same game is refused
 * while the first one is connected; a tab that reloads (its socket gone) takes the game back with
 * `join`. A game whose tab stays away for `abandonAfterMs` ends as abandoned. Every refused message
 * gets an `error` answer naming the reason; the game goes on unchanged.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { WebSocket, WebSocketServer } from 'ws';
import type { PlayerLease } from '../bot/dispatcher.js';
import type { GameServer, GracefulStop } from '../bot/server.js';
import type { ServerStatusSource } from '../bot/server-status.js';
import type { DrawOrResignConfig } from '../config/sections/draw-or-resign.js';
import type { WebConfig } from '../config/sections/web.js';
import type { GameKind, Side } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import { childLogger } from '../log/logger.js';
import { renderSvg } from '../plot/render.js';
import { curveSpec } from '../plot/specs.js';
import { GameLogWriter } from '../records/game-log.js';
import { csaOf, kifOf, pgnOf } from './game-records.js';
import { limitsFor, parseClientMessage } from './messages.js';
import type { NewGameRequest, WebEngine } from './messages.js';
import { bundlePage, pageAssets } from './page-bundle.js';
import type { PageAssets } from './page-bundle.js';
import { GameAnalysis, replayForAnalysis } from './game-analysis.js';
import type { AnalysisEvent } from './game-analysis.js';
import { GameWatcher } from './watch.js';
import { WebGame } from './web-game.js';
import type { WebEvent } from './web-game.js';

/** Leases a Player of the chosen engine for one game. */
export type LeaseSource = (engine: WebEngine, game: GameKind) => Promise<Result<PlayerLease, KishiError>>;

export interface WebServerOptions {
  readonly config: WebConfig;
  /** Records and game logs go under `<recordsDir>/web/`. */
  readonly recordsDir: string;
  readonly policy: DrawOrResignConfig;
  /** Network lag the time plans keep back per move, ms (config `engine.moveOverheadMs`); default 0. */
  readonly moveOverheadMs?: number;
  readonly lease: LeaseSource;
  /** Lines for the user (the address once listening). */
  readonly say?: (line: string) => void;
  /** Runs once the server has stopped (closes Player pools of its own). */
  readonly onStop?: () => Promise<void>;
  /** The TD-Leaf history files of the live weights, for the watch view's learning chart. */
  readonly tdleafHistories?: readonly { readonly game: GameKind; readonly file: string }[];
  /** The running servers' status (lichess challenge queue, CSA connection), from `kishi run`. */
  readonly serverStatus?: ServerStatusSource;
  /** State directories of `kishi train alphazero` whose curves the watch view draws (`web.watchAlphazeroDirs`). */
  readonly alphazeroDirs?: readonly string[];
  /** The watch view's token (`KISHI_WEB_TOKEN`): needed to watch when the server listens beyond this machine. */
  readonly watchToken?: string;
  /** A game without its tab for this long ends as abandoned, ms. */
  readonly abandonAfterMs?: number;
}

/** What the server sends besides game events. */
type ServerMessage = WebEvent | AnalysisEvent | { readonly t: 'error'; readonly text: string } | { readonly t: 'hello'; readonly levels: number };

interface Seat {
  readonly game: WebGame;
  socket: WebSocket | undefined;
  abandonTimer?: NodeJS.Timeout;
}

const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  pgn: 'application/x-chess-pgn; charset=utf-8',
  csa: 'text/plain; charset=utf-8',
  kif: 'text/plain; charset=utf-8',
  json: 'application/json; charset=utf-8',
  svg: 'image/svg+xml; charset=utf-8',
};

/** Whether `host` is this machine only (a loopback address or name). */
export const isLoopback = (host: string): boolean => host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * Whether a request's `Host` (and, for the WebSocket, its `Origin`) may reach a server bound to this
 * machine: only loopback names. A page of another site open in the same browser cannot then drive
 * games through the socket (cross-site WebSocket), nor read the watch data by DNS rebinding.
 * A server bound beyond this machine accepts any host (the watch view has its token).
 */
export function requestRefusal(boundHost: string, req: IncomingMessage, checkOrigin: boolean): string | undefined {
  if (!isLoopback(boundHost)) return undefined;
  const hostName = (h: string): string => h.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
  const host = req.headers.host;
  if (host === undefined || !isLoopback(hostName(host))) return `this server answers only on this machine (host ${JSON.stringify(host ?? '')})`;
  const origin = req.headers.origin;
  if (checkOrigin && origin !== undefined) {
    let originHost = '';
    try {
      originHost = new URL(origin).hostname.replace(/^\[(.*)\]$/, '$1');
    } catch {
      originHost = '';
    }
    if (!isLoopback(originHost)) return `connections from the page of another site (${origin}) are refused`;
  }
  return undefined;
}

/**
 * Whether a request may see the watch view: always on a server bound to this machine; beyond it only
 * with the token (`Authorization: Bearer <token>` or `?token=`), and never when no token is set.
 * Returns the refusal's text, or undefined when allowed.
 */
export function watchRefusal(host: string, token: string | undefined, req: IncomingMessage, url: URL): string | undefined {
  if (isLoopback(host)) return undefined;
  if (token === undefined || token === '') return 'the watch view is served beyond this machine only with a token: set KISHI_WEB_TOKEN';
  const auth = req.headers.authorization;
  const given = auth?.startsWith('Bearer ') ? auth.slice(7) : (url.searchParams.get('token') ?? '');
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b) ? undefined : 'wrong or missing watch token';
}

/** Finished games kept for downloads. */
const KEEP_FINISHED = 50;

export class WebServer implements GameServer {
  readonly name = 'web';
  private http: Server | undefined;
  private wss: WebSocketServer | undefined;
  private readonly seats = new Map<string, Seat>();
  /** Game reviews running (each holds a Player, so each counts against web.maxGames). */
  private analyses = 0;
  private assets: PageAssets | undefined;
  private stopped: (() => void) | undefined;
  private readonly abandonAfterMs: number;
  private readonly watcher: GameWatcher;
  private readonly charts = new Map<string, { key: string; svg: string }>();

  constructor(private readonly opts: WebServerOptions) {
    this.abandonAfterMs = opts.abandonAfterMs ?? 60_000;
    this.watcher = new GameWatcher(opts.recordsDir, {
      ...(opts.tdleafHistories ? { tdleafHistories: opts.tdleafHistories } : {}),
      ...(opts.serverStatus ? { serverStatus: opts.serverStatus } : {}),
      ...(opts.alphazeroDirs ? { alphazeroDirs: opts.alphazeroDirs } : {}),
    });
  }

  /** The address once listening (`http://host:port/`). */
  url(): string | undefined {
    const a = this.http?.address() as AddressInfo | null | undefined;
    if (!a) return undefined;
    const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
    return `http://${host}:${a.port}/`;
  }

  /** Bundles the page, listens, and serves until `stop`. */
  async start(): Promise<void> {
    const bundle = await bundlePage();
    this.assets = pageAssets(bundle);
    const http = createServer((req, res) => this.serveHttp(req, res));
    this.http = http;
    await new Promise<void>((resolve, reject) => {
      http.once('error', (e: NodeJS.ErrnoException) =>
        reject(
          e.code === 'EADDRINUSE'
            ? new Error(`port ${this.opts.config.port} on ${this.opts.config.host} is in use (another Kishi?); set web.port in the config`)
            : e,
        ),
      );
      http.listen(this.opts.config.port, this.opts.config.host, () => {
        http.removeAllListeners('error');
        resolve();
      });
    });
    // The socket server joins once listening: it re-emits the server's errors, and a listen error must
    // reach `start`'s caller (a port in use), not crash the process as an unhandled event.
    const wss = new WebSocketServer({
      server: http,
      path: '/ws',
      maxPayload: 16 * 1024,
      verifyClient: (info, done) => {
        const refused = requestRefusal(this.opts.config.host, info.req, true);
        if (refused === undefined) done(true);
        else done(false, 403, refused);
      },
    });
    wss.on('connection', (socket) => this.onSocket(socket));
    wss.on('error', (e) => childLogger('web').warn(`web server: ${e.message}`));
    this.wss = wss;
    (this.opts.say ?? ((l: string) => console.log(l)))(`Kishi is ready: open ${this.url()} in a browser to play (Ctrl-C stops)`);
    await new Promise<void>((resolve) => {
      this.stopped = resolve;
    });
  }

  async stop(_graceful: boolean): Promise<void> {
    // A person at the page cannot be kept waiting by a graceful stop: games in progress end as abandoned.
    await Promise.all([...this.seats.values()].map((s) => s.game.abandon()));
    for (const client of this.wss?.clients ?? []) client.terminate();
    this.wss?.close();
    const closed = new Promise<void>((resolve) => (this.http ? this.http.close(() => resolve()) : resolve()));
    // Browsers keep connections open: close them so the server's close completes.
    this.http?.closeAllConnections();
    await closed;
    await this.opts.onStop?.();
    this.stopped?.();
  }

  /** A graceful stop ends the games at once (see `stop`). */
  gracefulStop(): GracefulStop {
    return 'abandon';
  }

  activeGames(): number {
    return [...this.seats.values()].filter((s) => !s.game.over()).length + this.analyses;
  }

  private serveHttp(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    if (req.method !== 'GET' && req.method !== 'HEAD') return this.send(res, 405, 'text/plain; charset=utf-8', 'method not allowed');
    const refused = requestRefusal(this.opts.config.host, req, false);
    if (refused !== undefined) return this.send(res, 403, 'text/plain; charset=utf-8', refused);
    if (path === '/watch' || path.startsWith('/api/watch')) {
      const refused = watchRefusal(this.opts.config.host, this.opts.watchToken, req, url);
      if (refused !== undefined) return this.send(res, 403, 'text/plain; charset=utf-8', refused);
      if (path === '/watch') return this.send(res, 200, CONTENT_TYPES.html!, this.assets?.get('/watch.html') ?? '');
      if (path === '/api/watch') return this.send(res, 200, CONTENT_TYPES.json!, JSON.stringify(this.watcher.snapshot()));
      const chart = /^\/api\/watch\/(ratings|tdleaf|alphazero)\.svg$/.exec(path)?.[1] as 'ratings' | 'tdleaf' | 'alphazero' | undefined;
      if (chart !== undefined) {
        void this.chartSvg(chart).then((svg) => this.send(res, 200, CONTENT_TYPES.svg!, svg));
        return;
      }
    }
    const asset = this.assets?.get(path === '/' ? '/index.html' : path);
    if (asset !== undefined) return this.send(res, 200, CONTENT_TYPES[path === '/' ? 'html' : path.split('.').pop()!] ?? 'application/octet-stream', asset);
    const record = /^\/games\/([a-z0-9]{1,32})\.(pgn|csa|kif)$/.exec(path);
    if (record) {
      const seat = this.seats.get(record[1]!);
      if (!seat) return this.send(res, 404, 'text/plain; charset=utf-8', `no game ${record[1]}`);
      const kind = record[2]!;
      if ((kind === 'pgn') !== (seat.game.game === 'chess')) return this.send(res, 404, 'text/plain; charset=utf-8', `a ${seat.game.game} game has no ${kind} record`);
      const data = seat.game.recordData();
      const text = kind === 'pgn' ? pgnOf(data) : kind === 'csa' ? csaOf(data) : kifOf(data);
      if (text.isErr) return this.send(res, 500, 'text/plain; charset=utf-8', `cannot write the record: ${text.error.message}`);
      res.setHeader('Content-Disposition', `attachment; filename="kishi-${record[1]}.${kind}"`);
      return this.send(res, 200, CONTENT_TYPES[kind]!, text.value);
    }
    this.send(res, 404, 'text/plain; charset=utf-8', 'not found');
  }

  /**
   * The watch view's learning charts (vega-lite through src/plot, as `kishi plot` draws curves): our
   * rating per server game after game, the size of each online TD-Leaf update, or the AlphaZero loops'
   * promoted nets (Elo with its 95% interval against self-play games); redrawn when the data change.
   */
  private async chartSvg(which: 'ratings' | 'tdleaf' | 'alphazero'): Promise<string> {
    const snap = this.watcher.snapshot();
    const points =
      which === 'ratings'
        ? snap.ratings.map((p) => ({ x: p.game, series: p.server, y: p.rating, low: p.rating, high: p.rating, clipped: false }))
        : which === 'tdleaf'
          ? snap.tdleaf.map((p) => ({ x: p.update, series: p.game, y: p.largestChange, low: p.largestChange, high: p.largestChange, clipped: false }))
          : snap.alphazero;
    const key = JSON.stringify(points);
    const cached = this.charts.get(which);
    if (cached?.key === key) return cached.svg;
    const note = (text: string): string =>
      `<svg xmlns="http://www.w3.org/2000/svg" width="360" height="40"><text x="4" y="24" font-family="sans-serif" font-size="14">${text.replace(/[<&]/g, '')}</text></svg>`;
    const empty = {
      ratings: 'no rated games yet',
      tdleaf: 'no TD-Leaf updates yet (learning.online)',
      alphazero: snap.alphazeroNotes[0] ?? 'no AlphaZero state directory (web.watchAlphazeroDirs)',
    };
    let svg = note(empty[which]);
    if (points.length > 0) {
      const titles = {
        ratings: { title: "Kishi's rating", xTitle: 'rated games', yTitle: 'rating', zeroRule: false },
        tdleaf: { title: 'Online TD-Leaf: largest weight change per game', xTitle: 'updates', yTitle: 'centipawns', zeroRule: true },
        alphazero: { title: 'AlphaZero loop: promoted nets', xTitle: 'self-play games', yTitle: 'Elo vs the first net (95% interval)', zeroRule: true },
      };
      const spec = curveSpec(points, titles[which]);
      const rendered = await renderSvg(spec);
      svg = rendered.isOk ? rendered.value : note(rendered.error.message);
    }
    this.charts.set(which, { key, svg });
    return svg;
  }

  private send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
    res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
    res.end(body);
  }

  private onSocket(socket: WebSocket): void {
    let seat: Seat | undefined;
    // Kishi's review of this tab's finished game; it holds a Player (counted as a game) until closed.
    let analysis: GameAnalysis | undefined;
    const closeAnalysis = async (): Promise<void> => {
      if (!analysis) return;
      const a = analysis;
      analysis = undefined;
      this.analyses--;
      await a.close();
    };
    const reply = (m: ServerMessage): void => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(m));
    };
    const error = (text: string): void => reply({ t: 'error', text });
    reply({ t: 'hello', levels: 8 });
    let queue: Promise<void> = Promise.resolve();
    socket.on('message', (data, isBinary) => {
      // One message at a time per tab: a takeback waits for the search it stops.
      queue = queue.then(async () => {
        if (isBinary) return error('binary messages are not understood');
        const parsed = parseClientMessage(data.toString());
        if (parsed.isErr) return error(parsed.error.message);
        const m = parsed.value;
        if (m.t === 'new') {
          if (seat && !seat.game.over()) return error('finish or resign the game in progress first');
          await closeAnalysis();
          const created = await this.newGame(m, socket);
          if (created.isErr) return error(created.error.message);
          seat = created.value;
          seat.game.start();
          return;
        }
        if (m.t === 'join') {
          const other = this.seats.get(m.id);
          if (!other) return error(`no game ${m.id}`);
          if (other.socket && other.socket !== socket && other.socket.readyState === WebSocket.OPEN) {
            return error('this game is open in another tab; play it there');
          }
          if (seat && seat !== other && !seat.game.over()) return error('finish or resign the game in progress first');
          clearTimeout(other.abandonTimer);
          other.socket = socket;
          seat = other;
          reply({ t: 'state', state: other.game.snapshot() });
          return;
        }
        if (m.t === 'analyse' || m.t === 'lines') {
          if (seat && !seat.game.over()) return error('Kishi analyses a game once it is over');
          if (m.t === 'analyse' || !analysis) {
            // A pasted game (`game`, `start`, `moves`), or the tab's own finished game.
            const target = m.t === 'analyse' && m.game !== undefined ? { game: m.game, start: m.start!, moves: m.moves! } : seat ? { game: seat.game.game, moves: seat.game.snapshot().moves } : undefined;
            if (!target) return error('no game: start one first');
            const replayed = replayForAnalysis(target.game, 'start' in target ? target.start : undefined, target.moves);
            if (replayed.isErr) return error(replayed.error.message);
            await closeAnalysis();
            if (this.activeGames() >= this.opts.config.maxGames) return error(`${this.activeGames()} games are being played already (web.maxGames); try again later`);
            const lease = await this.opts.lease('alphabeta', target.game);
            if (lease.isErr) return error(lease.error.message);
            this.analyses++;
            analysis = new GameAnalysis({ ...target, lease: lease.value, emit: reply }, replayed.value);
          }
          const a = analysis;
          // Not awaited: the tab may ask for lines while the graph runs (they follow it).
          void (m.t === 'analyse' ? a.graph() : a.lines(m.ply)).catch((e: unknown) => error(`analysis failed: ${(e as Error).message}`));
          return;
        }
        if (!seat) return error('no game: start one first');
        const game = seat.game;
        const answer =
          m.t === 'move' ? game.humanMove(m.ply, m.move) : m.t === 'resign' ? game.resign() : m.t === 'draw' ? game.offerDraw() : await game.takeback();
        if (answer.isErr) {
          error(answer.error.message);
          // The page may have moved a piece on its board: send the real position back.
          reply({ t: 'state', state: game.snapshot() });
        }
      });
    });
    socket.on('close', () => {
      void closeAnalysis();
      if (!seat || seat.socket !== socket) return;
      seat.socket = undefined;
      const s = seat;
      if (!s.game.over()) s.abandonTimer = setTimeout(() => void s.game.abandon(), this.abandonAfterMs);
    });
  }

  private async newGame(m: NewGameRequest, socket: WebSocket): Promise<Result<Seat, KishiError>> {
    const running = this.activeGames();
    if (running >= this.opts.config.maxGames) {
      return Result.err(new KishiError('ERR_BUSY', `${running} games are being played already (web.maxGames); try again later`));
    }
    const lease = await this.opts.lease(m.engine, m.game);
    if (lease.isErr) return Result.err(lease.error);
    this.forgetOldGames();
    const id = randomBytes(6).toString('hex');
    const humanSide: Side = m.side === 'random' ? (randomBytes(1)[0]! & 1 ? 'first' : 'second') : m.side;
    const humanName = m.name ?? 'Guest';
    const dir = join(this.opts.recordsDir, 'web');
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const log = GameLogWriter.open(join(dir, `${stamp}-${id}.jsonl`), {
      type: 'header',
      version: 1,
      game: m.game,
      variant: 'standard',
      server: 'web',
      gameId: id,
      start: 'startpos',
      ourSide: humanSide === 'first' ? 'second' : 'first',
      players:
        humanSide === 'first'
          ? { first: { name: humanName }, second: { name: 'Kishi' } }
          : { first: { name: 'Kishi' }, second: { name: humanName } },
      clock: { initialMs: m.control.initialMs, incrementMs: m.control.incrementMs, ...(m.control.byoyomiMs > 0 ? { byoyomiMs: m.control.byoyomiMs } : {}) },
      rated: false,
      engine: lease.value.player.name,
      startedAt: new Date().toISOString(),
    });
    const seat: Seat = {
      socket,
      game: new WebGame({
        id,
        game: m.game,
        humanSide,
        humanName,
        control: m.control,
        limits: limitsFor(m.level),
        lease: lease.value,
        policy: this.opts.policy,
        ...(this.opts.moveOverheadMs !== undefined ? { moveOverheadMs: this.opts.moveOverheadMs } : {}),
        diagnostics: childLogger('web'),
        maxTakebacks: this.opts.config.maxTakebacks,
        log,
        emit: (event) => {
          const s = this.seats.get(id);
          if (s?.socket && s.socket.readyState === WebSocket.OPEN) s.socket.send(JSON.stringify(event));
        },
        onEnd: (game) => {
          clearTimeout(this.seats.get(id)?.abandonTimer);
          void lease.value.release();
          this.writeRecord(dir, `${stamp}-${id}`, game);
        },
      }),
    };
    this.seats.set(id, seat);
    return Result.ok(seat);
  }

  /** Finished games stay for their downloads; the oldest beyond `KEEP_FINISHED` are forgotten. */
  private forgetOldGames(): void {
    const finished = [...this.seats.entries()].filter(([, s]) => s.game.over());
    for (const [id] of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) this.seats.delete(id);
  }

  /** The finished game's PGN or CSA beside its log (as the online front-ends keep theirs). */
  private writeRecord(dir: string, base: string, game: WebGame): void {
    try {
      mkdirSync(dir, { recursive: true });
      const data = game.recordData();
      const [ext, text] = game.game === 'chess' ? ['pgn', pgnOf(data)] : ['csa', csaOf(data)];
      if (text.isOk) writeFileSync(join(dir, `${base}.${ext}`), text.value);
    } catch {
      // The log is the record learning reads; a failed copy in another format does not stop play.
    }
  }
}
