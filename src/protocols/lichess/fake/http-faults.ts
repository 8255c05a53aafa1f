/**
 * HTTP faults a local test server injects on matching requests (shared by the lichess and lishogi
 * profiles of the local server): lila's JSON 429 (or an HTML one), 502/504 pages, a dropped socket,
 * a request served but answered 504, a delayed answer, or any canned response.
 */
import type { ServerResponse } from 'node:http';

/** A canned answer to a request, injected as a fault. */
export type FaultResponse =
  /** lila's JSON 429 for that path (see `rateLimitBody`). */
  | '429json'
  | '429html'
  | '502'
  | '504'
  | 'drop'
  /** Serve the request normally, but answer 504 (the client cannot know it was applied). */
  | 'applied504'
  /** Serve the request normally after this delay, milliseconds. */
  | { readonly delayMs: number }
  | { readonly status: number; readonly body: string; readonly headers?: Readonly<Record<string, string>> };

export interface HttpFault {
  readonly method?: string;
  readonly path: RegExp;
  times: number;
  readonly response: FaultResponse;
  /** `Retry-After` header value for 429s, seconds. */
  readonly retryAfterS?: number;
}

/**
 * The JSON body lila sends with a 429 on `path`. The lichess API spec documents a 429 body for one
 * endpoint only, the public move stream `GET /api/stream/game/{id}` ("Please only run 8 request(s) at
 * a time", lila's concurrency limit on streams); every other rate-limited API call gets lila's generic
 * `rateLimitedJson` (`{"error":"Too many requests. Try again later."}`, lila's ResponseBuilder). The
 * `ratelimit: {key, seconds}` object only comes with a named limit, here the bot-vs-bot daily cap of
 * challenge creation and acceptance (served by those routes, not by this fault).
 */
export const rateLimitBody = (path: string): { readonly error: string } =>
  /^\/api\/stream\/game\/[^/]+$/.test(path)
    ? { error: 'Please only run 8 request(s) at a time' }
    : { error: 'Too many requests. Try again later.' };

/** Answers a request with an injected fault (the `delayMs` and `applied504` kinds are the caller's: they serve the request). */
export function serveFault(res: ServerResponse, f: HttpFault, path: string): void {
  const r = f.response;
  const headers: Record<string, string> = f.retryAfterS !== undefined ? { 'Retry-After': String(f.retryAfterS) } : {};
  if (r === 'drop') {
    res.socket?.destroy();
    return;
  }
  if (r === '429json') {
    res.writeHead(429, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(rateLimitBody(path)));
    return;
  }
  if (r === '429html') {
    res.writeHead(429, { 'Content-Type': 'text/html', ...headers });
    res.end('<!DOCTYPE html><html><head><title>429 Too Many Requests</title></head><body><h1>Too many requests</h1></body></html>');
    return;
  }
  if (r === 'applied504') return;
  if (r === '502' || r === '504') {
    res.writeHead(Number(r), { 'Content-Type': 'text/html' });
    res.end(`<html><body><h1>${r} ${r === '502' ? 'Bad Gateway' : 'Gateway Time-out'}</h1></body></html>`);
    return;
  }
  if ('delayMs' in r) return;
  res.writeHead(r.status, { 'Content-Type': 'text/plain', ...headers, ...r.headers });
  res.end(r.body);
}
