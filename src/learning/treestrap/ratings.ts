/**
 * Ratings of the training snapshots, as the paper's Figure 2 and Table 2 report them: the
 * evaluation matches of a run (each snapshot against the previous one and against fixed
 * references) are fitted together by maximum-likelihood Bradley-Terry (src/match/stats, the model
 * of BayesElo/Ordo), with the untrained weights anchored at a fixed rating (the paper: 250). Runs
 * that share their untrained weights (same game and seed, `--init random`) and the material
 * reference can be fitted jointly, which puts several methods on one scale.
 */
import { fitBradleyTerry, type BradleyTerryFit, type PairingResult } from '../../match/stats/index.js';
import type { PairingRecord } from './checkpoint.js';

/** Name of a snapshot in the pairings. */
export const snapshotName = (games: number): string => `games-${games}`;

export interface SnapshotRating {
  readonly series: string;
  readonly x: number;
  readonly name: string;
  readonly rating: number;
  readonly low: number;
  readonly high: number;
  readonly games: number;
}

/** Fits `pairings` with `anchor` at `anchorRating`; names of run k are prefixed by `prefixes[k]` when several runs are given. */
export const fitSnapshots = (
  runs: readonly { readonly prefix: string; readonly pairings: readonly PairingRecord[] }[],
  anchor: string,
  anchorRating: number,
): { fit: BradleyTerryFit; snapshots: SnapshotRating[] } => {
  const shared = new Set(['untrained', 'material']);
  const rename = (prefix: string, name: string): string => (shared.has(name) || prefix === '' ? name : `${prefix}/${name}`);
  const results: PairingResult[] = [];
  for (const run of runs) {
    for (const p of run.pairings) results.push({ ...p, player: rename(run.prefix, p.player), opponent: rename(run.prefix, p.opponent) });
  }
  const fit = fitBradleyTerry(results, { anchors: { [anchor]: anchorRating } });
  const snapshots: SnapshotRating[] = [];
  for (const p of fit.players) {
    const m = /^(?:(.*)\/)?games-(\d+)$/.exec(p.name);
    if (m === null || p.rating === undefined) continue;
    snapshots.push({ series: m[1] ?? 'rating', x: Number(m[2]), name: p.name, rating: p.rating, low: p.low, high: p.high, games: p.games });
  }
  snapshots.sort((a, b) => a.series.localeCompare(b.series) || a.x - b.x);
  return { fit, snapshots };
};
