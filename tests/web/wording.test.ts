/**
 * What the pages say (web/page/wording.ts) and how they write moves (web/page/notation.ts): plain
 * result words, the strength levels matching the server's node budgets, scores from White's / Sente's
 * side, the eval bar's share, SAN and western / Japanese shogi notation, and lines that stop where
 * they no longer replay (never a mix of SAN and UCI).
 */
import { describe, expect, it } from 'vitest';
import { LEVEL_NODES } from '../../src/web/messages.js';
import { CHESS_START, SHOGI_START, lineText, replay, startText } from '../../web/page/notation.js';
import { LEVELS, evalShare, formatClock, formatScore, playResult, scoreForFirst, watchResult } from '../../web/page/wording.js';

describe('the pages\' words', () => {
  it('names every strength level the server offers, with its node budget', () => {
    expect(LEVELS.map((l) => l.nodes)).toEqual([...LEVEL_NODES]);
    expect(LEVELS[0]!.name).toBe('Beginner');
    expect(LEVELS.at(-1)!.name).toBe('Full strength');
    for (const l of LEVELS) if (l.nodes !== undefined) expect(l.means).toContain(l.nodes.toLocaleString('en-US'));
  });

  it('says results in plain words, on the play page and on /watch', () => {
    expect(playResult({ winner: 'second', reason: 'timeout' }, 'first')).toBe('Kishi wins on time');
    expect(playResult({ winner: 'first', reason: 'checkmate' }, 'first')).toBe('You win by checkmate');
    expect(playResult({ reason: 'draw-agreed' }, 'first')).toBe('Draw by agreement');
    expect(playResult({ reason: 'sennichite' }, 'second')).toBe('Draw by repetition (sennichite)');
    expect(playResult({ reason: 'abandoned' }, 'second')).toBe('Game abandoned');
    expect(watchResult('first', 'first', 'outoftime')).toBe('Kishi won on time');
    expect(watchResult('second', 'first', 'mate')).toBe('Kishi lost by checkmate');
    expect(watchResult(null, 'second', 'draw')).toBe('Draw by agreement');
    expect(watchResult(null, 'second', 'aborted')).toBe('Aborted');
    // A status this page does not know is still shown, as it came.
    expect(watchResult('first', 'first', 'newThing')).toBe('Kishi won (newThing)');
  });

  it('turns Kishi\'s scores to the first side\'s view and sizes the eval bar', () => {
    expect(scoreForFirst({ cp: 120 }, 'second')).toEqual({ cp: -120 });
    expect(scoreForFirst({ mate: 3 }, 'second')).toEqual({ mate: -3 });
    expect(scoreForFirst({ cp: 120 }, 'first')).toEqual({ cp: 120 });
    expect(formatScore({ cp: -120 })).toBe('-1.20');
    expect(formatScore({ cp: 35 })).toBe('+0.35');
    expect(formatScore({ mate: 5 })).toBe('#3');
    expect(formatScore({ mate: -2 })).toBe('#-1');
    expect(evalShare('chess', { cp: 0 })).toBe(0.5);
    expect(evalShare('chess', { mate: 1 })).toBe(1);
    expect(evalShare('chess', { mate: -1 })).toBe(0);
    // Lichess's curve: +3 pawns is about 75% of the bar; shogi's flatter curve gives +3.00 less.
    expect(evalShare('chess', { cp: 300 })).toBeCloseTo(0.75, 2);
    expect(evalShare('shogi', { cp: 300 })).toBeLessThan(0.6);
    expect(evalShare('shogi', { cp: -300 })).toBeGreaterThan(0.4);
    expect(formatClock(65_000)).toBe('1:05');
    expect(formatClock(9_450)).toBe('0:09.4');
    expect(formatClock(-5)).toBe('0:00.0');
  });
});

describe('the pages\' notation', () => {
  it('writes chess in SAN with captures and checks, and keeps each position', () => {
    const plies = replay('chess', CHESS_START, ['e2e4', 'f7f5', 'e4f5', 'g7g5', 'd1h5']);
    expect(plies.map((p) => p.text)).toEqual(['e4', 'f5', 'exf5', 'g5', 'Qh5#']);
    expect(plies.map((p) => [p.capture, p.check])).toEqual([[false, false], [false, false], [true, false], [false, false], [false, true]]);
    expect(plies[0]!.position).toBe('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
  });

  it('writes shogi in western or Japanese notation, drops and promotions included (打 only where a board piece could also go)', () => {
    const moves = ['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e'];
    expect(replay('shogi', SHOGI_START, moves).map((p) => p.text)).toEqual(['P-76', 'P-34', 'Bx22+', 'Sx22', 'B*45']);
    expect(replay('shogi', SHOGI_START, moves, 'japanese').map((p) => p.text)).toEqual(['☗７六歩', '☖３四歩', '☗２二角成', '☖同　銀', '☗４五角']);
    expect(replay('shogi', SHOGI_START, moves).map((p) => p.capture)).toEqual([false, false, true, true, false]);
  });

  it('stops a line where it no longer replays, rather than mixing in raw moves', () => {
    // A line from another position (a taken-back ply's) replays as far as it is legal here.
    expect(lineText('chess', CHESS_START, ['e2e4', 'e7e5', 'e4e5'])).toBe('e4 e5');
    expect(lineText('chess', CHESS_START, ['e7e5'])).toBe('');
    expect(lineText('shogi', startText('shogi', 'startpos'), ['7g7f', 'zz'])).toBe('P-76');
    expect(startText('chess', 'startpos')).toBe(CHESS_START);
  });
});
