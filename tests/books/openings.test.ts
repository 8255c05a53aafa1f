import { describe, expect, it } from 'vitest';
import { loadOpenings, openingSchedule, parseOpenings, splitOpeningLine } from '../../src/books/openings.js';

describe('opening files', () => {
  it('reads EPD, FEN and startpos lines for chess, normalising moves', () => {
    const text = [
      '# comment',
      'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id "x";',
      'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
      'startpos moves e2e4 e7e5 g1f3',
      'position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1',
      '',
    ].join('\n');
    const o = parseOpenings('chess', 'standard', text, 'test').unwrap();
    expect(o.map((x) => [x.start, x.moves, x.source])).toEqual([
      ['rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', [], 'test:2'],
      ['rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', [], 'test:3'],
      ['startpos', ['e2e4', 'e7e5', 'g1f3'], 'test:4'],
      ['r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', ['e1g1'], 'test:5'],
    ]);
  });

  it('rejects an illegal opening move with the file and line', () => {
    const r = parseOpenings('chess', 'standard', 'startpos moves e2e5', 'book.txt');
    expect(r.isErr && r.error.message.startsWith('book.txt:1: ')).toBe(true);
  });

  it('reads shogi SFEN and startpos lines', () => {
    expect(splitOpeningLine('shogi', 'sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f').unwrap()).toEqual({
      start: 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1',
      moves: ['7g7f'],
    });
    expect(splitOpeningLine('shogi', 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -').unwrap().start).toBe(
      'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1',
    );
  });

  it('loads all of taya36', () => {
    const o = loadOpenings('shogi', 'standard', 'data/openings/taya36.sfen').unwrap();
    expect(o.length).toBe(1957);
    expect(o[0]!.moves.length).toBe(36);
    expect(o[0]!.moves.slice(0, 3)).toEqual(['2g2f', '8c8d', '6i7h']);
  });

  it('schedules a seeded shuffle, cycling', () => {
    const list = ['a', 'b', 'c'].map((s) => ({ start: 'startpos', moves: [], source: s }));
    expect(openingSchedule(list, 5, 'sequential', 1).map((o) => o.source)).toEqual(['a', 'b', 'c', 'a', 'b']);
    const r1 = openingSchedule(list, 6, 'random', 42).map((o) => o.source);
    expect(r1).toEqual(openingSchedule(list, 6, 'random', 42).map((o) => o.source));
    expect([...r1.slice(0, 3)].sort()).toEqual(['a', 'b', 'c']);
    expect(r1.slice(3)).toEqual(r1.slice(0, 3));
  });
});
