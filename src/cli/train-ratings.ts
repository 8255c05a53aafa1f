/**
 * `kishi train ratings <run dirs...>`: the Bradley-Terry ratings of the snapshots of one or more
 * training runs (their evaluation matches fitted together, src/learning/treestrap/ratings.ts), the
 * shared untrained or material weights anchored, as the paper's Figure 2 / Table 2. Writes a
 * `kishi-curve` file with one series per run (and its plot spec) when --out is given.
 *
 *   kishi train ratings runs/ts-ab runs/ts-mm runs/ts-root --anchor untrained=250 --out runs/compare
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Command } from 'commander';
import { loadCheckpoint, type PairingRecord } from '../learning/treestrap/checkpoint.js';
import { fitSnapshots } from '../learning/treestrap/ratings.js';
import { stringifyResultJson } from '../core/json.js';
import { formatTable, ratingTableRows } from '../match/stats/index.js';
import { trainingGamesChart } from '../plot/specs.js';
import { plotCurve } from './train-treestrap.js';

export interface RatingsCliOptions {
  anchor: string;
  out?: string;
}

export async function ratingsCommand(dirs: readonly string[], o: RatingsCliOptions): Promise<number> {
  const eq = o.anchor.lastIndexOf('=');
  const anchor = eq > 0 ? o.anchor.slice(0, eq) : o.anchor;
  const anchorRating = eq > 0 ? Number(o.anchor.slice(eq + 1)) : 0;
  if (!Number.isFinite(anchorRating)) {
    console.error(`kishi train ratings: --anchor wants name=rating, got ${JSON.stringify(o.anchor)}`);
    return 2;
  }
  const runs: { prefix: string; pairings: PairingRecord[] }[] = [];
  for (const dir of dirs) {
    const ck = loadCheckpoint(join(dir, 'checkpoint.json'));
    if (ck.isErr) {
      console.error(`kishi train ratings: ${ck.error.message}`);
      return 2;
    }
    if (ck.value === undefined) {
      console.error(`kishi train ratings: no checkpoint.json in ${dir}`);
      return 2;
    }
    runs.push({ prefix: basename(dir), pairings: [...ck.value.pairings] });
  }
  const { fit, snapshots } = fitSnapshots(runs, anchor, anchorRating);
  console.log(formatTable(ratingTableRows(fit)));
  if (o.out !== undefined) {
    mkdirSync(o.out, { recursive: true });
    const points = snapshots.map((r) => ({ x: r.x, series: r.series, elo: r.rating, low: r.low, high: r.high, games: r.games }));
    const chart = trainingGamesChart(`Rating against training games (${anchor} = ${anchorRating})`);
    writeFileSync(join(o.out, 'ratings.json'), stringifyResultJson({ kind: 'kishi-curve', x: 'training games', chart, anchor: { [anchor]: anchorRating }, points, fit }));
    console.log(await plotCurve(o.out, { points, chart }));
  }
  return 0;
}

export function register(train: Command): void {
  train
    .command('ratings')
    .description('Bradley-Terry ratings of the snapshots of training runs (their evaluation matches), jointly, as a learning curve')
    .argument('<dirs...>', 'run directories of kishi train treestrap')
    .option('--anchor <name=rating>', 'the fixed point: untrained (random init) or material', 'untrained=0')
    .option('-o, --out <dir>', 'write ratings.json (a kishi-curve) and its plot here')
    .action(async (dirs: string[], opts: RatingsCliOptions) => {
      process.exitCode = await ratingsCommand(dirs, opts);
    });
}
