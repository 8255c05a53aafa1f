/**
 * Incremental state of `FastChessBoard` against a recomputation from scratch: Zobrist halves,
 * piece lists and counts, and piece-square sums, after every make, unmake and null move of
 * random games (including random excursions that are unwound move by move).
 */
import { expect, test } from 'vitest';
import { FastChessBoard, KING } from '../../../../src/games/chess/fast/index.js';
import { random960Fen, seededRandom } from './helpers.js';

const STARTS = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1',
  '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
];

/** Every incremental field equals its recomputation; returns a description of the first mismatch. */
const inconsistency = (board: FastChessBoard, mg: Int32Array, eg: Int32Array): string | undefined => {
  if (board.hashLo !== board.computeHashLo() || board.hashHi !== board.computeHashHi()) return 'hash';
  const counts = new Uint8Array(16);
  let sumMg = 0;
  let sumEg = 0;
  for (let sq = 0; sq < 64; sq++) {
    const p = board.pieceAt(sq);
    if (p === 0) continue;
    counts[p]!++;
    sumMg += mg[p * 64 + sq]!;
    sumEg += eg[p * 64 + sq]!;
  }
  if (counts.some((c, p) => c !== board.pieceCounts[p])) return 'piece counts';
  if (sumMg !== board.psqMg || sumEg !== board.psqEg) return 'piece-square sums';
  for (const color of [0, 1]) {
    const squares = board.squaresOf(color);
    if (squares.length !== counts.slice(color * 8, color * 8 + 8).reduce((a, b) => a + b, 0)) return 'list size';
    if (board.pieceAt(squares[0]!) !== ((color << 3) | KING) || squares[0] !== board.kingSquare(color)) return 'king not first';
    if (new Set(squares).size !== squares.length) return 'duplicate list entry';
    if (squares.some(sq => board.pieceAt(sq) >> 3 !== color || board.pieceAt(sq) === 0)) return 'list entry';
  }
  return undefined;
};

test('incremental hash, lists and piece-square sums equal recomputation after every make and unmake', () => {
  const random = seededRandom(7);
  const mg = Int32Array.from({ length: 16 * 64 }, () => Math.floor(random() * 2001) - 1000);
  const eg = Int32Array.from({ length: 16 * 64 }, () => Math.floor(random() * 2001) - 1000);
  const list = new Int32Array(256);
  let checks = 0;
  for (let game = 0; game < 120; game++) {
    const chess960 = game % 4 === 3;
    const fen = chess960 ? random960Fen(random) : STARTS[game % STARTS.length]!;
    const board = FastChessBoard.fromFen(fen, chess960).unwrap();
    board.setPsqTables(mg, eg);
    const verify = (what: string): void => {
      checks++;
      const bad = inconsistency(board, mg, eg);
      if (bad) expect.fail(`${bad} after ${what} in ${board.toFen()}`);
    };
    verify('set-up');
    for (let ply = 0; ply < 150; ply++) {
      let n = board.generateMoves(list);
      if (n === 0) break;
      // An excursion of up to 6 plies (with null moves), unwound with checks at every step.
      const fenBefore = board.toFen();
      const hashBefore = [board.hashLo, board.hashHi];
      const depth = Math.floor(random() * 7);
      let made = 0;
      for (; made < depth; made++) {
        if (!board.inCheck() && random() < 0.15) {
          board.makeNullMove();
          verify('null move');
          continue;
        }
        n = board.generateMoves(list);
        if (n === 0) break;
        board.makeMove(list[Math.floor(random() * n)]!);
        verify('make');
      }
      for (; made > 0; made--) {
        board.unmakeMove();
        verify('unmake');
      }
      expect(board.toFen()).toBe(fenBefore);
      expect([board.hashLo, board.hashHi]).toEqual(hashBefore);
      n = board.generateMoves(list);
      board.makeMove(list[Math.floor(random() * n)]!);
      verify('make');
    }
  }
  expect(checks).toBeGreaterThan(50_000);
});

test('transpositions hash equal, different positions differ', () => {
  const a = FastChessBoard.fromFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1').unwrap();
  const b = FastChessBoard.fromFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1').unwrap();
  for (const uci of ['g1f3', 'g8f6', 'b1c3']) a.makeMove(a.parseUci(uci));
  for (const uci of ['b1c3', 'g8f6', 'g1f3']) b.makeMove(b.parseUci(uci));
  expect([a.hashLo, a.hashHi]).toEqual([b.hashLo, b.hashHi]);
  expect(a.hash).toBe(b.hash);
  // Same placement, different side to move / castling rights / en passant: different keys.
  const keys = [
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1',
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b Kkq - 0 1',
    'rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1',
    'rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
  ].map(fen => FastChessBoard.fromFen(fen).unwrap().hash);
  expect(new Set(keys).size).toBe(keys.length);
  expect(keys.every(k => Number.isSafeInteger(k) && k >= 0)).toBe(true);
});
