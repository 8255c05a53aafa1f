/**
 * The chess encoding `kishi-chess-1`: move <-> policy index is a bijection on the legal moves of
 * 100,000 random positions (standard and Chess960 playouts on the fast board), the board flip for
 * the side to move is exact (a position and its colour-mirrored twin give the same planes and
 * the same indices for mirrored moves), and a few planes and indices pinned by hand.
 */
import { expect, test } from 'vitest';
import { FastChessBoard } from '../../src/games/chess/fast/index.js';
import {
  CHESS_ENCODING,
  CHESS_PLANE,
  chessContext,
  chessIndexToMove,
  chessIndexToMoveKey,
  chessMoveIndex,
  encodeChess,
} from '../../src/nn/chess-encoding.js';
import { random960Fen, seededRandom } from '../games/chess/fast/helpers.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const STARTS = [
  START,
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1',
  '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
  '4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1',
];

/** Visits `count` positions of seeded random playouts; every third game is Chess960. */
const walk = (count: number, seed: number, visit: (board: FastChessBoard, fen960: boolean) => void): void => {
  const random = seededRandom(seed);
  const list = new Int32Array(256);
  let positions = 0;
  for (let game = 0; positions < count; game++) {
    const chess960 = game % 3 === 2;
    const board = FastChessBoard.fromFen(chess960 ? random960Fen(random) : STARTS[game % STARTS.length]!, chess960).unwrap();
    const maxPlies = 20 + Math.floor(random() * 160);
    for (let ply = 0; ply < maxPlies && positions < count; ply++) {
      const n = board.generateMoves(list);
      if (n === 0) break;
      positions++;
      visit(board, chess960);
      board.makeMove(list[Math.floor(random() * n)]!);
    }
  }
};

test('move <-> index is a bijection on the legal moves of 100,000 random positions', () => {
  const list = new Int32Array(256);
  const seen = new Int32Array(CHESS_ENCODING.policySize);
  let stamp = 0;
  let moves = 0;
  let castles = 0;
  let underpromotions = 0;
  let fullChecks = 0;
  walk(100_000, 7, (board) => {
    stamp++;
    const n = board.generateMoves(list);
    for (let i = 0; i < n; i++) {
      const m = list[i]!;
      const idx = chessMoveIndex(m, board.turn);
      if (!(idx >= 0 && idx < CHESS_ENCODING.policySize)) expect.fail(`index ${idx} of ${board.moveToUci(m)} in ${board.toFen()}`);
      if (seen[idx] === stamp) expect.fail(`two moves share index ${idx} in ${board.toFen()}`);
      seen[idx] = stamp;
      if (chessIndexToMoveKey(board, idx) !== (m & 0x7fff)) expect.fail(`index ${idx} decodes wrongly for ${board.moveToUci(m)} in ${board.toFen()}`);
      if (((m >> 15) & 3) === 2) castles++;
      const promo = (m >> 12) & 7;
      if (promo !== 0 && promo !== 5) underpromotions++;
      moves++;
    }
    // The full decoder (legal lookup) on every index of every 500th position: exactly the legal moves come back.
    if (stamp % 500 === 0) {
      fullChecks++;
      let decoded = 0;
      for (let idx = 0; idx < CHESS_ENCODING.policySize; idx++) {
        const m = chessIndexToMove(board, idx);
        if (m === 0) continue;
        decoded++;
        expect(chessMoveIndex(m, board.turn)).toBe(idx);
      }
      expect(decoded).toBe(n);
    }
  });
  expect(moves).toBeGreaterThan(2_000_000);
  expect(castles).toBeGreaterThan(1000);
  expect(underpromotions).toBeGreaterThan(100);
  expect(fullChecks).toBe(200);
});

const mirrorSquare = (s: string): string => s[0]! + String(9 - Number(s[1]));

/** The same position with colours swapped and the board mirrored vertically. */
const mirrorFen = (fen: string): string => {
  const [placement, turn, castling, ep, half, full] = fen.split(' ');
  const swapCase = (t: string): string => [...t].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
  const ranks = placement!.split('/').reverse().map(swapCase).join('/');
  const c = castling === '-' ? '-' : swapCase(castling!);
  return `${ranks} ${turn === 'w' ? 'b' : 'w'} ${c} ${ep === '-' ? '-' : mirrorSquare(ep!)} ${half} ${full}`;
};

