/**
 * The lichess HTTP client over axios: every call goes through the endpoint table with the bearer token and
 * the User-Agent `kishi/<version> user:<name>`. As the API asks, only one request is in flight at a time
 * (streams excepted); game-critical calls (moves, resign, abort, draw) go ahead of chat and challenge
 * traffic. Failures are values:
 * - HTTP 429 blocks that endpoint (see rate-limit.ts); a call made with `retryRateLimited` waits the block
 *   out and tries again, others fail at once (as lichess-bot, which never retries a 429).
 * - 5xx, timeouts and network errors are retried with backoff for up to `retryForMs` unless the call says
 *   `retryUnknown: false` (a move: its outcome is unknown, and the game stream is the judge, see game.ts).
 * - Other 4xx are final.
 * Bodies are form-encoded where the API wants them (chat, decline, challenge); the token-test body is the
 * token itself and is never written to a transcript.
 */
import type { Readable } from 'node:stream';
import axios from 'axios';
import type { AxiosInstance, AxiosResponse } from 'axios';
import type winston from 'winston';
import { Result } from '../../core/result.js';
import { KishiError } from '../../core/result.js';
import { childLogger } from '../../log/logger.js';
import type { Transcript } from '../../log/transcript.js';
import { nullTranscript } from '../../log/transcript.js';
import { Backoff, sleep } from './backoff.js';
import type { Endpoint, EndpointName, EndpointTable } from './endpoints.js';
import { ENDPOINTS, endpointPath, endpointSpec } from './endpoints.js';
import type { RateLimitInfo } from './rate-limit.js';
import { RateLimiter, parseRateLimitBody, parseRetryAfter } from './rate-limit.js';
import { kishiVersion } from './version.js';

/** Why a call failed. */
export type LichessErrorKind = 'http' | 'rate-limited' | 'network' | 'cancelled' | 'unsupported';

/** A failed call: `status` for HTTP answers, `rateLimit` for 429s (and the 400 of a capped opponent). */
export class LichessError extends KishiError {
  constructor(
    readonly kind: LichessErrorKind,
    message: string,
    readonly status?: number,
    readonly body?: unknown,
    readonly rateLimit?: RateLimitInfo,
  ) {
    super(`ERR_LICHESS_${kind.toUpperCase().replace('-', '_')}`, message);
    this.name = 'LichessError';
  }

  /** The outcome on the server is unknown (the request may or may not have been applied). */
  get unknownOutcome(): boolean {
    return this.kind === 'network' || (this.kind === 'http' && (this.status ?? 0) >= 500);
  }
}

export interface LichessClientOptions {
  readonly baseUrl: string;
  readonly token: string;
  /** Per-request timeout (headers and body of a JSON call; headers only for a stream), milliseconds. */
  readonly requestTimeoutMs?: number;
  /** How long 5xx/network failures are retried before giving up, milliseconds (lichess-bot: 60 s). */
  readonly retryForMs?: number;
  /** First retry delay, doubled per failure up to `retryMaxDelayMs`. */
  readonly retryMinDelayMs?: number;
  readonly retryMaxDelayMs?: number;
  /** Multiplies every 429 block (1 in production; tests use a fast clock). */
  readonly rateLimitScale?: number;
  readonly transcript?: Transcript;
  readonly log?: winston.Logger;
  /** The server's endpoint table (its profile's; default: lichess, every endpoint). */
  readonly endpoints?: EndpointTable;
}

export interface RequestOptions {
  /** Values for the `{}` placeholders of the path. */
  readonly args?: readonly string[];
  readonly query?: Readonly<Record<string, string | number | boolean>>;
  /** Sent as `application/x-www-form-urlencoded`. */
  readonly form?: Readonly<Record<string, string | number | boolean>>;
  /** Sent as `text/plain` (the token test). */
  readonly text?: string;
  /** Wait out a 429 block and try again (moves, resign, abort). */
  readonly retryRateLimited?: boolean;
  /** Retry 5xx and network errors (default true). */
  readonly retryUnknown?: boolean;
  /** Checked before every attempt: false cancels the call (the game moved on while we waited). */
  readonly stillWanted?: () => boolean;
  readonly signal?: AbortSignal;
  /** Told of each retry after a network or 5xx failure (the caller may show it; the client logs it at debug). */
  readonly onRetry?: (failure: string, delayMs: number, givesUpInMs: number) => void;
}

