/**
 * The serving loop of a worker-thread player's entry (search-worker.ts, mcts-worker.ts): answers the
 * requests of worker-protocol.ts in arrival order (a `go` may be asynchronous: the next request waits
 * for it), each `go` with its `info` lines and then its `result` or `error`, the other requests with
 * `done`; finally says `ready` (id 0). The control words (stop, ponderhit) do not pass through here: the
 * search reads them from shared memory.
 */
import type { MessagePort } from 'node:worker_threads';
import type { KishiError, Result } from '../core/result.js';
import type { GoRequest, GoResult, SearchInfo } from './player.js';
import type { WorkerReply, WorkerRequest } from './worker-protocol.js';

/** What an entry does for each request. */
export interface WorkerEngine {
  /** Runs one search to completion. */
  go(request: GoRequest, onInfo: (info: SearchInfo) => void): Result<GoResult, KishiError> | Promise<Result<GoResult, KishiError>>;
  newGame(): void;
  setHashMb(mb: number): void;
  setMoveOverheadMs(ms: number): void;
  /** A search threw (not an Err): put the engine back in shape for the next one. */
  afterThrow?(): void;
}

/** Serves `engine` on `port` and says `ready`. */
export function serveWorker(port: MessagePort, engine: WorkerEngine): void {
  const reply = (r: WorkerReply): void => port.postMessage(r);
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (msg: WorkerRequest) => {
    queue = queue.then(async () => {
      switch (msg.type) {
        case 'go': {
          try {
            const r = await engine.go(msg.request, (info) => reply({ type: 'info', id: msg.id, info }));
            if (r.isOk) reply({ type: 'result', id: msg.id, result: r.value });
            else reply({ type: 'error', id: msg.id, code: r.error.code, message: r.error.message });
          } catch (e) {
            engine.afterThrow?.();
            reply({ type: 'error', id: msg.id, code: 'ERR_ENGINE', message: (e as Error).stack ?? String(e) });
          }
          return;
        }
        case 'newGame':
          engine.newGame();
          break;
        case 'setHash':
          engine.setHashMb(msg.mb);
          break;
        case 'setMoveOverhead':
          engine.setMoveOverheadMs(msg.ms);
          break;
      }
      reply({ type: 'done', id: msg.id });
    });
  });
  reply({ type: 'ready', id: 0 });
}
