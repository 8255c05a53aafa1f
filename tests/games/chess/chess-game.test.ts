/**
 * ChessGame: starts (standard, Chess960, FEN), FEN in and out, history and undo, clones,
 * outcomes (mate, stalemate, insufficient material, fifty moves, threefold repetition with the
 * en passant subtlety) and errors for bad FENs.
 */
import { describe, expect, it } from 'vitest';
import { ChessGame } from '../../../src/games/chess/chess-game.js';
import { chess960BackRank, chess960Fen } from '../../../src/games/chess/chess960.js';
import { walkRandomGames } from './random-games.js';

const play = (game: ChessGame, moves: string): ChessGame => {
  for (const uci of moves.split(' ').filter(Boolean)) game.playUci(uci).unwrap();
  return game;
};

describe('starts', () => {
  it('standard start position', () => {
    const game = ChessGame.standard();
    expect(game.kind).toBe('chess');
    expect(game.toText()).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    expect(game.turn()).toBe('first');
    expect(game.plies()).toBe(0);
    expect(game.legalMoves()).toHaveLength(20);
    expect(game.chess960).toBe(false);
    expect(game.castling).toBe('king-to');
    expect(ChessGame.fromFen('startpos').unwrap().toText()).toBe(game.toText());
  });

  it('Chess960 start positions by Scharnagl number', () => {
    // Numbers 0, 518 and 959 from https://www.chessprogramming.org/Chess960 (and lichess' numbering).
    expect(chess960BackRank(0)).toBe('BBQNNRKR');
    expect(chess960BackRank(518)).toBe('RNBQKBNR');
    expect(chess960BackRank(959)).toBe('RKRNNQBB');
    expect(chess960Fen(518)).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    const backRanks = new Set<string>();
    for (let n = 0; n < 960; n++) {
      const rank = chess960BackRank(n)!;
      backRanks.add(rank);
      // Bishops on opposite colours, king between the rooks.
      const bishops = [...rank].flatMap((p, i) => (p === 'B' ? [i] : []));
      expect((bishops[0]! + bishops[1]!) % 2).toBe(1);
      expect(rank.replace(/[^RK]/g, '')).toBe('RKR');
    }
    expect(backRanks.size).toBe(960);
    const game = ChessGame.fromChess960(0).unwrap();
    expect(game.toText()).toBe('bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1');
    expect(game.chess960).toBe(true);
    expect(game.castling).toBe('king-takes-rook');
    for (const bad of [-1, 960, 1.5, Number.NaN]) {
      const err = ChessGame.fromChess960(bad);
      expect(err.isErr && err.error.code).toBe('ERR_CHESS960');
    }
  });

  it('positions from FEN, with X-FEN and Shredder-FEN castling in Chess960', () => {
    const shredder = ChessGame.fromFen('bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9', { chess960: true }).unwrap();
    expect(shredder.toText()).toBe('bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9');
    // An inner rook keeps its file letter.
    const inner = ChessGame.fromFen('4k3/8/8/8/8/8/8/4KR1R w F - 0 1', { chess960: true }).unwrap();
    expect(inner.toText()).toBe('4k3/8/8/8/8/8/8/4KR1R w F - 0 1');
    // Missing clocks default to 0 and 1.
    expect(ChessGame.fromFen('4k3/8/8/8/8/8/8/4K3 b - -').unwrap().toText()).toBe('4k3/8/8/8/8/8/8/4K3 b - - 0 1');
  });

  it('standard games keep only standard castling rights (king on e1/e8, corner rooks)', () => {
    const fen = 'rk4r1/8/8/8/8/8/8/RK4R1 w KQkq - 0 1';
    expect(ChessGame.fromFen(fen).unwrap().toText()).toBe('rk4r1/8/8/8/8/8/8/RK4R1 w - - 0 1');
    expect(ChessGame.fromFen(fen, { chess960: true }).unwrap().toText()).toBe(fen);
  });
});

