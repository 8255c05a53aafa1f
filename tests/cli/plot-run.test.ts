/**
 * `kishi plot` of a training run's curve file draws the run's own chart (the chart settings the run
 * stored in the file: title, log-scale x without the x = 0 point), and its legend keeps whole series
 * names (Vega's default 160 px label limit cut them with an ellipsis).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildChart } from '../../src/cli/plot.js';
import { plotCurve } from '../../src/cli/train-treestrap.js';
import { plotDepsAvailable, renderSvg } from '../../src/plot/render.js';
import { parseResultFile } from '../../src/plot/series.js';
import { trainingGamesChart } from '../../src/plot/specs.js';

const LONG = 'vs material-only alpha-beta at depth 2 (fixed reference)';
/** A TreeStrap run's curve.json as the trainer writes it (small). */
const RUN = {
  kind: 'kishi-curve',
  x: 'training games',
  chart: trainingGamesChart('treestrap-max (chess, init zero)'),
  method: 'treestrap-max',
  game: 'chess',
  init: 'zero',
  points: [
    { x: 0, series: 'rating (untrained = 0)', elo: 0, low: 0, high: 0, games: 0 },
    { x: 10, series: 'rating (untrained = 0)', elo: 120, low: 40, high: 200, games: 20 },
    { x: 100, series: 'rating (untrained = 0)', elo: 310, low: 220, high: 400, games: 20 },
    { x: 10, series: LONG, elo: -250, low: -380, high: -120, games: 20 },
    { x: 100, series: LONG, elo: 40, low: -60, high: 140, games: 20 },
  ],
};

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const plotOf = (data: unknown) => {
  const file = parseResultFile(JSON.stringify(data), 'curve.json').unwrap();
  return buildChart([{ path: 'run/curve.json', file }], { out: 'x.svg', kind: 'auto', clip: '1000' }).unwrap().spec;
};

describe('kishi plot of a training run', () => {
  it('draws the same chart as the run itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-plot-run-'));
    dirs.push(dir);
    await plotCurve(dir, RUN);
    const runs = JSON.parse(readFileSync(join(dir, 'curve.vl.json'), 'utf8')) as unknown;
    const ours = plotOf(RUN);
    expect(ours).toEqual(runs);
    expect(ours['title']).toBe('treestrap-max (chess, init zero)');
    const layers = ours['layer'] as { encoding?: { x?: { scale?: unknown; title?: string } } }[];
    for (const l of layers) if (l.encoding?.x !== undefined) expect(l.encoding.x).toMatchObject({ scale: { type: 'log' }, title: 'training games (log scale)' });
    // x = 0 cannot stand on a log axis: left out, by both
    expect((ours['data'] as { values: { x: number }[] }).values.every((p) => p.x > 0)).toBe(true);
  });

  it('refuses a malformed stored chart with a clear message', () => {
    const file = parseResultFile(JSON.stringify({ ...RUN, chart: { title: 1 } }), 'curve.json').unwrap();
    const r = buildChart([{ path: 'run/curve.json', file }], { out: 'x.svg', kind: 'auto', clip: '1000' });
    expect(r.isErr && r.error.message).toMatch(/"chart" needs a string title/);
  });

  it('keeps whole series names in the legend', async (ctx) => {
    if (!(await plotDepsAvailable())) ctx.skip('vega and vega-lite do not load');
    const svg = (await renderSvg(plotOf(RUN))).unwrap();
    expect(svg).toContain(`>${LONG}<`);
    expect(svg).not.toContain('…');
  });
});