test('the board flip for the side to move is exact (10,000 positions and their mirrors)', () => {
  const a = new Float32Array(CHESS_ENCODING.inputSize);
  const b = new Float32Array(CHESS_ENCODING.inputSize);
  const colourStart = CHESS_PLANE.colour * 64;
  const moveCountEnd = (CHESS_PLANE.moveCount + 1) * 64;
  let positions = 0;
  let withEp = 0;
  walk(10_000, 11, (board, chess960) => {
    const fen = board.toFen();
    const twin = FastChessBoard.fromFen(mirrorFen(fen), chess960).unwrap();
    expect(twin.turn).toBe(board.turn ^ 1);
    encodeChess(board, { repetitions: 0, plies: 10 }, a, 0);
    encodeChess(twin, { repetitions: 0, plies: 10 }, b, 0);
    // Everything but the colour plane agrees exactly (the move count is given equal here).
    for (let i = 0; i < a.length; i++) {
      if (i >= colourStart && i < colourStart + 64) continue;
      if (a[i] !== b[i]) expect.fail(`plane ${Math.floor(i / 64)} square ${i % 64} differs: ${fen} vs ${twin.toFen()}`);
    }
    expect(a[colourStart]! + b[colourStart]!).toBe(1);
    expect(a[moveCountEnd - 1]).toBe(b[moveCountEnd - 1]);
    if (a.subarray(CHESS_PLANE.enPassant * 64, CHESS_PLANE.enPassant * 64 + 64).some((v) => v !== 0)) withEp++;
    // Mirrored moves have equal indices.
    const moves = board.legalMoves();
    const twinMoves = new Map(twin.legalMoves().map((m) => [twin.moveToUci(m, true), m]));
    expect(twinMoves.size).toBe(moves.length);
    for (const m of moves) {
      const uci = board.moveToUci(m, true);
      const mirrored = twinMoves.get(mirrorSquare(uci.slice(0, 2)) + mirrorSquare(uci.slice(2, 4)) + uci.slice(4));
      if (mirrored === undefined) expect.fail(`${uci} in ${fen} has no mirror`);
      if (chessMoveIndex(mirrored, twin.turn) !== chessMoveIndex(m, board.turn)) expect.fail(`${uci} in ${fen}: index differs`);
    }
    positions++;
  });
  expect(positions).toBe(10_000);
  expect(withEp).toBeGreaterThan(10);
});

test('pinned planes and indices', () => {
  const board = FastChessBoard.fromFen(START).unwrap();
  const x = new Float32Array(CHESS_ENCODING.inputSize);
  encodeChess(board, chessContext(board), x, 0);
  const plane = (p: number): number[] => Array.from(x.subarray(p * 64, p * 64 + 64));
  const on = (p: number): number[] => plane(p).flatMap((v, i) => (v !== 0 ? [i] : []));
  expect(on(0)).toEqual([8, 9, 10, 11, 12, 13, 14, 15]); // own pawns on rank 2
  expect(on(5)).toEqual([4]); // own king e1
  expect(on(6)).toEqual([48, 49, 50, 51, 52, 53, 54, 55]); // opponent pawns on rank 7
  expect(on(11)).toEqual([60]);
  for (let p = CHESS_PLANE.castling; p < CHESS_PLANE.castling + 4; p++) expect(on(p).length).toBe(64);
  expect(on(CHESS_PLANE.colour)).toEqual([]);
  expect(on(CHESS_PLANE.ones).length).toBe(64);
  // e2e4: north, distance 2, from e2 (12): plane 1.
  expect(chessMoveIndex(board.parseUci('e2e4'), 0)).toBe(1 * 64 + 12);
  // g1f3: knight (2, -1) is plane 56 + 7.
  expect(chessMoveIndex(board.parseUci('g1f3'), 0)).toBe(63 * 64 + 6);
  // After 1. e4 black's e7e5 is, seen from black, the same north two from e2.
  board.makeMove(board.parseUci('e2e4'));
  encodeChess(board, chessContext(board), x, 0);
  expect(on(0)).toEqual([8, 9, 10, 11, 12, 13, 14, 15]);
  expect(on(6)).toEqual([36, 48, 49, 50, 51, 53, 54, 55]);
  expect(on(CHESS_PLANE.colour).length).toBe(64);
  expect(chessMoveIndex(board.parseUci('e7e5'), 1)).toBe(1 * 64 + 12);
  // Castling as king takes rook: e1h1 is east 3 (plane 16), e1a1 west 4 (plane 6 * 7 + 3 = 45).
  const castle = FastChessBoard.fromFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1').unwrap();
  expect(chessMoveIndex(castle.parseUci('e1g1'), 0)).toBe(16 * 64 + 4);
  expect(chessMoveIndex(castle.parseUci('e1c1'), 0)).toBe(45 * 64 + 4);
  // Underpromotion: b7a8n (capture towards the a-file) is plane 64 + 0 * 3 + 0; b7b8r plane 64 + 1 * 3 + 2.
  const promo = FastChessBoard.fromFen('n3k3/1P6/8/8/8/8/8/4K3 w - - 0 1').unwrap();
  expect(chessMoveIndex(promo.parseUci('b7a8n'), 0)).toBe(64 * 64 + 49);
  expect(chessMoveIndex(promo.parseUci('b7b8r'), 0)).toBe(69 * 64 + 49);
  expect(chessMoveIndex(promo.parseUci('b7b8q'), 0)).toBe(0 * 64 + 49);
  // Repetition planes follow the board's history.
  const rep = FastChessBoard.fromFen(START).unwrap();
  for (const u of ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1', 'f6g8']) rep.makeMove(rep.parseUci(u));
  expect(chessContext(rep)).toEqual({ repetitions: 2, plies: 8 });
});
