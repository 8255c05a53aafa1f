/**
 * `BatchingEvaluator`: lets several concurrent searches (self-play games in one worker) share one
 * net call. Each `evaluate` call queues its positions; the queue goes to the inner evaluator as one
 * batch when it holds `maxBatch` positions or when the event loop turns (every caller has had its
 * chance to queue), whichever comes first. Callers get their own outputs back in order.
 */
import type { EncodingSpec } from './encoding.js';
import type { Evaluator, NnInput, NnOutput } from './evaluator.js';

interface Waiting {
  readonly positions: readonly NnInput[];
  readonly resolve: (out: NnOutput[]) => void;
  readonly reject: (e: unknown) => void;
}

export class BatchingEvaluator implements Evaluator {
  readonly spec: EncodingSpec;
  readonly maxBatch: number;
  /** Net calls made and positions sent (for measuring how full the batches are). */
  calls = 0;
  positions = 0;
  private readonly inner: Evaluator;
  private queue: Waiting[] = [];
  private queued = 0;
  private scheduled = false;

  constructor(inner: Evaluator) {
    this.inner = inner;
    this.spec = inner.spec;
    this.maxBatch = inner.maxBatch;
  }

  evaluate(positions: readonly NnInput[]): Promise<NnOutput[]> {
    if (positions.length > this.maxBatch) return Promise.reject(new Error(`batch of ${positions.length} exceeds maxBatch ${this.maxBatch}`));
    return new Promise<NnOutput[]>((resolve, reject) => {
      if (this.queued + positions.length > this.maxBatch) this.flush();
      this.queue.push({ positions, resolve, reject });
      this.queued += positions.length;
      if (this.queued >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  private flush(): void {
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.queued = 0;
    const all = batch.flatMap((w) => w.positions);
    this.calls++;
    this.positions += all.length;
    this.inner.evaluate(all).then(
      (out) => {
        let k = 0;
        for (const w of batch) {
          w.resolve(out.slice(k, k + w.positions.length));
          k += w.positions.length;
        }
      },
      (e: unknown) => {
        for (const w of batch) w.reject(e);
      },
    );
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