/** A successful call: the status and the parsed body (JSON, text, or an array for ndjson). */
export interface ApiResponse<T> {
  readonly status: number;
  readonly data: T;
}

interface QueueItem {
  readonly run: () => Promise<void>;
}

/** One request at a time, urgent calls first. */
class RequestQueue {
  private readonly urgent: QueueItem[] = [];
  private readonly normal: QueueItem[] = [];
  private busy = false;

  enqueue<T>(urgent: boolean, fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      (urgent ? this.urgent : this.normal).push({ run: () => fn().then(resolve, reject) });
      this.pump();
    });
  }

  private pump(): void {
    if (this.busy) return;
    const item = this.urgent.shift() ?? this.normal.shift();
    if (item === undefined) return;
    this.busy = true;
    void item.run().finally(() => {
      this.busy = false;
      this.pump();
    });
  }
}

const formBody = (form: Readonly<Record<string, string | number | boolean>>): string =>
  new URLSearchParams(Object.entries(form).map(([k, v]): [string, string] => [k, String(v)])).toString();

const describe = (path: string, query?: Readonly<Record<string, string | number | boolean>>): string =>
  query && Object.keys(query).length > 0 ? `${path}?${formBody(query)}` : path;

export class LichessClient {
  readonly baseUrl: string;
  private readonly http: AxiosInstance;
  private readonly queue = new RequestQueue();
  private readonly limiter: RateLimiter;
  private readonly transcript: Transcript;
  private readonly log: winston.Logger;
  private userAgent = `kishi/${kishiVersion()} user:?`;
  private readonly timeoutMs: number;
  private readonly retryForMs: number;
  private readonly retryMin: number;
  private readonly retryMax: number;
  private readonly endpoints: EndpointTable;
  /** Counters for tests and the soak benchmark. */
  readonly stats = { requests: 0, rateLimited: 0, retries: 0, streamsOpened: 0 };

  constructor(opts: LichessClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = opts.requestTimeoutMs ?? 10_000;
    this.retryForMs = opts.retryForMs ?? 60_000;
    this.retryMin = opts.retryMinDelayMs ?? 100;
    this.retryMax = opts.retryMaxDelayMs ?? 5_000;
    this.endpoints = opts.endpoints ?? ENDPOINTS;
    this.limiter = new RateLimiter(opts.rateLimitScale ?? 1, Date.now, this.endpoints);
    this.transcript = opts.transcript ?? nullTranscript;
    this.log = opts.log ?? childLogger('lichess/client');
    this.http = axios.create({
      baseURL: this.baseUrl,
      validateStatus: () => true,
      maxRedirects: 0,
      headers: { Authorization: `Bearer ${opts.token}` },
      transformResponse: (d: unknown) => d,
    });
  }

  /** The wire transcript (streams write their lines to it too). */
  wire(): Transcript {
    return this.transcript;
  }

  /** Names the account in the User-Agent, once `/api/account` has told us who we are. */
  setUser(username: string): void {
    this.userAgent = `kishi/${kishiVersion()} user:${username}`;
  }

  getUserAgent(): string {
    return this.userAgent;
  }

  /** Milliseconds an endpoint stays blocked by a 429. */
  blockedFor(endpoint: EndpointName): number {
    return this.limiter.remaining(endpoint);
  }

  /** Whether this server offers an endpoint (lishogi has no token test, takeback or claim-victory). */
  offers(endpoint: EndpointName): boolean {
    return endpointSpec(endpoint, this.endpoints) !== undefined;
  }

  private spec(endpoint: EndpointName): Endpoint {
    const spec = endpointSpec(endpoint, this.endpoints);
    if (spec === undefined) throw new Error(`endpoint ${endpoint}: not offered by ${this.baseUrl}`);
    return spec;
  }

