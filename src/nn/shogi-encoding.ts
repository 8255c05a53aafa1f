/**
 * The shogi encoding `kishi-shogi-1`: input planes of a `FastShogiBoard` from the side to move's
 * view, and the AlphaZero 9x9x139 policy (models/README.md has the tables).
 *
 * Orientation: the board is seen as SFEN prints it (row 0 = rank a, column 0 = file 9) when
 * black (sente) is to move, and rotated by 180 degrees when white (gote) is to move, so the side
 * to move always advances up (towards row 0). Oriented square = `row * 9 + column`; plane `c`
 * holds it at `c * 81 + square`.
 *
 * Policy index = `plane * 81 + square`, planes:
 * - 0..63 queen-like moves: direction `d` (0 up, 1 up-right, 2 right, 3 down-right, 4 down,
 *   5 down-left, 6 left, 7 up-left; "right" = column + 1) times 8 distances: `d * 8 + distance - 1`;
 * - 64, 65 knight moves (two up and one left, two up and one right);
 * - 66..131 the same 66 moves with promotion (`plane + 66`);
 * - 132..138 drops of pawn, lance, knight, silver, bishop, rook, gold (the fast board's piece
 *   types 1..7); for drops the square is the destination.
 * For board moves the square is the (oriented) from-square.
 *
 * Pure: no I/O, no allocation in the hot functions.
 */
import type { FastShogiBoard } from '../games/shogi/fast/board.js';
import * as piecesModule from '../games/shogi/fast/pieces.js';
import * as squaresModule from '../games/shogi/fast/squares.js';
import { moveCountPlane, type EncodeContext, type EncodingSpec } from './encoding.js';

// Copied into module scope: under vitest's module transform every import use is a getter call.
const { BLACK_BIT, WHITE } = piecesModule;
const { SQUARES } = squaresModule;

export const SHOGI_ENCODING: EncodingSpec = {
  game: 'shogi',
  version: 'kishi-shogi-1',
  planes: 48,
  height: 9,
  width: 9,
  inputSize: 48 * 81,
  policyPlanes: 139,
  policySize: 139 * 81,
};

/** Input plane numbers of `kishi-shogi-1`. */
export const SHOGI_PLANE = {
  /** Own pieces by fast-board type 1..14 (P L N S B R G K +P +L +N +S +B +R): plane `type - 1`. */
  own: 0,
  /** Opponent's pieces, same order (planes 14..27). */
  opponent: 14,
  /** Own pieces in hand, constant planes, types 1..7 (P L N S B R G): count / `HAND_MAX[type]`. */
  ownHand: 28,
  /** Opponent's pieces in hand (planes 35..41). */
  opponentHand: 35,
  /** 1 everywhere when the position occurred at least 1, 2, 3 times before (planes 42..44; 3 = the next is the fourth). */
  repeated: 42,
  /** 1 everywhere when white (gote) is to move. */
  colour: 45,
  /** Plies played / 512, capped at 1. */
  moveCount: 46,
  /** 1 everywhere (marks the board edge for zero-padded convolutions). */
  ones: 47,
} as const;

/** Divisor of each hand count plane (the number of pieces of that type in a set), by type 1..7. */
export const HAND_MAX: readonly number[] = [0, 18, 4, 4, 4, 2, 2, 4];

/** Policy plane of the first promoting move and of the first drop. */
export const SHOGI_PROMOTE_PLANE = 66;
export const SHOGI_DROP_PLANE = 132;

/** Queen directions [row, column] in policy order (row - 1 = up). */
export const SHOGI_DIRECTIONS: readonly (readonly [number, number])[] = [
  [-1, 0],
  [-1, 1],
  [0, 1],
  [1, 1],
  [1, 0],
  [1, -1],
  [0, -1],
  [-1, -1],
];

/** Plane (0..65) of a from->to delta: `DELTA_PLANE[(dr + 8) * 17 + dc + 8]`, -1 if none. */
const DELTA_PLANE = new Int8Array(17 * 17).fill(-1);
/** [dr, dc] of each plane 0..65. */
const PLANE_DELTA = new Int8Array(66 * 2);
for (let d = 0; d < 8; d++) {
  const [r, c] = SHOGI_DIRECTIONS[d]!;
  for (let dist = 1; dist <= 8; dist++) {
    const plane = d * 8 + dist - 1;
    DELTA_PLANE[(r * dist + 8) * 17 + c * dist + 8] = plane;
    PLANE_DELTA[plane * 2] = r * dist;
    PLANE_DELTA[plane * 2 + 1] = c * dist;
  }
}
DELTA_PLANE[(-2 + 8) * 17 - 1 + 8] = 64;
DELTA_PLANE[(-2 + 8) * 17 + 1 + 8] = 65;
PLANE_DELTA.set([-2, -1, -2, 1], 128);

/** Oriented square (0..80) of each internal square, for black and for white to move: `ORIENT[side * 131 + sq]`. */
const ORIENT = new Int8Array(2 * 131).fill(-1);
for (let i = 0; i < 81; i++) {
  ORIENT[SQUARES[i]!] = i;
  ORIENT[131 + SQUARES[i]!] = 80 - i;
}

/**
 * Policy index of a fast-board move for the side to move `turn`. Every legal move of a position
 * has a distinct index (tested).
 */
