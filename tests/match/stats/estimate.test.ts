import { describe, expect, test } from 'vitest';
import { estimateFromFrequencies, estimatePentanomial, estimateWdl, type EloEstimate } from '../../../src/match/stats/estimate.js';
import { eloToScore, scoreToElo, scoreToNelo } from '../../../src/match/stats/elo.js';
import { addGame, addPair, EMPTY_PENTANOMIAL, EMPTY_WDL, pairBucket, wdlFrequencies } from '../../../src/match/stats/results.js';

const noNaN = (e: EloEstimate): void => {
  for (const [key, value] of Object.entries(e)) {
    if (typeof value === 'number') expect(Number.isNaN(value), key).toBe(false);
  }
};

describe('published figures', () => {
  test('W 1745 / D 7933 / L 1562 gives Elo 5.66 +- 3.48', () => {
    const e = estimateWdl({ wins: 1745, draws: 7933, losses: 1562 });
    expect(e.elo.toFixed(2)).toBe('5.66');
    expect(e.eloError.toFixed(2)).toBe('3.48');
    // The rest of fastchess's report for the same counts (nElo, LOS, draw ratio).
    expect(e.games).toBe(11240);
    expect(e.score).toBeCloseTo(0.5081405693950178, 14);
    expect(e.nElo).toBeCloseTo(10.433279990336432, 10);
    expect(e.nEloError).toBeCloseTo(6.423019399155472, 10);
    expect(e.los).toBeCloseTo(0.9992729273625122, 12);
    expect(e.drawRatio).toBeCloseTo(7933 / 11240, 14);
    expect(e.eloLow.toFixed(2)).toBe('2.17');
    expect(e.eloHigh.toFixed(2)).toBe('9.14');
  });

  test('pentanomial [102, 3617, 7614, 3559, 108] gives Elo -0.53 +- 2.0', () => {
    const e = estimatePentanomial([102, 3617, 7614, 3559, 108]);
    expect(e.elo.toFixed(2)).toBe('-0.53');
    expect(e.eloError.toFixed(1)).toBe('2.0');
    expect(e.eloError.toFixed(2)).toBe('2.03');
    expect(e.samples).toBe(15000);
    expect(e.games).toBe(30000);
    expect(e.nElo).toBeCloseTo(-1.0306150253903807, 10);
    expect(e.nEloError).toBeCloseTo(3.9315315208777752, 10);
    expect(e.los).toBeCloseTo(0.3037005882120184, 12);
  });

  test('the generic form agrees with the typed ones', () => {
    expect(estimateFromFrequencies([1562, 7933, 1745]).elo).toBe(estimateWdl({ wins: 1745, draws: 7933, losses: 1562 }).elo);
  });

  test('a 99% level widens the interval by z99/z95 on the score scale', () => {
    const e95 = estimateWdl({ wins: 1745, draws: 7933, losses: 1562 });
    const e99 = estimateWdl({ wins: 1745, draws: 7933, losses: 1562 }, 0.99);
    expect((e99.scoreHigh - e99.score) / (e95.scoreHigh - e95.score)).toBeCloseTo(2.5758293035489004 / 1.959963984540054, 12);
  });
});

