/**
 * A local stand-in for the online move services the lichess bot may ask (tests only): chessdb.cn's
 * `cdb.php`, the lichess opening explorer (`/masters`, `/lichess`, `/player`) and the lichess tablebase
 * (`/standard`, `/atomic`, `/antichess`), and plain-text files such as online block lists. Tests put canned answers in the maps, in the services' real JSON
 * shapes (see the source files in src/protocols/lichess/move-sources/ for where each shape is documented);
 * unknown positions get what the real services answer (chessdb `{"status":"unknown"}`, an empty explorer
 * answer, a tablebase 404). Every request is recorded with its query and whether it carried a token, and
 * faults (5xx answers) can be queued.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OnlineRequest {
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** The Authorization header, if any. */
  readonly authorization?: string;
}

export class OnlineMovesServer {
  private server: Server | undefined;
  private port = 0;
  /** `<action> <fen>` → chessdb answer (action querypv, querybest, query). */
  readonly chessdb = new Map<string, unknown>();
  /** `<source> <fen>` → explorer answer (source masters, lichess, player). */
  readonly explorer = new Map<string, unknown>();
  /** `<variant> <fen>` → tablebase answer. */
  readonly tablebase = new Map<string, unknown>();
  /** path → plain text served as is (online block lists). */
  readonly files = new Map<string, string>();
  readonly requests: OnlineRequest[] = [];
  private faults: number[] = [];

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The next `times` requests are answered with `status` (a 5xx to test retries). */
  fail(times: number, status = 502): void {
    for (let i = 0; i < times; i++) this.faults.push(status);
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const query = Object.fromEntries(url.searchParams.entries());
    this.requests.push({ path: url.pathname, query, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const fault = this.faults.shift();
    if (fault !== undefined) {
      res.writeHead(fault, { 'Content-Type': 'text/html' });
      res.end(`<html><body><h1>${fault}</h1></body></html>`);
      return;
    }
    const fen = query.fen ?? query.board ?? '';
    const path = url.pathname;
    const file = this.files.get(path);
    if (file !== undefined) {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(file);
      return;
    }
    if (path === '/cdb.php') return json(200, this.chessdb.get(`${query.action} ${fen}`) ?? { status: 'unknown' });
    if (path === '/masters' || path === '/lichess' || path === '/player') {
      const source = path.slice(1);
      const body = this.explorer.get(`${source} ${fen}`) ?? { white: 0, draws: 0, black: 0, moves: [], topGames: [] };
      if (source === 'player') {
        // The player endpoint streams growing snapshots as ndjson; the last line is complete.
        res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
        res.end(`${JSON.stringify({ white: 0, draws: 0, black: 0, moves: [], recentGames: [] })}\n${JSON.stringify(body)}\n`);
        return;
      }
      return json(200, body);
    }
    const tb = path.match(/^\/(standard|atomic|antichess)$/);
    if (tb) {
      const answer = this.tablebase.get(`${tb[1]} ${fen}`);
      return answer === undefined ? json(404, { error: 'not found' }) : json(200, answer);
    }
    json(404, { error: 'no route' });
  }
}
