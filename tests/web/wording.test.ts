/**
 * What the pages say (web/page/wording.ts) and how they write moves (web/page/notation.ts): plain
 * result words, the strength levels matching the server's node budgets, scores from White's / Sente's
 * side, the eval bar's share, SAN and western / Japanese shogi notation, and lines that stop where
 * they no longer replay (never a mix of SAN and UCI); positions and games pasted for analysis (FEN,
 * PGN, SFEN, KIF, CSA: the records the page itself writes read back).
 */
import { describe, expect, it } from 'vitest';
import { csaOf, kifOf, pgnOf } from '../../src/web/game-records.js';
import type { RecordData } from '../../src/web/game-records.js';
import { LEVEL_NODES } from '../../src/web/messages.js';
import { importGame } from '../../web/page/import.js';
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

describe('a position or game pasted for analysis', () => {
  const record = (game: 'chess' | 'shogi', moves: string[]): RecordData => ({
    game,
    names: { first: 'Ann', second: 'Kishi' },
    control: { initialMs: 60_000, incrementMs: 0, byoyomiMs: 0 },
    moves,
    result: { winner: 'first', reason: 'resign' },
    startedAt: new Date('2026-01-02T03:04:05Z'),
  });

  it('reads the PGN, KIF and CSA records the page writes back to their moves', () => {
    const chess = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'e1e2'];
    expect(importGame('chess', pgnOf(record('chess', chess)).unwrap())).toEqual({ ok: true, value: { start: CHESS_START, moves: chess } });
    const shogi = ['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e', '8c8d', '4e3d'];
    expect(importGame('shogi', kifOf(record('shogi', shogi)).unwrap())).toEqual({ ok: true, value: { start: SHOGI_START, moves: shogi } });
    expect(importGame('shogi', csaOf(record('shogi', shogi)).unwrap())).toEqual({ ok: true, value: { start: SHOGI_START, moves: shogi } });
  });

  it('reads a FEN or an SFEN as a position without moves, and says what is wrong otherwise', () => {
    const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
    expect(importGame('chess', fen)).toEqual({ ok: true, value: { start: fen, moves: [] } });
    const sfen = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2';
    expect(importGame('shogi', ` ${sfen}\n`)).toEqual({ ok: true, value: { start: sfen, moves: [] } });
    expect(importGame('chess', '')).toEqual({ ok: false, error: 'paste a position or a game first' });
    expect(importGame('chess', 'hello')).toEqual({ ok: false, error: 'not a FEN or a PGN game' });
    expect(importGame('chess', '1. e4 e5 2. Ke3')).toEqual({ ok: false, error: 'move 3 (Ke3) is not legal there' });
    expect(importGame('shogi', 'hello')).toEqual({ ok: false, error: 'not an SFEN, a KIF or a CSA game' });
  });
});

