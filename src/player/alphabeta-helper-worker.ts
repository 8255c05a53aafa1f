/**
 * Worker-thread entry of a Lazy SMP helper (started by search-worker.ts when Threads > 1): the
 * same alpha-beta search on the same position as the main thread, over the main thread's
 * transposition table in shared memory, until the main search ends. Helpers only fill the table;
 * the main thread's search picks the move (Lazy SMP as in Stockfish and Dan Homan's original).
 *
 * Control words (`HelperInit.control`, Int32): [0] stop (set when the main search ends), [id]
 * this helper's busy flag, cleared (and notified) when it has stopped searching.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { HelperInit, HelperRequest } from './worker-protocol.js';
import { workerEngine } from './worker-engine.js';

const init = workerData as HelperInit;
// Helpers evaluate with the main thread's network, so that the shared table holds one evaluation's scores.
const { engine } = workerEngine(init, { hashMb: 1, moveOverheadMs: 0, tableMemory: init.table }, 'helper');
const control = new Int32Array(init.control);

parentPort!.on('message', (msg: HelperRequest) => {
  try {
    switch (msg.type) {
      case 'go':
        engine.helperGo(msg.request, control, init.id);
        break;
      case 'newGame':
        engine.clearHeuristics();
        break;
      case 'table':
        engine.attachTable(msg.table);
        break;
    }
  } finally {
    Atomics.store(control, init.id, 0);
    Atomics.notify(control, init.id);
  }
});
