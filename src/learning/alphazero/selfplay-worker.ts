/**
 * Worker-thread entry of self-play (loaded as compiled JavaScript from dist/, like the MCTS
 * player's worker): owns one net (one ORT session with one thread, a scripted net, or the CPU networks) and plays
 * the games the main thread sends, all concurrently, so their leaves share each net call.
 * See selfplay-protocol.ts for the messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openSelfplayNet } from './selfplay-evaluator.js';
import { playSelfplayGame, type SelfplayGameRecord } from './selfplay-game.js';
import type { SelfplayReply, SelfplayRequest, SelfplayWorkerInit } from './selfplay-protocol.js';

const init = workerData as SelfplayWorkerInit;
const port = parentPort!;
const reply = (r: SelfplayReply, transfer: ArrayBuffer[] = []): void => port.postMessage(r, transfer);

const opened = await openSelfplayNet(init.model, init.game, init.maxBatch, init.cacheEntries, init.policy);
if (opened.isErr) {
  reply({ type: 'error', code: opened.error.code, message: opened.error.message });
} else {
  const net = opened.value;
  const abort = new AbortController();
  const started = performance.now();
  const busy = (): number => performance.now() - started;
  port.on('message', (msg: SelfplayRequest) => {
    switch (msg.type) {
      case 'play':
        playSelfplayGame(msg.index, init.settings, net.evaluator, abort.signal).then(
          (record) => {
            const transfer = record === undefined ? [] : buffersOf(record);
            reply({ type: 'game', index: msg.index, ...(record !== undefined ? { record } : {}), stats: net.stats(), busyMs: busy() }, transfer);
          },
          (e: unknown) => reply({ type: 'error', code: 'ERR_SELFPLAY', message: (e as Error).stack ?? String(e) }),
        );
        break;
      case 'abort':
        abort.abort();
        break;
      case 'close':
        void net.close().finally(() => {
          reply({ type: 'closed', stats: net.stats(), busyMs: busy() });
          port.close();
        });
        break;
    }
  });
  reply({ type: 'ready' });
}

function buffersOf(r: SelfplayGameRecord): ArrayBuffer[] {
  return [r.planes, r.polStart, r.polIndex, r.polProb, r.value, r.side].map((a) => a.buffer as ArrayBuffer);
}
