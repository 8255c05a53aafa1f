/**
 * Ready at `isready` (issue 42): after `readyok`, the first `go movetime 2000` searches its time,
 * with both engines (alpha-beta on its network, MCTS on the CPU networks) in both protocols, with
 * helper threads (`Threads 2`): the networks, the workers and their helpers are loaded before
 * `readyok`, not on the clock of the first move. The time checked is the one the last `info`
 * reports (the search's own), with 200 ms to spare for the hand-off of the request to the search
 * on a loaded machine. Before the fix, alpha-beta's helpers loaded on the first move's clock:
 * 1,600 ms (chess) and 1,340 ms (shogi) of 2,000.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createPlayer } from '../../../src/player/factory.js';
import type { EngineSettings } from '../../../src/protocols/uci/dialect.js';
import { uciDialect } from '../../../src/protocols/uci/uci-dialect.js';
import { usiDialect } from '../../../src/protocols/uci/usi-dialect.js';
import { harness, type Harness } from './mock-player.js';


let h: Harness | undefined;
afterEach(async () => {
  await h?.session.quit();
  h = undefined;
});

const settings = (game: 'chess' | 'shogi', search: 'alphabeta' | 'mcts'): Partial<EngineSettings> => ({
  search,
  evalFile: `models/${game}-linear.json`,
  evalKind: 'nnue',
  nnueFile: `models/${game}-nnue.bin`,
  modelFile: `models/${game}-nnue.bin`,
  hashMb: 16,
  moveOverheadMs: 0,
  threads: 2,
});

describe('the first go after isready searches its whole time', () => {
  for (const game of ['chess', 'shogi'] as const) {
    for (const search of ['alphabeta', 'mcts'] as const) {
      test(`${game}, ${search}, Threads 2`, async () => {
        const x = harness(game === 'chess' ? uciDialect : usiDialect, {}, settings(game, search), createPlayer);
        h = x;
        x.send('isready');
        await x.waitLine((l) => l === 'readyok', 60_000);
        x.send('position startpos', 'go movetime 2000');
        await x.waitLine((l) => l.startsWith('bestmove'), 30_000);
        const infos = x.lines.filter((l) => / time \d+/.test(l) && l.startsWith('info'));
        expect(infos.length).toBeGreaterThan(0);
        const time = Number(/ time (\d+)/.exec(infos[infos.length - 1]!)![1]);
        expect(time).toBeGreaterThanOrEqual(1800);
        // No fall-back to the other engine, no error on the way.
        expect(x.lines.filter((l) => l.startsWith('info string'))).toEqual([]);
      }, 90_000);
    }
  }
});
