/**
 * Worker-thread entry of the alpha-beta player: owns one `AlphaBetaEngine` and answers the
 * messages of `AlphaBetaPlayer` (alphabeta-player.ts) through worker-entry.ts. Searches block this thread only; the
 * control words (stop, ponderhit) arrive through shared memory, so they are seen mid-search.
 *
 * With `threads` > 1 (Lazy SMP) it also starts `threads - 1` helper workers
 * (alphabeta-helper-worker.ts) over its transposition table in shared memory: each `go` starts
 * them on the same position, and they stop when this thread's search ends. A request waits until
 * every helper is idle again, so helpers never search a stale position into the next move.
 */
import { Worker, parentPort, workerData } from 'node:worker_threads';
import { thetaGrain } from '../eval/linear/grain.js';
import type { HelperInit, HelperRequest, WorkerInit, WorkerReply } from './worker-protocol.js';
import { serveWorker } from './worker-entry.js';
import { workerEngine } from './worker-engine.js';

/** How long `newGame` waits for the helpers to load their networks and answer. */
const HELPER_LOAD_TIMEOUT_MS = 15_000;

const init = workerData as WorkerInit;
const { engine, theta } = workerEngine(
  init,
  { hashMb: init.hashMb, moveOverheadMs: init.moveOverheadMs, sharedTable: (init.threads ?? 1) > 1, ...(init.dyna2 !== undefined ? { dyna2: init.dyna2 } : {}) },
  'worker',
);
const signal = new Int32Array(init.signal);
const port = parentPort!;

// Lazy SMP helpers: control word 0 stops them, word i is helper i's busy flag.
const helperCount = Math.max(0, Math.floor(init.threads ?? 1) - 1);
const control = new Int32Array(new SharedArrayBuffer(4 * (helperCount + 1)));
const helpers: Worker[] = [];
/** Helpers that failed (index = helper id). */
const dead: boolean[] = [];
for (let i = 1; i <= helperCount; i++) {
  const helperInit: HelperInit = {
    game: init.game,
    theta: theta.slice().buffer,
    grain: thetaGrain(theta),
    ...(init.nnue !== undefined ? { nnue: init.nnue.slice(0) } : {}),
    table: engine.tableMemory as SharedArrayBuffer,
    control: control.buffer as SharedArrayBuffer,
    id: i,
    ...(init.tuning !== undefined ? { tuning: init.tuning } : {}),
    ...(init.nnueSimd !== undefined ? { nnueSimd: init.nnueSimd } : {}),
  };
  const w = new Worker(new URL('./alphabeta-helper-worker.js', import.meta.url), { workerData: helperInit });
  w.on('error', (e) => {
    // A failed helper is not waited for again (its busy flag would never clear).
    dead[i] = true;
    Atomics.store(control, i, 0);
    port.postMessage({ type: 'error', id: -1, code: 'ERR_ENGINE', message: `search helper failed: ${e.message}` } satisfies WorkerReply);
  });
  helpers.push(w);
}
/** Sends a message to every helper still alive, marking each busy until it has handled it. */
const toHelpers = (msg: HelperRequest): void => {
  for (let i = 1; i <= helperCount; i++) {
    if (dead[i] === true) continue;
    Atomics.store(control, i, 1);
    helpers[i - 1]!.postMessage(msg);
  }
};
/**
 * Blocks until every helper has finished its last message. A stopped helper answers within
 * milliseconds (it polls every few hundred nodes); one silent for `timeoutMs` (5 s by default)
 * has died, and is not waited for.
 */
const helpersIdle = (timeoutMs = 5000): void => {
  const deadline = Date.now() + timeoutMs;
  for (let i = 1; i <= helperCount; i++) {
    while (Atomics.load(control, i) !== 0 && Date.now() < deadline) Atomics.wait(control, i, 1, 50);
  }
};

serveWorker(port, {
  go: (request, onInfo) => {
    helpersIdle();
    Atomics.store(control, 0, 0);
    if (helperCount > 0) toHelpers({ type: 'go', request });
    try {
      return engine.go(request, signal, onInfo);
    } finally {
      Atomics.store(control, 0, 1);
    }
  },
  // UCI/USI `isready`: answered once the helpers have handled it, which they do once their
  // networks are loaded, so that they search from the first move and its clock does not wait for them.
  newGame: () => {
    helpersIdle();
    engine.newGame();
    toHelpers({ type: 'newGame' });
    helpersIdle(HELPER_LOAD_TIMEOUT_MS);
  },
  setHashMb: (mb) => {
    helpersIdle();
    engine.setHashMb(mb);
    toHelpers({ type: 'table', table: engine.tableMemory as SharedArrayBuffer });
  },
  setMoveOverheadMs: (ms) => engine.setMoveOverheadMs(ms),
});
