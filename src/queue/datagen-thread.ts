/**
 * Worker-thread entry of a queue worker's datagen jobs (loaded as compiled JavaScript from dist/,
 * like self-play's threads): plays one chunk per message and sends back its raw records. A chunk
 * takes minutes of pure computation; in the worker's main thread it would block the event loop, so
 * BullMQ could not renew the job's lock and would hand the job to another worker as stalled
 * (BullMQ docs, "Stalled Jobs"). The setup (book, weights, search) is kept per choices.
 */
import { parentPort } from 'node:worker_threads';
import { playChunkGames } from '../learning/datagen/chunk-play.js';
import { prepareDatagen, type DatagenSetup } from '../learning/datagen/datagen-setup.js';
import type { DatagenThreadReply, DatagenThreadRequest } from './datagen-thread-protocol.js';

const port = parentPort!;
const setups = new Map<string, DatagenSetup>();

port.on('message', (msg: DatagenThreadRequest) => {
  const t0 = performance.now();
  const job = msg.job;
  const key = JSON.stringify(job.choices);
  let setup = setups.get(key);
  if (setup === undefined) {
    const made = prepareDatagen(job.choices);
    if (made.isErr) {
      port.postMessage({ type: 'error', message: made.error.message } satisfies DatagenThreadReply);
      return;
    }
    setup = made.value;
    setups.clear();
    setups.set(key, setup);
  }
  if (JSON.stringify(setup.settings) !== JSON.stringify(job.settings)) {
    port.postMessage({
      type: 'refuse',
      message: `the game settings differ (job ${JSON.stringify(job.settings)}, this worker ${JSON.stringify(setup.settings)})`,
    } satisfies DatagenThreadReply);
    return;
  }
  try {
    const raw = playChunkGames(job.chunk, { ...setup, seed: job.seed, shardIndex: job.shardIndex, shardCount: job.shardCount, gamesPerChunk: job.gamesPerChunk })!;
    const reply: DatagenThreadReply = { type: 'chunk', chunk: raw.chunkIndex, games: raw.games, nodes: raw.nodes, count: raw.count, records: raw.records, ms: performance.now() - t0 };
    port.postMessage(reply, [raw.records.buffer as ArrayBuffer]);
  } catch (e) {
    port.postMessage({ type: 'error', message: (e as Error).stack ?? String(e) } satisfies DatagenThreadReply);
  }
});
