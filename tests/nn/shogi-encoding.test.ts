/**
 * The shogi encoding `kishi-shogi-1`: move <-> policy index is a bijection on the legal moves of
 * 100,000 random positions (fast-board playouts), the board flip for the side to move is exact
 * (a position and its rotated, colour-swapped twin give the same planes and the same indices for
 * rotated moves), and a few planes and indices pinned by hand.
 */
import { expect, test } from 'vitest';
import { FastShogiBoard, newMoveList } from '../../src/games/shogi/fast/index.js';
import {
  SHOGI_ENCODING,
  SHOGI_PLANE,
  encodeShogi,
  shogiContext,
  shogiIndexToMove,
  shogiIndexToMoveCode,
  shogiMoveIndex,
} from '../../src/nn/shogi-encoding.js';
import { seededRng as makeRandom } from '../../src/core/rng.js';

const START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';

/** Visits `count` positions of seeded random playouts from the start position. */
const walk = (count: number, seed: number, visit: (board: FastShogiBoard) => void): void => {
  const random = makeRandom(seed);
  const list = newMoveList();
  let positions = 0;
  while (positions < count) {
    const board = FastShogiBoard.fromSfen(START).unwrap();
    const maxPlies = 30 + Math.floor(random() * 220);
    for (let ply = 0; ply < maxPlies && positions < count; ply++) {
      const n = board.generateMoves(list);
      if (n === 0) break;
      positions++;
      visit(board);
      board.makeMove(list[Math.floor(random() * n)]!);
    }
  }
};

test('move <-> index is a bijection on the legal moves of 100,000 random positions', () => {
  const list = newMoveList();
  const seen = new Int32Array(SHOGI_ENCODING.policySize);
  let stamp = 0;
  let moves = 0;
  let drops = 0;
  let promotions = 0;
  let fullChecks = 0;
  walk(100_000, 5, (board) => {
    stamp++;
    const n = board.generateMoves(list);
    const turn = board.turn;
    for (let i = 0; i < n; i++) {
      const m = list[i]!;
      const idx = shogiMoveIndex(m, turn);
      if (!(idx >= 0 && idx < SHOGI_ENCODING.policySize)) expect.fail(`index ${idx} of ${board.moveToUsi(m)} in ${board.toSfen()}`);
      if (seen[idx] === stamp) expect.fail(`two moves share index ${idx} in ${board.toSfen()}`);
      seen[idx] = stamp;
      if (shogiIndexToMoveCode(idx, turn) !== m) expect.fail(`index ${idx} decodes wrongly for ${board.moveToUsi(m)} in ${board.toSfen()}`);
      if (m >>> 17 !== 0) drops++;
      if ((m & 0x10000) !== 0) promotions++;
      moves++;
    }
    // The full decoder on every index of every 2,000th position: exactly the legal moves come back.
    if (stamp % 2000 === 0) {
      fullChecks++;
      let decoded = 0;
      for (let idx = 0; idx < SHOGI_ENCODING.policySize; idx++) {
        const m = shogiIndexToMove(board, idx);
        if (m === 0) continue;
        decoded++;
        expect(shogiMoveIndex(m, turn)).toBe(idx);
      }
      expect(decoded).toBe(n);
    }
  });
  expect(moves).toBeGreaterThan(4_000_000);
  expect(drops).toBeGreaterThan(800_000);
  expect(promotions).toBeGreaterThan(50_000);
  expect(fullChecks).toBe(50);
});

const swapCase = (t: string): string => [...t].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

/** The same position rotated by 180 degrees with colours swapped. */
const mirrorSfen = (sfen: string): string => {
  const [placement, turn, hand, moveNumber] = sfen.split(' ');
  const cells: string[] = [];
  for (const row of placement!.split('/')) {
    for (let i = 0; i < row.length; i++) {
      const c = row[i]!;
      if (c >= '1' && c <= '9') for (let k = 0; k < Number(c); k++) cells.push('');
      else if (c === '+') cells.push('+' + row[++i]!);
      else cells.push(c);
    }
  }
  cells.reverse();
  const rows: string[] = [];
  for (let r = 0; r < 9; r++) {
    let text = '';
    let empty = 0;
    for (const cell of cells.slice(r * 9, r * 9 + 9)) {
      if (cell === '') {
        empty++;
        continue;
      }
      if (empty > 0) text += String(empty);
      empty = 0;
      text += swapCase(cell);
    }
    rows.push(empty > 0 ? text + String(empty) : text);
  }
  return `${rows.join('/')} ${turn === 'b' ? 'w' : 'b'} ${hand === '-' ? '-' : swapCase(hand!)} ${moveNumber}`;
};

/** USI square rotated by 180 degrees. */
const rotate = (s: string): string => String(10 - Number(s[0])) + String.fromCharCode(105 - (s.charCodeAt(1) - 97));
const rotateUsi = (usi: string): string =>
  usi[1] === '*' ? usi.slice(0, 2) + rotate(usi.slice(2, 4)) : rotate(usi.slice(0, 2)) + rotate(usi.slice(2, 4)) + usi.slice(4);

