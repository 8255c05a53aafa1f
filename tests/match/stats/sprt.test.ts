import { describe, expect, test } from 'vitest';
import { SprtTest, sprtBounds, sprtDecision, sprtLlr } from '../../../src/match/stats/sprt.js';
import { SPRT_FIXTURES } from './sprt-fixtures.js';

describe('bounds and decision', () => {
  test('Wald bounds from alpha and beta', () => {
    const b = sprtBounds(0.05, 0.05);
    expect(b.lower).toBeCloseTo(-2.9444389791664403, 14);
    expect(b.upper).toBeCloseTo(2.9444389791664403, 14);
    const c = sprtBounds(0.05, 0.1);
    expect(c.lower).toBeCloseTo(Math.log(0.1 / 0.95), 14);
    expect(c.upper).toBeCloseTo(Math.log(0.9 / 0.05), 14);
    expect(() => sprtBounds(0, 0.05)).toThrow(RangeError);
  });
  test('decision', () => {
    const b = sprtBounds();
    expect(sprtDecision(3, b)).toBe('H1');
    expect(sprtDecision(-3, b)).toBe('H0');
    expect(sprtDecision(2.93, b)).toBe('continue');
    expect(sprtDecision(Number.NaN, b)).toBe('continue');
    // The overshoot correction moves the bounds inwards.
    expect(sprtDecision(2.93, b, { lower: 0, upper: 0.02 })).toBe('H1');
    expect(sprtDecision(-2.93, b, { lower: 0.02, upper: 0 })).toBe('H0');
  });
  test('the published acceptance figures stop a [0, 2] test only with the overshoot correction', () => {
    const llr = sprtLlr([140, 5033, 11685, 5319, 159], 0, 2);
    expect(llr.toFixed(2)).toBe('2.93');
    expect(sprtDecision(llr, sprtBounds())).toBe('continue');
    expect(sprtLlr([1562, 7933, 1745], 0, 2, 'logistic')).toBeCloseTo(2.9483780519689593, 9);
  });
});

describe('SprtTest replays fishtest update_SPRT pair by pair', () => {
  test.each(SPRT_FIXTURES.map((f) => [`${f.model} [${f.elo0}, ${f.elo1}] -> ${f.decision}`, f] as const))('%s', (_, f) => {
    const sprt = new SprtTest({ elo0: f.elo0, elo1: f.elo1, alpha: 0.05, beta: 0.05, model: f.model });
    const counts = [0, 0, 0, 0, 0];
    let stoppedAt = 0;
    let last = sprt.update(counts);
    for (const ch of f.sequence) {
      counts[Number(ch)]! += 1;
      last = sprt.update(counts);
      stoppedAt++;
      if (last.decision !== 'continue') break;
    }
    expect(stoppedAt).toBe(f.pairs);
    expect(counts).toEqual(f.counts);
    expect(last.decision).toBe(f.decision);
    expect(last.samples).toBe(f.pairs);
    expect(last.llr).toBeCloseTo(f.llr, 9);
    expect(last.overshootLower).toBeCloseTo(f.overshootLower, 9);
    expect(last.overshootUpper).toBeCloseTo(f.overshootUpper, 9);
  });

  test('repeated and skipped updates, lost results', () => {
    const sprt = new SprtTest({ elo0: 0, elo1: 2 });
    const a = sprt.update([0, 1, 1, 0, 0]); // two pairs at once: counted as a skip, no moments yet
    expect(a.overshootLower).toBe(0);
    expect(a.overshootUpper).toBe(0);
    expect(sprt.update([0, 1, 1, 0, 0])).toEqual(a); // same data: nothing changes
    const b = sprt.update([1, 1, 1, 0, 0]); // a loss pair: LLR drops below its running minimum
    expect(b.llr).toBeLessThan(a.llr);
    expect(b.overshootLower).toBeGreaterThan(0);
    const c = sprt.update([1, 1, 0, 0, 0]); // results vanished: the correction is switched off
    expect(c.overshootLower).toBe(0);
    expect(c.overshootUpper).toBe(0);
  });

  test('trinomial input and degenerate counts', () => {
    const sprt = new SprtTest({ elo0: 0, elo1: 5, model: 'logistic' });
    const s0 = sprt.update([0, 0, 0]);
    expect(s0.decision).toBe('continue');
    expect(Number.isFinite(s0.llr)).toBe(true);
    const wins = new SprtTest({ elo0: 0, elo1: 5 });
    let status = wins.update([0, 0, 0]);
    for (let n = 1; n <= 400 && status.decision === 'continue'; n++) status = wins.update([0, 0, n]);
    expect(status.decision).toBe('H1');
    const losses = new SprtTest({ elo0: 0, elo1: 5 });
    status = losses.update([0, 0, 0]);
    for (let n = 1; n <= 400 && status.decision === 'continue'; n++) status = losses.update([n, 0, 0]);
    expect(status.decision).toBe('H0');
  });
});
