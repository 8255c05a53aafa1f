import { describe, expect, test } from 'vitest';
import { fitBradleyTerry, type PairingResult } from '../../../src/match/stats/bradley-terry.js';
import { ELO_K, eloToScore, scoreToElo } from '../../../src/match/stats/elo.js';
import { Z95 } from '../../../src/match/stats/normal.js';
import { seededRng as mulberry32 } from '../../../src/core/rng.js';

/**
 * Plays `games` synthetic games of a against b: a scores with probability L(ra - rb), and a share
 * `drawShare` of the smaller of the two outcome probabilities is turned into draws (so the
 * expected score stays L(ra - rb)).
 */
function play(rng: () => number, a: string, b: string, ra: number, rb: number, games: number, drawShare: number): PairingResult {
  const p = eloToScore(ra - rb);
  const draw = drawShare * 2 * Math.min(p, 1 - p);
  const win = p - draw / 2;
  let wins = 0;
  let draws = 0;
  let losses = 0;
  for (let g = 0; g < games; g++) {
    const u = rng();
    if (u < win) wins++;
    else if (u < win + draw) draws++;
    else losses++;
  }
  return { player: a, opponent: b, wins, draws, losses };
}

const byName = (fit: ReturnType<typeof fitBradleyTerry>, name: string) => fit.players.find((p) => p.name === name)!;

describe('matches an independent optimiser', () => {
  // Reference: an independent numpy script (scipy.optimize.minimize BFGS start, 20 numpy Newton
  // steps on the same log-likelihood, numpy.linalg.inv of the Fisher information for the errors).
  const results: PairingResult[] = [
    { player: 'X', opponent: 'A', wins: 30, draws: 20, losses: 10 },
    { player: 'X', opponent: 'B', wins: 12, draws: 25, losses: 23 },
    { player: 'Y', opponent: 'A', wins: 5, draws: 10, losses: 45 },
    { player: 'Y', opponent: 'X', wins: 3, draws: 7, losses: 20 },
    { player: 'Z', opponent: 'B', wins: 40, draws: 30, losses: 10 },
    { player: 'Z', opponent: 'X', wins: 20, draws: 5, losses: 5 },
    { player: 'Y', opponent: 'B', wins: 1, draws: 4, losses: 25 },
  ];
  const fit = fitBradleyTerry(results, { anchors: { A: 0, B: 200 } });
  test('ratings, standard errors, log-likelihood', () => {
    expect(fit.converged).toBe(true);
    expect(fit.iterations).toBeLessThan(15);
    const expected: [string, number, number][] = [
      ['X', 115.87188885950945, 29.677494679500306],
      ['Y', -219.32501353239388, 44.008837086208864],
      ['Z', 329.7423130150714, 37.10218040492749],
    ];
    for (const [name, rating, se] of expected) {
      const p = byName(fit, name);
      expect(p.status).toBe('fitted');
      expect(Math.abs(p.rating! - rating)).toBeLessThan(1e-8);
      expect(p.error / Z95).toBeCloseTo(se, 9);
      expect(p.low).toBeCloseTo(p.rating! - p.error, 9);
    }
    expect(fit.logLikelihood).toBeCloseTo(-199.4794469741817, 10);
    expect(fit.fittedNames).toEqual(['X', 'Y', 'Z']);
    expect(fit.covariance[0]![1]).toBeCloseTo(184.03154332564557, 7);
    const a = byName(fit, 'A');
    expect([a.status, a.rating, a.error, a.games, a.points]).toEqual(['anchor', 0, 0, 120, 70]);
    const x = byName(fit, 'X');
    expect([x.games, x.wins, x.draws, x.losses, x.points]).toEqual([180, 67, 57, 56, 95.5]);
  });
});

describe('two players', () => {
  test('the fit is the score Elo, and without draws its interval is the delta-method one', () => {
    const fit = fitBradleyTerry([{ player: 'k', opponent: 'sf', wins: 70, draws: 0, losses: 30 }], { anchors: { sf: 1000 } });
    const k = byName(fit, 'k');
    expect(k.rating! - 1000).toBeCloseTo(scoreToElo(0.7), 9);
    // Var(score) = s(1 - s)/n and dElo/ds = 1/(K s(1 - s)).
    expect(k.error).toBeCloseTo(Z95 / (ELO_K * Math.sqrt(100 * 0.7 * 0.3)), 9);
  });
});

