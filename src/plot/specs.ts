/**
 * Vega-Lite (v6) specifications for the result charts. Pure JSON builders: render.ts turns them
 * into SVG with vega/vega-lite, and `kishi plot` also writes them next to the SVG (`.vl.json`) so
 * they can be opened in the Vega editor.
 */
import { curvePoints } from './series.js';
import type { BenchBar, CurveChart, CurveLike, CurvePoint, LadderPoint, SpsaRow, ThemeBar } from './series.js';

export type VegaLiteSpec = Record<string, unknown>;

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
const BASE = { $schema: SCHEMA, width: 640, height: 360, background: 'white' } as const;

/** Elo (or solved %) with 95% error bars against training games or steps, one line per series. */
export function curveSpec(points: readonly CurvePoint[], options: { title: string; xTitle: string; yTitle: string; zeroRule?: boolean; logX?: boolean }): VegaLiteSpec {
  const x = { field: 'x', type: 'quantitative', title: options.xTitle, ...(options.logX === true ? { scale: { type: 'log' } } : {}) };
  // Series names are long ("vs material-only depth 2"): below the chart, one per line and never
  // truncated (Vega's default labelLimit of 160 px cut them with an ellipsis).
  const color = { field: 'series', type: 'nominal', title: null, legend: { orient: 'bottom', direction: 'vertical', labelLimit: 0 } };
  const layers: Record<string, unknown>[] = [
    { mark: { type: 'rule' }, encoding: { x, y: { field: 'low', type: 'quantitative', title: options.yTitle }, y2: { field: 'high' }, color } },
    { mark: { type: 'line', point: { filled: true, size: 40 } }, encoding: { x, y: { field: 'y', type: 'quantitative' }, color } },
  ];
  if (points.some((p) => p.clipped)) {
    layers.push({
      transform: [{ filter: 'datum.clipped' }],
      mark: { type: 'point', shape: 'triangle-up', size: 80, filled: false },
      encoding: { x, y: { field: 'y', type: 'quantitative' }, color },
    });
  }
  if (options.zeroRule !== false) layers.unshift({ data: { values: [{ zero: 0 }] }, mark: { type: 'rule', strokeDash: [4, 4], color: 'gray' }, encoding: { y: { field: 'zero', type: 'quantitative' } } });
  return { ...BASE, title: options.title, data: { values: points }, layer: layers };
}

/** The chart of Elo against training games on a log scale (TreeStrap runs, `kishi train ratings`). */
export const trainingGamesChart = (title: string): CurveChart => ({ title, xTitle: 'training games (log scale)', yTitle: 'Elo (95% interval)', logX: true });

/**
 * The chart a training run draws of its own curve, from the curve and the `chart` settings the run
 * stored with it: the run and `kishi plot <curve file>` both build it here, so they are the same.
 */
export function runCurveSpec(curve: CurveLike & { readonly chart: CurveChart }, limit = 1000): VegaLiteSpec {
  const c = curve.chart;
  const points = curvePoints(curve, limit).filter((p) => c.logX !== true || p.x > 0);
  return curveSpec(points, { title: c.title, xTitle: c.xTitle, yTitle: c.yTitle, ...(c.zeroRule !== undefined ? { zeroRule: c.zeroRule } : {}), ...(c.logX === true ? { logX: true } : {}) });
}

/** A rating ladder: each engine's rating with its interval, anchors marked, best on top. */
export function ladderSpec(points: readonly LadderPoint[], options: { title: string }): VegaLiteSpec {
  const y = { field: 'name', type: 'nominal', sort: { field: 'rating', order: 'descending' }, title: null };
  const color = { field: 'kind', type: 'nominal', title: null, scale: { domain: ['fitted', 'anchor'], range: ['#1f77b4', '#7f7f7f'] } };
  return {
    ...BASE,
    height: Math.max(120, 40 * points.length),
    title: options.title,
    data: { values: points },
    layer: [
      { mark: { type: 'rule', strokeWidth: 2 }, encoding: { y, x: { field: 'low', type: 'quantitative', title: 'Elo (95% interval)', scale: { zero: false } }, x2: { field: 'high' }, color } },
      { mark: { type: 'point', filled: true, size: 80 }, encoding: { y, x: { field: 'rating', type: 'quantitative' }, color } },
      { mark: { type: 'text', dy: -12 }, encoding: { y, x: { field: 'rating', type: 'quantitative' }, text: { field: 'rating', type: 'quantitative', format: '.0f' } } },
    ],
  };
}

/** Solved share per theme, one bar group per engine/run. */
export function themeSpec(bars: readonly ThemeBar[], options: { title: string }): VegaLiteSpec {
  return {
    ...BASE,
    title: options.title,
    data: { values: bars },
    mark: 'bar',
    encoding: {
      y: { field: 'theme', type: 'nominal', title: null },
      x: { field: 'percent', type: 'quantitative', title: 'solved %', scale: { domain: [0, 100] } },
      yOffset: { field: 'group' },
      color: { field: 'group', type: 'nominal', title: null },
      tooltip: [{ field: 'solved' }, { field: 'positions' }],
    },
  };
}

/** Speed ratios ours / baseline per figure, with the 1x line. */
export function benchSpec(bars: readonly BenchBar[], options: { title: string }): VegaLiteSpec {
  const y = { field: 'figure', type: 'nominal', title: null, sort: null };
  return {
    ...BASE,
    height: Math.max(120, 24 * bars.length),
    title: options.title,
    data: { values: bars },
    layer: [
      { mark: 'bar', encoding: { y, x: { field: 'ratio', type: 'quantitative', title: 'ours / baseline (log scale)', scale: { type: 'log' } }, color: { field: 'baseline', type: 'nominal', title: 'baseline' } } },
      { data: { values: [{ one: 1 }] }, mark: { type: 'rule', color: 'black' }, encoding: { x: { field: 'one', type: 'quantitative' } } },
    ],
  };
}

/** An SPSA run: each parameter's change since the first pair (percent) against pairs played. */
export function spsaSpec(rows: readonly SpsaRow[], options: { title: string }): VegaLiteSpec {
  const x = { field: 'pair', type: 'quantitative', title: 'game pairs' };
  const color = { field: 'param', type: 'nominal', title: null, legend: { orient: 'right', labelLimit: 0 } };
  return {
    ...BASE,
    title: options.title,
    data: { values: rows },
    layer: [
      { data: { values: [{ zero: 0 }] }, mark: { type: 'rule', strokeDash: [4, 4], color: 'gray' }, encoding: { y: { field: 'zero', type: 'quantitative' } } },
      {
        mark: { type: 'line' },
        encoding: { x, y: { field: 'percent', type: 'quantitative', title: 'change since the first pair (%)' }, color, tooltip: [{ field: 'param' }, { field: 'value' }] },
      },
    ],
  };
}
