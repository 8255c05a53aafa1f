/**
 * Worker-thread entry of the alpha-beta player: owns one `AlphaBetaEngine` and answers the
 * messages of `AlphaBetaPlayer` (alphabeta-player.ts). Searches block this thread only; the
 * control words (stop, ponderhit) arrive through shared memory, so they are seen mid-search.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { setThetaGrain } from '../eval/linear/grain.js';
import { parseNetwork } from '../eval/nnue/format.js';
import { AlphaBetaEngine } from './alphabeta-engine.js';
import type { WorkerInit, WorkerReply, WorkerRequest } from './worker-protocol.js';

const init = workerData as WorkerInit;
const theta = new Float64Array(init.theta);
setThetaGrain(theta, init.grain ?? 1);
const engine = new AlphaBetaEngine({
  game: init.game,
  theta,
  ...(init.nnue !== undefined ? { nnue: parseNetwork(new Uint8Array(init.nnue), 'worker').unwrap() } : {}),
  hashMb: init.hashMb,
  moveOverheadMs: init.moveOverheadMs,
});
const signal = new Int32Array(init.signal);
const port = parentPort!;
const reply = (r: WorkerReply): void => port.postMessage(r);

port.on('message', (msg: WorkerRequest) => {
  switch (msg.type) {
    case 'go': {
      try {
        const r = engine.go(msg.request, signal, (info) => reply({ type: 'info', id: msg.id, info }));
        if (r.isOk) reply({ type: 'result', id: msg.id, result: r.value });
        else reply({ type: 'error', id: msg.id, code: r.error.code, message: r.error.message });
      } catch (e) {
        reply({ type: 'error', id: msg.id, code: 'ERR_ENGINE', message: (e as Error).stack ?? String(e) });
      }
      break;
    }
    case 'newGame':
      engine.newGame();
      reply({ type: 'done', id: msg.id });
      break;
    case 'setHash':
      engine.setHashMb(msg.mb);
      reply({ type: 'done', id: msg.id });
      break;
    case 'setMoveOverhead':
      engine.setMoveOverheadMs(msg.ms);
      reply({ type: 'done', id: msg.id });
      break;
  }
});
reply({ type: 'ready', id: 0 });
