/**
 * Perft of the chess adapter against published counts (tables in fixtures/perft-chess.ts), plus
 * cross-checks against chessops' own `debug.perft` and through the `GameState` interface.
 */
import { describe, expect, it } from 'vitest';
import { ChessGame } from '../../../src/games/chess/chess-game.js';
import { chessopsPerft, divide, perft, perftGameState } from '../../../src/games/chess/perft.js';
import { CHESS960_PERFT, SPECIAL_PERFT, STANDARD_PERFT } from './fixtures/perft-chess.js';

const game = (fen: string, chess960 = false): ChessGame => ChessGame.fromFen(fen, { chess960 }).unwrap();

describe('perft, standard positions', () => {
  it.each(STANDARD_PERFT.map(([id, fen, ...nodes]) => ({ id, fen, nodes })))('$id', ({ fen, nodes }) => {
    const g = game(fen);
    nodes.forEach((n, i) => expect(perft(g, i + 1)).toBe(n));
    expect(g.toText()).toBe(game(fen).toText()); // untouched
  });
});

describe('perft, special cases', () => {
  it.each(SPECIAL_PERFT)('%s', (_id, fen, depth, nodes) => {
    expect(perft(game(fen), depth)).toBe(nodes);
  });
});

describe('perft, Chess960', () => {
  it.each(CHESS960_PERFT.map(([id, fen, ...nodes]) => ({ id, fen, nodes })))('$id', ({ fen, nodes }) => {
    const g = game(fen, true);
    nodes.forEach((n, i) => expect(perft(g, i + 1)).toBe(n));
  });
});

describe('cross-checks', () => {
  const all: readonly (readonly [string, string, boolean])[] = [
    ...STANDARD_PERFT.map(([id, fen]) => [id, fen, false] as const),
    ...SPECIAL_PERFT.map(([id, fen]) => [id, fen, false] as const),
    ...CHESS960_PERFT.map(([id, fen]) => [id, fen, true] as const),
  ];

  it.each(all)('%s: equals chessops debug.perft at depth 3', (_id, fen, chess960) => {
    const g = game(fen, chess960);
    expect(perft(g, 3)).toBe(chessopsPerft(g, 3));
  });

  it.each([
    ['kiwipete', 3, false],
    ['position-4', 3, false],
    ['position-5', 3, false],
    ['960-bnqnrbkr', 3, true],
    ['960-nnrkbbrq', 3, true],
  ] as const)('%s: perft through legalMoves/play/undo at depth %i', (id, depth, chess960) => {
    const row = [...STANDARD_PERFT, ...CHESS960_PERFT].find(r => r[0] === id)!;
    const g = game(row[1], chess960);
    const before = g.toText();
    const key = g.key();
    expect(perftGameState(g, depth)).toBe(row[1 + depth]);
    expect(g.toText()).toBe(before);
    expect(g.key()).toBe(key);
    expect(g.plies()).toBe(0);
  });

  it('divide sums to perft and names each root move once', () => {
    const g = game(STANDARD_PERFT[1]![1]);
    const split = divide(g, 3);
    expect(split).toHaveLength(48);
    expect(split.reduce((sum, e) => sum + e.nodes, 0)).toBe(97862);
    expect(new Set(split.map(e => e.uci)).size).toBe(48);
    expect(split.find(e => e.uci === 'e1g1')?.nodes).toBe(2059);
    expect(split.find(e => e.uci === 'e1c1')?.nodes).toBe(1887);
    expect(divide(ChessGame.standard(), 1).every(e => e.nodes === 1)).toBe(true);
    expect(perft(g, 0)).toBe(1);
  });
});
