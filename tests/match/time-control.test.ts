import { describe, expect, it } from 'vitest';
import { NO_TIME_CONTROL, SideClock, clockState, formatTimeControl, parseClockText, pgnTimeControl } from '../../src/match/time-control.js';

describe('parseClockText', () => {
  it('reads cutechess syntax in seconds', () => {
    expect(parseClockText('10+0.1').unwrap()).toEqual({ baseMs: 10_000, incMs: 100, movesPerSession: 0 });
    expect(parseClockText('40/60').unwrap()).toEqual({ baseMs: 60_000, incMs: 0, movesPerSession: 40 });
    expect(parseClockText('40/1:30+2').unwrap()).toEqual({ baseMs: 90_000, incMs: 2000, movesPerSession: 40 });
    expect(parseClockText('inf').unwrap()).toEqual({ incMs: 0, movesPerSession: 0 });
    expect(parseClockText('10+').isErr).toBe(true);
    expect(parseClockText('fast').isErr).toBe(true);
  });
});

describe('SideClock', () => {
  it('Fischer: allowance = remaining + margin; increment after the move', () => {
    const c = new SideClock({ ...NO_TIME_CONTROL, baseMs: 1000, incMs: 100, marginMs: 50 });
    expect(c.allowanceMs()).toBe(1050);
    expect(c.charge(400)).toEqual({ ok: true });
    expect(c.remainingMs()).toBe(700);
    expect(c.charge(760)).toEqual({ ok: false, allowedMs: 750 });
    expect(c.charge(740)).toEqual({ ok: true });
    expect(c.remainingMs()).toBe(100); // max(0, 700 - 740) + 100
  });

  it('byoyomi: spent main time, then a fresh byoyomi per move that never accumulates', () => {
    const c = new SideClock({ ...NO_TIME_CONTROL, baseMs: 1000, byoyomiMs: 500, marginMs: 0 });
    expect(c.allowanceMs()).toBe(1500);
    expect(c.charge(1200)).toEqual({ ok: true });
    expect(c.remainingMs()).toBe(0);
    expect(c.allowanceMs()).toBe(500);
    expect(c.charge(100)).toEqual({ ok: true });
    expect(c.allowanceMs()).toBe(500);
    expect(c.charge(501).ok).toBe(false);
  });

  it('moves per session: the base comes back after each session, movestogo counts down', () => {
    const c = new SideClock({ ...NO_TIME_CONTROL, baseMs: 1000, movesPerSession: 2, marginMs: 0 });
    expect(c.movesToGo()).toBe(2);
    c.charge(300);
    expect(c.movesToGo()).toBe(1);
    c.charge(300);
    expect(c.remainingMs()).toBe(1400);
    expect(c.movesToGo()).toBe(2);
  });

  it('movetime without a clock is enforced with the margin; nodes alone has no time limit', () => {
    expect(new SideClock({ ...NO_TIME_CONTROL, movetimeMs: 100, marginMs: 20 }).allowanceMs()).toBe(120);
    expect(new SideClock({ ...NO_TIME_CONTROL, nodes: 1000 }).allowanceMs()).toBeUndefined();
  });

  it('clockState names the first and second player and the mover movestogo', () => {
    const tc = { ...NO_TIME_CONTROL, baseMs: 5000, incMs: 50, movesPerSession: 40 };
    const clocks = { first: new SideClock(tc), second: new SideClock({ ...tc, baseMs: 3000 }) };
    clocks.first.charge(1000);
    expect(clockState(clocks, 'second')).toEqual({ firstMs: 4050, secondMs: 3000, firstIncMs: 50, secondIncMs: 50, byoyomiMs: 0, movesToGo: 40 });
    expect(clockState({ first: new SideClock({ ...NO_TIME_CONTROL, nodes: 1 }), second: new SideClock({ ...NO_TIME_CONTROL, nodes: 1 }) }, 'first')).toBeUndefined();
  });

  it('formats for people and for the PGN TimeControl tag', () => {
    const tc = { ...NO_TIME_CONTROL, baseMs: 10_000, incMs: 100 };
    expect(formatTimeControl(tc)).toBe('10+0.1');
    expect(pgnTimeControl(tc)).toBe('10+0.1');
    expect(pgnTimeControl({ ...NO_TIME_CONTROL, baseMs: 60_000, movesPerSession: 40 })).toBe('40/60');
    expect(pgnTimeControl({ ...NO_TIME_CONTROL, nodes: 5 })).toBe('-');
    expect(formatTimeControl({ ...NO_TIME_CONTROL, baseMs: 300_000, byoyomiMs: 10_000 })).toBe('300, byoyomi 10');
  });
});

describe('time units (shogi-server style)', () => {
  it('charges whole seconds rounded down and allows up to the end of the last second', () => {
    const c = new SideClock({ ...NO_TIME_CONTROL, baseMs: 0, byoyomiMs: 1000, marginMs: 0, unitMs: 1000 });
    expect(c.allowanceMs()).toBe(1000);
    expect(c.deadlineMs()).toBe(1999);
    expect(c.charge(1999)).toEqual({ ok: true });
    expect(c.charge(2000)).toEqual({ ok: false, allowedMs: 1000 });
    const f = new SideClock({ ...NO_TIME_CONTROL, baseMs: 10_000, incMs: 0, marginMs: 0, unitMs: 1000 });
    f.charge(2900);
    expect(f.remainingMs()).toBe(8000);
    expect(formatTimeControl({ ...NO_TIME_CONTROL, baseMs: 10_000, byoyomiMs: 1000, unitMs: 1000 })).toBe('10, byoyomi 1, charged in 1 s units');
  });
});
