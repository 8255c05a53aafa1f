/**
 * Worker-thread entry of the MCTS player: loads the model (its own onnxruntime session, one ORT
 * thread; or the CPU networks of an NNUE `.bin` path, mcts-cpu-nets.ts), owns one `MctsEngine` and
 * answers the messages of `MctsPlayer` (mcts-player.ts) with the alpha-beta worker's protocol
 * (worker-protocol.ts, served by worker-entry.ts). `session.run` blocks the thread that calls it,
 * which is why the search and the net live here and not on the thread that reads the network.
 *
 * Start-up: the first reply is `ready` (id 0) when the model loaded, or `error` (id 0) with
 * `ERR_MODEL` when it did not; the player then stops using this worker.
 *
 * With the CPU networks and `threads` > 1 it also starts `threads - 1` search helpers
 * (mcts-helpers.ts) that share its tree while each search runs; they end with this worker.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import type { Evaluator } from '../nn/evaluator.js';
import { loadModel } from '../nn/model-file.js';
import type { LeafEvaluator } from '../search/mcts/leaf-evaluator.js';
import { defaultMctsOptions, type MctsOptions } from '../search/mcts/options.js';
import { cpuNetMctsOptions, isCpuNetPath, loadCpuEvaluator, policyPathFor, type CpuNetSettings } from './mcts-cpu-nets.js';
import { MctsEngine } from './mcts-engine.js';
import { MctsHelperPool, type MctsHelperSettings } from './mcts-helpers.js';
import type { WorkerReply } from './worker-protocol.js';
import { serveWorker } from './worker-entry.js';

/** `workerData` of the MCTS worker. */
export interface MctsWorkerInit {
  readonly game: GameKind;
  /** Resolved path of the ONNX model, or of the NNUE `.bin` of the CPU networks (its manifest lies next to it). */
  readonly modelPath: string;
  readonly moveOverheadMs: number;
  /** Shared control words: [stop, ponderhit] (Int32). */
  readonly signal: SharedArrayBuffer;
  readonly options?: Partial<MctsOptions>;
  readonly cacheEntries?: number;
  /**
   * The CPU networks' settings the player factory resolved from the config (evaluator overrides,
   * policy file, SIMD); absent: the defaults, with `<game>-policy.bin` beside the value network.
   */
  readonly cpuNets?: CpuNetSettings;
}

const init = workerData as MctsWorkerInit;
/** How long `newGame` waits for the helper threads to load (a helper later still joins from the next search). */
const HELPER_LOAD_TIMEOUT_MS = 15_000;

const port = parentPort!;
const reply = (r: WorkerReply): void => port.postMessage(r);
const signal = new Int32Array(init.signal);

const optionalPolicy = (policyPath: string | undefined): { policyPath?: string } => (policyPath !== undefined ? { policyPath } : {});

/**
 * The evaluator: the CPU networks for an NNUE `.bin` path (mcts-cpu-nets.ts), with what helper
 * threads need to load the same, else the ONNX model.
 */
const load = async (): Promise<
  Result<{ evaluator: Evaluator | LeafEvaluator; options: Partial<MctsOptions>; helpers?: Omit<MctsHelperSettings, 'options'> }, KishiError>
> => {
  if (isCpuNetPath(init.modelPath)) {
    const cpu: CpuNetSettings = init.cpuNets ?? { evaluator: {}, ...optionalPolicy(policyPathFor(init.modelPath, init.game)) };
    // A policy file that does not load leaves the one-ply prior; the player logged why (mcts-factory.ts).
    const policyPath = cpu.policyPath;
    const ev = loadCpuEvaluator(init.modelPath, init.game, cpu.evaluator, policyPath, cpu.simd);
    if (ev.isErr) return Result.err(ev.error);
    // Helpers load the policy file only when the main search's did load.
    const helperPolicy = policyPath !== undefined && ev.value.policyError === undefined ? { policyPath } : {};
    return Result.ok({
      evaluator: ev.value,
      options: { ...cpuNetMctsOptions(init.game), ...init.options },
      helpers: { game: init.game, modelPath: init.modelPath, evaluator: cpu.evaluator, ...helperPolicy, ...(cpu.simd !== undefined ? { simd: cpu.simd } : {}) },
    });
  }
  const model = await loadModel(init.modelPath, init.game, {
    maxBatch: Math.max(1, init.options?.batchSize ?? 16),
    cacheEntries: init.cacheEntries ?? 100_000,
  });
  return model.isErr ? Result.err(model.error) : Result.ok({ evaluator: model.value.evaluator, options: init.options ?? {} });
};

const loaded = await load();
if (loaded.isErr) {
  reply({ type: 'error', id: 0, code: loaded.error.code, message: loaded.error.message });
} else {
  const options: MctsOptions = { ...defaultMctsOptions(init.game), ...loaded.value.options };
  const h = loaded.value.helpers;
  const helpers =
    h !== undefined && options.threads > 1
      ? new MctsHelperPool(Math.floor(options.threads) - 1, { ...h, options }, (message) =>
          reply({ type: 'error', id: -1, code: 'ERR_ENGINE', message: `search helper: ${message}` }),
        )
      : undefined;
  const engine = new MctsEngine({ game: init.game, evaluator: loaded.value.evaluator, moveOverheadMs: init.moveOverheadMs, options, ...(helpers !== undefined ? { helpers } : {}) });
  serveWorker(port, {
    go: (request, onInfo) => engine.go(request, signal, onInfo),
    // UCI/USI `isready`: the helpers load their networks before `readyok`, to play from the first search.
    newGame: () => {
      helpers?.waitLoaded(HELPER_LOAD_TIMEOUT_MS);
      engine.newGame();
    },
    setHashMb: () => undefined, // no table to size: the evaluation cache is set at start
    setMoveOverheadMs: (ms) => engine.setMoveOverheadMs(ms),
    // A failed evaluation can leave the tree half-updated: start the next search afresh.
    afterThrow: () => engine.newGame(),
  });
}
