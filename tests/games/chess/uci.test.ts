/**
 * UCI move text: both castling notations in and out (standard and Chess960), round trips over
 * random games, promotions, and clear errors for malformed or illegal moves.
 */
import { describe, expect, it } from 'vitest';
import { ChessGame } from '../../../src/games/chess/chess-game.js';
import { walkRandomGames } from './random-games.js';

const parsed = (game: ChessGame, text: string): string => {
  const move = game.parseMove(text);
  if (move.isErr) throw move.error;
  return `${move.value.from}-${move.value.to}${move.value.promotion ? `=${move.value.promotion}` : ''}`;
};

describe('castling in standard chess', () => {
  const game = ChessGame.fromFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1').unwrap();

  it('parses king-to and king-takes-rook forms to the same internal move (king takes rook)', () => {
    expect(parsed(game, 'e1g1')).toBe('4-7');
    expect(parsed(game, 'e1h1')).toBe('4-7');
    expect(parsed(game, 'e1c1')).toBe('4-0');
    expect(parsed(game, 'e1a1')).toBe('4-0');
  });

  it('writes e1g1 by default and e1h1 on request', () => {
    const short = game.parseMove('e1g1').unwrap();
    const long = game.parseMove('e1c1').unwrap();
    expect(game.moveToText(short)).toBe('e1g1');
    expect(game.moveToText(long)).toBe('e1c1');
    expect(game.moveToUci(short, 'king-takes-rook')).toBe('e1h1');
    expect(game.moveToUci(long, 'king-takes-rook')).toBe('e1a1');
    const rookStyle = ChessGame.fromFen(game.toText(), { castling: 'king-takes-rook' }).unwrap();
    expect(rookStyle.moveToText(short)).toBe('e1h1');
  });

  it('plays castling from either form with the same result', () => {
    const a = game.clone();
    const b = game.clone();
    a.playUci('e1g1').unwrap();
    b.playUci('e1h1').unwrap();
    expect(a.toText()).toBe('r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1');
    expect(b.toText()).toBe(a.toText());
    expect(a.key()).toBe(b.key());
    a.playUci('e8c8').unwrap();
    expect(a.toText()).toBe('2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2');
  });

  it('rejects castling through check or out of the rights', () => {
    const attacked = ChessGame.fromFen('r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1').unwrap();
    // The rook on f2 attacks f1 (and gives no check to e1).
    const err = attacked.parseMove('e1g1');
    expect(err.isErr && err.error.code).toBe('ERR_ILLEGAL_MOVE');
    expect(err.isErr && err.error.message).toMatch(/castling with the king to g1 is not legal here/);
    const err2 = attacked.parseMove('e1h1');
    expect(err2.isErr && err2.error.message).toMatch(/castling with the rook on h1 is not legal here/);
    expect(attacked.parseMove('e1c1').isOk).toBe(true);
    const noRights = ChessGame.fromFen('r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1').unwrap();
    expect(noRights.parseMove('e1g1').isErr).toBe(true);
    expect(noRights.parseMove('e1h1').isErr).toBe(true);
  });
});

describe('castling in Chess960', () => {
  it('writes king takes rook by default and parses both forms where unambiguous', () => {
    // King f1, rooks b1 and h1.
    const game = ChessGame.fromFen('1r3k1r/8/8/8/8/8/8/1R3K1R w HBhb - 0 1', { chess960: true }).unwrap();
    const long = game.parseMove('f1b1').unwrap();
    expect(long).toEqual({ from: 5, to: 1 });
    expect(game.moveToText(long)).toBe('f1b1');
    // King-to form for the long side: the king goes f1 -> c1, not an ordinary king step.
    expect(game.parseMove('f1c1').unwrap()).toEqual({ from: 5, to: 1 });
    expect(game.moveToUci(long, 'king-to')).toBe('f1c1');
    const afterLong = game.clone();
    afterLong.play(long);
    expect(afterLong.toText()).toBe('1r3k1r/8/8/8/8/8/8/2KR3R b kq - 1 1'); // X-FEN: outermost rooks
  });

  it('reads the ambiguous king-to text as the king step, and writes castling so that it parses back', () => {
    // King f1, rook h1: castling short puts the king on g1, exactly where Kf1-g1 goes.
    const game = ChessGame.fromFen('4k3/8/8/8/8/8/8/5K1R w H - 0 1', { chess960: true }).unwrap();
    const step = game.parseMove('f1g1').unwrap();
    const castle = game.parseMove('f1h1').unwrap();
    expect(step).toEqual({ from: 5, to: 6 });
    expect(castle).toEqual({ from: 5, to: 7 });
    expect(game.moveToUci(castle, 'king-to')).toBe('f1h1'); // fallback: f1g1 would be the step
    const after = game.clone();
    after.play(castle);
    expect(after.toText()).toBe('4k3/8/8/8/8/8/8/5RK1 b - - 1 1');
  });

  it('castling with the king already on its target square is king takes rook in both styles', () => {
    const game = ChessGame.fromFen('4k3/8/8/8/8/8/8/6KR w H - 0 1', { chess960: true }).unwrap();
    const castle = game.parseMove('g1h1').unwrap();
    expect(game.moveToUci(castle, 'king-to')).toBe('g1h1');
    expect(game.moveToUci(castle, 'king-takes-rook')).toBe('g1h1');
    const after = game.clone();
    after.play(castle);
    expect(after.toText()).toBe('4k3/8/8/8/8/8/8/5RK1 b - - 1 1');
  });
});

