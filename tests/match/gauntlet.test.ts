/**
 * The gauntlet fit end to end from match summaries to the printed table: synthetic results drawn
 * from known ratings come back within their intervals, and the table prints them.
 */
import { describe, expect, it } from 'vitest';
import { gauntletTable, pairingResults } from '../../src/match/gauntlet.js';
import type { MatchSummary } from '../../src/match/match-runner.js';
import { eloToScore } from '../../src/match/stats/index.js';
import { seededRng as mulberry32 } from '../../src/core/rng.js';

/** The parts of a match summary the fit reads. */
function summary(player: string, opponent: string, wins: number, draws: number, losses: number): MatchSummary {
  return { engines: [{ name: player }, { name: opponent }], results: { wdl: { wins, draws, losses } } } as unknown as MatchSummary;
}

/** Draws `games` results at the true rating difference, with a 30% draw rate. */
function sample(rng: () => number, diff: number, games: number): [number, number, number] {
  const e = eloToScore(diff);
  const draw = 0.3;
  const win = e - draw / 2;
  let w = 0;
  let d = 0;
  for (let i = 0; i < games; i++) {
    const u = rng();
    if (u < win) w++;
    else if (u < win + draw) d++;
  }
  return [w, d, games - w - d];
}

const rowOf = (table: string, name: string): string[] => table.split('\n').find((l) => l.split(/\s+/)[1] === name)!.trim().split(/\s{2,}/);

describe('gauntlet fit through the table', () => {
  it('recovers the player from exact expected scores against an anchored ladder', () => {
    const ladder = { 'sf-0': 1200, 'sf-1': 1400, 'sf-2': 1600 };
    const truth = 1450;
    const n = 10_000;
    const pairings = Object.entries(ladder).map(([name, r]) => {
      const wins = Math.round(eloToScore(truth - r) * n);
      return summary('kishi', name, wins, 0, n - wins);
    });
    const { fit, table } = gauntletTable(pairingResults('kishi', pairings), ladder);
    const kishi = fit.players.find((p) => p.name === 'kishi')!;
    expect(Math.abs(kishi.rating! - truth)).toBeLessThan(0.1);
    const row = rowOf(table, 'kishi');
    expect(row[0]).toBe('2');
    expect(row[2]).toBe('1450.0');
    expect(Number(row[3])).toBeCloseTo(kishi.error, 1);
    expect(table.split('\n')[0]).toBe('#  player     elo   +-  interval          points  games  score  w/d/l          note');
  });

  it('recovers unanchored ladder engines from sampled results within their 95% intervals', () => {
    const rng = mulberry32(2024);
    const truth: Record<string, number> = { kishi: 1500, 'sf-0': 1300, 'sf-1': 1550, 'sf-2': 1800 };
    const pairings = ['sf-0', 'sf-1', 'sf-2'].map((name) => summary('kishi', name, ...sample(rng, truth.kishi! - truth[name]!, 4000)));
    const { fit, table } = gauntletTable(pairingResults('kishi', pairings), { 'sf-0': 1300 });
    for (const name of ['kishi', 'sf-1', 'sf-2']) {
      const p = fit.players.find((x) => x.name === name)!;
      expect(p.status).toBe('fitted');
      expect(p.low).toBeLessThan(truth[name]!);
      expect(p.high).toBeGreaterThan(truth[name]!);
      const row = rowOf(table, name);
      expect(Number(row[2])).toBeCloseTo(p.rating!, 1);
    }
    // Ordered best first.
    expect(table.split('\n').slice(2).map((l) => l.trim().split(/\s+/)[1])).toEqual(['sf-2', 'sf-1', 'kishi', 'sf-0']);
  });
});