describe('FEN round trips', () => {
  it('out(in(x)) == x for every position of random games (standard and Chess960)', () => {
    let checked = 0;
    walkRandomGames(7, 4000, 100, game => {
      const fen = game.toText();
      const again = ChessGame.fromFen(fen, { chess960: game.chess960 }).unwrap();
      expect(again.toText()).toBe(fen);
      expect(again.key()).toBe(game.key());
      expect(again.legalMoves()).toEqual(game.legalMoves());
      checked++;
    });
    expect(checked).toBe(4000);
  });
});

describe('history', () => {
  it('undo takes back moves in order and throws at the start', () => {
    const game = ChessGame.standard();
    play(game, 'e2e4 e7e5 g1f3');
    expect(game.plies()).toBe(3);
    expect(game.moves().map(m => game.clone().moveToText(m))).toHaveLength(3);
    game.undo();
    expect(game.toText()).toBe('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2');
    game.undo();
    game.undo();
    expect(game.toText()).toBe(ChessGame.standard().toText());
    expect(() => game.undo()).toThrow(/no move/);
    expect(game.startFen()).toBe(ChessGame.standard().toText());
  });

  it('clones are independent, also after undo in either', () => {
    const game = play(ChessGame.standard(), 'e2e4 e7e5');
    const copy = game.clone();
    expect(copy.toText()).toBe(game.toText());
    expect(copy.key()).toBe(game.key());
    game.undo();
    play(game, 'c7c5 g1f3');
    play(copy, 'd2d4');
    expect(copy.toText()).toBe('rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2');
    expect(game.toText()).toBe('rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2');
    copy.undo();
    copy.undo();
    expect(copy.toText()).toBe('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
    expect(copy.plies()).toBe(1);
    expect(game.plies()).toBe(3);
  });

  it('position() is a copy; mutating it does not touch the game', () => {
    const game = ChessGame.standard();
    const pos = game.position();
    pos.play({ from: 12, to: 28 });
    expect(game.toText()).toBe(ChessGame.standard().toText());
  });

  it('isLegal accepts exactly the legal moves (castling as king takes rook)', () => {
    const game = ChessGame.fromFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1').unwrap();
    const legal = game.legalMoves();
    for (const move of legal) expect(game.isLegal(move)).toBe(true);
    expect(game.isLegal({ from: 4, to: 7 })).toBe(true); // e1h1
    expect(game.isLegal({ from: 4, to: 6 })).toBe(false); // e1g1 is text, not a Move
    expect(game.isLegal({ from: 4, to: 20 })).toBe(false);
    expect(game.isLegal({ role: 'queen', to: 20 })).toBe(false);
    const promo = ChessGame.fromFen('4k3/1P6/8/8/8/8/8/4K3 w - - 0 1').unwrap();
    expect(promo.isLegal({ from: 49, to: 57 })).toBe(false);
    expect(promo.isLegal({ from: 49, to: 57, promotion: 'knight' })).toBe(true);
    expect(promo.isLegal({ from: 49, to: 57, promotion: 'king' })).toBe(false);
    expect(promo.isLegal({ from: 4, to: 12, promotion: 'queen' })).toBe(false);
    expect(promo.legalMoves().filter(m => m.from === 49)).toHaveLength(4);
  });
});

describe('outcome', () => {
  it('checkmate (fool\'s mate): the mating side wins', () => {
    const game = play(ChessGame.standard(), 'f2f3 e7e5 g2g4 d8h4');
    expect(game.isCheck()).toBe(true);
    expect(game.legalMoves()).toEqual([]);
    expect(game.outcome()).toEqual({ winner: 'second', reason: 'checkmate' });
    expect(play(ChessGame.standard(), 'e2e4 e7e5').outcome()).toBeUndefined();
  });

  it('stalemate', () => {
    const game = ChessGame.fromFen('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1').unwrap();
    expect(game.isCheck()).toBe(false);
    expect(game.legalMoves()).toEqual([]);
    expect(game.outcome()).toEqual({ winner: undefined, reason: 'stalemate' });
  });

  it('insufficient material (lichess rules: no mate possible for either side)', () => {
    const draw = { winner: undefined, reason: 'insufficient-material' };
    for (const fen of [
      '8/8/4k3/8/8/3K4/8/8 w - - 0 1', // K v K
      '8/8/4k3/8/8/3KN3/8/8 w - - 0 1', // KN v K
      '8/8/4k3/8/8/3KB3/8/8 w - - 0 1', // KB v K
      '8/8/4kb2/8/8/3KB3/8/8 w - - 0 1', // KB v KB, bishops on the same colour (f6, e3)
    ]) {
      expect(ChessGame.fromFen(fen).unwrap().outcome()).toEqual(draw);
    }
    for (const fen of [
      '8/8/4k3/8/8/3KP3/8/8 w - - 0 1', // a pawn
      '8/8/4kb2/8/8/3K1B2/8/8 w - - 0 1', // bishops on opposite colours (f6, f3)
      '8/8/4k3/8/8/3KNN2/8/8 w - - 0 1', // two knights
      '8/8/4kn2/8/8/3KN3/8/8 w - - 0 1', // KN v KN (a helpmate exists)
    ]) {
      expect(ChessGame.fromFen(fen).unwrap().outcome()).toBeUndefined();
    }
    // Reached by a capture.
    const game = ChessGame.fromFen('8/8/4k3/4r3/8/3K4/8/4R3 w - - 0 1').unwrap();
    play(game, 'e1e5 e6e5');
    expect(game.outcome()).toEqual(draw);
  });

  it('fifty-move rule at halfmove clock 100, but a mate on the 100th halfmove stands', () => {
    const quiet = ChessGame.fromFen('7k/8/6K1/8/8/8/8/R7 w - - 99 80').unwrap();
    expect(quiet.outcome()).toBeUndefined();
    play(quiet, 'a1b1');
    expect(quiet.halfmoveClock()).toBe(100);
    expect(quiet.outcome()).toEqual({ winner: undefined, reason: 'fifty-moves' });
    const mate = ChessGame.fromFen('7k/8/6K1/8/8/8/8/R7 w - - 99 80').unwrap();
    play(mate, 'a1a8');
    expect(mate.halfmoveClock()).toBe(100);
    expect(mate.outcome()).toEqual({ winner: 'first', reason: 'checkmate' });
    // A capture or pawn move resets the clock.
    const reset = ChessGame.fromFen('7k/8/6K1/8/8/8/P7/R7 w - - 99 80').unwrap();
    play(reset, 'a2a3');
    expect(reset.outcome()).toBeUndefined();
    expect(ChessGame.fromFen('7k/8/6K1/8/8/8/8/R7 b - - 100 80').unwrap().outcome()?.reason).toBe('fifty-moves');
  });

  it('threefold repetition', () => {
    const game = ChessGame.standard();
    const cycle = 'g1f3 g8f6 f3g1 f6g8';
    play(game, cycle);
    expect(game.repetitions()).toBe(2);
    expect(game.outcome()).toBeUndefined();
    play(game, 'g1f3 g8f6 f3g1');
    expect(game.outcome()).toBeUndefined();
    play(game, 'f6g8');
    expect(game.repetitions()).toBe(3);
    expect(game.outcome()).toEqual({ winner: undefined, reason: 'threefold-repetition' });
    game.undo();
    expect(game.outcome()).toBeUndefined();
  });

  it('threefold: castling rights are part of the position', () => {
    // The kings' first moves lose the rights, so the start position is not repeated.
    const game = ChessGame.fromFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1').unwrap();
    play(game, 'e1f1 e8f8 f1e1 f8e8 e1f1 e8f8 f1e1 f8e8');
    expect(game.repetitions()).toBe(2); // '... w - -' twice, the start once
    expect(game.outcome()).toBeUndefined();
    play(game, 'e1f1 e8f8 f1e1 f8e8');
    expect(game.outcome()).toEqual({ winner: undefined, reason: 'threefold-repetition' });
  });

  it('threefold: an en passant square counts only when the capture is legal', () => {
    // After e2e4 no black pawn can take en passant: the position equals the later ones.
    const plain = ChessGame.fromFen('4k3/8/8/8/8/8/4P3/4K3 w - - 0 1').unwrap();
    play(plain, 'e2e4 e8d8 e1d1 d8e8 d1e1 e8d8 e1d1 d8e8 d1e1');
    expect(plain.toText()).toBe('4k3/8/8/8/4P3/8/8/4K3 b - - 8 5');
    expect(plain.outcome()).toEqual({ winner: undefined, reason: 'threefold-repetition' });

    // With a black pawn on d4, d4xe3 is legal right after e2e4: that first position differs.
    const ep = ChessGame.fromFen('4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1').unwrap();
    play(ep, 'e2e4');
    expect(ep.toText()).toBe('4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1');
    play(ep, 'e8d8 e1d1 d8e8 d1e1 e8d8 e1d1 d8e8 d1e1');
    expect(ep.repetitions()).toBe(2);
    expect(ep.outcome()).toBeUndefined();
    play(ep, 'e8d8 e1d1 d8e8 d1e1');
    expect(ep.outcome()).toEqual({ winner: undefined, reason: 'threefold-repetition' });

    // A pinned pawn cannot take en passant either (b5xc6 would expose the king on a5).
    const pinned = ChessGame.fromFen('8/2p5/8/KP5r/8/8/8/7k b - - 0 1').unwrap();
    play(pinned, 'c7c5');
    expect(pinned.toText()).toBe('8/8/8/KPp4r/8/8/8/7k w - - 0 2');
    play(pinned, 'a5a4 h1g1 a4a5 g1h1 a5a4 h1g1 a4a5 g1h1');
    expect(pinned.outcome()).toEqual({ winner: undefined, reason: 'threefold-repetition' });
  });
});

describe('bad FENs', () => {
  it.each([
    ['', 'ERR_FEN', /invalid FEN "": bad piece placement/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1', 'ERR_FEN', /bad piece placement/],
    ['rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'ERR_FEN', /bad piece placement/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1', 'ERR_FEN', /side-to-move/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1', 'ERR_FEN', /castling/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1', 'ERR_FEN', /en passant/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1', 'ERR_FEN', /halfmove/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 y', 'ERR_FEN', /fullmove/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra', 'ERR_FEN', /unexpected fields/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 3+3', 'ERR_FEN', /remaining checks/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qq] w KQkq - 0 1', 'ERR_FEN', /pockets/],
    ['8/8/8/8/8/8/8/8 w - - 0 1', 'ERR_POSITION', /illegal position in FEN "8\/8.*": the board is empty/],
    ['8/8/8/8/8/8/8/4K3 w - - 0 1', 'ERR_POSITION', /one king/],
    ['4k3/8/8/8/8/8/8/4KK2 w - - 0 1', 'ERR_POSITION', /one king/],
    ['R3k3/8/8/8/8/8/8/4K3 w - - 0 1', 'ERR_POSITION', /not to move is in check/],
    ['P3k3/8/8/8/8/8/8/4K3 w - - 0 1', 'ERR_POSITION', /pawns on the first or last rank/],
  ])('%j -> %s', (fen, code, message) => {
    const result = ChessGame.fromFen(fen);
    expect(result.isErr).toBe(true);
    if (result.isErr) {
      expect(result.error.code).toBe(code);
      expect(result.error.message).toMatch(message);
      expect(result.error.message).toContain(`"${fen}"`);
    }
  });
});
