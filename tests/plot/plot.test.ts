/**
 * Chart data and Vega-Lite specs from result files; the SVG itself only where vega and vega-lite
 * are installed (they are optional dependencies of `kishi plot`).
 */
import { describe, expect, it } from 'vitest';
import { buildChart, xOf } from '../../src/cli/plot.js';
import type { PlotCliOptions } from '../../src/cli/plot.js';
import { stringifyResultJson } from '../../src/core/json.js';
import { plotDepsAvailable, renderSvg } from '../../src/plot/render.js';
import type { ResultFile } from '../../src/plot/series.js';
import { ladderPoints, matchPoint, parseResultFile, spsaRows, suitePoint } from '../../src/plot/series.js';
import { estimatePentanomial, estimateWdl } from '../../src/match/stats/index.js';
import { describeIf } from '../setup/skip.js';

const match = (wins: number, draws: number, losses: number, penta: [number, number, number, number, number]): ResultFile => {
  const text = stringifyResultJson({
    kind: 'kishi-match',
    engines: [{ name: 'kishi' }, { name: 'sf-0' }],
    results: { games: wins + draws + losses, pentanomial: penta, trinomial: estimateWdl({ wins, draws, losses }), pentanomialEstimate: estimatePentanomial(penta) },
  });
  return parseResultFile(text, 'summary.json').unwrap();
};

const options: PlotCliOptions = { out: 'x.svg', kind: 'auto', clip: '1000' };

describe('plot data', () => {
  it('a match summary is a point: pentanomial Elo with its interval, infinities clipped', () => {
    const m = match(10, 4, 6, [0, 3, 4, 2, 1]);
    const p = matchPoint((m as Extract<ResultFile, { kind: 'kishi-match' }>).data, 1000);
    const e = estimatePentanomial([0, 3, 4, 2, 1]);
    expect(p).toEqual({ x: 1000, series: 'vs sf-0', y: e.elo, low: e.eloLow, high: e.eloHigh, clipped: false, games: 20 });
    const perfect = match(4, 0, 0, [0, 0, 0, 0, 2]);
    const q = matchPoint((perfect as Extract<ResultFile, { kind: 'kishi-match' }>).data, 1, 800);
    // Two identical pairs show no spread: the interval is unknown, clipped to the plot's range.
    expect([q.y, q.low, q.high, q.clipped]).toEqual([800, -800, 800, true]);
  });

  it('suite points carry a Wilson interval', () => {
    const p = suitePoint({ engine: 'e', positions: 100, solved: 80, themes: [] }, 3);
    expect(p.y).toBe(80);
    expect(p.low).toBeCloseTo(71.12, 2);
    expect(p.high).toBeCloseTo(86.66, 2);
  });

  it('ladder points skip players without a finite rating', () => {
    const r = ladderPoints({
      fit: {
        players: [
          { name: 'a', status: 'anchor', rating: 1000, low: 1000, high: 1000 },
          { name: 'k', status: 'fitted', rating: 1200, low: 1100, high: 1300 },
          { name: 'u', status: 'unbounded-above', rating: Infinity, low: -Infinity, high: Infinity },
        ],
      },
    });
    expect(r.points.map((p) => p.name)).toEqual(['k', 'a']);
    expect(r.omitted).toEqual(['u (unbounded-above)']);
  });

  it('x from the file path, and a curve spec with error bars per series', () => {
    expect(xOf('runs/step-2500/summary.json', 0, 'step-(\\d+)').unwrap()).toBe(2500);
    expect(xOf('a/summary.json', 4, undefined).unwrap()).toBe(5);
    expect(xOf('a/summary.json', 0, 'step-(\\d+)').isErr).toBe(true);
    const chart = buildChart(
      [
        { path: 'runs/step-1000/summary.json', file: match(5, 5, 10, [2, 3, 3, 2, 0]) },
        { path: 'runs/step-2000/summary.json', file: match(10, 5, 5, [0, 2, 3, 3, 2]) },
      ],
      { ...options, x: 'step-(\\d+)', xTitle: 'steps' },
    ).unwrap();
    const spec = chart.spec as { data: { values: { x: number }[] }; layer: { mark: unknown }[] };
    expect(spec.data.values.map((v) => v.x)).toEqual([1000, 2000]);
    expect(spec.layer.map((l) => (typeof l.mark === 'string' ? l.mark : (l.mark as { type: string }).type))).toEqual(['rule', 'rule', 'line']);
    expect(chart.notes).toEqual([]);
  });

  it('one match is no learning curve, and an empty curve is nothing to plot: clear errors, no blank chart', () => {
    const one = buildChart([{ path: 'summary.json', file: match(10, 4, 6, [0, 3, 4, 2, 1]) }], options);
    expect(one.isErr && one.error.message).toMatch(/^summary\.json is one match, one point: give the matches of several training steps/);
    const empty = parseResultFile('{"kind": "kishi-curve", "x": "steps", "points": []}', 'run/curve.json').unwrap();
    const none = buildChart([{ path: 'run/curve.json', file: empty }], options);
    expect(none.isErr && none.error.message).toBe('nothing to plot: run/curve.json hold no points');
  });

  it('an SPSA history is each parameter\'s change since the first pair; a last line cut short is left out', () => {
    const lines = [
      { k: 0, games: [1, 0], plus: {}, minus: {}, theta: { a: 100, b: 2 } },
      { k: 1, games: [1, 1], plus: {}, minus: {}, theta: { a: 110, b: 1.5 } },
    ].map((l) => JSON.stringify(l));
    const f = parseResultFile(`${lines.join('\n')}\n{"k": 2, "the`, 'tune/history.jsonl').unwrap();
    expect(f.kind).toBe('kishi-spsa');
    const rows = spsaRows((f as Extract<ResultFile, { kind: 'kishi-spsa' }>).data);
    expect(rows).toEqual([
      { pair: 1, param: 'a', value: 100, percent: 0 },
      { pair: 1, param: 'b', value: 2, percent: 0 },
      { pair: 2, param: 'a', value: 110, percent: 10 },
      { pair: 2, param: 'b', value: 1.5, percent: -25 },
    ]);
    const chart = buildChart([{ path: 'history.jsonl', file: f }], options).unwrap();
    expect(JSON.stringify(chart.spec)).toContain('change since the first pair');
    expect(parseResultFile(`${lines[0]}\nbroken\n${lines[1]}\n`, 'h.jsonl').isErr).toBe(true);
    expect(parseResultFile('{"k": 0}\n', 'h.jsonl').isErr).toBe(true);
    expect(parseResultFile('', 'h.jsonl').isErr).toBe(true);
  });

  it('rejects files that are not Kishi results', () => {
    expect(parseResultFile('{"a":1}', 'f.json').isErr).toBe(true);
    expect(parseResultFile('nope', 'f.json').isErr).toBe(true);
  });
});

describeIf(await plotDepsAvailable(), 'vega and vega-lite do not load')('SVG rendering (vega installed)', () => {
  it('renders a curve to SVG', async () => {
    const chart = buildChart(
      [
        { path: 's1.json', file: match(10, 4, 6, [0, 3, 4, 2, 1]) },
        { path: 's2.json', file: match(10, 5, 5, [0, 2, 4, 3, 1]) },
      ],
      options,
    ).unwrap();
    const svg = (await renderSvg(chart.spec)).unwrap();
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('Learning curve');
  });
});
