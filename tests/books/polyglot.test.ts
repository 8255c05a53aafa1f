import { describe, expect, it } from 'vitest';
import type { Chess } from 'chessops/chess';
import { parseSquare } from 'chessops/util';
import { chooseBookMove } from '../../src/books/book-choice.js';
import {
  PolyglotBook,
  decodePolyglotMove,
  encodePolyglotBook,
  encodePolyglotMove,
  polyglotMoveToRawUci,
} from '../../src/books/polyglot-book.js';
import type { BoardProbe } from '../../src/books/polyglot-book.js';
import { polyglotKey } from '../../src/games/chess/zobrist.js';
import { ChessLine } from '../../src/protocols/lichess/chess-line.js';

const START = 0x463b96181691fc9cn;

/** The Polyglot key after `moves` from the start (the key vectors of the book format page). */
const keyAfter = (moves: string, variant: 'standard' | 'chess960' = 'standard', fen = 'startpos'): bigint => {
  const line = ChessLine.create(variant, fen).unwrap();
  line.sync(moves === '' ? [] : moves.split(' ')).unwrap();
  return polyglotKey(line.position() as unknown as Chess);
};

const probeOf = (line: ChessLine): BoardProbe => ({
  pieceAt: (sq) => {
    const s = parseSquare(sq);
    return s === undefined ? undefined : line.position().board.get(s);
  },
});

describe('Polyglot keys', () => {
  it('match the documented key vectors', () => {
    expect(keyAfter('')).toBe(START);
    expect(keyAfter('e2e4')).toBe(0x823c9b50fd114196n);
    expect(keyAfter('e2e4 d7d5')).toBe(0x0756b94461c50fb0n);
    expect(keyAfter('e2e4 d7d5 e4e5 f7f5')).toBe(0x22a48b5a8e47ff78n);
    expect(keyAfter('e2e4 d7d5 e4e5 f7f5 e1e2 e8f7')).toBe(0x00fdd303c946bdd9n);
  });
});

describe('Polyglot book file', () => {
  it('packs entries as 16 big-endian bytes (start position, e2e4, weight 10)', () => {
    const bytes = encodePolyglotBook([{ key: START, move: encodePolyglotMove('e2e4'), weight: 10, learn: 0 }]);
    expect(Buffer.from(bytes).toString('hex')).toBe('463b96181691fc9c' + '031c' + '000a' + '00000000');
    expect(polyglotMoveToRawUci(0x031c)).toBe('e2e4');
    // Promotion bits (4 = queen) sit above the squares.
    expect(polyglotMoveToRawUci(encodePolyglotMove('a7a8q'))).toBe('a7a8q');
    expect(encodePolyglotMove('a7a8q') >> 12).toBe(4);
  });

  it('finds every entry of a key by binary search, in file order, and nothing for an absent key', () => {
    const entries = [
      { key: 5n, move: encodePolyglotMove('a2a3'), weight: 1, learn: 0 },
      { key: START, move: encodePolyglotMove('e2e4'), weight: 10, learn: 0 },
      { key: START, move: encodePolyglotMove('d2d4'), weight: 7, learn: 0 },
      { key: 0xffffffffffffffffn, move: encodePolyglotMove('h2h3'), weight: 2, learn: 3 },
      { key: 0x823c9b50fd114196n, move: encodePolyglotMove('c7c5'), weight: 4, learn: 0 },
    ];
    const book = new PolyglotBook(encodePolyglotBook(entries));
    expect(book.size).toBe(5);
    expect(book.entries(START).map((e) => [polyglotMoveToRawUci(e.move), e.weight])).toEqual([
      ['e2e4', 10],
      ['d2d4', 7],
    ]);
    expect(book.entries(0xffffffffffffffffn)).toEqual([{ key: 0xffffffffffffffffn, move: encodePolyglotMove('h2h3'), weight: 2, learn: 3 }]);
    expect(book.entries(6n)).toEqual([]);
    expect(() => new PolyglotBook(new Uint8Array(17))).toThrow(/multiple of 16/);
  });

  it('turns king-takes-rook castling into e1g1 in standard chess and keeps it in Chess960', () => {
    const fen = 'r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1';
    const line = ChessLine.create('standard', fen).unwrap();
    expect(decodePolyglotMove(encodePolyglotMove('e1h1'), probeOf(line), false)).toBe('e1g1');
    expect(decodePolyglotMove(encodePolyglotMove('e1a1'), probeOf(line), false)).toBe('e1c1');
    expect(decodePolyglotMove(encodePolyglotMove('e1h1'), probeOf(line), true)).toBe('e1h1');
    // An ordinary king move is left alone.
    expect(decodePolyglotMove(encodePolyglotMove('e1f1'), probeOf(line), false)).toBe('e1f1');
    const black = ChessLine.create('standard', 'r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1').unwrap();
    expect(decodePolyglotMove(encodePolyglotMove('e8h8'), probeOf(black), false)).toBe('e8g8');
  });
});

