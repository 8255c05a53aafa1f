import { describe, expect, it } from 'vitest';
import { goRequestOf, parseGoCommand } from '../../../src/protocols/uci/go-command.js';
import type { RequestPosition } from '../../../src/protocols/uci/go-command.js';

const CHESS: RequestPosition = { game: 'chess', variant: 'standard', start: 'startpos', moves: ['e2e4'] };
const SHOGI: RequestPosition = { game: 'shogi', variant: 'standard', start: 'startpos', moves: ['7g7f'] };

const uci = (line: string) => goRequestOf(parseGoCommand(line.split(' ').slice(1)).command, CHESS, 'uci');
const usi = (line: string) => goRequestOf(parseGoCommand(line.split(' ').slice(1)).command, SHOGI, 'usi');
const base = { game: 'chess', variant: 'standard', start: 'startpos', moves: ['e2e4'] };
const shogiBase = { game: 'shogi', variant: 'standard', start: 'startpos', moves: ['7g7f'] };

describe('UCI go -> GoRequest', () => {
  it.each([
    [
      'go wtime 60000 btime 55000 winc 1000 binc 500 movestogo 20',
      { ...base, clock: { firstMs: 60000, secondMs: 55000, firstIncMs: 1000, secondIncMs: 500, byoyomiMs: 0, movesToGo: 20 } },
    ],
    ['go wtime 3000 btime 4000', { ...base, clock: { firstMs: 3000, secondMs: 4000, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 0 } }],
    ['go btime 4000', { ...base, clock: { firstMs: 4000, secondMs: 4000, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 0 } }],
    ['go wtime -20 btime 100', { ...base, clock: { firstMs: 0, secondMs: 100, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 0 } }],
    ['go depth 9', { ...base, limits: { depth: 9 } }],
    ['go nodes 12345', { ...base, limits: { nodes: 12345 } }],
    ['go movetime 750', { ...base, limits: { movetimeMs: 750 } }],
    ['go infinite', { ...base, limits: { infinite: true } }],
    ['go', { ...base, limits: { infinite: true } }],
    ['go mate 3', { ...base, limits: { depth: 5 } }],
    ['go depth 4 nodes 100 movetime 50', { ...base, limits: { depth: 4, nodes: 100, movetimeMs: 50 } }],
    [
      'go ponder wtime 1000 btime 2000 winc 10 binc 20',
      { ...base, clock: { firstMs: 1000, secondMs: 2000, firstIncMs: 10, secondIncMs: 20, byoyomiMs: 0 }, ponder: true },
    ],
    ['go infinite searchmoves e2e4 d2d4', { ...base, limits: { infinite: true } }],
  ])('%s', (line, expected) => {
    expect(uci(line)).toEqual(expected);
  });

  it('reads searchmoves up to the next keyword and perft', () => {
    expect(parseGoCommand('searchmoves e2e4 d2d4 depth 3'.split(' ')).command).toEqual({
      infinite: false,
      ponder: false,
      searchmoves: ['e2e4', 'd2d4'],
      depth: 3,
    });
    expect(parseGoCommand(['perft', '4']).command.perft).toBe(4);
  });

  it('skips bad values with warnings, keeping the rest', () => {
    const r = parseGoCommand('wtime abc btime 1000 depth frobnicate'.split(' '));
    expect(r.command).toEqual({ infinite: false, ponder: false, btime: 1000 });
    expect(r.warnings).toEqual([
      'go: wtime needs a number, got "abc"; ignored',
      'go: depth needs a number, got "frobnicate"; ignored',
    ]);
    const r2 = parseGoCommand('movetime depth 3'.split(' '));
    expect(r2.command).toEqual({ infinite: false, ponder: false, depth: 3 });
    expect(r2.warnings).toEqual(['go: movetime needs a number, got "depth"; ignored']);
  });
});

describe('USI go -> GoRequest', () => {
  it.each([
    // USI: btime is sente (the first player).
    ['go btime 60000 wtime 50000 byoyomi 10000', { ...shogiBase, clock: { firstMs: 60000, secondMs: 50000, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 10000 } }],
    ['go btime 0 wtime 0 byoyomi 1000', { ...shogiBase, clock: { firstMs: 0, secondMs: 0, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 1000 } }],
    ['go byoyomi 3000', { ...shogiBase, clock: { firstMs: 0, secondMs: 0, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 3000 } }],
    [
      'go btime 300000 wtime 290000 binc 10000 winc 5000',
      { ...shogiBase, clock: { firstMs: 300000, secondMs: 290000, firstIncMs: 10000, secondIncMs: 5000, byoyomiMs: 0 } },
    ],
    [
      'go ponder btime 1000 wtime 2000 byoyomi 500',
      { ...shogiBase, clock: { firstMs: 1000, secondMs: 2000, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 500 }, ponder: true },
    ],
    ['go infinite', { ...shogiBase, limits: { infinite: true } }],
    ['go mate 5000', { ...shogiBase, limits: { mate: true, movetimeMs: 5000 } }],
    ['go mate infinite', { ...shogiBase, limits: { mate: true } }],
    ['go mate', { ...shogiBase, limits: { mate: true } }],
    ['go depth 6', { ...shogiBase, limits: { depth: 6 } }],
    ['go nodes 1000', { ...shogiBase, limits: { nodes: 1000 } }],
    ['go movetime 200', { ...shogiBase, limits: { movetimeMs: 200 } }],
  ])('%s', (line, expected) => {
    expect(usi(line)).toEqual(expected);
  });
});
