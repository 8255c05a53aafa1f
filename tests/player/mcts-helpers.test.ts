/**
 * The MCTS helper threads are ready at `isready` (issue 42): `MctsHelperPool.waitLoaded`, which the
 * MCTS worker runs at `newGame` (UCI/USI `isready`), returns once every helper has loaded its
 * networks, so that the next search's `start` gives every helper work instead of leaving the
 * ones still loading out of it. Checked on the helpers' status words, not on the clock.
 */
import { existsSync } from 'node:fs';
import { afterEach, expect, test } from 'vitest';
import { MctsHelperPool } from '../../src/player/mcts-helpers.js';
import { resolveModelPath } from '../../src/core/package-path.js';
import { defaultMctsOptions } from '../../src/search/mcts/options.js';
import { SharedTree } from '../../src/search/mcts/shared-tree.js';
import { controlStatus, CONTROL_STOP, CONTROL_TARGET, HELPER_BUSY, HELPER_IDLE, HELPER_LOADING } from '../../src/search/mcts/threads.js';
import { describeIf } from '../setup/skip.js';

const ready = existsSync('models/chess-nnue.bin');

let pool: MctsHelperPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describeIf(ready, 'models/chess-nnue.bin not found')('MCTS helpers at isready', () => {
  test('after waitLoaded every helper is loaded, and the first search starts them all', () => {
    const options = { ...defaultMctsOptions('chess'), threads: 3 };
    const p = new MctsHelperPool(2, { game: 'chess', modelPath: resolveModelPath('models/chess-nnue.bin'), evaluator: {}, options });
    pool = p;
    const words = p.control.words;
    // Fresh: loading (a helper that is already loaded is idle).
    for (const id of [1, 2]) expect([HELPER_LOADING, HELPER_IDLE]).toContain(Atomics.load(words, controlStatus(id)));
    expect(p.waitLoaded(60_000)).toBe(2);
    for (const id of [1, 2]) expect(Atomics.load(words, controlStatus(id))).toBe(HELPER_IDLE);
    // The next start hands work to both (a helper still loading would sit the search out): with
    // the target at 0 visits they wait for the stop word, busy, until it is set.
    const tree = SharedTree.create(1 << 16);
    Atomics.store(words, CONTROL_TARGET, 0);
    Atomics.store(words, CONTROL_STOP, 0);
    p.start(tree.memory, { start: 'startpos', moves: [] });
    for (const id of [1, 2]) expect(Atomics.load(words, controlStatus(id))).toBe(HELPER_BUSY);
    Atomics.store(words, CONTROL_STOP, 1);
    Atomics.notify(words, CONTROL_STOP);
    expect(p.join(30_000)).toBe(0);
    expect(p.count).toBe(2);
  }, 90_000);
});