  /** Calls a JSON/text/ndjson endpoint (not a stream) with the retry policy described above. */
  async request<T = unknown>(endpoint: EndpointName, opts: RequestOptions = {}): Promise<Result<ApiResponse<T>, LichessError>> {
    if (!this.offers(endpoint)) return Result.err(new LichessError('unsupported', `${endpoint}: not offered by ${this.baseUrl}`));
    const spec = this.spec(endpoint);
    const path = endpointPath(endpoint, opts.args ?? [], this.endpoints);
    const started = Date.now();
    const backoff = new Backoff({ minMs: this.retryMin, maxMs: this.retryMax });
    for (;;) {
      const blocked = this.limiter.remaining(endpoint);
      if (blocked > 0) {
        if (!opts.retryRateLimited) {
          return Result.err(new LichessError('rate-limited', `${spec.path} is rate-limited for ${blocked} ms more`, 429));
        }
        await sleep(blocked, opts.signal);
      }
      if (opts.signal?.aborted || (opts.stillWanted && !opts.stillWanted())) {
        return Result.err(new LichessError('cancelled', `${spec.method} ${path}: no longer wanted`));
      }
      const outcome = await this.queue.enqueue(spec.urgent === true, () => this.attempt<T>(endpoint, path, opts));
      if (outcome.isOk) {
        this.limiter.succeeded(endpoint);
        return outcome;
      }
      const err = outcome.error;
      if (err.kind === 'rate-limited') {
        if (opts.retryRateLimited) continue;
        return outcome;
      }
      if (err.unknownOutcome && opts.retryUnknown !== false && Date.now() - started < this.retryForMs) {
        const delay = backoff.next();
        this.stats.retries++;
        this.log.debug(`${spec.method} ${path}: ${err.message}; retrying in ${delay} ms`);
        opts.onRetry?.(err.message, delay, Math.max(0, this.retryForMs - (Date.now() - started)));
        await sleep(delay, opts.signal);
        continue;
      }
      return outcome;
    }
  }

