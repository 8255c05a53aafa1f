import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { makeSfen } from 'shogiops/sfen';
import { parseCsaHeader, parseCsaMovesOrDrops } from 'shogiops/notation/csa';
import { parseCsaPosition } from '../../../src/games/shogi/csa-position.js';
import { STARTPOS_SFEN } from '../../../src/games/shogi/sfen.js';
import { STANDARD_ROWS } from '../../fakes/csa-server/rules.js';
import { errorOf } from './helpers.js';

// Recorded from a real shogi-server run on loopback (tests/fixtures/README.md).
const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/csa/${name}`, import.meta.url), 'utf8');

/** Lines one player received between BEGIN Position and END Position in a transcript. */
function positionBlock(transcript: string, player: string): string[] {
  const received = transcript
    .split('\n')
    .map((l) => /^\s*[\d.]+\s+(\S+)\s+<<\s+"(.*)"$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null && m[1] === player)
    .map((m) => m[2]!);
  return received.slice(received.indexOf('BEGIN Position') + 1, received.indexOf('END Position'));
}

/** Moves (with their ,T) one player received after START. */
function receivedMoves(transcript: string, player: string): string[] {
  return transcript
    .split('\n')
    .map((l) => /^\s*[\d.]+\s+(\S+)\s+<<\s+"([+-]\d{4}[A-Z]{2},T\d+)"$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null && m[1] === player)
    .map((m) => m[2]!);
}

/** Board, turn and hands of an SFEN (the move number differs between writers). */
const position = (sfen: string): string => sfen.split(' ').slice(0, 3).join(' ');

describe('Game_Summary Position blocks from shogi-server transcripts', () => {
  test('floodgate-300-10F: the even start position', () => {
    const block = positionBlock(fixture('transcript-floodgate-300-10F.txt'), 'bob');
    expect(block).toHaveLength(10);
    const p = parseCsaPosition(block).unwrap();
    expect(p.startSfen).toBe(STARTPOS_SFEN);
    expect(p.game.toText()).toBe(STARTPOS_SFEN);
    expect(p.moves).toEqual([]);
  });

  test('resuming: the block followed by the echoed moves "+7776FU,T1" ...', () => {
    const t = fixture('transcript-floodgate-300-10F.txt');
    const moves = receivedMoves(t, 'bob');
    expect(moves).toEqual(['+7776FU,T1', '-3334FU,T0', '+2726FU,T2', '-8384FU,T0']);
    const p = parseCsaPosition([...positionBlock(t, 'bob'), ...moves], { maxMoves: 256 }).unwrap();
    expect(p.times).toEqual([1, 0, 2, 0]);
    expect(p.moves.map((m) => p.game.moveToText(m))).toEqual(['7g7f', '3c3d', '2g2f', '8c8d']);
    // independently: shogiops' CSA header parser and move replay
    const ops = parseCsaHeader(positionBlock(t, 'bob').join('\n')).unwrap();
    for (const md of parseCsaMovesOrDrops(ops, moves.map((m) => m.split(',')[0]!))) ops.play(md);
    expect(p.game.toText()).toBe(makeSfen(ops));
    expect(p.game.toText()).toBe('lnsgkgsnl/1r5b1/p1pppp1pp/1p4p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL b - 5');
    expect(p.game.maxMoves).toBe(256);
  });

  test('the move the server judged #ILLEGAL_MOVE is illegal here too', () => {
    const t = fixture('transcript-illegal.txt');
    const p = parseCsaPosition(positionBlock(t, 'bob')).unwrap();
    expect(t).toContain('bob    >> "+5554FU"');
    const r = p.game.parseCsaMove('+5554FU');
    expect(errorOf(r)?.code).toBe('ERR_ILLEGAL_MOVE');
    expect(errorOf(r)?.message).toMatch(/"\+5554FU".*no piece on 55/);
  });

  test('the %KACHI the server judged illegal is not a legal declaration here either', () => {
    const t = fixture('transcript-kachi.txt');
    expect(t).toContain('bob    >> "%KACHI"');
    expect(t).toContain('bob    << "#ILLEGAL_MOVE"');
    const p = parseCsaPosition(positionBlock(t, 'bob')).unwrap();
    expect(p.game.canDeclareWin()).toBe(false);
  });
});

describe('shogi-server game records replayed to the server\'s own final board dump', () => {
  // Each record ends with the server's dump of the final position as comment lines ('P1 ... '+).
  // The expected SFEN is that dump read by shogiops' parseCsaHeader (an independent parser).
  test.each([
    ['game-fairy-vs-fairy.csa', 56],
    ['game-shogihome-bridge-vs-minibridge.csa', 52],
  ] as const)('%s', (name, plies) => {
    const record = fixture(name).split('\n');
    const end = record.findIndex((l) => l.startsWith('%'));
    expect(end).toBeGreaterThan(0);
    const dump = record
      .slice(end + 1)
      .filter((l) => /^'(P[1-9+-]|[+-]$)/.test(l))
      .map((l) => l.slice(1));
    const expected = position(makeSfen(parseCsaHeader(dump.join('\n')).unwrap()));

    // 1. the header's position block, then the moves one by one through parseCsaMove
    const header = record.slice(0, end).filter((l) => /^(P[1-9]|[+-]$)/.test(l));
    const p = parseCsaPosition(header).unwrap();
    expect(p.startSfen).toBe(STARTPOS_SFEN);
    const g = p.game;
    const moveLines = record.slice(0, end).filter((l) => /^[+-]\d{4}[A-Z]{2}$/.test(l));
    expect(moveLines).toHaveLength(plies);
    for (const line of moveLines) g.play(g.parseCsaMove(line).unwrap());
    expect(position(g.toText())).toBe(expected);
    expect(g.toText()).toBe(`${expected} ${plies + 1}`);
    expect(g.key()).toBe(g.recomputeKey());
    expect(g.outcome()).toBeUndefined(); // both games ended on time

    // 2. the whole record up to the result line as one block (V2, N+, $, comments and T lines skipped/read)
    const whole = parseCsaPosition(record.slice(0, end), { maxMoves: 256 }).unwrap();
    expect(whole.game.toText()).toBe(g.toText());
    expect(whole.moves).toHaveLength(plies);
    expect(whole.times.every((t) => typeof t === 'number')).toBe(true);

    // 3. shogiops' own replay agrees
    const ops = parseCsaHeader(header.join('\n')).unwrap();
    const mds = parseCsaMovesOrDrops(ops, moveLines);
    expect(mds).toHaveLength(plies);
    for (const md of mds) ops.play(md);
    expect(position(makeSfen(ops))).toBe(expected);
  });
});

describe('CSA position syntax', () => {
  const EVEN = STANDARD_ROWS;

  test('PI and PI with a two-piece handicap', () => {
    expect(parseCsaPosition(['PI', '+']).unwrap().startSfen).toBe(STARTPOS_SFEN);
    const h = parseCsaPosition('PI82HI22KA\n-\n-5142OU\n').unwrap();
    expect(h.startSfen).toBe('lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1');
    expect(h.game.toText()).toBe('lnsg1gsnl/5k3/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2');
  });

  test('rows with trailing blanks trimmed, CRLF line ends, hands, side to move', () => {
    const rows = EVEN.map((r) => r.trimEnd());
    rows[1] = 'P2 * -HI *  *  *  *  *  *  *';
    rows[2] = 'P3-FU-FU-FU-FU-FU-FU * -FU-FU';
    const p = parseCsaPosition([...rows, 'P+00KA00FU', '-'].join('\r\n')).unwrap();
    expect(p.startSfen).toBe('lnsgkgsnl/1r7/pppppp1pp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w BP 1');
  });

  test('piece-by-piece placement and 00AL (a mating problem: gote holds every other piece)', () => {
    const p = parseCsaPosition(['P-11OU', 'P+13KI', 'P+59OU', 'P+00FU', 'P-00AL', '+']).unwrap();
    expect(p.startSfen).toBe('8k/9/8G/9/9/9/9/9/4K4 b P2r2b3g4s4n4l17p 1');
  });

  const bad: [string, string[], RegExp][] = [
    ['a row missing', [...EVEN.slice(0, 8), '+'], /P9 missing/],
    ['a bad cell', [EVEN[0]!.replace('-KE', '-XX'), ...EVEN.slice(1), '+'], /bad cell "-XX"/],
    ['a short row', [EVEN[0]!, 'P2 * -HI', ...EVEN.slice(2), '+'], /bad cell "   " for square 72/],
    ['a row too long', [`${EVEN[0]!} * `, ...EVEN.slice(1), '+'], /nine 3-character cells/],
    ['a row twice', [...EVEN, 'P1 *  *  *  *  *  *  *  *  * ', '+'], /given twice/],
    ['no side to move', [...EVEN], /no side-to-move/],
    ['two sides to move', [...EVEN, '+', '-'], /given twice/],
    ['PI with rows', ['PI', ...EVEN, '+'], /both PI and board rows/],
    ['PI removing a missing piece', ['PI55FU', '+'], /cannot remove "55FU"/],
    ['a king in hand', [...EVEN, 'P+00OU', '+'], /"00OU" cannot be in hand/],
    ['an occupied square', [...EVEN, 'P+11FU', '+'], /11 is already occupied/],
    ['too many pieces', [...EVEN, 'P+00HI', '+'], /3 rooks/],
    ['an illegal move', [...EVEN, '+', '+7776FU', '-7776FU'], /move 2:.*"-7776FU"/],
    ['a move from the wrong side', [...EVEN, '+', '-3334FU'], /move 1:.*sente/],
    ['a special move', [...EVEN, '+', '%TORYO'], /not a position line/],
    ['a stray time', [...EVEN, '+', 'T3'], /time without a move/],
    ['garbage', [...EVEN, 'hello', '+'], /line 10 "hello"/],
    ['a missing king', ['P+59OU', '+'], /gote has 0 kings/],
  ];
  test.each(bad)('Err for %s', (_, lines, reason) => {
    const r = parseCsaPosition(lines);
    expect(r.isErr).toBe(true);
    expect(errorOf(r)?.code).toBe('ERR_CSA_POSITION');
    expect(errorOf(r)?.message).toMatch(reason);
  });
});
