import { describe, expect, test } from 'vitest';
import { Z95, erf, erfc, normalCdf, normalQuantile, zScore } from '../../../src/match/stats/normal.js';
import { brentRoot } from '../../../src/match/stats/brent.js';

// Reference values: scipy 1.17 (scipy.stats.norm.cdf / norm.ppf, scipy.special.erf / erfc).
const CDF: [number, number][] = [
  [-20, 2.7536241186061556e-89],
  [-10, 7.61985302416047e-24],
  [-6, 9.865876450376946e-10],
  [-4.5, 3.3976731247300535e-6],
  [-3.2, 0.0006871379379158471],
  [-2.9, 0.0018658133003840375],
  [-2, 0.022750131948179195],
  [-1.5, 0.06680720126885807],
  [-1, 0.15865525393145707],
  [-0.3, 0.3820885778110474],
  [0, 0.5],
  [0.1, 0.539827837277029],
  [0.7, 0.758036347776927],
  [1.96, 0.9750021048517795],
  [2.5, 0.9937903346742238],
  [3, 0.9986501019683699],
  [3.1, 0.9990323967867817],
  [5, 0.9999997133484281],
  [8, 0.9999999999999993],
];
const PPF: [number, number][] = [
  [1e-300, -37.0470962993612],
  [1e-20, -9.262340089798409],
  [1e-9, -5.9978070150076865],
  [0.001, -3.090232306167813],
  [0.025, -1.9599639845400545],
  [0.1, -1.2815515655446004],
  [0.3, -0.5244005127080409],
  [0.5, 0],
  [0.8, 0.8416212335729143],
  [0.975, 1.959963984540054],
  [0.999, 3.090232306167813],
  [1 - 1e-12, 7.0344869100478356],
];
const ERF: [number, number, number][] = [
  [-5, -0.9999999999984626, 1.9999999999984626],
  [-3, -0.9999779095030014, 1.9999779095030015],
  [-2.99, -0.9999764743969194, 1.9999764743969193],
  [-0.5, -0.5204998778130465, 1.5204998778130465],
  [0, 0, 1],
  [0.2, 0.22270258921047845, 0.7772974107895215],
  [1, 0.8427007929497148, 0.15729920705028516],
  [2.5, 0.999593047982555, 0.00040695201744495886],
  [2.999, 0.9999777698314002, 2.223016859983406e-5],
  [3, 0.9999779095030014, 2.2090496998585445e-5],
  [4, 0.9999999845827421, 1.541725790028002e-8],
  [6, 1, 2.1519736712498913e-17],
  [10, 1, 2.0884875837625446e-45],
];

const close = (actual: number, expected: number, rel: number): void => {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.abs(expected) + 1e-300);
};

describe('normal distribution', () => {
  test.each(CDF)('Phi(%d)', (x, p) => close(normalCdf(x), p, 1e-13));
  test.each(PPF)('Phi^-1(%d)', (p, x) => close(normalQuantile(p), x, 1e-13));
  test.each(ERF)('erf/erfc(%d)', (x, e, c) => {
    close(erf(x), e, 1e-15);
    close(erfc(x), c, 1e-14);
  });
  test('ends and constants', () => {
    expect(normalQuantile(0)).toBe(Number.NEGATIVE_INFINITY);
    expect(normalQuantile(1)).toBe(Number.POSITIVE_INFINITY);
    expect(normalQuantile(1.5)).toBeNaN();
    expect(normalCdf(Number.POSITIVE_INFINITY)).toBe(1);
    expect(normalCdf(Number.NEGATIVE_INFINITY)).toBe(0);
    expect(zScore(0.95)).toBe(Z95);
    close(zScore(0.99), 2.5758293035489004, 1e-13);
  });
});

describe('brentRoot', () => {
  test('finds roots like scipy brentq', () => {
    close(brentRoot((x) => x * x - 2, 0, 2)!, Math.SQRT2, 1e-12);
    close(brentRoot((x) => Math.cos(x) - x, 0, 1)!, 0.7390851332151607, 1e-12);
  });
  test('not bracketed: undefined', () => {
    expect(brentRoot((x) => x * x + 1, -1, 1)).toBeUndefined();
  });
});
