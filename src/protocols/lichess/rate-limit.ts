/**
 * HTTP 429 handling per endpoint (lichess-bot `rate_limit_timers`): after a 429 the endpoint is blocked,
 * for `Retry-After` when the server sends it, else for the `ratelimit.seconds` of a JSON body
 * (`{"error":…,"ratelimit":{"key":"bot.vsBot.day","seconds":86398}}`), else for the endpoint's default.
 * A 429 body may also be an HTML page (api#268); it is then only text for the log.
 * Challenge creation without `Retry-After` doubles its block on each consecutive 429 (60, 120, 240 s,
 * at most 600 s), as lichess-bot's matchmaking does.
 */
import type { EndpointName, EndpointTable } from './endpoints.js';
import { ENDPOINTS } from './endpoints.js';

/** What a 429 (or a 400 from the bot-vs-bot cap) said about the limit. */
export interface RateLimitInfo {
  /** How long to wait, milliseconds, when the server said so. */
  readonly waitMs?: number;
  /** The `ratelimit.key` of a JSON body, e.g. `bot.vsBot.day`. */
  readonly key?: string;
  /** The error text (JSON `error`), or the first characters of an HTML page. */
  readonly message: string;
}

/** Parses `Retry-After` (seconds or an HTTP date) into milliseconds from `now`. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Reads a 429 body, JSON or HTML. */
export function parseRateLimitBody(body: unknown): RateLimitInfo {
  let data: unknown = body;
  if (typeof body === 'string') {
    try {
      data = JSON.parse(body) as unknown;
    } catch {
      const text = body.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
      return { message: text.slice(0, 120) || 'HTTP 429' };
    }
  }
  if (data !== null && typeof data === 'object') {
    const obj = data as { error?: unknown; ratelimit?: { key?: unknown; seconds?: unknown } };
    const seconds = typeof obj.ratelimit?.seconds === 'number' ? obj.ratelimit.seconds : undefined;
    return {
      message: typeof obj.error === 'string' ? obj.error : 'HTTP 429',
      ...(typeof obj.ratelimit?.key === 'string' ? { key: obj.ratelimit.key } : {}),
      ...(seconds !== undefined ? { waitMs: seconds * 1000 } : {}),
    };
  }
  return { message: 'HTTP 429' };
}

/** Per-endpoint blocks. `scale` shrinks every wait (tests run the same logic on a fast clock). */
export class RateLimiter {
  private readonly until = new Map<EndpointName, number>();
  private readonly consecutive = new Map<EndpointName, number>();

  constructor(
    private readonly scale = 1,
    private readonly now: () => number = Date.now,
    /** The server's endpoint table (its default blocks). */
    private readonly table: EndpointTable = ENDPOINTS,
  ) {}

  /** Records a 429 and returns how long the endpoint is now blocked, milliseconds. */
  block(endpoint: EndpointName, retryAfterMs: number | undefined, info: RateLimitInfo): number {
    const n = (this.consecutive.get(endpoint) ?? 0) + 1;
    this.consecutive.set(endpoint, n);
    let wait = retryAfterMs ?? info.waitMs;
    if (wait === undefined) {
      const base = this.table[endpoint]?.blockMs ?? 60_000;
      wait = endpoint === 'challenge' ? Math.min(600_000, base * 2 ** (n - 1)) : base;
    }
    const scaled = Math.round(wait * this.scale);
    this.until.set(endpoint, Math.max(this.until.get(endpoint) ?? 0, this.now() + scaled));
    return scaled;
  }

  /** A success ends the doubling. */
  succeeded(endpoint: EndpointName): void {
    this.consecutive.delete(endpoint);
  }

  /** Milliseconds until the endpoint may be called again (0: now). */
  remaining(endpoint: EndpointName): number {
    const until = this.until.get(endpoint);
    if (until === undefined) return 0;
    const left = until - this.now();
    if (left <= 0) {
      this.until.delete(endpoint);
      return 0;
    }
    return left;
  }
}
