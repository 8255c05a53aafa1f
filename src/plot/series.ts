/**
 * Result files (`kishi match` summary.json, `kishi match --gauntlet` gauntlet.json, `kishi suite
 * --out`, `npm run bench` JSON, and `kishi-curve` files written by training runs) turned into the
 * flat rows the chart specs plot. Pure: the caller reads the files.
 *
 * A `kishi-curve` file is how a training run reports strength over time:
 *   { "kind": "kishi-curve", "x": "games" | "steps" | ..., "points": [
 *       { "x": 1000, "elo": 12.5, "low": -3.1, "high": 28.0, "series": "vs sf-0" }, ... ] }
 * (`low`/`high`: the 95% interval ends; `series` optional).
 *
 * An SPSA run's `history.jsonl` (`kishi tune`, src/match/spsa-runner.ts) is read line by line: theta
 * after each pair, drawn as each parameter's change since the first pair.
 */
import { KishiError, Result } from '../core/result.js';
import { parseResultJson } from '../core/json.js';

/** One point of a learning curve. */
export interface CurvePoint {
  readonly x: number;
  readonly series: string;
  readonly y: number;
  readonly low: number;
  readonly high: number;
  /** The interval was infinite and is drawn clipped to the plot's range. */
  readonly clipped: boolean;
  readonly games?: number;
  readonly label?: string;
}

export interface LadderPoint {
  readonly name: string;
  readonly rating: number;
  readonly low: number;
  readonly high: number;
  readonly kind: 'anchor' | 'fitted';
}

export interface ThemeBar {
  readonly group: string;
  readonly theme: string;
  readonly solved: number;
  readonly positions: number;
  readonly percent: number;
}

export interface BenchBar {
  readonly figure: string;
  readonly ratio: number;
  readonly baseline: string;
}

export type ResultFile =
  | { readonly kind: 'kishi-match'; readonly data: MatchLike }
  | { readonly kind: 'kishi-gauntlet'; readonly data: GauntletLike }
  | { readonly kind: 'kishi-suite'; readonly data: SuiteLike }
  | { readonly kind: 'kishi-bench'; readonly data: BenchLike }
  | { readonly kind: 'kishi-curve'; readonly data: CurveLike }
  | { readonly kind: 'kishi-spsa'; readonly data: SpsaTraceLike };

/** The fields read from each kind (the writers' full types live with them). */
interface Estimate {
  readonly elo: number;
  readonly eloLow: number;
  readonly eloHigh: number;
  readonly games: number;
}
export interface MatchLike {
  readonly engines: readonly { readonly name: string }[];
  readonly results: { readonly games: number; readonly pentanomial: readonly number[]; readonly trinomial: Estimate; readonly pentanomialEstimate: Estimate };
}
export interface GauntletLike {
  readonly fit: { readonly players: readonly { readonly name: string; readonly status: string; readonly rating?: number; readonly low: number; readonly high: number }[] };
}
export interface SuiteLike {
  readonly engine: string;
  readonly positions: number;
  readonly solved: number;
  readonly themes: readonly { readonly theme: string; readonly positions: number; readonly solved: number }[];
}
export interface BenchLike {
  readonly modules: readonly { readonly rows: readonly { readonly name: string; readonly ours: number; readonly baseline?: number; readonly baselineName?: string; readonly higherIsBetter?: boolean }[] }[];
}
/**
 * How a training run drew its own chart, stored in its `kishi-curve` file (`chart`) so that
 * `kishi plot` of that file draws the same one (specs.ts `runCurveSpec`).
 */
export interface CurveChart {
  readonly title: string;
  readonly xTitle: string;
  readonly yTitle: string;
  /** x on a log scale (points at x <= 0 left out), as TreeStrap's learning curves. */
  readonly logX?: boolean;
  readonly zeroRule?: boolean;
}

export interface CurveLike {
  readonly x?: string;
  readonly chart?: CurveChart;
  readonly points: readonly { readonly x: number; readonly elo: number; readonly low: number; readonly high: number; readonly series?: string; readonly games?: number }[];
}

/** An SPSA run's theta after each pair (the `k` and `theta` of its history.jsonl lines). */
export interface SpsaTraceLike {
  readonly points: readonly { readonly k: number; readonly theta: Readonly<Record<string, number>> }[];
}

/** One parameter's value after a pair, as the change in percent since the first pair. */
export interface SpsaRow {
  readonly pair: number;
  readonly param: string;
  readonly percent: number;
  readonly value: number;
}

/**
 * Parses a `kishi tune` history.jsonl. A last line cut short (the run was killed while writing
 * it) is left out; any other bad line is an error naming the line.
 */
export function parseSpsaHistory(text: string, name: string): Result<ResultFile, KishiError> {
  const lines = text.split('\n');
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  const points: { k: number; theta: Record<string, number> }[] = [];
  for (let i = 0; i < lines.length; i++) {
    let v: unknown;
    try {
      v = JSON.parse(lines[i]!);
    } catch {
      if (i === lines.length - 1 && !text.endsWith('\n')) break;
      return Result.err(new KishiError('ERR_PLOT_INPUT', `${name}:${i + 1}: not JSON`));
    }
    const o = v as { k?: unknown; theta?: unknown } | null;
    const theta = o?.theta;
    if (typeof o?.k !== 'number' || typeof theta !== 'object' || theta === null || !Object.values(theta).every((x) => typeof x === 'number' && Number.isFinite(x))) {
      return Result.err(new KishiError('ERR_PLOT_INPUT', `${name}:${i + 1}: not an SPSA history line (k and theta)`));
    }
    points.push({ k: o.k, theta: theta as Record<string, number> });
  }
  if (points.length === 0) return Result.err(new KishiError('ERR_PLOT_INPUT', `${name}: no SPSA history lines`));
  return Result.ok({ kind: 'kishi-spsa', data: { points } });
}

