/**
 * The helper threads of MCTS on the CPU networks (`Threads` > 1; src/search/mcts/threads.ts): worker
 * threads (mcts-helper-worker.ts) started once, with the thread that owns the search (the MCTS
 * player's worker, mcts-worker.ts), and kept for every search until `close` (or until that thread
 * ends, which ends them too). Each loads the CPU networks from the same files with the same
 * settings as the main search and plays on the main search's shared tree while a search runs.
 *
 * A helper takes part from the first search after its networks are loaded: a search never waits
 * for a helper to start (the first move of a fast game is not delayed), but `newGame`, which
 * UCI/USI `isready` runs, does (`waitLoaded`), so that after `readyok` every helper plays. A helper that fails (it
 * could not load, or its run threw: status `HELPER_FAILED`), that does not stop within the
 * search's timeout, or whose thread ends, is lost: it is terminated and gets no more work, and the
 * searches go on with the others (or alone).
 */
import { Worker } from 'node:worker_threads';
import type { GameKind } from '../core/game.js';
import type { CpuEvaluatorSettings } from '../search/mcts/cpu-evaluator.js';
import type { MctsOptions } from '../search/mcts/options.js';
import type { SharedTreeMemory } from '../search/mcts/shared-tree.js';
import { controlStatus, HELPER_BUSY, HELPER_FAILED, HELPER_IDLE, HELPER_LOADING, MctsControl, type MctsHelpers, type RootPosition } from '../search/mcts/threads.js';
import { workerUrl } from './worker-player.js';

/** What the helpers need to evaluate and search as the main search does. */
export interface MctsHelperSettings {
  readonly game: GameKind;
  /** Resolved path of the value network (`.bin`). */
  readonly modelPath: string;
  /** Resolved path of the policy network, when the main search uses one. */
  readonly policyPath?: string;
  /** The evaluator settings the main search's evaluator was loaded with (the config's `mctsTuning`). */
  readonly evaluator: Partial<CpuEvaluatorSettings>;
  /** The main search's SIMD switch (config `nnueSimd`); absent: where supported. */
  readonly simd?: boolean;
  /** The main search's options. */
  readonly options: MctsOptions;
}

/** `workerData` of a helper thread. */
export interface MctsHelperInit extends MctsHelperSettings {
  /** The control memory (threads.ts) of `count` helpers. */
  readonly control: SharedArrayBuffer;
  readonly count: number;
  /** This helper's number, 1 .. count. */
  readonly id: number;
}

/** Main search thread to helper: play on this tree from this root until the stop word. */
export type MctsHelperRequest = { readonly type: 'go'; readonly memory: SharedTreeMemory; readonly position: RootPosition };

/** Helper to main search thread: why a run failed. */
export type MctsHelperReply = { readonly type: 'error'; readonly message: string };

/** The compiled helper entry (see workerUrl). */
const helperUrl = (): URL => workerUrl(import.meta.url, 'mcts-helper-worker.js');

export class MctsHelperPool implements MctsHelpers {
  readonly control: MctsControl;
  /** Helper `id` at index id - 1; undefined once lost. */
  private readonly workers: (Worker | undefined)[] = [];
  /** Helpers given work by the last `start`, not yet joined. */
  private started: number[] = [];
  private threads = 0;

  /** Starts `count` helpers; `onError` hears why one failed or ended. */
  constructor(
    count: number,
    settings: MctsHelperSettings,
    private readonly onError: (message: string) => void = () => undefined,
  ) {
    this.control = new MctsControl(count);
    for (let id = 1; id <= count; id++) {
      Atomics.store(this.control.words, controlStatus(id), HELPER_LOADING);
      const init: MctsHelperInit = { ...settings, control: this.control.buffer, count, id };
      const w = new Worker(helperUrl(), { workerData: init });
      w.on('message', (msg: MctsHelperReply) => this.onError(`MCTS helper ${id}: ${msg.message}`));
      w.on('error', (e) => {
        this.onError(`MCTS helper ${id} failed: ${e.message}`);
        this.lose(id);
      });
      this.threads++;
      w.on('exit', () => {
        this.threads--;
        this.lose(id);
      });
      // A pool left open must not keep the process alive.
      w.unref();
      this.workers.push(w);
    }
  }

  get count(): number {
    return this.workers.filter((w) => w !== undefined).length;
  }

  /** Helper threads not yet ended (lost ones included until they have). */
  get running(): number {
    return this.threads;
  }

  start(memory: SharedTreeMemory, position: RootPosition): void {
    const words = this.control.words;
    this.started = [];
    // Only the helpers that play this search report statistics.
    this.control.stats.fill(0);
    for (let id = 1; id <= this.workers.length; id++) {
      const w = this.workers[id - 1];
      if (w === undefined) continue;
      const status = Atomics.load(words, controlStatus(id));
      if (status === HELPER_FAILED) this.lose(id);
      if (status !== HELPER_IDLE) continue;
      Atomics.store(words, controlStatus(id), HELPER_BUSY);
      const request: MctsHelperRequest = { type: 'go', memory, position };
      w.postMessage(request);
      this.started.push(id);
    }
  }

  /**
   * Blocks until no helper is still loading its networks, at most `timeoutMs`; returns how many
   * are ready to search. The MCTS worker calls it at `newGame` (UCI/USI `isready`), so that the
   * helpers take part from the first search instead of sitting it out while they load.
   */
  waitLoaded(timeoutMs: number): number {
    const words = this.control.words;
    const deadline = performance.now() + timeoutMs;
    let ready = 0;
    for (let id = 1; id <= this.workers.length; id++) {
      if (this.workers[id - 1] === undefined) continue;
      const word = controlStatus(id);
      for (;;) {
        const left = deadline - performance.now();
        if (Atomics.load(words, word) !== HELPER_LOADING || left <= 0) break;
        Atomics.wait(words, word, HELPER_LOADING, left);
      }
      if (Atomics.load(words, word) === HELPER_IDLE) ready++;
    }
    return ready;
  }

  join(timeoutMs: number): number {
    const words = this.control.words;
    const deadline = performance.now() + timeoutMs;
    let lost = 0;
    for (const id of this.started) {
      const word = controlStatus(id);
      for (;;) {
        const left = deadline - performance.now();
        if (Atomics.load(words, word) !== HELPER_BUSY || left <= 0) break;
        Atomics.wait(words, word, HELPER_BUSY, left);
      }
      const status = Atomics.load(words, word);
      if (status !== HELPER_IDLE) {
        if (status === HELPER_BUSY) this.onError(`MCTS helper ${id} did not stop within ${timeoutMs} ms`);
        lost++;
        this.lose(id);
      }
    }
    this.started = [];
    return lost;
  }

  /** Ends every helper. */
  async close(): Promise<void> {
    const all = this.workers.filter((w): w is Worker => w !== undefined);
    this.workers.fill(undefined);
    await Promise.all(all.map((w) => w.terminate()));
  }

  private lose(id: number): void {
    const w = this.workers[id - 1];
    if (w === undefined) return;
    this.workers[id - 1] = undefined;
    void w.terminate();
  }
}
