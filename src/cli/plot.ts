/**
 * `kishi plot`: charts from result files, rendered to SVG with vega-lite (src/plot).
 *
 *   kishi plot runs/step-*\/summary.json --x 'step-(\d+)' --x-title steps -o curve.svg   learning curve (Elo +- 95%)
 *   kishi plot train/curve.json -o curve.svg                                             a kishi-curve file
 *   kishi plot matches/gauntlet-x/gauntlet.json -o ladder.svg                            rating ladder
 *   kishi plot suite-a.json suite-b.json --kind suite -o themes.svg                      solved per theme
 *   kishi plot bench-results/latest.json -o bench.svg                                    speed ratios
 *   kishi plot tune/chess-1/history.jsonl -o spsa.svg                                    an SPSA run's parameters
 *
 * The Vega-Lite spec is written next to the SVG (`<name>.vl.json`), also when vega is not
 * installed (then the exit code is 1 and the message says what to install).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Option } from 'commander';
import type { Command } from 'commander';
import { KishiError, Result } from '../core/result.js';
import { renderSvg } from '../plot/render.js';
import type { CurveChart, CurvePoint, ResultFile } from '../plot/series.js';
import { benchBars, curvePoints, ladderPoints, matchPoint, parseResultFile, spsaRows, suitePoint, themeBars } from '../plot/series.js';
import type { VegaLiteSpec } from '../plot/specs.js';
import { benchSpec, curveSpec, ladderSpec, runCurveSpec, spsaSpec, themeSpec } from '../plot/specs.js';

export const PLOT_KINDS = ['auto', 'curve', 'ladder', 'suite', 'bench', 'spsa'] as const;
export type PlotKind = (typeof PLOT_KINDS)[number];

export interface PlotCliOptions {
  out: string;
  kind: PlotKind;
  x?: string;
  xTitle?: string;
  title?: string;
  clip: string;
}

/** The x of the i-th file: the number `--x` captures from its path, else its position (1-based). */
export function xOf(path: string, index: number, pattern: string | undefined): Result<number, KishiError> {
  if (pattern === undefined) return Result.ok(index + 1);
  const m = new RegExp(pattern).exec(path);
  const x = m?.[1] !== undefined ? Number(m[1]) : Number.NaN;
  return Number.isFinite(x) ? Result.ok(x) : Result.err(new KishiError('ERR_USAGE', `--x ${JSON.stringify(pattern)} captures no number in ${path}`));
}

/** Builds the chart for the files (pure apart from reading nothing: the files are given parsed). */
export function buildChart(files: readonly { path: string; file: ResultFile }[], o: PlotCliOptions): Result<{ spec: VegaLiteSpec; notes: string[] }, KishiError> {
  const kinds = new Set(files.map((f) => f.file.kind));
  let kind: Exclude<PlotKind, 'auto'>;
  if (o.kind !== 'auto') kind = o.kind;
  else {
    if (kinds.size === 1 && kinds.has('kishi-gauntlet') && files.length === 1) kind = 'ladder';
    else if (kinds.size === 1 && kinds.has('kishi-bench') && files.length === 1) kind = 'bench';
    else if (kinds.size === 1 && kinds.has('kishi-suite') && files.length === 1) kind = 'suite';
    else if (kinds.size === 1 && kinds.has('kishi-spsa') && files.length === 1) kind = 'spsa';
    else if (kinds.size === 1 && kinds.has('kishi-match') && files.length === 1) {
      // One match is one point: a "learning curve" of it means nothing.
      return Result.err(
        new KishiError('ERR_USAGE', `${files[0]!.path} is one match, one point: give the matches of several training steps to draw a learning curve (e.g. kishi plot step-*.json --x 'step-(\\d+)')`),
      );
    } else kind = 'curve';
  }
  const limit = Number(o.clip);
  const notes: string[] = [];
  const usage = (m: string): Result<never, KishiError> => Result.err(new KishiError('ERR_USAGE', m));
  switch (kind) {
    case 'ladder': {
      if (files.length !== 1 || files[0]!.file.kind !== 'kishi-gauntlet') return usage('a ladder is drawn from one gauntlet.json');
      const { points, omitted } = ladderPoints(files[0]!.file.data);
      if (omitted.length > 0) notes.push(`not drawn (no finite rating): ${omitted.join(', ')}`);
      return Result.ok({ spec: ladderSpec(points, { title: o.title ?? 'Ratings (Bradley-Terry, 95% intervals)' }), notes });
    }
    case 'bench': {
      if (files.length !== 1 || files[0]!.file.kind !== 'kishi-bench') return usage('a bench chart is drawn from one bench JSON');
      return Result.ok({ spec: benchSpec(benchBars(files[0]!.file.data), { title: o.title ?? 'Speed relative to the baselines' }), notes });
    }
    case 'spsa': {
      if (files.length !== 1 || files[0]!.file.kind !== 'kishi-spsa') return usage('an SPSA chart is drawn from one history.jsonl of kishi tune');
      return Result.ok({ spec: spsaSpec(spsaRows(files[0]!.file.data), { title: o.title ?? 'SPSA: parameters by game pairs' }), notes });
    }
    case 'suite': {
      const bars = [];
      for (const f of files) {
        if (f.file.kind !== 'kishi-suite') return usage(`${f.path} is not a suite result`);
        bars.push(...themeBars(f.file.data, files.length > 1 ? `${f.file.data.engine} (${f.path})` : f.file.data.engine));
      }
      return Result.ok({ spec: themeSpec(bars, { title: o.title ?? 'Solved positions per theme' }), notes });
    }
    case 'curve': {
      // One training run's curve file: the run's own chart (the settings it stored), unless overridden.
      const only = files.length === 1 ? files[0]! : undefined;
      if (only?.file.kind === 'kishi-curve' && only.file.data.chart !== undefined && o.title === undefined && o.xTitle === undefined) {
        const chart = checkChart(only.file.data.chart);
        if (chart !== undefined) return usage(`${only.path}: "chart" ${chart}`);
        const spec = runCurveSpec({ ...only.file.data, chart: only.file.data.chart }, limit);
        const clipped = curvePoints(only.file.data, limit).some((p) => p.clipped);
        return Result.ok({ spec, notes: clipped ? [`intervals beyond +-${limit} Elo are clipped (open triangles)`] : [] });
      }
      const points: CurvePoint[] = [];
      let yTitle = 'Elo (95% interval)';
      let zero = true;
      for (let i = 0; i < files.length; i++) {
        const f = files[i]!;
        if (f.file.kind === 'kishi-curve') {
          points.push(...curvePoints(f.file.data, limit));
          continue;
        }
        const x = xOf(f.path, i, o.x);
        if (x.isErr) return Result.err(x.error);
        if (f.file.kind === 'kishi-match') points.push(matchPoint(f.file.data, x.value, limit, f.path));
        else if (f.file.kind === 'kishi-suite') {
          points.push(suitePoint(f.file.data, x.value));
          yTitle = 'solved % (95% interval)';
          zero = false;
        } else return usage(`${f.path} (${f.file.kind}) cannot be a point of a curve`);
      }
      if (points.length === 0) return usage(`nothing to plot: ${files.map((f) => f.path).join(', ')} hold no points`);
      if (points.some((p) => p.clipped)) notes.push(`intervals beyond +-${limit} Elo are clipped (open triangles)`);
      const xTitle = o.xTitle ?? (files.some((f) => f.file.kind === 'kishi-curve') ? ((files.find((f) => f.file.kind === 'kishi-curve')!.file.data as { x?: string }).x ?? 'x') : o.x !== undefined ? 'x' : 'run');
      return Result.ok({ spec: curveSpec(points, { title: o.title ?? 'Learning curve', xTitle, yTitle, zeroRule: zero }), notes });
    }
  }
}