describe('recovers known ratings from synthetic gauntlets', () => {
  const truth: Record<string, number> = { sf0: 1000, sf1: 1250, sf2: 1500, sf3: 1750, kishi: 1400, 'kishi-old': 1150 };
  const anchors = { sf0: 1000, sf1: 1250, sf2: 1500, sf3: 1750 };

  test('a gauntlet with draws, 400 games a pairing', () => {
    const rng = mulberry32(20240601);
    const results: PairingResult[] = [];
    for (const engine of ['kishi', 'kishi-old']) {
      for (const sf of Object.keys(anchors)) results.push(play(rng, engine, sf, truth[engine]!, truth[sf]!, 400, 0.5));
    }
    results.push(play(rng, 'kishi', 'kishi-old', truth.kishi!, truth['kishi-old']!, 400, 0.5));
    const fit = fitBradleyTerry(results, { anchors });
    expect(fit.converged).toBe(true);
    for (const name of ['kishi', 'kishi-old']) {
      const p = byName(fit, name);
      expect(p.status).toBe('fitted');
      expect(p.low).toBeLessThanOrEqual(truth[name]!);
      expect(p.high).toBeGreaterThanOrEqual(truth[name]!);
      expect(p.error).toBeLessThan(25);
      expect(Math.abs(p.rating! - truth[name]!)).toBeLessThan(15);
    }
  });

  test('95% intervals cover the truth about 95% of the time (300 seeded gauntlets, no draws)', () => {
    const rng = mulberry32(7);
    let covered = 0;
    const runs = 300;
    for (let run = 0; run < runs; run++) {
      const results = Object.keys(anchors).map((sf) => play(rng, 'kishi', sf, truth.kishi!, truth[sf]!, 60, 0));
      const k = byName(fitBradleyTerry(results, { anchors }), 'kishi');
      if (k.low <= truth.kishi! && truth.kishi! <= k.high) covered++;
    }
    // Binomial(300, 0.95) has standard deviation 3.8; this seed gives 287 (95.7%).
    expect(covered).toBe(287);
    expect(covered / runs).toBeGreaterThan(0.92);
    expect(covered / runs).toBeLessThan(0.98);
  });
});

describe('degenerate results never throw', () => {
  test('perfect and zero scores are unbounded; unconnected players are unidentified', () => {
    const fit = fitBradleyTerry(
      [
        { player: 'winner', opponent: 'sf', wins: 10, draws: 0, losses: 0 },
        { player: 'loser', opponent: 'sf', wins: 0, draws: 0, losses: 10 },
        { player: 'mid', opponent: 'sf', wins: 3, draws: 4, losses: 3 },
        { player: 'mid', opponent: 'winner', wins: 0, draws: 0, losses: 5 },
        { player: 'p', opponent: 'q', wins: 2, draws: 1, losses: 2 },
      ],
      { anchors: { sf: 1000 }, players: ['absent'] },
    );
    expect(fit.converged).toBe(true);
    expect(byName(fit, 'winner')).toMatchObject({ status: 'unbounded-above', rating: Infinity, error: Infinity });
    expect(byName(fit, 'loser')).toMatchObject({ status: 'unbounded-below', rating: -Infinity });
    // mid's games against the unbounded winner carry no information; its even score vs sf does.
    expect(byName(fit, 'mid')).toMatchObject({ status: 'fitted', rating: 1000 });
    expect(byName(fit, 'p')).toMatchObject({ status: 'unidentified', rating: undefined });
    expect(byName(fit, 'absent')).toMatchObject({ status: 'unidentified', games: 0, low: -Infinity, high: Infinity });
    for (const p of fit.players) {
      for (const v of [p.low, p.high, p.error, p.games, p.points]) expect(Number.isNaN(v)).toBe(false);
    }
  });
  test('no games at all', () => {
    const fit = fitBradleyTerry([], { anchors: { a: 1500, b: 1700 } });
    expect(fit.converged).toBe(true);
    expect(fit.players.map((p) => [p.name, p.rating])).toEqual([
      ['a', 1500],
      ['b', 1700],
    ]);
    expect(fit.logLikelihood).toBe(0);
  });
  test('a group that only beat the anchors is unbounded as a whole', () => {
    const fit = fitBradleyTerry(
      [
        { player: 'x', opponent: 'a', wins: 5, draws: 0, losses: 0 },
        { player: 'x', opponent: 'y', wins: 2, draws: 2, losses: 2 },
      ],
      { anchors: { a: 0 } },
    );
    expect(byName(fit, 'x').status).toBe('unbounded-above');
    expect(byName(fit, 'y').status).toBe('unbounded-above');
  });
  test('caller bugs throw', () => {
    expect(() => fitBradleyTerry([], { anchors: {} })).toThrow(RangeError);
    expect(() => fitBradleyTerry([{ player: 'a', opponent: 'a', wins: 1, draws: 0, losses: 0 }], { anchors: { a: 0 } })).toThrow(RangeError);
    expect(() => fitBradleyTerry([{ player: 'a', opponent: 'b', wins: -1, draws: 0, losses: 0 }], { anchors: { a: 0 } })).toThrow(RangeError);
  });
});
