/**
 * `kishi queue status`: what is queued, what runs where, and whether Redis keeps the queue across
 * a restart (src/queue/status.ts). Exit codes: 0 shown, 1 Redis unreachable, 2 bad usage.
 */
import type { Command } from 'commander';
import { ProducerQueue } from '../queue/producer-queue.js';
import { formatQueueStatus, readQueueStatus } from '../queue/status.js';
import { redact } from '../log/redact.js';
import { queueSettingsOrExit } from './worker.js';

export function register(program: Command): void {
  const queue = program.command('queue').description('the Redis job queue of `kishi worker`');
  queue
    .command('status')
    .description('job counts, live workers and the Redis persistence setting')
    .option('--queue <url>', 'redis://host:port or rediss:// (default: config queue.url; password from KISHI_QUEUE_PASSWORD)')
    .option('--queue-name <name>', 'queue name (default: config queue.name, kishi)')
    .option('-c, --config <file>', 'config file (default: config/kishi.yaml when it exists)')
    .option('--json', 'print JSON')
    .action(async (o: { queue?: string; queueName?: string; config?: string; json?: boolean }) => {
      const { config, connection } = queueSettingsOrExit(o);
      // Fail fast when Redis is unreachable or does not answer, instead of the workers' endless reconnection.
      const q = new ProducerQueue(connection, config.name, { failWhenDown: true, timeoutMs: 5000 });
      try {
        const status = await readQueueStatus(q);
        console.log(o.json === true ? JSON.stringify(status, null, 1) : formatQueueStatus(status));
      } catch (e) {
        console.error(redact(`cannot read the queue at ${connection.display}: ${(e as Error).message}`));
        process.exitCode = 1;
      } finally {
        await q.close().catch(() => {});
      }
    });
}