describe('choosing a book move', () => {
  const one = [
    { move: 'e2e4', weight: 10 },
    { move: 'd2d4', weight: 30 },
    { move: 'c2c4', weight: 1 },
  ];
  const fixed = (r: number) => () => r;

  it('best_move takes the heaviest; uniform_random and weighted_random follow the random draw', () => {
    expect(chooseBookMove([one], { selection: 'best_move', minWeight: 0, normalization: 'none', random: fixed(0) })).toBe('d2d4');
    expect(chooseBookMove([one], { selection: 'uniform_random', minWeight: 0, normalization: 'none', random: fixed(0.7) })).toBe('c2c4');
    // Weighted: cumulative 10, 40, 41 of 41.
    expect(chooseBookMove([one], { selection: 'weighted_random', minWeight: 0, normalization: 'none', random: fixed(0.2) })).toBe('e2e4');
    expect(chooseBookMove([one], { selection: 'weighted_random', minWeight: 0, normalization: 'none', random: fixed(0.5) })).toBe('d2d4');
    expect(chooseBookMove([one], { selection: 'weighted_random', minWeight: 0, normalization: 'none', random: fixed(0.99) })).toBe('c2c4');
  });

  it('leaves out moves under minWeight, and finds nothing when all are under it', () => {
    expect(chooseBookMove([one], { selection: 'uniform_random', minWeight: 5, normalization: 'none', random: fixed(0.99) })).toBe('d2d4');
    expect(chooseBookMove([one], { selection: 'best_move', minWeight: 31, normalization: 'none', random: fixed(0) })).toBeUndefined();
  });

  it('normalization none takes the first book with a move; max and sum merge the books', () => {
    const a = [
      { move: 'e2e4', weight: 100 },
      { move: 'd2d4', weight: 50 },
    ];
    const b = [
      { move: 'd2d4', weight: 2 },
      { move: 'g1f3', weight: 1 },
    ];
    const opts = { selection: 'best_move', minWeight: 0, random: fixed(0) } as const;
    expect(chooseBookMove([[], a, b], { ...opts, normalization: 'none' })).toBe('e2e4');
    // max: e4 1.0; d4 0.5 + 1.0 = 1.5; Nf3 0.5.
    expect(chooseBookMove([a, b], { ...opts, normalization: 'max' })).toBe('d2d4');
    // sum: e4 100/150 = 0.667; d4 50/150 + 2/3 = 1.0; Nf3 1/3.
    expect(chooseBookMove([a, b], { ...opts, normalization: 'sum' })).toBe('d2d4');
    expect(chooseBookMove([[{ move: 'e2e4', weight: 100 }], [{ move: 'g1f3', weight: 100 }, { move: 'd2d4', weight: 1 }]], { ...opts, normalization: 'sum' })).toBe('e2e4');
  });
});
