/**
 * The record a worker publishes every few seconds under `kishi:<queue>:worker:<id>` (expiring 30 s
 * after its last refresh; its id in the sorted set `kishi:<queue>:workers`, scored by that expiry):
 * the live workers for `kishi queue status` and the producers.
 */
export interface WorkerHeartbeat {
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  readonly version: string;
  /** stamp.ts `buildHash` of the worker. */
  readonly build?: string;
  readonly concurrency: number;
  readonly startedAt: string;
  readonly jobsDone: number;
  readonly jobsFailed: number;
  readonly active: readonly string[];
  readonly positions: number;
  readonly games: number;
  readonly refused: number;
  readonly lastRefusal?: string;
  /** Set while the worker steps aside after refusing jobs of another build (worker.ts). */
  readonly pausedUntil?: string;
  readonly at: string;
}