describe('round trips over random games', () => {
  it('text -> move -> text in both castling styles for every legal move', () => {
    let moves = 0;
    let castles = 0;
    walkRandomGames(99, 1500, 100, game => {
      const pos = game.positionView();
      for (const move of game.legalMoves()) {
        for (const style of ['king-to', 'king-takes-rook'] as const) {
          const text = game.moveToUci(move, style);
          expect(text).toMatch(/^[a-h][1-8][a-h][1-8][qrbn]?$/);
          expect(game.parseMove(text).unwrap()).toEqual(move);
        }
        if (pos.board.king.has(move.from) && pos.board[pos.turn].has(move.to)) castles++;
        moves++;
      }
    });
    expect(moves).toBeGreaterThan(30_000);
    expect(castles).toBeGreaterThan(15);
  });
});

describe('promotions', () => {
  it('need a promotion piece, and only on the last rank', () => {
    const game = ChessGame.fromFen('4k3/1P6/8/8/8/8/4P3/4K3 w - - 0 1').unwrap();
    expect(game.parseMove('b7b8q').unwrap()).toEqual({ from: 49, to: 57, promotion: 'queen' });
    expect(game.parseMove('b7b8n').unwrap()).toEqual({ from: 49, to: 57, promotion: 'knight' });
    expect(game.moveToText({ from: 49, to: 57, promotion: 'rook' })).toBe('b7b8r');
    const missing = game.parseMove('b7b8');
    expect(missing.isErr && missing.error.message).toMatch(/must promote/);
    const extra = game.parseMove('e2e4q');
    expect(extra.isErr && extra.error.message).toMatch(/only a pawn reaching the last rank promotes/);
    const king = game.parseMove('b7b8k');
    expect(king.isErr && king.error.code).toBe('ERR_BAD_MOVE');
  });
});

describe('bad moves', () => {
  const game = ChessGame.standard();
  const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

  it.each([
    ['', 'ERR_BAD_MOVE', /malformed UCI move ""/],
    ['e2', 'ERR_BAD_MOVE', /malformed/],
    ['e2e4 ', 'ERR_BAD_MOVE', /malformed/],
    ['E2E4', 'ERR_BAD_MOVE', /malformed/],
    ['e2e9', 'ERR_BAD_MOVE', /malformed/],
    ['i2i4', 'ERR_BAD_MOVE', /malformed/],
    ['e2e2', 'ERR_BAD_MOVE', /malformed/],
    ['0000', 'ERR_BAD_MOVE', /malformed/],
    ['Q@e4', 'ERR_BAD_MOVE', /malformed/],
    ['e2e5', 'ERR_ILLEGAL_MOVE', /the pawn on e2 cannot go to e5/],
    ['e3e4', 'ERR_ILLEGAL_MOVE', /there is no piece on e3/],
    ['e7e5', 'ERR_ILLEGAL_MOVE', /the piece on e7 is black's but white is to move/],
    ['e1g1', 'ERR_ILLEGAL_MOVE', /castling with the king to g1 is not legal here/],
    ['e1e2', 'ERR_ILLEGAL_MOVE', /the king on e1 cannot go to e2/],
    ['g1e2', 'ERR_ILLEGAL_MOVE', /the knight on g1 cannot go to e2/],
  ])('%j -> %s', (text, code, message) => {
    const result = game.parseMove(text);
    expect(result.isErr).toBe(true);
    if (result.isErr) {
      expect(result.error.code).toBe(code);
      expect(result.error.message).toMatch(message);
      expect(result.error.message).toContain(`"${text}"`);
      expect(result.error.message).toContain(`position "${start}"`);
    }
  });

  it('playUci plays nothing on error', () => {
    const g = ChessGame.standard();
    expect(g.playUci('e2e5').isErr).toBe(true);
    expect(g.plies()).toBe(0);
    expect(g.playUci('e2e4').isOk).toBe(true);
    expect(g.plies()).toBe(1);
  });
});
