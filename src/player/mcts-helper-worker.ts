/**
 * Worker-thread entry of an MCTS helper (mcts-helpers.ts starts it when Threads > 1): loads the CPU
 * networks as the main search did and says so in its status word (`HELPER_IDLE`, or
 * `HELPER_FAILED` with an `error` message when they did not load); then, for each `go`, sets up
 * its own board at the root position and plays on the main search's shared tree
 * (`MctsSearch.help`) until the stop word, and says when it is done: `HELPER_IDLE`, or
 * `HELPER_FAILED` (with an `error` message) when the run threw.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ChessMctsBoard } from '../search/mcts/chess-mcts-board.js';
import { MctsSearch } from '../search/mcts/search.js';
import { ShogiMctsBoard } from '../search/mcts/shogi-mcts-board.js';
import { controlStatus, HELPER_FAILED, HELPER_IDLE, MctsControl } from '../search/mcts/threads.js';
import { loadCpuEvaluator } from './mcts-cpu-nets.js';
import type { MctsHelperInit, MctsHelperReply, MctsHelperRequest } from './mcts-helpers.js';

const init = workerData as MctsHelperInit;
const port = parentPort!;
const control = new MctsControl(init.count, init.control);
const status = controlStatus(init.id);
const evaluator = loadCpuEvaluator(init.modelPath, init.game, init.evaluator, init.policyPath, init.simd);
// Its own search object for its buffers and statistics; its tree is the shared one from the first `go`.
const search = evaluator.isOk ? new MctsSearch(evaluator.value, init.options) : undefined;
// The status before the message: whoever hears of the failure must find the helper marked failed.
Atomics.store(control.words, status, search !== undefined ? HELPER_IDLE : HELPER_FAILED);
// Wakes a main search thread waiting for the helpers to load (`MctsHelperPool.waitLoaded`).
Atomics.notify(control.words, status);
if (evaluator.isErr) port.postMessage({ type: 'error', message: evaluator.error.message } satisfies MctsHelperReply);

port.on('message', (msg: MctsHelperRequest) => {
  let ok = false;
  try {
    if (search === undefined) throw new Error(evaluator.isErr ? evaluator.error.message : 'no evaluator');
    const p = msg.position;
    const board = init.game === 'chess' ? ChessMctsBoard.fromText(p.start, [...p.moves], p.chess960 === true) : ShogiMctsBoard.fromText(p.start, [...p.moves]);
    if (board.isErr) throw new Error(board.error.message);
    search.help(board.value, msg.memory, control, init.id);
    ok = true;
  } catch (e) {
    port.postMessage({ type: 'error', message: (e as Error).stack ?? String(e) } satisfies MctsHelperReply);
  } finally {
    Atomics.store(control.words, status, ok ? HELPER_IDLE : HELPER_FAILED);
    Atomics.notify(control.words, status);
  }
});
