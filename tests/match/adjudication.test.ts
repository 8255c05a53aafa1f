import { describe, expect, it } from 'vitest';
import { Adjudicator } from '../../src/match/adjudication.js';

describe('Adjudicator', () => {
  it('two-sided resign needs both engines to agree for movecount moves each', () => {
    const a = new Adjudicator({ resign: { moveCount: 2, score: 500, twoSided: true } });
    // first thinks it is winning (+600), second agrees it is losing (-700): the second side is lost.
    expect(a.afterMove('first', { cp: 600 }, 1, 1)).toBeUndefined();
    expect(a.afterMove('second', { cp: -700 }, 2, 1)).toBeUndefined();
    expect(a.afterMove('first', { cp: 650 }, 3, 2)).toBeUndefined();
    expect(a.afterMove('second', { mate: -5 }, 4, 2)).toEqual({ kind: 'resign', loser: 'second' });
  });

  it('two-sided resign resets when an engine disagrees', () => {
    const a = new Adjudicator({ resign: { moveCount: 1, score: 500, twoSided: true } });
    expect(a.afterMove('first', { cp: 600 }, 1, 1)).toBeUndefined();
    expect(a.afterMove('second', { cp: 100 }, 2, 1)).toBeUndefined();
    expect(a.afterMove('first', { cp: 600 }, 3, 2)).toBeUndefined();
    expect(a.afterMove('second', { cp: -600 }, 4, 2)).toEqual({ kind: 'resign', loser: 'second' });
  });

  it('one-sided resign listens to the loser only', () => {
    const a = new Adjudicator({ resign: { moveCount: 2, score: 300, twoSided: false } });
    expect(a.afterMove('first', { cp: -400 }, 1, 1)).toBeUndefined();
    expect(a.afterMove('second', { cp: 0 }, 2, 1)).toBeUndefined();
    expect(a.afterMove('first', { cp: -300 }, 3, 2)).toEqual({ kind: 'resign', loser: 'first' });
  });

  it('draw: scores near 0 for movecount moves each, from movenumber on', () => {
    const a = new Adjudicator({ draw: { moveNumber: 2, moveCount: 1, score: 10 } });
    expect(a.afterMove('first', { cp: 0 }, 1, 1)).toBeUndefined(); // before move 2
    expect(a.afterMove('second', { cp: 5 }, 2, 1)).toBeUndefined();
    expect(a.afterMove('first', { cp: -10 }, 3, 2)).toBeUndefined();
    expect(a.afterMove('second', { cp: 3 }, 4, 2)).toEqual({ kind: 'draw' });
  });

  it('a move without a score resets the counters; max moves counts plies', () => {
    const a = new Adjudicator({ draw: { moveNumber: 0, moveCount: 1, score: 10 }, maxMoves: 3 });
    expect(a.afterMove('first', { cp: 0 }, 1, 1)).toBeUndefined();
    expect(a.afterMove('second', undefined, 2, 1)).toBeUndefined();
    expect(a.afterMove('first', { cp: 0 }, 3, 2)).toBeUndefined();
    expect(a.afterMove('second', { cp: 50 }, 4, 2)).toBeUndefined();
    expect(a.afterMove('first', { cp: 50 }, 5, 3)).toBeUndefined();
    expect(a.afterMove('second', { cp: 50 }, 6, 3)).toEqual({ kind: 'max-moves' });
  });
});
