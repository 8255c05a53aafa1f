/**
 * `kishi datagen --queue URL`: the shard's chunks played by `kishi worker`s (src/queue/), collected
 * into `--out` exactly as a local run writes them. Ctrl-C stops collecting; the jobs stay queued
 * and the same command later collects their results.
 */
import { datagenFiles } from '../learning/datagen/datagen-setup.js';
import { parseQueueUrl } from '../queue/connection.js';
import { runQueuedDatagen, type QueuedDatagenShard } from '../queue/datagen-producer.js';
import { ProducerQueue } from '../queue/producer-queue.js';
import { formatDatagenResult, formatQueuedDatagenProgress } from '../queue/progress.js';
import { makeStamp } from '../queue/stamp.js';
import { redact } from '../log/redact.js';

/** Runs the producer; the exit code (0 done, 1 failure, 2 bad usage, 130 interrupted). */
export async function runQueuedDatagenCli(url: string, queueName: string, o: QueuedDatagenShard): Promise<number> {
  const conn = parseQueueUrl(url);
  if (conn.isErr) {
    console.error(conn.error.message);
    return 2;
  }
  const stamp = makeStamp(datagenFiles(o.choices));
  if ('missing' in stamp) {
    console.error(`cannot read ${stamp.missing}`);
    return 1;
  }
  const abort = new AbortController();
  // Every Redis call ends on the signal, Redis up or down (producer-queue.ts).
  const queue = new ProducerQueue(conn.value, queueName, { onConnectionError: (m) => console.error(`warning: ${m}`), signal: abort.signal });
  let signals = 0;
  const onSignal = (): void => {
    signals++;
    if (signals > 1) process.exit(130);
    console.error('stopping: the queued jobs stay in Redis; run the same command again to collect them');
    abort.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  console.error(`datagen ${o.settings.game} over queue ${queueName} at ${conn.value.display}: ${JSON.stringify(o.settings)}, shard ${o.shardIndex}/${o.shardCount}, seed ${o.seed}, out ${o.out}`);
  try {
    const r = await runQueuedDatagen({
      ...o,
      stamp: stamp.stamp,
      queue,
      signal: abort.signal,
      onProgress: (p) => console.error(formatQueuedDatagenProgress(p)),
      onResult: (r) => console.error(formatDatagenResult(r)),
      onWarning: (m) => console.error(`warning: ${m}`),
    });
    if (r.isErr) {
      console.error(r.error.message);
      return r.error.code === 'ERR_ABORTED' ? 130 : 1;
    }
    console.error(`done: ${formatQueuedDatagenProgress(r.value)}`);
    return 0;
  } catch (e) {
    // A queue error (timeout, refused credentials, stopped while Redis was down): its message
    // only, redacted (an ioredis error object would print the AUTH command's arguments).
    const err = e as Error & { code?: string };
    console.error(redact(err.message));
    return err.code === 'ERR_ABORTED' ? 130 : 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await queue.close();
  }
}