export const shogiMoveIndex = (move: number, turn: number): number => {
  const base = turn * 131;
  const to = ORIENT[base + ((move >>> 8) & 0xff)]!;
  const drop = move >>> 17;
  if (drop !== 0) return (SHOGI_DROP_PLANE + drop - 1) * 81 + to;
  const from = ORIENT[base + (move & 0xff)]!;
  const fr = (from / 9) | 0;
  const tr = (to / 9) | 0;
  const plane = DELTA_PLANE[(tr - fr + 8) * 17 + (to - tr * 9) - (from - fr * 9) + 8]!;
  return ((move & 0x10000) !== 0 ? plane + SHOGI_PROMOTE_PLANE : plane) * 81 + from;
};

/** Writes the policy indices of `moves[0..n)` into `out[0..n)`. */
export const shogiMoveIndices = (board: FastShogiBoard, moves: Int32Array, n: number, out: Int32Array): void => {
  const turn = board.turn;
  for (let i = 0; i < n; i++) out[i] = shogiMoveIndex(moves[i]!, turn);
};

/**
 * The fast-board move code that policy index `index` names for the side to move `turn`, or -1 if
 * it leads off the board. Pure; the move need not be legal.
 */
export const shogiIndexToMoveCode = (index: number, turn: number): number => {
  if (!(index >= 0 && index < SHOGI_ENCODING.policySize)) return -1;
  const plane = (index / 81) | 0;
  const sq = index - plane * 81;
  const unorient = (o: number): number => SQUARES[turn === WHITE ? 80 - o : o]!;
  if (plane >= SHOGI_DROP_PLANE) return ((plane - SHOGI_DROP_PLANE + 1) << 17) | (unorient(sq) << 8);
  const p = plane >= SHOGI_PROMOTE_PLANE ? plane - SHOGI_PROMOTE_PLANE : plane;
  const r = ((sq / 9) | 0) + PLANE_DELTA[p * 2]!;
  const c = (sq % 9) + PLANE_DELTA[p * 2 + 1]!;
  if (r < 0 || r > 8 || c < 0 || c > 8) return -1;
  return unorient(sq) | (unorient(r * 9 + c) << 8) | (plane >= SHOGI_PROMOTE_PLANE ? 0x10000 : 0);
};

/**
 * The legal move of `board` with policy index `index`, or 0 (the null move) if the index names no
 * legal move here. Generates the legal moves (not for hot paths).
 */
export const shogiIndexToMove = (board: FastShogiBoard, index: number): number => {
  const move = shogiIndexToMoveCode(index, board.turn);
  return move > 0 && board.isLegal(move) ? move : 0;
};

/**
 * Earlier occurrences of the current position (0..3), counting back over the whole history since
 * set-up, positions with the same side to move only, stopping at a null move.
 */
export const shogiRepetitions = (board: FastShogiBoard): number => {
  const [hi, lo] = board.keyAt(board.ply);
  let found = 0;
  for (let i = board.ply - 2; i >= 0 && found < 3; i -= 2) {
    if (board.moveAt(i) === 0 || board.moveAt(i + 1) === 0) break;
    const [h, l] = board.keyAt(i);
    if (h === hi && l === lo) found++;
  }
  return found;
};

/**
 * The context `encodeShogi` needs, computed from the board: plies = the SFEN move number - 1
 * (shogi move numbers count plies).
 */
export const shogiContext = (board: FastShogiBoard): EncodeContext => ({
  repetitions: shogiRepetitions(board),
  plies: Number(board.toSfen().split(' ')[3]) - 1,
});

const fillPlane = (out: Float32Array, offset: number, plane: number, v: number): void => {
  if (v !== 0) out.fill(v, offset + plane * 81, offset + plane * 81 + 81);
};

/**
 * Writes the `kishi-shogi-1` input planes of `board` into `out[offset .. offset + inputSize)`.
 * `ctx` comes from the caller (the search tracks repetitions and plies cheaply); `shogiContext`
 * computes it from the board.
 */
export const encodeShogi = (board: FastShogiBoard, ctx: EncodeContext, out: Float32Array, offset: number): void => {
  out.fill(0, offset, offset + SHOGI_ENCODING.inputSize);
  const turn = board.turn;
  const ownBit = turn === WHITE ? 32 : BLACK_BIT;
  const cells = board.board;
  const base = turn * 131;
  for (let i = 0; i < 81; i++) {
    const sq = SQUARES[i]!;
    const p = cells[sq]!;
    if (p === 0) continue;
    const plane = ((p & 48) === ownBit ? 0 : 14) + (p & 15) - 1;
    out[offset + plane * 81 + ORIENT[base + sq]!] = 1;
  }
  const hands = board.hands;
  for (let type = 1; type <= 7; type++) {
    fillPlane(out, offset, SHOGI_PLANE.ownHand + type - 1, hands[turn * 8 + type]! / HAND_MAX[type]!);
    fillPlane(out, offset, SHOGI_PLANE.opponentHand + type - 1, hands[(turn ^ 1) * 8 + type]! / HAND_MAX[type]!);
  }
  const rep = ctx.repetitions;
  for (let k = 0; k < 3; k++) fillPlane(out, offset, SHOGI_PLANE.repeated + k, rep > k ? 1 : 0);
  fillPlane(out, offset, SHOGI_PLANE.colour, turn === WHITE ? 1 : 0);
  fillPlane(out, offset, SHOGI_PLANE.moveCount, moveCountPlane(ctx.plies));
  fillPlane(out, offset, SHOGI_PLANE.ones, 1);
};
