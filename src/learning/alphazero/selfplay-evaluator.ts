/**
 * The net behind self-play: the evaluator stack one self-play thread uses, and the scripted nets
 * (`mock:<name>`) that tests and dry runs put in place of an ONNX model.
 *
 * Stack, outermost first: `CachedEvaluator` (transpositions and positions repeated across the
 * thread's games cost nothing) -> `BatchingEvaluator` (the leaves of all the thread's concurrent
 * games go to the net as one batch) -> `TimedEvaluator` (counts and times the real net calls) ->
 * the net (`NetEvaluator` over an `OnnxRunner` with one ORT thread, or a `MockEvaluator`).
 */
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import { BatchingEvaluator } from '../../nn/batching-evaluator.js';
import type { EncodingSpec } from '../../nn/encoding.js';
import type { Evaluator, NnInput, NnOutput } from '../../nn/evaluator.js';
import { encodingOf } from '../../nn/manifest.js';
import { MockEvaluator, type MockScript } from '../../nn/mock-evaluator.js';
import { CachedEvaluator } from '../../nn/nn-cache.js';
import { isCpuNetPath, loadCpuEvaluator, policyPathFor } from '../../player/mcts-cpu-nets.js';
import type { CpuEvaluator } from '../../search/mcts/cpu-evaluator.js';
import type { LeafEvaluator } from '../../search/mcts/leaf-evaluator.js';

/** Prefix of a scripted net's name in `SelfplayOptions.model`. */
export const MOCK_MODEL_PREFIX = 'mock:';

/**
 * Scripted nets:
 * - `uniform`: uniform priors, value 0 (random self-play);
 * - `first-loses`: uniform priors, value -0.9 when the first player is to move and +0.9 otherwise,
 *   so both sides believe the first player is lost: resignation fires without being justified, which
 *   is what the false-positive checks must catch.
 */
export const MOCK_MODELS = ['uniform', 'first-loses'] as const;
export type MockModel = (typeof MOCK_MODELS)[number];

/** The input plane that is 1 everywhere when the second player is to move. */
const colourPlane = (spec: EncodingSpec): number => (spec.game === 'chess' ? 20 : 45);

const mockScript = (name: MockModel, spec: EncodingSpec): MockScript => {
  if (name === 'uniform') return () => ({});
  const at = colourPlane(spec) * spec.height * spec.width;
  return (input: NnInput) => ({ value: input.planes[at] === 1 ? 0.9 : -0.9 });
};

/** Counts and times the calls that reach the net. */
export class TimedEvaluator implements Evaluator {
  readonly spec: EncodingSpec;
  readonly maxBatch: number;
  /** Net calls, positions evaluated, milliseconds inside the net. */
  calls = 0;
  positions = 0;
  ms = 0;
  private readonly inner: Evaluator;

  constructor(inner: Evaluator) {
    this.inner = inner;
    this.spec = inner.spec;
    this.maxBatch = inner.maxBatch;
  }

