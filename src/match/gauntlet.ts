/**
 * `kishi match --gauntlet`: engine A against each engine of a ladder in turn (each pairing a full
 * match with the same openings, time control and adjudication), then a maximum-likelihood
 * Bradley-Terry fit of all results with the ladder's known ratings as anchors, printed as a
 * rating table with 95% intervals (stats/bradley-terry.ts, stats/rating-table.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringifyResultJson } from '../core/json.js';
import type { MatchConfig, MatchEngineEntry, MatchSummary } from './match-runner.js';
import { runMatch } from './match-runner.js';
import { fitBradleyTerry, formatTable, ratingTableRows } from './stats/index.js';
import type { BradleyTerryFit, PairingResult } from './stats/index.js';

export interface GauntletConfig extends Omit<MatchConfig, 'engines' | 'outDir' | 'sprt'> {
  /** The engine measured. */
  readonly player: MatchEngineEntry;
  /** Its opponents, each with a unique `spec.name`. */
  readonly ladder: readonly MatchEngineEntry[];
  /** Fixed ratings by engine name (at least one). */
  readonly anchors: Readonly<Record<string, number>>;
  readonly outDir?: string;
  /** Called before each pairing. */
  readonly onPairing?: (index: number, opponent: string) => void;
}

export interface GauntletSummary {
  readonly kind: 'kishi-gauntlet';
  readonly version: 1;
  readonly player: string;
  readonly anchors: Readonly<Record<string, number>>;
  readonly pairings: readonly MatchSummary[];
  readonly results: readonly PairingResult[];
  readonly fit: BradleyTerryFit;
  /** The printed table. */
  readonly table: string;
}

/** The W/D/L of each pairing from the player's view, as the fit takes them. */
export function pairingResults(player: string, pairings: readonly MatchSummary[]): PairingResult[] {
  return pairings.map((m) => ({
    player,
    opponent: m.engines[1]!.name,
    wins: m.results.wdl.wins,
    draws: m.results.wdl.draws,
    losses: m.results.wdl.losses,
  }));
}

/** Fits and formats: the rating table as text (header, rule, one row per engine). */
export function gauntletTable(results: readonly PairingResult[], anchors: Readonly<Record<string, number>>, players: readonly string[] = []): { fit: BradleyTerryFit; table: string } {
  const fit = fitBradleyTerry(results, { anchors, players });
  return { fit, table: formatTable(ratingTableRows(fit)) };
}

export async function runGauntlet(config: GauntletConfig): Promise<GauntletSummary> {
  const player = config.player.spec.name ?? config.player.spec.command;
  const pairings: MatchSummary[] = [];
  for (let k = 0; k < config.ladder.length; k++) {
    const opponent = config.ladder[k]!;
    const name = opponent.spec.name ?? opponent.spec.command;
    config.onPairing?.(k, name);
    const outDir = config.outDir !== undefined ? join(config.outDir, `${String(k + 1).padStart(2, '0')}-${name.replace(/[^A-Za-z0-9_.+-]+/g, '_')}`) : undefined;
    const m = await runMatch({ ...config, engines: [config.player, opponent], ...(outDir !== undefined ? { outDir } : {}) });
    pairings.push(m);
    if (m.stoppedEarly === 'abort') break;
  }
  const results = pairingResults(player, pairings);
  const { fit, table } = gauntletTable(results, config.anchors, [player, ...config.ladder.map((e) => e.spec.name ?? e.spec.command)]);
  const summary: GauntletSummary = { kind: 'kishi-gauntlet', version: 1, player, anchors: config.anchors, pairings, results, fit, table };
  if (config.outDir !== undefined) {
    mkdirSync(config.outDir, { recursive: true });
    writeFileSync(join(config.outDir, 'gauntlet.json'), stringifyResultJson(summary));
    writeFileSync(join(config.outDir, 'ratings.txt'), `${table}\n`);
  }
  return summary;
}
