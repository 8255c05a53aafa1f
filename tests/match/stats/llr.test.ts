import { describe, expect, test } from 'vitest';
import { llrLogistic, llrNormalized, mleExpected, mleTValue, pdfStats, regularize, resultsToPdf, secular } from '../../../src/match/stats/llr.js';

// Differences from the Python figures are root-finding noise (brentq stops at 2e-12), which N
// multiplies: hold each to 1e-9 absolute plus 1e-11 relative.
const agree = (actual: number, expected: number): void => {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-9 + 1e-11 * Math.abs(expected));
};

describe('published figures (fishtest normalised-Elo SPRT)', () => {
  test('[140, 5033, 11685, 5319, 159] gives LLR 2.93 for nElo [0, 2]', () => {
    expect(llrNormalized(0, 2, [140, 5033, 11685, 5319, 159]).toFixed(2)).toBe('2.93');
  });
  test('[21, 4316, 11473, 4629, 27] gives LLR 2.94 for nElo [0.5, 2.5]', () => {
    expect(llrNormalized(0.5, 2.5, [21, 4316, 11473, 4629, 27]).toFixed(2)).toBe('2.94');
  });
  test('both to full precision against the Python transcription of LLRcalc.py', () => {
    agree(llrNormalized(0, 2, [140, 5033, 11685, 5319, 159]), 2.9283247958187415);
    agree(llrNormalized(0.5, 2.5, [21, 4316, 11473, 4629, 27]), 2.9427903889773637);
  });
});

// [counts, nElo LLR [0, 2], logistic LLR [0, 2], nElo LLR [-1.75, 0.25], logistic LLR [-3, 1]],
// from a line-by-line Python transcription of fishtest's LLRcalc.py (LLR_normalized,
// LLR_logistic, regularize, MLE_t_value, MLE_expected, secular) run with scipy 1.17's brentq.
const TABLE: [number[], number, number, number, number][] = [
  [[0, 0, 0, 0, 100], 0.8107681649746467, 0.5740008853896633, 0.8165700734712086, 1.1546293444692746],
  [[100, 0, 0, 0, 0], -0.8173955251151809, -0.5773146859604609, -0.8115995173379049, -1.1480017982309305],
  [[0, 0, 0, 0, 0], -1.656807473997572e-7, -1.6568230290702967e-7, 1.2426114599905797e-7, 3.313585669921775e-7],
  [[0, 0, 100], 0.5739833711508975, 0.5739894059868605, 0.5768838970193995, 1.1546062531086865],
  [[100, 0, 0], -0.577297060557559, -0.5773031402798839, -0.5743986209571584, -1.1479788394247865],
  [[0, 0, 0], -4.9704677143048036e-8, -7.455722160276592e-8, 3.7278609187785686e-8, 1.4911228161018383e-7],
  [[0, 100, 0], -0.00220843647047605, -0.5706456665621461, 0.0015895308082605763, 0.5778682713133739],
  [[0, 0, 100, 0, 0], -0.004706725759865187, -0.570370660011218, 0.0033782161515909935, 0.5778783135108175],
  [[10789, 19328, 33806, 19402, 10543], -6.070429067588585, -8.34820881516847, -0.6271679157328218, 2.1310678117940807],
  [[1562, 7933, 1745], 1.7559786215248432, 2.9483780519689593, 2.081703843256419, 8.421885223067765],
  [[39, 2226, 31451, 2412, 40], 2.93690981720447, -1.6892967361663422, 5.03359630821705, 65.97358529713483],
];

describe('agrees with fishtest LLRcalc.py', () => {
  test.each(TABLE)('%j', (counts, n02, l02, nm, lm) => {
    agree(llrNormalized(0, 2, counts), n02);
    agree(llrLogistic(0, 2, counts), l02);
    agree(llrNormalized(-1.75, 0.25, counts), nm);
    agree(llrLogistic(-3, 1, counts), lm);
  });
  test('degenerate counts are finite', () => {
    for (const [counts] of TABLE) {
      expect(Number.isFinite(llrNormalized(0, 2, counts))).toBe(true);
      expect(Number.isFinite(llrLogistic(0, 2, counts))).toBe(true);
    }
  });
  test('swapping the hypotheses negates the LLR', () => {
    const r = [140, 5033, 11685, 5319, 159];
    expect(llrNormalized(2, 0, r)).toBeCloseTo(-llrNormalized(0, 2, r), 9);
  });
});

describe('building blocks', () => {
  test('regularize and resultsToPdf', () => {
    expect(regularize([0, 3, 0])).toEqual([1e-3, 3, 1e-3]);
    const { n, pdf } = resultsToPdf([1, 2, 1]);
    expect(n).toBe(4);
    expect(pdf).toEqual([
      [0, 0.25],
      [0.5, 0.5],
      [1, 0.25],
    ]);
    expect(pdfStats(pdf)).toEqual({ mean: 0.5, variance: 0.125 });
  });
  test('secular needs values of both signs', () => {
    expect(secular([[0.1, 0.5], [0.2, 0.5]])).toBeUndefined();
    const x = secular([[-0.5, 0.5], [0.25, 0.5]])!;
    expect(0.5 * -0.5 / (1 + x * -0.5) + (0.5 * 0.25) / (1 + x * 0.25)).toBeCloseTo(0, 12);
  });
  test('the constrained MLEs meet their constraints', () => {
    const { pdf } = resultsToPdf([140, 5033, 11685, 5319, 159]);
    const e = mleExpected(pdf, 0.51)!;
    expect(pdfStats(e).mean).toBeCloseTo(0.51, 9);
    expect(e.reduce((s, [, p]) => s + p, 0)).toBeCloseTo(1, 12);
    const t = mleTValue(pdf, 0.5, 0.02)!;
    const { mean, variance } = pdfStats(t);
    expect((mean - 0.5) / Math.sqrt(variance)).toBeCloseTo(0.02, 5);
    expect(mleExpected(pdf, 1.5)).toBeUndefined();
  });
});
