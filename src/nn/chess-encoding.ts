/**
 * The chess encoding `kishi-chess-1`: input planes of a `FastChessBoard` from the side to move's
 * view, and the AlphaZero 8x8x73 policy (models/README.md has the tables).
 *
 * Orientation: when black is to move the board is mirrored vertically (square `sq ^ 56`, a1 <->
 * a8), so "own" pieces always start at the bottom and move up; files are not mirrored.
 * Squares are 0..63 with a1 = 0 in the oriented view; plane `c` holds square `sq` at
 * `c * 64 + sq` (NCHW with row = rank, column = file).
 *
 * Policy index = `plane * 64 + from` (oriented from-square), planes:
 * - 0..55 queen moves: direction `d` (0 N, 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW; N = towards the
 *   opponent) times 7 distances: `d * 7 + distance - 1`. Queen promotions are queen moves.
 * - 56..63 knight moves, in the order of `KNIGHT_DELTAS`.
 * - 64..72 underpromotions: `64 + (fileDelta + 1) * 3 + k`, k = 0 knight, 1 bishop, 2 rook.
 * Castling, standard and Chess960 alike, is encoded as the king taking its own rook (the fast
 * board's move form): a queen move east or west along the back rank, from the king's square to
 * the rook's. No other legal move can land on an own piece, so the index is unambiguous.
 *
 * Pure: no I/O, no allocation in the hot functions.
 */
import type { FastChessBoard } from '../games/chess/fast/board.js';
import * as pieceModule from '../games/chess/fast/piece.js';
import { moveCountPlane, type EncodeContext, type EncodingSpec } from './encoding.js';

// Copied into module scope: under vitest's module transform every import use is a getter call.
const { BLACK, KNIGHT, PAWN, QUEEN } = pieceModule;

export const CHESS_ENCODING: EncodingSpec = {
  game: 'chess',
  version: 'kishi-chess-1',
  planes: 23,
  height: 8,
  width: 8,
  inputSize: 23 * 64,
  policyPlanes: 73,
  policySize: 73 * 64,
};

/** Input plane numbers of `kishi-chess-1`. */
export const CHESS_PLANE = {
  /** Own pieces: pawn, knight, bishop, rook, queen, king (planes 0..5). */
  own: 0,
  /** Opponent's pieces in the same order (planes 6..11). */
  opponent: 6,
  /** 1 everywhere when the position occurred at least once before. */
  repeated1: 12,
  /** 1 everywhere when it occurred at least twice before (the next occurrence would be threefold). */
  repeated2: 13,
  /** Castling rights, constant planes: own king side (h-side), own queen side (a-side), then the opponent's. */
  castling: 14,
  /** A 1 on the en passant target square when an en passant capture is legal. */
  enPassant: 18,
  /** Half-moves since the last capture or pawn move / 100, capped at 1. */
  noProgress: 19,
  /** 1 everywhere when black is to move. */
  colour: 20,
  /** Plies played / 512, capped at 1. */
  moveCount: 21,
  /** 1 everywhere (marks the board edge for zero-padded convolutions). */
  ones: 22,
} as const;

/** Knight deltas [rank, file] in policy plane order 56..63. */
export const KNIGHT_DELTAS: readonly (readonly [number, number])[] = [
  [2, 1],
  [1, 2],
  [-1, 2],
  [-2, 1],
  [-2, -1],
  [-1, -2],
  [1, -2],
  [2, -1],
];

/** Queen directions [rank, file] in policy order (N, NE, E, SE, S, SW, W, NW). */
export const QUEEN_DIRECTIONS: readonly (readonly [number, number])[] = [
  [1, 0],
  [1, 1],
  [0, 1],
  [-1, 1],
  [-1, 0],
  [-1, -1],
  [0, -1],
  [1, -1],
];

/** Policy plane of a from->to delta (queen or knight move): `DELTA_PLANE[(dr + 7) * 15 + df + 7]`, -1 if none. */
const DELTA_PLANE = new Int8Array(15 * 15).fill(-1);
/** The inverse: [dr, df] of each plane 0..63. */
const PLANE_DELTA = new Int8Array(64 * 2);
for (let d = 0; d < 8; d++) {
  const [r, f] = QUEEN_DIRECTIONS[d]!;
  for (let dist = 1; dist <= 7; dist++) {
    const plane = d * 7 + dist - 1;
    DELTA_PLANE[(r * dist + 7) * 15 + f * dist + 7] = plane;
    PLANE_DELTA[plane * 2] = r * dist;
    PLANE_DELTA[plane * 2 + 1] = f * dist;
  }
}
for (let k = 0; k < 8; k++) {
  const [r, f] = KNIGHT_DELTAS[k]!;
  DELTA_PLANE[(r + 7) * 15 + f + 7] = 56 + k;
  PLANE_DELTA[(56 + k) * 2] = r;
  PLANE_DELTA[(56 + k) * 2 + 1] = f;
}

/**
 * Policy index of a fast-board move (see the module comment) for the side to move `turn`
 * (0 white, 1 black). Every legal move of a position has a distinct index (tested).
 */
export const chessMoveIndex = (move: number, turn: number): number => {
  const flip = turn === BLACK ? 56 : 0;
  const from = (move & 63) ^ flip;
  const to = ((move >> 6) & 63) ^ flip;
  const df = (to & 7) - (from & 7);
  const promotion = (move >> 12) & 7;
  if (promotion !== 0 && promotion !== QUEEN) return (64 + (df + 1) * 3 + (promotion - KNIGHT)) * 64 + from;
  const dr = (to >> 3) - (from >> 3);
  return DELTA_PLANE[(dr + 7) * 15 + df + 7]! * 64 + from;
};

