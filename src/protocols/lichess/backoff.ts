/**
 * Exponential backoff for reconnects and retries: `minMs`, then doubling up to `maxMs`, reset after a
 * success. No jitter: one bot makes one connection per stream, and fixed delays keep tests reproducible.
 */
export interface BackoffOptions {
  readonly minMs: number;
  readonly maxMs: number;
}

export class Backoff {
  private attempt = 0;

  constructor(private readonly opts: BackoffOptions) {}

  /** The delay before the next attempt, milliseconds; each call doubles the next one. */
  next(): number {
    const delay = Math.min(this.opts.maxMs, this.opts.minMs * 2 ** Math.min(this.attempt, 30));
    this.attempt++;
    return delay;
  }

  /** Attempts since the last reset. */
  failures(): number {
    return this.attempt;
  }

  reset(): void {
    this.attempt = 0;
  }
}

/** A promise that resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) {
      resolve();
      return;
    }
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
