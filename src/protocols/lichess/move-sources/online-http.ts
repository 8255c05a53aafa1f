/**
 * GET requests to the online move services that are not the lichess API proper (chessdb.cn,
 * explorer.lichess.ovh, tablebase.lichess.ovh), over axios: a timeout per request, `maxRetries` retries
 * after network errors and 5xx, nothing retried after another 4xx. The lichess token is sent only where
 * a source says so (the opening explorer wants an authenticated request) and is never logged: logs name
 * the address and the FEN only.
 */
import axios from 'axios';
import type { AxiosInstance } from 'axios';
import type winston from 'winston';
import { sleep } from '../backoff.js';
import { kishiVersion } from '../version.js';

export interface OnlineHttpOptions {
  readonly timeoutMs: number;
  readonly maxRetries: number;
  /** Bearer token for requests made with `auth` (the lichess token). */
  readonly token?: string;
  /** Wait between retries, milliseconds (100). */
  readonly retryDelayMs?: number;
  readonly log?: winston.Logger;
}

export type OnlineAnswer = { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly status?: number; readonly why: string };

export class OnlineHttp {
  private readonly http: AxiosInstance;
  /** Counters for tests. */
  readonly stats = { requests: 0, retries: 0 };

  constructor(private readonly opts: OnlineHttpOptions) {
    this.http = axios.create({ validateStatus: () => true, maxRedirects: 3, transformResponse: (d: unknown) => d });
  }

  /**
   * GET `url` with `params`; the body is parsed as JSON, or for `ndjson` the last non-empty line is
   * (the explorer's player endpoint streams growing snapshots; the last one is complete).
   */
  async getJson(url: string, params: Readonly<Record<string, string | number>>, opts: { auth?: boolean; ndjson?: boolean } = {}): Promise<OnlineAnswer> {
    const headers: Record<string, string> = { 'User-Agent': `kishi/${kishiVersion()}`, Accept: opts.ndjson ? 'application/x-ndjson' : 'application/json' };
    if (opts.auth && this.opts.token) headers.Authorization = `Bearer ${this.opts.token}`;
    let last: OnlineAnswer = { ok: false, why: 'not asked' };
    for (let attempt = 0; attempt <= this.opts.maxRetries; attempt++) {
      if (attempt > 0) {
        this.stats.retries++;
        await sleep(this.opts.retryDelayMs ?? 100);
      }
      this.stats.requests++;
      try {
        const res = await this.http.get<string>(url, { params, headers, timeout: this.opts.timeoutMs, responseType: 'text' });
        const text = typeof res.data === 'string' ? res.data : String(res.data ?? '');
        if (res.status >= 200 && res.status < 300) {
          const body = opts.ndjson ? (text.split('\n').filter((l) => l.trim() !== '').pop() ?? '') : text;
          try {
            return { ok: true, data: JSON.parse(body) as unknown };
          } catch {
            return { ok: false, status: res.status, why: 'the answer is not JSON' };
          }
        }
        last = { ok: false, status: res.status, why: `HTTP ${res.status}` };
        if (res.status < 500) return last;
      } catch (e) {
        const err = e as { code?: unknown; message?: unknown };
        last = { ok: false, why: typeof err.code === 'string' ? err.code : typeof err.message === 'string' ? err.message : 'network error' };
      }
      this.opts.log?.debug(`GET ${url} (fen ${String(params.fen ?? params.board ?? '')}): ${last.why}`);
    }
    return last;
  }
}