describe('degenerate counts never throw or give NaN', () => {
  test('zero games', () => {
    for (const e of [estimateWdl(EMPTY_WDL), estimatePentanomial(EMPTY_PENTANOMIAL)]) {
      noNaN(e);
      expect(e.score).toBe(0.5);
      expect(e.elo).toBe(0);
      expect(e.eloError).toBe(Infinity);
      expect(e.los).toBe(0.5);
      expect(e.nEloError).toBe(Infinity);
    }
  });
  test('all wins', () => {
    const e = estimateWdl({ wins: 10, draws: 0, losses: 0 });
    noNaN(e);
    expect(e.elo).toBe(Infinity);
    expect(e.eloError).toBe(Infinity);
    expect(e.los).toBe(1);
    expect(e.nElo).toBe(Infinity);
    const p = estimatePentanomial([0, 0, 0, 0, 7]);
    noNaN(p);
    expect(p.elo).toBe(Infinity);
    expect(p.los).toBe(1);
  });
  test('all losses', () => {
    const e = estimateWdl({ wins: 0, draws: 0, losses: 10 });
    noNaN(e);
    expect(e.elo).toBe(-Infinity);
    expect(e.eloError).toBe(Infinity);
    expect(e.los).toBe(0);
    const p = estimatePentanomial([3, 0, 0, 0, 0]);
    noNaN(p);
    expect(p.elo).toBe(-Infinity);
  });
  test('all draws: zero variance gives an unknown interval, never one of zero width', () => {
    const e = estimateWdl({ wins: 0, draws: 20, losses: 0 });
    noNaN(e);
    expect(e.elo).toBe(0);
    expect(e.eloError).toBe(Infinity);
    expect(e.nEloError).toBe(Infinity);
    expect(e.nElo).toBe(0);
    expect(e.los).toBe(0.5);
    expect(e.drawRatio).toBe(1);
  });
  test('one game or one pair: no zero-width interval ("-191 [-191, -191]")', () => {
    for (const e of [estimateWdl({ wins: 0, draws: 0, losses: 1 }), estimateWdl({ wins: 0, draws: 1, losses: 0 }), estimatePentanomial([0, 1, 0, 0, 0])]) {
      noNaN(e);
      expect(e.eloLow).toBe(-Infinity);
      expect(e.eloHigh).toBe(Infinity);
      expect(e.eloError).toBe(Infinity);
    }
    // With spread in the samples the interval is a real one again.
    expect(Number.isFinite(estimatePentanomial([0, 1, 1, 0, 0]).eloError)).toBe(true);
  });
  test('a near-perfect score clamps the upper score end to 1 (Elo +Infinity)', () => {
    const e = estimateWdl({ wins: 9, draws: 0, losses: 1 });
    noNaN(e);
    expect(e.scoreHigh).toBe(1);
    expect(e.eloHigh).toBe(Infinity);
    expect(e.eloError).toBe(Infinity);
    expect(e.elo).toBeCloseTo(381.70, 2);
  });
  test('bad counts are caller bugs', () => {
    expect(() => estimateFromFrequencies([1, 2, 3, 4])).toThrow(RangeError);
    expect(() => estimateWdl({ wins: -1, draws: 0, losses: 0 })).toThrow(RangeError);
  });
});

describe('Elo scales and result bookkeeping', () => {
  test('score <-> Elo', () => {
    expect(scoreToElo(0.5)).toBe(0);
    expect(scoreToElo(eloToScore(123.4))).toBeCloseTo(123.4, 10);
    expect(scoreToElo(0.75)).toBeCloseTo(190.84850188786497, 10);
    expect(scoreToElo(1)).toBe(Infinity);
    expect(scoreToElo(0)).toBe(-Infinity);
    expect(scoreToNelo(0.5, 0)).toBe(0);
    expect(scoreToNelo(0.6, 0)).toBe(Infinity);
  });
  test('pairs and games', () => {
    expect(pairBucket(0, 0)).toBe(0);
    expect(pairBucket(0.5, 0)).toBe(1);
    expect(pairBucket(1, 0)).toBe(2);
    expect(pairBucket(0.5, 0.5)).toBe(2);
    expect(pairBucket(1, 0.5)).toBe(3);
    expect(pairBucket(1, 1)).toBe(4);
    let p = EMPTY_PENTANOMIAL;
    p = addPair(p, 1, 0.5);
    p = addPair(p, 0, 1);
    expect(p).toEqual([0, 0, 1, 1, 0]);
    expect(EMPTY_PENTANOMIAL).toEqual([0, 0, 0, 0, 0]);
    let w = EMPTY_WDL;
    for (const s of [1, 0.5, 0.5, 0] as const) w = addGame(w, s);
    expect(wdlFrequencies(w)).toEqual([1, 2, 1]);
  });
});