  private async attempt<T>(endpoint: EndpointName, path: string, opts: RequestOptions): Promise<Result<ApiResponse<T>, LichessError>> {
    const spec = this.spec(endpoint);
    const what = `${spec.method} ${describe(path, opts.query)}`;
    let data: string | undefined;
    const headers: Record<string, string> = {
      'User-Agent': this.userAgent,
      Accept: spec.kind === 'ndjson' ? 'application/x-ndjson' : spec.kind === 'json' ? 'application/json' : 'text/plain',
    };
    if (opts.form !== undefined) {
      data = formBody(opts.form);
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
    } else if (opts.text !== undefined) {
      data = opts.text;
      headers['Content-Type'] = 'text/plain';
    }
    this.stats.requests++;
    this.transcript.sent(spec.sensitive ? `${what} <body withheld>` : data !== undefined ? `${what} ${data}` : what);
    let res: AxiosResponse<string>;
    try {
      res = await this.http.request<string>({
        method: spec.method,
        url: path,
        params: opts.query,
        data,
        headers,
        timeout: this.timeoutMs,
        responseType: 'text',
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
    } catch (e) {
      const msg = axios.isCancel(e) ? 'cancelled' : describeNetworkError(e);
      this.transcript.note(`${what}: ${msg}`);
      return Result.err(new LichessError(axios.isCancel(e) ? 'cancelled' : 'network', `${what}: ${msg}`));
    }
    const text = typeof res.data === 'string' ? res.data : String(res.data ?? '');
    this.transcript.received(`${res.status} ${what} ${spec.sensitive ? '<body withheld>' : text.slice(0, 500)}`);
    if (res.status === 429) {
      this.stats.rateLimited++;
      const info = parseRateLimitBody(text);
      const header = res.headers['retry-after'] as string | undefined;
      const wait = this.limiter.block(endpoint, parseRetryAfter(header), info);
      this.log.warn(`${spec.path} is rate-limited (${info.message}); blocked for ${wait} ms`);
      return Result.err(new LichessError('rate-limited', `${what}: HTTP 429 ${info.message}`, 429, text, info));
    }
    if (res.status < 200 || res.status >= 300) {
      const body = parseBody(text);
      const message = errorText(body) ?? text.slice(0, 200);
      const info = res.status === 400 && isRateLimitBody(body) ? parseRateLimitBody(body) : undefined;
      return Result.err(new LichessError('http', `${what}: HTTP ${res.status} ${message}`, res.status, body, info));
    }
    let parsed: unknown = text;
    if (spec.kind === 'json') parsed = parseBody(text);
    else if (spec.kind === 'ndjson') parsed = text.split('\n').filter((l) => l.trim() !== '').map((l) => parseBody(l));
    return Result.ok({ status: res.status, data: parsed as T });
  }

  /**
   * Opens a stream (`streamEvent`, `streamGame`): resolves once the response headers arrive with the body
   * as a Readable. Streams bypass the queue; a 429 blocks the endpoint like any call.
   */
  async openStream(endpoint: EndpointName, args: readonly string[], signal: AbortSignal): Promise<Result<Readable, LichessError>> {
    if (!this.offers(endpoint)) return Result.err(new LichessError('unsupported', `${endpoint}: not offered by ${this.baseUrl}`));
    const spec = this.spec(endpoint);
    const path = endpointPath(endpoint, args, this.endpoints);
    const blocked = this.limiter.remaining(endpoint);
    if (blocked > 0) return Result.err(new LichessError('rate-limited', `${spec.path} is rate-limited for ${blocked} ms more`, 429));
    const what = `GET ${path}`;
    this.transcript.sent(`${what} (stream)`);
    this.stats.streamsOpened++;
    const connect = new AbortController();
    const onAbort = (): void => connect.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    // Headers must arrive within the request timeout; after that, the stream's own watchdog takes over.
    const timer = setTimeout(() => connect.abort(), this.timeoutMs);
    try {
      const res = await this.http.request<Readable>({
        method: 'GET',
        url: path,
        headers: { 'User-Agent': this.userAgent, Accept: 'application/x-ndjson' },
        responseType: 'stream',
        signal: connect.signal,
        timeout: 0,
      });
      clearTimeout(timer);
      if (res.status === 200) {
        this.transcript.note(`${what}: stream open`);
        return Result.ok(res.data);
      }
      const text = await readAll(res.data);
      this.transcript.received(`${res.status} ${what} ${text.slice(0, 500)}`);
      if (res.status === 429) {
        this.stats.rateLimited++;
        const info = parseRateLimitBody(text);
        const wait = this.limiter.block(endpoint, parseRetryAfter(res.headers['retry-after'] as string | undefined), info);
        this.log.warn(`${spec.path} is rate-limited (${info.message}); blocked for ${wait} ms`);
        return Result.err(new LichessError('rate-limited', `${what}: HTTP 429 ${info.message}`, 429, text, info));
      }
      const body = parseBody(text);
      return Result.err(new LichessError('http', `${what}: HTTP ${res.status} ${errorText(body) ?? text.slice(0, 200)}`, res.status, body));
    } catch (e) {
      clearTimeout(timer);
      const cancelled = signal.aborted;
      const msg = cancelled ? 'cancelled' : connect.signal.aborted ? `no response within ${this.timeoutMs} ms` : describeNetworkError(e);
      this.transcript.note(`${what}: ${msg}`);
      return Result.err(new LichessError(cancelled ? 'cancelled' : 'network', `${what}: ${msg}`));
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function errorText(body: unknown): string | undefined {
  if (body !== null && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string') {
    return (body as { error: string }).error;
  }
  return undefined;
}

function isRateLimitBody(body: unknown): boolean {
  return body !== null && typeof body === 'object' && typeof (body as { ratelimit?: unknown }).ratelimit === 'object';
}

/** The code and message of a network error, never the request config (it holds the token). */
function describeNetworkError(e: unknown): string {
  if (e !== null && typeof e === 'object') {
    const err = e as { code?: unknown; message?: unknown };
    const code = typeof err.code === 'string' ? err.code : '';
    const message = typeof err.message === 'string' ? err.message : 'network error';
    return code && !message.includes(code) ? `${code} ${message}` : message;
  }
  return String(e);
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  } catch {
    // A body cut short is still worth quoting.
  }
  return Buffer.concat(chunks).toString('utf8');
}