  async evaluate(positions: readonly NnInput[]): Promise<NnOutput[]> {
    const t0 = performance.now();
    const out = await this.inner.evaluate(positions);
    this.ms += performance.now() - t0;
    this.calls++;
    this.positions += positions.length;
    return out;
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * The net of one self-play thread: what its searches call, its counters, and how to release it.
 * Either the batched stack over a ResNet or scripted net (`selfplayNet`), or the CPU networks
 * (`cpuSelfplayNet`: the NNUE value and the policy network evaluated inside the descent, as the
 * MCTS player on a CPU runs them; src/search/mcts/cpu-evaluator.ts).
 */
export interface SelfplayNet {
  /** What the searches call. */
  readonly evaluator: Evaluator | LeafEvaluator;
  /** The counters so far. */
  stats(): SelfplayNetStats;
  /** Releases the net (an ORT session); the counters stay readable. */
  close(): Promise<void>;
}

/** Counters of one self-play thread's net. */
export interface SelfplayNetStats {
  readonly nnCalls: number;
  readonly nnEvals: number;
  readonly nnMs: number;
  readonly cacheHits: number;
}

/** Wraps a raw net (`maxBatch` must hold the leaves of all concurrent games) into the self-play stack. */
export const selfplayNet = (raw: Evaluator, cacheEntries: number): SelfplayNet => {
  const timed = new TimedEvaluator(raw);
  const evaluator = new CachedEvaluator(new BatchingEvaluator(timed), cacheEntries);
  return {
    evaluator,
    stats: () => ({ nnCalls: timed.calls, nnEvals: timed.positions, nnMs: timed.ms, cacheHits: evaluator.hits }),
    close: () => evaluator.close(),
  };
};

/**
 * The CPU networks as a self-play net. Each leaf is evaluated at once, inside the search, so
 * there are no calls to count or time apart from the tree: `nnEvals` counts the leaves valued,
 * `nnMs` stays 0 (a clock read per leaf would cost a tenth of the leaf) and the whole busy time
 * counts as the tree's.
 */
export const cpuSelfplayNet = (leaf: CpuEvaluator): SelfplayNet => ({
  evaluator: leaf,
  stats: () => ({ nnCalls: leaf.evaluations, nnEvals: leaf.evaluations, nnMs: 0, cacheHits: 0 }),
  close: () => Promise.resolve(),
});

/**
 * The net of a self-play thread named by `model` (already resolved): an NNUE `.bin` selects the
 * CPU networks, with `<game>-policy.bin` beside it or `policy` (the config's `mctsPolicy`) as the MCTS player picks
 * them (`ERR_MODEL` when the value network cannot be used, `ERR_POLICY` when the policy network
 * found cannot); anything else is `openRawNet` in the batched stack.
 */
export const openSelfplayNet = async (model: string, game: GameKind, maxBatch: number, cacheEntries: number, policyChoice?: string): Promise<Result<SelfplayNet, KishiError>> => {
  if (isCpuNetPath(model)) {
    const policy = policyPathFor(model, game, policyChoice);
    const leaf = loadCpuEvaluator(model, game, {}, policy);
    if (leaf.isErr) return Result.err(leaf.error);
    // Self-play data made with the one-ply prior by accident would teach the wrong prior.
    if (leaf.value.policyError !== undefined) return Result.err(leaf.value.policyError);
    return Result.ok(cpuSelfplayNet(leaf.value));
  }
  const raw = await openRawNet(model, game, maxBatch);
  return raw.isErr ? Result.err(raw.error) : Result.ok(selfplayNet(raw.value, cacheEntries));
};

/**
 * The raw net named by `model`: `mock:<name>` or an ONNX file (already resolved; its manifest must
 * lie next to it), run with one ORT thread. `ERR_MODEL` when it cannot be loaded.
 */
export const openRawNet = async (model: string, game: GameKind, maxBatch: number): Promise<Result<Evaluator, KishiError>> => {
  const spec = encodingOf(game);
  if (model.startsWith(MOCK_MODEL_PREFIX)) {
    const name = model.slice(MOCK_MODEL_PREFIX.length) as MockModel;
    if (!MOCK_MODELS.includes(name)) return Result.err(new KishiError('ERR_MODEL', `unknown scripted net ${JSON.stringify(model)} (${MOCK_MODELS.map((m) => MOCK_MODEL_PREFIX + m).join(', ')})`));
    return Result.ok(new MockEvaluator(spec, mockScript(name, spec), maxBatch));
  }
  const { checkModelFiles } = await import('../../nn/model-file.js');
  const manifest = checkModelFiles(model, game);
  if (manifest.isErr) return Result.err(manifest.error);
  const { NetEvaluator } = await import('../../nn/evaluator.js');
  const { OnnxRunner } = await import('../../nn/onnx-runner.js');
  const runner = await OnnxRunner.create(model, spec, { threads: 1 });
  if (runner.isErr) return Result.err(runner.error);
  return Result.ok(new NetEvaluator(runner.value, maxBatch));
};
