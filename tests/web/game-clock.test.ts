import { describe, expect, it } from 'vitest';
import { GameClock } from '../../src/web/game-clock.js';

describe('web game clock', () => {
  it('charges the mover and adds the Fischer increment', () => {
    const c = new GameClock({ initialMs: 60_000, incrementMs: 2_000, byoyomiMs: 0 });
    c.start('first', 0);
    expect(c.press(5_000)).toBe(true);
    expect(c.timeLeft('first', 5_000)).toBe(57_000);
    expect(c.runningSide()).toBe('second');
    expect(c.timeLeft('second', 8_000)).toBe(57_000);
    expect(c.state(8_000)).toEqual({ firstMs: 57_000, secondMs: 57_000, firstIncMs: 2_000, secondIncMs: 2_000, byoyomiMs: 0 });
  });

  it('flags a side whose main time is spent without byoyomi', () => {
    const c = new GameClock({ initialMs: 1_000, incrementMs: 0, byoyomiMs: 0 });
    c.start('first', 0);
    expect(c.flagged(1_000)).toBe(false);
    expect(c.msToFlag(400)).toBe(600);
    expect(c.flagged(1_001)).toBe(true);
    expect(c.press(1_001)).toBe(false);
  });

  it('gives a fresh byoyomi period every move once the main time is spent', () => {
    const c = new GameClock({ initialMs: 1_000, incrementMs: 0, byoyomiMs: 5_000 });
    c.start('first', 0);
    // 1 s main time + 4 s of byoyomi: in time.
    expect(c.view(3_000)).toEqual({ firstMs: 0, secondMs: 1_000, byoyomiLeftMs: 3_000, byoyomiSide: 'first', running: 'first' });
    expect(c.press(5_000)).toBe(true);
    expect(c.timeLeft('first', 5_000)).toBe(0);
    c.press(5_500); // second moves in its main time
    // first again: only the byoyomi period, afresh.
    expect(c.msToFlag(5_500)).toBe(5_000);
    expect(c.flagged(10_400)).toBe(false);
    expect(c.flagged(10_501)).toBe(true);
  });

  it('stops charging once stopped', () => {
    const c = new GameClock({ initialMs: 10_000, incrementMs: 0, byoyomiMs: 0 });
    c.start('second', 0);
    c.stop(4_000);
    expect(c.timeLeft('second', 9_000)).toBe(6_000);
    expect(c.flagged(100_000)).toBe(false);
    expect(c.view(9_000).running).toBeUndefined();
  });

  it('shows the empty byoyomi period of a side that lost on time in it, a fresh one to the other', () => {
    const c = new GameClock({ initialMs: 1_000, incrementMs: 0, byoyomiMs: 5_000 });
    c.start('first', 0);
    expect(c.flagged(6_001)).toBe(true);
    c.stop(6_001);
    expect(c.view(7_000)).toEqual({ firstMs: 0, secondMs: 1_000, byoyomiLeftMs: 0, byoyomiSide: 'first' });
    // Stopped in its main time: no byoyomi shown; a new start forgets the stopped period.
    c.start('second', 7_000);
    c.stop(7_500);
    expect(c.view(8_000)).toEqual({ firstMs: 0, secondMs: 500 });
  });
});
