/**
 * The shape every benchmark module has, and the timing helpers they share. A module is a file
 * `tools/bench/<name>.ts` exporting `bench: BenchModule`; `tools/bench.ts` finds and runs them.
 */
import { performance } from 'node:perf_hooks';

/** One measured figure: ours against a baseline measured in the same run. */
export interface BenchRow {
  /** What was measured, e.g. `chess perft startpos d5`. */
  readonly name: string;
  /** Our figure (median of the reps). */
  readonly ours: number;
  /** The baseline's figure (median of the reps), when there is one. */
  readonly baseline?: number;
  /** Who the baseline is, e.g. `chessops`, `stockfish 15.1`. */
  readonly baselineName?: string;
  /** Unit of `ours` and `baseline`, e.g. `Mnodes/s`. */
  readonly unit: string;
  /** Whether bigger is better (default true); ratio = ours / baseline either way. */
  readonly higherIsBetter?: boolean;
  /** Repetitions behind each median. */
  readonly reps: number;
  /** Every rep's figure, ours then baseline. */
  readonly samples?: { readonly ours: readonly number[]; readonly baseline?: readonly number[] };
  readonly note?: string;
}

export interface BenchContext {
  /** Repetitions per figure. */
  readonly reps: number;
  /** Smaller problems (for a smoke run). */
  readonly quick: boolean;
  /** Progress messages (stderr). */
  readonly log: (message: string) => void;
}

export interface BenchModule {
  readonly name: string;
  readonly description: string;
  run(ctx: BenchContext): Promise<BenchRow[]>;
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? Number.NaN : n % 2 === 1 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
};

/**
 * Runs `fn` `reps` times and returns each rep's rate (work / second), checking the work count is
 * the same every time (a benchmark that changes its answer is a bug, not a speed-up).
 */
export function rates(reps: number, fn: () => number, expected?: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    const work = fn();
    const seconds = (performance.now() - t0) / 1000;
    if (expected !== undefined && work !== expected) throw new Error(`benchmark returned ${work}, expected ${expected}`);
    out.push(work / seconds);
  }
  return out;
}

/** A row from per-rep rates, scaled by `scale` (1e-6 for M.../s). */
export function rateRow(name: string, unit: string, scale: number, ours: readonly number[], baseline?: readonly number[], baselineName?: string, note?: string): BenchRow {
  return {
    name,
    ours: median(ours) * scale,
    ...(baseline !== undefined ? { baseline: median(baseline) * scale, baselineName: baselineName ?? 'baseline' } : {}),
    unit,
    reps: ours.length,
    samples: { ours: ours.map((x) => x * scale), ...(baseline !== undefined ? { baseline: baseline.map((x) => x * scale) } : {}) },
    ...(note !== undefined ? { note } : {}),
  };
}
