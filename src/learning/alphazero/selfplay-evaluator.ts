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

/** The evaluator of one self-play thread with its counters. */
export interface SelfplayNet {
  /** What the searches call. */
  readonly evaluator: CachedEvaluator;
  readonly timed: TimedEvaluator;
}

/** Counters of one self-play thread's net. */
export interface SelfplayNetStats {
  readonly nnCalls: number;
  readonly nnEvals: number;
  readonly nnMs: number;
  readonly cacheHits: number;
}

export const netStats = (net: SelfplayNet): SelfplayNetStats => ({
  nnCalls: net.timed.calls,
  nnEvals: net.timed.positions,
  nnMs: net.timed.ms,
  cacheHits: net.evaluator.hits,
});

/** Wraps a raw net (`maxBatch` must hold the leaves of all concurrent games) into the self-play stack. */
export const selfplayNet = (raw: Evaluator, cacheEntries: number): SelfplayNet => {
  const timed = new TimedEvaluator(raw);
  return { evaluator: new CachedEvaluator(new BatchingEvaluator(timed), cacheEntries), timed };
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
