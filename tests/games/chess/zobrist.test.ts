/**
 * Zobrist keys of the chess adapter: the Polyglot spec's published keys, the legal-en-passant
 * convention, and incremental keys equal to recomputed ones over 10,000 plies of random games.
 */
import { describe, expect, it } from 'vitest';
import { ChessGame } from '../../../src/games/chess/chess-game.js';
import { POLYGLOT_RANDOM } from '../../../src/games/chess/polyglot-random.js';
import { polyglotKey } from '../../../src/games/chess/zobrist.js';
import { isSpecial, walkRandomGames } from './random-games.js';

/** Keys published with the Polyglot book format, http://hgm.nubati.net/book_format.html. */
const POLYGLOT_VECTORS: readonly (readonly [moves: string, fen: string, key: bigint])[] = [
  ['', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 0x463b96181691fc9cn],
  ['e2e4', 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1', 0x823c9b50fd114196n],
  ['e2e4 d7d5', 'rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2', 0x0756b94461c50fb0n],
  ['e2e4 d7d5 e4e5', 'rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2', 0x662fafb965db29d4n],
  ['e2e4 d7d5 e4e5 f7f5', 'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3', 0x22a48b5a8e47ff78n],
  ['e2e4 d7d5 e4e5 f7f5 e1e2', 'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3', 0x652a607ca3f242c1n],
  ['e2e4 d7d5 e4e5 f7f5 e1e2 e8f7', 'rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4', 0x00fdd303c946bdd9n],
  ['a2a4 b7b5 h2h4 b5b4 c2c4', 'rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3', 0x3c8123ea7b067637n],
  ['a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3', 'rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4', 0x5c3f9b829b279560n],
];

describe('Polyglot table', () => {
  it('has 781 distinct 64-bit entries with the spec first and last values', () => {
    expect(POLYGLOT_RANDOM).toHaveLength(781);
    expect(new Set(POLYGLOT_RANDOM).size).toBe(781);
    expect(POLYGLOT_RANDOM.every(v => v >= 0n && v < 1n << 64n)).toBe(true);
    expect(POLYGLOT_RANDOM[0]).toBe(0x9d39247e33776d41n);
    expect(POLYGLOT_RANDOM[768]).toBe(0x31d71dce64b2c310n); // first castling entry
    expect(POLYGLOT_RANDOM[772]).toBe(0x70cc73d90bc26e24n); // first en passant entry
    expect(POLYGLOT_RANDOM[780]).toBe(0xf8d626aaaf278509n); // turn
  });
});

describe('ChessGame keys', () => {
  it.each(POLYGLOT_VECTORS)('match the Polyglot spec after "%s"', (moves, fen, key) => {
    const game = ChessGame.standard();
    for (const uci of moves.split(' ').filter(Boolean)) game.playUci(uci).unwrap();
    // Board, turn and castling as in the spec (its FENs write every en passant square and zero clocks).
    expect(game.toText().split(' ').slice(0, 3)).toEqual(fen.split(' ').slice(0, 3));
    expect(game.key()).toBe(key);
    expect(game.recomputeKey()).toBe(key);
    expect(ChessGame.fromFen(fen).unwrap().key()).toBe(key);
    expect(polyglotKey(game.position())).toBe(key);
  });

  it('leave out an en passant square no pawn can capture onto (FEN and key)', () => {
    // After e2e4 no black pawn stands on d4 or f4: Polyglot leaves the file out too.
    const game = ChessGame.standard();
    game.playUci('e2e4').unwrap();
    expect(game.toText()).toBe('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
    expect(game.key()).toBe(0x823c9b50fd114196n);
  });

  it('leave out an en passant square whose capture is illegal (pinned pawn), unlike Polyglot', () => {
    // b5xc6 e.p. would expose the king on a5 to the rook on h5.
    const withEp = ChessGame.fromFen('8/8/8/KPp4r/8/8/8/7k w - c6 0 1').unwrap();
    const without = ChessGame.fromFen('8/8/8/KPp4r/8/8/8/7k w - - 0 1').unwrap();
    expect(withEp.key()).toBe(without.key());
    expect(withEp.toText()).toBe('8/8/8/KPp4r/8/8/8/7k w - - 0 1');
    expect(withEp.legalMoves().some(m => m.to === 42)).toBe(false);
    expect(polyglotKey(withEp.position())).not.toBe(polyglotKey(without.position()));
    expect(polyglotKey(withEp.position()) ^ polyglotKey(without.position())).toBe(POLYGLOT_RANDOM[772 + 2]);
  });

  it('include a capturable en passant square', () => {
    const withEp = ChessGame.fromFen('4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2').unwrap();
    const without = ChessGame.fromFen('4k3/8/8/2pP4/8/8/8/4K3 w - - 0 2').unwrap();
    expect(withEp.key() ^ without.key()).toBe(POLYGLOT_RANDOM[772 + 2]);
    expect(withEp.toText()).toBe('4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2');
  });

  it('stay equal to recomputed keys over 10,000 plies of random games, and undo restores them', () => {
    let checked = 0;
    let special = 0;
    const games = walkRandomGames(20240611, 10_000, 100, (game, move) => {
      if (isSpecial(game, move)) special++;
      const key = game.key();
      const fen = game.toText();
      expect(key).toBe(game.recomputeKey());
      game.play(move);
      expect(game.key()).toBe(game.recomputeKey());
      game.undo();
      expect(game.key()).toBe(key);
      expect(game.toText()).toBe(fen);
      checked++;
    });
    expect(checked).toBe(10_000);
    // About a hundred games, standard and Chess960, with castling, en passant and promotions among them.
    expect(games).toBeGreaterThan(50);
    expect(special).toBeGreaterThan(100);
  });

  it('are independent of move order (transpositions) and of the move clocks', () => {
    const a = ChessGame.standard();
    const b = ChessGame.standard();
    for (const uci of ['g1f3', 'g8f6', 'b1c3', 'b8c6']) a.playUci(uci).unwrap();
    for (const uci of ['b1c3', 'b8c6', 'g1f3', 'g8f6']) b.playUci(uci).unwrap();
    expect(a.key()).toBe(b.key());
    const c = ChessGame.fromFen('r1bqkb1r/pppppppp/2n2n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq - 17 40').unwrap();
    expect(c.key()).toBe(a.key());
  });
});