/** Why a curve file's stored chart settings cannot be used, or undefined when they can. */
function checkChart(c: CurveChart): string | undefined {
  for (const key of ['title', 'xTitle', 'yTitle'] as const) if (typeof c[key] !== 'string') return `needs a string ${key}`;
  for (const key of ['logX', 'zeroRule'] as const) if (c[key] !== undefined && typeof c[key] !== 'boolean') return `${key} must be true or false`;
  return undefined;
}

export async function plotCommand(paths: string[], o: PlotCliOptions): Promise<number> {
  const files: { path: string; file: ResultFile }[] = [];
  for (const path of paths) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      console.error(`kishi plot: cannot read ${path}: ${(e as Error).message}`);
      return 2;
    }
    const f = parseResultFile(text, path);
    if (f.isErr) {
      console.error(`kishi plot: ${f.error.message}`);
      return 2;
    }
    files.push({ path, file: f.value });
  }
  if (files.length === 0) {
    console.error('kishi plot: give at least one result file');
    return 2;
  }
  const chart = buildChart(files, o);
  if (chart.isErr) {
    console.error(`kishi plot: ${chart.error.message}`);
    return 2;
  }
  for (const n of chart.value.notes) console.error(`note: ${n}`);
  mkdirSync(dirname(o.out), { recursive: true });
  const specFile = o.out.replace(/\.svg$/i, '') + '.vl.json';
  writeFileSync(specFile, `${JSON.stringify(chart.value.spec, null, 2)}\n`);
  const svg = await renderSvg(chart.value.spec);
  if (svg.isErr) {
    console.error(`kishi plot: ${svg.error.message}\nThe Vega-Lite spec is in ${specFile}.`);
    return 1;
  }
  writeFileSync(o.out, svg.value);
  console.log(`wrote ${o.out} (spec: ${specFile})`);
  return 0;
}

export function register(program: Command): void {
  program
    .command('plot')
    .description('draw learning curves, rating ladders, suite, bench and SPSA charts (SVG) from result files')
    .argument('<files...>', 'summary.json, gauntlet.json, suite JSON, bench JSON, kishi-curve files or a kishi tune history.jsonl')
    .requiredOption('-o, --out <file.svg>', 'the SVG to write (the Vega-Lite spec goes next to it as .vl.json)')
    .addOption(new Option('--kind <kind>', 'chart kind').choices([...PLOT_KINDS]).default('auto'))
    .option('--x <regex>', 'curve x: a regex whose first group captures a number from each file path (default: file order)')
    .option('--x-title <text>', 'curve x axis title (games, steps, ...)')
    .option('--title <text>', 'chart title')
    .option('--clip <elo>', 'draw infinite or larger Elo intervals clipped at this size', '1000')
    .action(async (files: string[], opts: PlotCliOptions) => {
      process.exitCode = await plotCommand(files, opts);
    });
}