test('the board flip for the side to move is exact (5,000 positions and their rotated twins)', () => {
  const a = new Float32Array(SHOGI_ENCODING.inputSize);
  const b = new Float32Array(SHOGI_ENCODING.inputSize);
  const colourStart = SHOGI_PLANE.colour * 81;
  let positions = 0;
  let withHands = 0;
  walk(5_000, 9, (board) => {
    const sfen = board.toSfen();
    const twin = FastShogiBoard.fromSfen(mirrorSfen(sfen)).unwrap();
    expect(twin.turn).toBe(board.turn ^ 1);
    encodeShogi(board, { repetitions: 1, plies: 40 }, a, 0);
    encodeShogi(twin, { repetitions: 1, plies: 40 }, b, 0);
    for (let i = 0; i < a.length; i++) {
      if (i >= colourStart && i < colourStart + 81) continue;
      if (a[i] !== b[i]) expect.fail(`plane ${Math.floor(i / 81)} square ${i % 81} differs: ${sfen} vs ${twin.toSfen()}`);
    }
    expect(a[colourStart]! + b[colourStart]!).toBe(1);
    if (a[SHOGI_PLANE.ownHand * 81] !== 0 || a[SHOGI_PLANE.opponentHand * 81] !== 0) withHands++;
    const list = newMoveList();
    const n = board.generateMoves(list);
    const twinList = newMoveList();
    const tn = twin.generateMoves(twinList);
    expect(tn).toBe(n);
    const twinMoves = new Map(Array.from(twinList.subarray(0, tn), (m) => [twin.moveToUsi(m), m]));
    for (let i = 0; i < n; i++) {
      const usi = board.moveToUsi(list[i]!);
      const mirrored = twinMoves.get(rotateUsi(usi));
      if (mirrored === undefined) expect.fail(`${usi} in ${sfen} has no rotated twin`);
      if (shogiMoveIndex(mirrored, twin.turn) !== shogiMoveIndex(list[i]!, board.turn)) expect.fail(`${usi} in ${sfen}: index differs`);
    }
    positions++;
  });
  expect(positions).toBe(5_000);
  expect(withHands).toBeGreaterThan(2_000);
});

test('pinned planes and indices', () => {
  const board = FastShogiBoard.fromSfen(START).unwrap();
  const x = new Float32Array(SHOGI_ENCODING.inputSize);
  encodeShogi(board, shogiContext(board), x, 0);
  const on = (p: number): number[] => Array.from(x.subarray(p * 81, p * 81 + 81)).flatMap((v, i) => (v !== 0 ? [i] : []));
  expect(on(0)).toEqual([54, 55, 56, 57, 58, 59, 60, 61, 62]); // own pawns on rank g
  expect(on(7)).toEqual([76]); // own king 5i
  expect(on(14)).toEqual([18, 19, 20, 21, 22, 23, 24, 25, 26]); // opponent pawns on rank c
  expect(on(SHOGI_PLANE.colour)).toEqual([]);
  expect(on(SHOGI_PLANE.ones).length).toBe(81);
  // 7g7f: up 1 from 7g (row 6, column 2 = 56): plane 0.
  expect(shogiMoveIndex(board.parseUsi('7g7f')!, 0)).toBe(0 * 81 + 56);
  // After 7g7f, white's 3c3d is, seen from white, up 1 from its own 7g.
  board.makeMove(board.parseUsi('7g7f')!);
  expect(shogiMoveIndex(board.parseUsi('3c3d')!, 1)).toBe(0 * 81 + 56);
  encodeShogi(board, shogiContext(board), x, 0);
  expect(on(SHOGI_PLANE.colour).length).toBe(81);
  expect(on(0)).toEqual([54, 55, 56, 57, 58, 59, 60, 61, 62]);
  expect(on(14)).toEqual([18, 19, 20, 21, 22, 23, 25, 26, 33]); // black's pawns rotated: 7g (56) is empty, 7f shows at 80 - 47 = 33
  // Drops, knights and promotions.
  const p = FastShogiBoard.fromSfen('4k4/9/9/9/9/9/9/9/4K3N b Pr2g 1').unwrap();
  expect(shogiMoveIndex(p.parseUsi('P*5e')!, 0)).toBe(132 * 81 + 40);
  expect(shogiMoveIndex(p.parseUsi('1i2g')!, 0)).toBe(64 * 81 + 80);
  const q = FastShogiBoard.fromSfen('4k4/9/9/9/9/9/9/9/4K4 w Pr2g 1').unwrap();
  // White drops its rook on 5e: drop plane 132 + 5 (rook = type 6), square rotated 40 -> 40.
  expect(shogiMoveIndex(q.parseUsi('R*5e')!, 1)).toBe(137 * 81 + 40);
  const pro = FastShogiBoard.fromSfen('4k4/9/9/9/4P4/9/9/9/4K4 b - 1').unwrap();
  expect(shogiMoveIndex(pro.parseUsi('5e5d')!, 0)).toBe(40);
  const pro2 = FastShogiBoard.fromSfen('4k4/9/9/4P4/9/9/9/9/4K4 b - 1').unwrap();
  expect(shogiMoveIndex(pro2.parseUsi('5d5c+')!, 0)).toBe(66 * 81 + 31);
  expect(shogiContext(pro2)).toEqual({ repetitions: 0, plies: 0 });
});
