/** API behaviour of `FastChessBoard`: set-up errors, text I/O, queries, null moves, repetition. */
import { describe, expect, test } from 'vitest';
import {
  BISHOP,
  BLACK,
  FastChessBoard,
  KING,
  KNIGHT,
  MOVE_CASTLE,
  MOVE_DOUBLE_PUSH,
  MOVE_EN_PASSANT,
  NO_MOVE,
  PAWN,
  QUEEN,
  WHITE,
  isCapture,
  makePiece,
  moveCaptured,
  moveFrom,
  moveKind,
  movePiece,
  movePromotion,
  moveTo,
} from '../../../../src/games/chess/fast/index.js';
import { seededRandom } from './helpers.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
const board = (fen: string, chess960 = false): FastChessBoard => FastChessBoard.fromFen(fen, chess960).unwrap();

describe('set-up and FEN', () => {
  test('rejects bad FEN and illegal positions with ERR_FEN', () => {
    for (const fen of ['', 'not a fen', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1', '8/8/8/8/8/8/8/8 w - - 0 1', 'k7/8/8/8/8/8/8/K6Q w - - 0 1']) {
      const r = FastChessBoard.fromFen(fen);
      expect(r.isErr).toBe(true);
      if (r.isErr) expect(r.error.code).toBe('ERR_FEN');
    }
  });

  test('rejects more than 16 pieces of one colour', () => {
    const r = FastChessBoard.fromFen('QQQQQQQQ/QQQQQQQQ/8/8/8/8/8/K6k b - - 0 1');
    expect(r.isErr && r.error.code).toBe('ERR_TOO_MANY_PIECES');
  });

  test.each([
    START,
    KIWIPETE,
    'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3',
    'r3k2r/8/8/8/8/8/8/R3K2R b Qk - 37 60',
    'nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w KQkq - 0 1',
    '1r2k1r1/8/8/8/8/8/8/R1R1K1R1 w KCk - 0 1',
  ])('toFen round-trips %s', fen => {
    expect(board(fen, true).toFen()).toBe(fen);
  });

  test('drops an en passant square that cannot be used, as chessops does', () => {
    expect(board('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1').toFen()).toBe(
      'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
    );
    const pinned = board('8/8/3k4/8/3pP3/8/8/3QK3 b - e3 0 1');
    expect(pinned.epSquare).toBe(20); // pseudo-legal: a black pawn stands next to e4
    expect(pinned.legalEpSquare()).toBe(-1); // but d4 is pinned
    expect(pinned.toFen()).toBe('8/8/3k4/8/3pP3/8/8/3QK3 b - - 0 1');
  });

  test('Shredder castling letters for inner rooks', () => {
    const b = board('rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1', true);
    expect(b.toFen()).toBe('rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1');
    const inner = board('1r2k1r1/8/8/8/8/8/8/R1R1K1R1 w GCg - 0 1', true);
    b.makeMove(b.parseUci('e1e2'));
    expect(b.toFen()).toBe('rk2r3/8/8/8/8/8/4R3/RK6 b Qkq - 1 1');
    // g1 is the outermost h-side rook (K), c1 is not the outermost a-side rook (C).
    expect(inner.toFen()).toBe('1r2k1r1/8/8/8/8/8/8/R1R1K1R1 w KCk - 0 1');
  });
});

describe('moves and UCI', () => {
  test('move encoding fields', () => {
    const b = board(KIWIPETE);
    const m = b.parseUci('e2a6');
    expect([moveFrom(m), moveTo(m), movePiece(m), moveCaptured(m), isCapture(m), moveKind(m)]).toEqual([12, 40, BISHOP, BISHOP, true, 0]);
    const push = b.parseUci('a2a4');
    expect([moveKind(push), isCapture(push), movePiece(push)]).toEqual([MOVE_DOUBLE_PUSH, false, PAWN]);
    const w = board('n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1');
    const promo = w.parseUci('b7a8n');
    expect([movePromotion(promo), moveCaptured(promo), movePiece(promo)]).toEqual([KNIGHT, KNIGHT, PAWN]);
    const black = board('n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1').parseUci('g2h1q');
    expect([movePromotion(black), moveCaptured(black)]).toEqual([QUEEN, KNIGHT]);
    expect(w.moveToUci(promo)).toBe('b7a8n');
  });

  test('castling: king takes rook internally, both UCI forms accepted', () => {
    const b = board(KIWIPETE);
    const short = b.parseUci('e1g1');
    expect(short).not.toBe(NO_MOVE);
    expect(b.parseUci('e1h1')).toBe(short);
    expect(moveKind(short)).toBe(MOVE_CASTLE);
    expect(moveTo(short)).toBe(7);
    expect(b.moveToUci(short)).toBe('e1g1');
    expect(b.moveToUci(short, true)).toBe('e1h1');
    expect(b.moveToUci(b.parseUci('e1c1'))).toBe('e1c1');
    b.makeMove(short);
    expect(b.toFen()).toBe('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1');
    expect(b.parseUci('e1g1')).toBe(NO_MOVE);
    expect(b.parseUci('zz')).toBe(NO_MOVE);
  });

  test('Chess960: ordinary king move wins over the king-destination castling form', () => {
    const b = board('rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1', true);
    const step = b.parseUci('b1c1');
    expect(moveKind(step)).toBe(0);
    const castle = b.parseUci('b1a1');
    expect(moveKind(castle)).toBe(MOVE_CASTLE);
    expect(b.moveToUci(castle)).toBe('b1a1');
    expect(b.moveToUci(castle, false)).toBe('b1c1');
    b.makeMove(castle);
    expect(b.toFen()).toBe('rk2r3/8/8/8/8/8/8/2KRR3 b kq - 1 1');
    b.unmakeMove();
    expect(b.toFen()).toBe('rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1');
  });

  test('en passant move', () => {
    const b = board('rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3');
    const ep = b.parseUci('e5f6');
    expect([moveKind(ep), moveCaptured(ep)]).toEqual([MOVE_EN_PASSANT, PAWN]);
    expect(b.parseUci('e5d6')).toBe(NO_MOVE);
    b.makeMove(ep);
    expect(b.toFen()).toBe('rnbqkbnr/ppp1p1pp/5P2/3p4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3');
    expect(b.count(BLACK, PAWN)).toBe(7);
  });

  test('capturesOnly in check yields only tactical evasions', () => {
    const b = board('4k3/8/8/8/1b6/8/2N2P2/4K2R w K - 0 1');
    expect(b.inCheck()).toBe(true);
    expect(b.legalMoves().map(m => b.moveToUci(m)).sort()).toEqual(['c2b4', 'e1d1', 'e1e2', 'e1f1']);
    expect(b.legalMoves(true).map(m => b.moveToUci(m))).toEqual(['c2b4']);
  });

  test('isLegal rejects moves that are wrong here', () => {
    const b = board(START);
    const e4 = b.parseUci('e2e4');
    expect(b.isLegal(e4)).toBe(true);
    expect(b.isLegal(NO_MOVE)).toBe(false);
    expect(b.isLegal(e4 & ~(MOVE_DOUBLE_PUSH << 15))).toBe(false); // kind must match
    b.makeMove(e4);
    expect(b.isLegal(e4)).toBe(false);
    expect(b.isLegal(b.parseUci('e7e5'))).toBe(true);
  });

  test('givesCheck', () => {
    const b = board('4k3/8/8/8/8/8/8/R3K3 w Q - 0 1');
    expect(b.givesCheck(b.parseUci('a1a8'))).toBe(true);
    expect(b.givesCheck(b.parseUci('e1a1'))).toBe(false); // castles to d1: no check
    expect(b.givesCheck(b.parseUci('a1b1'))).toBe(false);
    expect(b.toFen()).toBe('4k3/8/8/8/8/8/8/R3K3 w Q - 0 1');
  });
});

describe('search support', () => {
  test('queries: pieces, kings, counts, psq sums', () => {
    const b = board(START);
    expect(b.turn).toBe(WHITE);
    expect(b.pieceAt(4)).toBe(makePiece(WHITE, KING));
    expect(b.pieceAt(60)).toBe(makePiece(BLACK, KING));
    expect(b.pieceAt(28)).toBe(0);
    expect(b.kingSquare(BLACK)).toBe(60);
    expect(b.count(WHITE, PAWN)).toBe(8);
    expect(b.squaresOf(WHITE)).toHaveLength(16);
    expect(b.isSquareAttacked(21, WHITE)).toBe(true); // f3 by g2 pawn and g1 knight
    expect(b.isSquareAttacked(28, WHITE)).toBe(false);
    const mg = new Int32Array(16 * 64);
    const eg = new Int32Array(16 * 64);
    mg[makePiece(WHITE, PAWN) * 64 + 28] = 50; // white pawn on e4
    eg[makePiece(BLACK, PAWN) * 64 + 36] = -30; // black pawn on e5
    b.setPsqTables(mg, eg);
    expect([b.psqMg, b.psqEg]).toEqual([0, 0]);
    b.makeMove(b.parseUci('e2e4'));
    b.makeMove(b.parseUci('e7e5'));
    expect([b.psqMg, b.psqEg]).toEqual([50, -30]);
    b.unmakeMove();
    expect([b.psqMg, b.psqEg]).toEqual([50, 0]);
  });

  test('halfmove clock, fullmove number, ply and lastMove', () => {
    const b = board(START);
    for (const uci of ['g1f3', 'g8f6', 'f3g1']) b.makeMove(b.parseUci(uci));
    expect([b.halfmoveClock, b.fullmoveNumber, b.ply]).toEqual([3, 2, 3]);
    expect(b.moveToUci(b.lastMove())).toBe('f3g1');
    expect(b.moveToUci(b.lastMove(3))).toBe('g1f3');
    expect(b.lastMove(4)).toBe(NO_MOVE);
    b.makeMove(b.parseUci('e7e5'));
    expect(b.halfmoveClock).toBe(0);
    b.unmakeMove();
    expect([b.halfmoveClock, b.fullmoveNumber]).toEqual([3, 2]);
  });

  test('repetition', () => {
    const b = board(START);
    const start = b.hash;
    for (const uci of ['g1f3', 'g8f6', 'f3g1']) {
      b.makeMove(b.parseUci(uci));
      expect(b.isRepetition()).toBe(false);
    }
    b.makeMove(b.parseUci('f6g8'));
    expect(b.hash).toBe(start);
    expect(b.isRepetition()).toBe(true);
    expect(b.isRepetition(2)).toBe(false);
    for (const uci of ['g1f3', 'g8f6', 'f3g1', 'f6g8']) b.makeMove(b.parseUci(uci));
    expect(b.isRepetition(2)).toBe(true);
    // A pawn move resets the window: no repetition across an irreversible move.
    b.makeMove(b.parseUci('e2e4'));
    for (const uci of ['g8f6', 'g1f3', 'f6g8', 'f3g1']) b.makeMove(b.parseUci(uci));
    expect(b.isRepetition(2)).toBe(false);
    expect(b.isRepetition()).toBe(true);
  });

  test('null move', () => {
    const b = board('rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3');
    const before = [b.toFen(), b.hashLo, b.hashHi];
    b.makeNullMove();
    expect(b.turn).toBe(BLACK);
    expect(b.epSquare).toBe(-1);
    expect([b.hashLo, b.hashHi]).toEqual([b.computeHashLo(), b.computeHashHi()]);
    expect(b.lastMove()).toBe(NO_MOVE);
    b.makeMove(b.parseUci('g8f6'));
    b.makeNullMove();
    b.makeMove(b.parseUci('f6g8'));
    expect(b.isRepetition()).toBe(false); // never across a null move
    b.unmakeMove();
    b.unmakeNullMove();
    b.unmakeMove();
    b.unmakeNullMove();
    expect([b.toFen(), b.hashLo, b.hashHi]).toEqual(before);
    expect(() => b.unmakeMove()).toThrow();
  });

  test('perft leaves the board unchanged and the undo stack grows past its initial size', () => {
    const b = board(START);
    for (let i = 0; i < 150; i++) {
      b.makeMove(b.parseUci(i % 4 < 2 ? (i % 2 === 0 ? 'g1f3' : 'g8f6') : i % 2 === 0 ? 'f3g1' : 'f6g8'));
    }
    expect(b.ply).toBe(150);
    for (let i = 0; i < 150; i++) b.makeNullMove();
    for (let i = 0; i < 300; i++) b.unmakeMove();
    expect(b.toFen()).toBe(START);
  });
});

describe('givesCheck on random games', () => {
  test('equals inCheck after makeMove for every legal move (castling, en passant, promotions, discovered checks)', () => {
    const rng = seededRandom(17);
    const list = new Int32Array(256);
    let checks = 0;
    let tested = 0;
    for (const fen of [START, KIWIPETE, 'r3k2r/8/8/8/3pPp2/8/8/R3K2R b KQkq e3 0 1', '4k3/1P6/8/8/8/8/6p1/4K2R w K - 0 1']) {
      for (let game = 0; game < 4; game++) {
        const b = board(fen);
        for (let ply = 0; ply < 120; ply++) {
          const n = b.generateMoves(list);
          if (n === 0) break;
          const before = b.toFen();
          for (let i = 0; i < n; i++) {
            const m = list[i]!;
            b.makeMove(m);
            const expected = b.inCheck();
            b.unmakeMove();
            expect(b.givesCheck(m)).toBe(expected);
            tested++;
            if (expected) checks++;
          }
          expect(b.toFen()).toBe(before);
          b.makeMove(list[Math.floor(rng() * n)]!);
        }
      }
    }
    expect(tested).toBeGreaterThan(10_000);
    expect(checks).toBeGreaterThan(100);
  });
});
