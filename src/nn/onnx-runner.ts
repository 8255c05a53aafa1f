/**
 * The onnxruntime-node backend: one `InferenceSession` as a `NetRunner`.
 *
 * `session.run` executes on the calling JS thread (measured here), so a search that uses it
 * lives in a worker thread; one ORT thread per session (`intraOpNumThreads: 1`) because two
 * workers with one thread each beat one worker with two. The CPU execution provider is the
 * default; `executionProviders: ['cuda']` works where onnxruntime-node was installed with its
 * CUDA binaries (see docs/alphazero-loop.md).
 *
 * Loading checks the graph's names and shapes against the encoding and runs one position, so a
 * corrupt or mismatching file fails here (`ERR_MODEL`), not in the middle of a game.
 */
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { KishiError, Result } from '../core/result.js';
import type { EncodingSpec } from './encoding.js';
import type { NetRunner } from './evaluator.js';

export interface OnnxRunnerOptions {
  /** ORT intra-op threads (default 1). */
  readonly threads?: number;
  /** Execution providers in order of preference (default `['cpu']`). */
  readonly executionProviders?: readonly string[];
}

export class OnnxRunner implements NetRunner {
  readonly spec: EncodingSpec;
  private readonly session: InferenceSession;
  private readonly valueKind: 'tanh' | 'wdl';

  private constructor(session: InferenceSession, spec: EncodingSpec, valueKind: 'tanh' | 'wdl') {
    this.session = session;
    this.spec = spec;
    this.valueKind = valueKind;
  }

  /** Opens `source` (a path or the file's bytes) for `spec`; `ERR_MODEL` if it cannot serve that encoding. */
  static async create(source: string | Uint8Array, spec: EncodingSpec, options: OnnxRunnerOptions = {}): Promise<Result<OnnxRunner, KishiError>> {
    const where = typeof source === 'string' ? source : `(${source.length} bytes)`;
    const fail = (why: string): Result<OnnxRunner, KishiError> => Result.err(new KishiError('ERR_MODEL', `model ${where}: ${why}`));
    let session: InferenceSession;
    try {
      const opts: InferenceSession.SessionOptions = {
        executionProviders: [...(options.executionProviders ?? ['cpu'])] as InferenceSession.SessionOptions['executionProviders'],
        intraOpNumThreads: options.threads ?? 1,
        interOpNumThreads: 1,
        executionMode: 'sequential',
        graphOptimizationLevel: 'all',
      };
      session = typeof source === 'string' ? await InferenceSession.create(source, opts) : await InferenceSession.create(source, opts);
    } catch (e) {
      return fail(`cannot load (${(e as Error).message.split('\n')[0]})`);
    }
    if (!session.inputNames.includes('input')) return fail(`no input named "input" (has ${session.inputNames.join(', ')})`);
    if (!session.outputNames.includes('policy')) return fail(`no output named "policy" (has ${session.outputNames.join(', ')})`);
    const valueKind = session.outputNames.includes('value') ? 'tanh' : session.outputNames.includes('wdl') ? 'wdl' : undefined;
    if (valueKind === undefined) return fail(`no output named "value" or "wdl" (has ${session.outputNames.join(', ')})`);
    const runner = new OnnxRunner(session, spec, valueKind);
    try {
      const probe = await runner.runRaw(new Float32Array(spec.inputSize), 1);
      if (probe.policy.length !== spec.policySize) return fail(`policy has ${probe.policy.length} entries, expected ${spec.policySize}`);
      if (!(Math.abs(probe.value[0]!) <= 1)) return fail(`value ${probe.value[0]} outside [-1, 1]`);
    } catch (e) {
      await session.release().catch(() => undefined);
      return fail(`does not run on a ${spec.planes}x${spec.height}x${spec.width} input (${(e as Error).message.split('\n')[0]})`);
    }
    return Result.ok(runner);
  }

  run(input: Float32Array, batch: number): Promise<{ policy: Float32Array; value: Float32Array }> {
    return this.runRaw(input, batch);
  }

  private async runRaw(input: Float32Array, batch: number): Promise<{ policy: Float32Array; value: Float32Array }> {
    const s = this.spec;
    const x = new Tensor('float32', input.length === batch * s.inputSize ? input : input.subarray(0, batch * s.inputSize), [
      batch,
      s.planes,
      s.height,
      s.width,
    ]);
    const out = await this.session.run({ input: x });
    const policy = out.policy!.data as Float32Array;
    if (this.valueKind === 'tanh') return { policy, value: out.value!.data as Float32Array };
    // WDL logits -> expected score W - L.
    const wdl = out.wdl!.data as Float32Array;
    const value = new Float32Array(batch);
    for (let i = 0; i < batch; i++) {
      const w = wdl[i * 3]!;
      const d = wdl[i * 3 + 1]!;
      const l = wdl[i * 3 + 2]!;
      const m = Math.max(w, d, l);
      const ew = Math.exp(w - m);
      const ed = Math.exp(d - m);
      const el = Math.exp(l - m);
      value[i] = (ew - el) / (ew + ed + el);
    }
    return { policy, value };
  }

  close(): Promise<void> {
    return this.session.release();
  }
}
