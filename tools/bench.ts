/**
 * `npm run bench`: every speed figure the project tracks, in one run, each next to a baseline
 * measured in the same run (chessops, shogiops, Stockfish, ...).
 *
 *   npm run bench -- [--filter NAME] [--reps 5] [--quick] [--out bench-results/latest.json] [--list]
 *
 * Modules are the files `tools/bench/<name>.ts` exporting `bench: BenchModule`
 * (tools/bench/lib/measure.ts); they are found at run time in the compiled `dist/tools/bench/`,
 * run one after the other (never in parallel: they would slow each other down), and their rows are
 * printed as one table (median of `--reps` reps; ratio = ours / baseline) and written as JSON with
 * the machine, Node version and commit, to `--out` and to `bench-results/<timestamp>.json`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { stringifyResultJson } from '../src/core/json.js';
import { formatTable } from '../src/match/stats/index.js';
import type { BenchModule, BenchRow } from './bench/lib/measure.js';

export interface BenchResults {
  readonly kind: 'kishi-bench';
  readonly version: 1;
  readonly date: string;
  readonly commit?: string;
  readonly node: string;
  readonly cpu: string;
  readonly cores: number;
  readonly reps: number;
  readonly quick: boolean;
  readonly modules: readonly { readonly name: string; readonly description: string; readonly seconds: number; readonly rows: readonly BenchRow[]; readonly error?: string }[];
}

/** The modules next to this file, in name order. */
export async function discoverModules(dir: string): Promise<BenchModule[]> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .sort();
  const out: BenchModule[] = [];
  for (const f of files) {
    const mod = (await import(pathToFileURL(join(dir, f)).href)) as { bench?: BenchModule };
    if (mod.bench !== undefined) out.push(mod.bench);
  }
  return out;
}

const fmt = (x: number | undefined): string => (x === undefined ? '-' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

/** The results as a table: module, figure, ours, baseline (who), ratio, unit. */
export function formatBenchTable(results: BenchResults): string {
  const rows: string[][] = [['module', 'figure', 'ours', 'baseline', 'ratio', 'unit', 'baseline is']];
  for (const m of results.modules) {
    if (m.error !== undefined) rows.push([m.name, `FAILED: ${m.error}`, '', '', '', '', '']);
    for (const r of m.rows) {
      const ratio = r.baseline !== undefined && r.baseline > 0 ? `${(r.ours / r.baseline).toFixed(2)}x` : '-';
      rows.push([m.name, r.name, fmt(r.ours), fmt(r.baseline), ratio, r.unit, r.baselineName ?? '']);
    }
  }
  return formatTable(rows);
}

const USAGE = `usage: npm run bench -- [--filter NAME] [--reps N] [--quick] [--out FILE] [--list]
  --filter NAME  only the modules whose name contains NAME (--list shows them)
  --reps N       repetitions per figure, the median is reported (default 5)
  --quick        smaller budgets (a smoke run, not for the record)
  --out FILE     results JSON (default bench-results/latest.json; a time-stamped copy goes beside it)`;

const OPTIONS = {
  filter: { type: 'string' },
  reps: { type: 'string', default: '5' },
  quick: { type: 'boolean', default: false },
  out: { type: 'string', default: 'bench-results/latest.json' },
  list: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const;

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ options: OPTIONS });
  } catch (e) {
    console.error(`bench: ${(e as Error).message}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const { values } = parsed;
  if (values.help === true) {
    console.log(USAGE);
    return;
  }
  const here = dirname(fileURLToPath(import.meta.url));
  const modules = (await discoverModules(join(here, 'bench'))).filter((m) => values.filter === undefined || m.name.includes(values.filter));
  if (values.list === true) {
    for (const m of modules) console.log(`${m.name.padEnd(16)} ${m.description}`);
    return;
  }
  const reps = Number(values.reps);
  if (!(Number.isInteger(reps) && reps > 0)) {
    console.error(`bench: --reps must be a positive integer, got ${values.reps}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  let commit: string | undefined;
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    commit = undefined;
  }
  const done: BenchResults['modules'][number][] = [];
  for (const m of modules) {
    process.stderr.write(`== ${m.name}: ${m.description}\n`);
    const t0 = Date.now();
    try {
      const rows = await m.run({ reps, quick: values.quick === true, log: (s) => process.stderr.write(`   ${s}\n`) });
      done.push({ name: m.name, description: m.description, seconds: (Date.now() - t0) / 1000, rows });
    } catch (e) {
      done.push({ name: m.name, description: m.description, seconds: (Date.now() - t0) / 1000, rows: [], error: (e as Error).message });
      process.exitCode = 1;
    }
  }
  const results: BenchResults = {
    kind: 'kishi-bench',
    version: 1,
    date: new Date().toISOString(),
    ...(commit !== undefined ? { commit } : {}),
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    reps,
    quick: values.quick === true,
    modules: done,
  };
  console.log(`node ${results.node}, ${results.cpu} x${results.cores}, median of ${reps} reps${results.quick ? ' (quick)' : ''}${commit ? `, commit ${commit}` : ''}`);
  console.log(formatBenchTable(results));
  const json = stringifyResultJson(results);
  mkdirSync(dirname(values.out!), { recursive: true });
  writeFileSync(values.out!, json);
  const stamped = join(dirname(values.out!), `${results.date.replace(/[-:]/g, '').replace(/\..*$/, '')}.json`);
  writeFileSync(stamped, json);
  console.log(`written ${values.out} and ${stamped}`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