/** Rows of an SPSA trace: each parameter's change since the first pair, in percent, by pair number. */
export function spsaRows(t: SpsaTraceLike): SpsaRow[] {
  const first = t.points[0]?.theta ?? {};
  const rows: SpsaRow[] = [];
  for (const p of t.points) {
    for (const [param, value] of Object.entries(p.theta)) {
      const base = first[param] ?? value;
      rows.push({ pair: p.k + 1, param, value, percent: base !== 0 ? (100 * (value - base)) / Math.abs(base) : 0 });
    }
  }
  return rows;
}

const KINDS = ['kishi-match', 'kishi-gauntlet', 'kishi-suite', 'kishi-bench', 'kishi-curve'];

/** Parses one result file's text (infinities as the strings json.ts writes); `.jsonl`: an SPSA history. */
export function parseResultFile(text: string, name: string): Result<ResultFile, KishiError> {
  if (name.endsWith('.jsonl')) return parseSpsaHistory(text, name);
  let value: unknown;
  try {
    value = parseResultJson(text);
  } catch (e) {
    return Result.err(new KishiError('ERR_PLOT_INPUT', `${name}: not JSON (${(e as Error).message})`));
  }
  const kind = (value as { kind?: unknown } | null)?.kind;
  if (typeof kind !== 'string' || !KINDS.includes(kind)) {
    return Result.err(new KishiError('ERR_PLOT_INPUT', `${name}: not a Kishi result file (expected "kind" one of ${KINDS.join(', ')})`));
  }
  return Result.ok({ kind, data: value } as ResultFile);
}

/** Clips an interval end to +-limit (infinite Elo cannot be drawn). */
const clip = (v: number, limit: number): number => (Number.isFinite(v) ? Math.max(-limit, Math.min(limit, v)) : v > 0 ? limit : -limit);

/**
 * A point per match summary: x from the caller (a step or game count), y = the pentanomial Elo when
 * pairs were played (else the per-game one) with its 95% interval; series = the opponent.
 */
export function matchPoint(m: MatchLike, x: number, limit = 1000, label?: string): CurvePoint {
  const pairs = m.results.pentanomial.reduce((a, b) => a + b, 0);
  const e = pairs > 0 ? m.results.pentanomialEstimate : m.results.trinomial;
  const clipped = !Number.isFinite(e.elo) || !Number.isFinite(e.eloLow) || !Number.isFinite(e.eloHigh) || Math.abs(e.eloLow) > limit || Math.abs(e.eloHigh) > limit;
  return {
    x,
    series: `vs ${m.engines[1]?.name ?? '?'}`,
    y: clip(e.elo, limit),
    low: clip(e.eloLow, limit),
    high: clip(e.eloHigh, limit),
    clipped,
    games: m.results.games,
    ...(label !== undefined ? { label } : {}),
  };
}

/** The points of a `kishi-curve` file. */
export function curvePoints(c: CurveLike, limit = 1000): CurvePoint[] {
  return c.points.map((p) => ({
    x: p.x,
    series: p.series ?? 'Elo',
    y: clip(p.elo, limit),
    low: clip(p.low, limit),
    high: clip(p.high, limit),
    clipped: ![p.elo, p.low, p.high].every((v) => Number.isFinite(v) && Math.abs(v) <= limit),
    ...(p.games !== undefined ? { games: p.games } : {}),
  }));
}

/** Solved share of a suite summary as a curve point (y and the interval in percent, Wilson 95%). */
export function suitePoint(s: SuiteLike, x: number): CurvePoint {
  const n = s.positions;
  const p = n > 0 ? s.solved / n : 0;
  // Wilson score interval, z = 1.96.
  const z = 1.959964;
  const denom = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denom;
  return { x, series: s.engine, y: 100 * p, low: n > 0 ? 100 * (centre - half) : 0, high: n > 0 ? 100 * (centre + half) : 100, clipped: false, games: n };
}

/** Ladder rows: anchors and fitted players (unbounded/unidentified ones cannot be placed). */
export function ladderPoints(g: GauntletLike): { points: LadderPoint[]; omitted: string[] } {
  const points: LadderPoint[] = [];
  const omitted: string[] = [];
  for (const p of g.fit.players) {
    if ((p.status === 'anchor' || p.status === 'fitted') && p.rating !== undefined && Number.isFinite(p.rating)) {
      points.push({ name: p.name, rating: p.rating, low: p.low, high: p.high, kind: p.status === 'anchor' ? 'anchor' : 'fitted' });
    } else {
      omitted.push(`${p.name} (${p.status})`);
    }
  }
  points.sort((a, b) => b.rating - a.rating);
  return { points, omitted };
}

export function themeBars(s: SuiteLike, group = s.engine): ThemeBar[] {
  return s.themes.map((t) => ({ group, theme: t.theme, solved: t.solved, positions: t.positions, percent: t.positions > 0 ? (100 * t.solved) / t.positions : 0 }));
}

export function benchBars(b: BenchLike): BenchBar[] {
  const out: BenchBar[] = [];
  for (const m of b.modules) {
    for (const r of m.rows) {
      if (r.baseline === undefined || !(r.baseline > 0)) continue;
      const ratio = r.higherIsBetter === false ? r.baseline / r.ours : r.ours / r.baseline;
      out.push({ figure: r.name, ratio, baseline: r.baselineName ?? 'baseline' });
    }
  }
  return out;
}
