/**
 * `kishi worker`: runs the queue's jobs (datagen chunks, match games) on this machine until stopped.
 *
 *   kishi worker --queue redis://queue-host:6379 [--concurrency 2] [--config config/kishi.yaml]
 *   KISHI_QUEUE_PASSWORD=... kishi worker --queue rediss://queue-host:6380
 *
 * The URL and the other settings come from the command line or the config's `queue` section. The
 * first SIGINT/SIGTERM finishes the jobs in progress, a second one leaves at once (their jobs are
 * handed to other workers once their locks expire). Exit codes: 0 stopped, 1 failure, 2 bad usage.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { defaultConfigPath } from '../config/default-path.js';
import { loadConfig, validateConfig } from '../config/load.js';
import type { QueueConfig } from '../config/sections/queue.js';
import { childLogger, configureLogging } from '../log/logger.js';
import { parseQueueUrl, type QueueConnection } from '../queue/connection.js';
import { parseEngineAllowList } from '../queue/match-engines.js';
import { startWorker } from '../queue/worker.js';

interface WorkerCliOptions {
  queue?: string;
  queueName?: string;
  concurrency?: string;
  config?: string;
  logLevel?: string;
}

/** The `queue` section from the config file (if any) with the command line on top. */
export function queueSettings(o: { queue?: string; queueName?: string; concurrency?: string; config?: string }): { config?: QueueConfig; error?: string } {
  let base: Record<string, unknown> = {};
  const file = o.config ?? defaultConfigPath();
  if (o.config !== undefined || existsSync(file)) {
    const loaded = loadConfig(file);
    if (loaded.isErr) return { error: loaded.error.message };
    base = loaded.value as unknown as Record<string, unknown>;
  }
  const queue: Record<string, unknown> = { ...((base['queue'] as Record<string, unknown> | undefined) ?? {}) };
  if (o.queueName !== undefined) queue['name'] = o.queueName;
  if (o.concurrency !== undefined) queue['concurrency'] = Number(o.concurrency);
  // The URL from the command line may carry a password: it is checked by parseQueueUrl, not stored in the config.
  const merged = validateConfig({ ...base, queue }, 'command line');
  if (merged.isErr) return { error: merged.error.message };
  const url = o.queue ?? merged.value.queue.url;
  if (url === '') return { error: 'no queue: give --queue redis://host:port or set queue.url in the config' };
  return { config: { ...merged.value.queue, url } };
}

/** `queueSettings` and its parsed URL; prints the error and exits with code 2 (bad usage) when either fails. */
export function queueSettingsOrExit(o: Parameters<typeof queueSettings>[0]): { config: QueueConfig; connection: QueueConnection } {
  const s = queueSettings(o);
  if (s.config === undefined) {
    console.error(s.error);
    process.exit(2);
  }
  const conn = parseQueueUrl(s.config.url);
  if (conn.isErr) {
    console.error(conn.error.message);
    process.exit(2);
  }
  return { config: s.config, connection: conn.value };
}

export function register(program: Command): void {
  program
    .command('worker')
    .description('run datagen, self-play and match jobs from a Redis job queue (BullMQ) on this machine')
    .option('--queue <url>', 'redis://[:password@]host:port, rediss:// for TLS (default: config queue.url; password also from KISHI_QUEUE_PASSWORD, CA file from KISHI_QUEUE_TLS_CA)')
    .option('--queue-name <name>', 'queue name (default: config queue.name, kishi)')
    .option('--concurrency <n>', 'jobs at once (default: config queue.concurrency; 0: one per CPU core)')
    .option('-c, --config <file>', 'config file (default: config/kishi.yaml when it exists)')
    .option('--log-level <level>', 'error, warn, info or debug', 'info')
    .action(async (o: WorkerCliOptions) => {
      const { config, connection } = queueSettingsOrExit(o);
      configureLogging({ level: o.logLevel ?? 'info' });
      const log = childLogger('queue/worker');
      const concurrency = config.concurrency > 0 ? config.concurrency : availableParallelism();
      const engines = parseEngineAllowList(config.engines);
      if (engines.isErr) {
        console.error(engines.error.message);
        process.exit(2);
      }
      const w = startWorker({ connection, queueName: config.name, concurrency, lockDurationMs: config.lockDurationSec * 1000, stalledIntervalMs: Math.min(15_000, config.lockDurationSec * 1000), log, engines: engines.value });
      let signals = 0;
      const onSignal = (): void => {
        signals++;
        if (signals === 1) {
          log.info('stopping: finishing the jobs in progress (signal again to leave at once)');
          void w.stop();
        } else {
          log.warn('leaving now: the jobs in progress go to other workers when their locks expire');
          process.exit(130);
        }
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      await w.done;
      process.exit(w.failure() === undefined ? 0 : 1);
    });
}