/** Writes the policy indices of `moves[0..n)` into `out[0..n)`. */
export const chessMoveIndices = (board: FastChessBoard, moves: Int32Array, n: number, out: Int32Array): void => {
  const turn = board.turn;
  for (let i = 0; i < n; i++) out[i] = chessMoveIndex(moves[i]!, turn);
};

/**
 * The from/to/promotion part of the move (`move & 0x7fff`, see fast/move.ts) that policy index
 * `index` names in `board`, or -1 if it leads off the board. Pure; the move need not be legal.
 */
export const chessIndexToMoveKey = (board: FastChessBoard, index: number): number => {
  if (!(index >= 0 && index < CHESS_ENCODING.policySize)) return -1;
  const flip = board.turn === BLACK ? 56 : 0;
  const plane = index >> 6;
  const from = index & 63;
  let dr: number;
  let df: number;
  let promotion = 0;
  if (plane >= 64) {
    const u = plane - 64;
    dr = 1;
    df = Math.floor(u / 3) - 1;
    promotion = KNIGHT + (u % 3);
  } else {
    dr = PLANE_DELTA[plane * 2]!;
    df = PLANE_DELTA[plane * 2 + 1]!;
  }
  const r = (from >> 3) + dr;
  const f = (from & 7) + df;
  if (r < 0 || r > 7 || f < 0 || f > 7) return -1;
  const realFrom = from ^ flip;
  const realTo = (r * 8 + f) ^ flip;
  if (promotion === 0 && plane < 56 && r === 7 && (board.pieceAt(realFrom) & 7) === PAWN) promotion = QUEEN;
  return realFrom | (realTo << 6) | (promotion << 12);
};

/**
 * The legal move of `board` with policy index `index`, or 0 (NO_MOVE) if the index names no legal
 * move here. Generates the legal moves (not for hot paths).
 */
export const chessIndexToMove = (board: FastChessBoard, index: number): number => {
  const key = chessIndexToMoveKey(board, index);
  if (key < 0) return 0;
  for (const m of board.legalMoves()) if ((m & 0x7fff) === key) return m;
  return 0;
};

/**
 * Repetition count for the input planes: 0, 1 or 2 earlier occurrences (fast-board rules: only
 * reversible plies since set-up are searched).
 */
export const chessRepetitions = (board: FastChessBoard): number => (board.isRepetition(2) ? 2 : board.isRepetition(1) ? 1 : 0);

/** Plies played since the game start, from the FEN move counters the board keeps. */
export const chessPlies = (board: FastChessBoard): number => (board.fullmoveNumber - 1) * 2 + board.turn;

/** The context `encodeChess` needs, computed from the board itself. */
export const chessContext = (board: FastChessBoard): EncodeContext => ({ repetitions: chessRepetitions(board), plies: chessPlies(board) });

const fillPlane = (out: Float32Array, offset: number, plane: number, v: number): void => {
  if (v !== 0) out.fill(v, offset + plane * 64, offset + plane * 64 + 64);
};

/**
 * Writes the `kishi-chess-1` input planes of `board` into `out[offset .. offset + inputSize)`.
 * `ctx.repetitions` and `ctx.plies` come from the caller (the search tracks them cheaply);
 * `chessContext(board)` computes them from the board.
 */
export const encodeChess = (board: FastChessBoard, ctx: EncodeContext, out: Float32Array, offset: number): void => {
  out.fill(0, offset, offset + CHESS_ENCODING.inputSize);
  const us = board.turn;
  const flip = us === BLACK ? 56 : 0;
  const plist = board.pieceList;
  const squares = board.squares;
  for (let color = 0; color < 2; color++) {
    const base = color === us ? 0 : 6;
    const end = (color << 4) + board.listSize[color]!;
    for (let i = color << 4; i < end; i++) {
      const s88 = plist[i]!;
      const type = squares[s88]! & 7;
      const sq = ((s88 + (s88 & 7)) >> 1) ^ flip;
      out[offset + (base + type - 1) * 64 + sq] = 1;
    }
  }
  const rep = ctx.repetitions;
  fillPlane(out, offset, CHESS_PLANE.repeated1, rep >= 1 ? 1 : 0);
  fillPlane(out, offset, CHESS_PLANE.repeated2, rep >= 2 ? 1 : 0);
  const c = board.castling;
  const ownShift = us * 2;
  const oppShift = (us ^ 1) * 2;
  fillPlane(out, offset, CHESS_PLANE.castling, (c >> ownShift) & 1);
  fillPlane(out, offset, CHESS_PLANE.castling + 1, (c >> (ownShift + 1)) & 1);
  fillPlane(out, offset, CHESS_PLANE.castling + 2, (c >> oppShift) & 1);
  fillPlane(out, offset, CHESS_PLANE.castling + 3, (c >> (oppShift + 1)) & 1);
  const ep = board.legalEpSquare();
  if (ep !== -1) out[offset + CHESS_PLANE.enPassant * 64 + (ep ^ flip)] = 1;
  fillPlane(out, offset, CHESS_PLANE.noProgress, Math.min(board.halfmoveClock, 100) / 100);
  fillPlane(out, offset, CHESS_PLANE.colour, us === BLACK ? 1 : 0);
  fillPlane(out, offset, CHESS_PLANE.moveCount, moveCountPlane(ctx.plies));
  fillPlane(out, offset, CHESS_PLANE.ones, 1);
};
