/**
 * Online block lists (lichess-bot `challenge.online_block_list`, `matchmaking.online_block_list`): plain-text
 * files at URLs, one user name per line, fetched at start and again every `refreshS`. A list that cannot
 * be fetched keeps its last good contents. No token is sent: these are third-party addresses.
 */
import axios from 'axios';
import type winston from 'winston';
import { kishiVersion } from './version.js';

export class OnlineBlockList {
  private names = new Set<string>();
  private readonly byUrl = new Map<string, Set<string>>();
  private timer: NodeJS.Timeout | undefined;
  /** Counters for tests. */
  readonly stats = { fetches: 0, failures: 0 };

  constructor(
    private readonly urls: readonly string[],
    private readonly opts: { readonly refreshMs: number; readonly timeoutMs: number; readonly log?: winston.Logger },
  ) {}

  /** Fetches every list now, then again every `refreshMs`. */
  async start(): Promise<void> {
    if (this.urls.length === 0) return;
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.opts.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  has(name: string): boolean {
    return this.names.has(name.toLowerCase());
  }

  size(): number {
    return this.names.size;
  }

  async refresh(): Promise<void> {
    await Promise.all(
      this.urls.map(async (url) => {
        this.stats.fetches++;
        try {
          const res = await axios.get<string>(url, {
            timeout: this.opts.timeoutMs,
            responseType: 'text',
            transformResponse: (d: unknown) => d,
            headers: { 'User-Agent': `kishi/${kishiVersion()}` },
            validateStatus: () => true,
          });
          if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
          const list = new Set(
            String(res.data)
              .split(/\r?\n/)
              .map((l) => l.trim().toLowerCase())
              .filter((l) => l !== '' && !l.startsWith('#')),
          );
          this.byUrl.set(url, list);
        } catch (e) {
          this.stats.failures++;
          this.opts.log?.warn(`online block list ${url}: ${(e as Error).message}; keeping the last good copy`);
        }
      }),
    );
    const all = new Set<string>();
    for (const list of this.byUrl.values()) for (const n of list) all.add(n);
    this.names = all;
  }
}
