/**
 * Worker-thread entry of self-play (loaded as compiled JavaScript from dist/, like the MCTS
 * player's worker): owns one net (one ORT session with one thread, or a scripted net) and plays
 * the games the main thread sends, all concurrently, so their leaves share each net call.
 * See selfplay-protocol.ts for the messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { netStats, openRawNet, selfplayNet } from './selfplay-evaluator.js';
import { playSelfplayGame, type SelfplayGameRecord } from './selfplay-game.js';
import type { SelfplayReply, SelfplayRequest, SelfplayWorkerInit } from './selfplay-protocol.js';

const init = workerData as SelfplayWorkerInit;
const port = parentPort!;
const reply = (r: SelfplayReply, transfer: ArrayBuffer[] = []): void => port.postMessage(r, transfer);

const raw = await openRawNet(init.model, init.game, init.maxBatch);
if (raw.isErr) {
  reply({ type: 'error', code: raw.error.code, message: raw.error.message });
} else {
  const net = selfplayNet(raw.value, init.cacheEntries);
  const abort = new AbortController();
  const started = performance.now();
  const busy = (): number => performance.now() - started;
  port.on('message', (msg: SelfplayRequest) => {
    switch (msg.type) {
      case 'play':
        playSelfplayGame(msg.index, init.settings, net.evaluator, abort.signal).then(
          (record) => {
            const transfer = record === undefined ? [] : buffersOf(record);
            reply({ type: 'game', index: msg.index, ...(record !== undefined ? { record } : {}), stats: netStats(net), busyMs: busy() }, transfer);
          },
          (e: unknown) => reply({ type: 'error', code: 'ERR_SELFPLAY', message: (e as Error).stack ?? String(e) }),
        );
        break;
      case 'abort':
        abort.abort();
        break;
      case 'close':
        void net.evaluator.close().finally(() => {
          reply({ type: 'closed', stats: netStats(net), busyMs: busy() });
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
