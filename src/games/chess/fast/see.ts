/**
 * Static exchange evaluation (SEE) on the internal chess board: the material balance, for the side
 * that moves, of the exchange of captures on the move's destination square when both sides always
 * recapture with their least valuable attacker and may stop whenever continuing would lose.
 *
 * The swap-list algorithm (chessprogramming.org, "SEE - The Swap Algorithm"): attackers are found
 * on a scratch copy of the 0x88 mailbox from which each piece that has captured is removed, so
 * sliders behind it (x-rays: a rook behind a rook, a bishop or queen behind a pawn) join in.
 * Pins are ignored, as usual. A pawn that recaptures on the last rank counts as a queen.
 */
import type { FastChessBoard } from './board.js';
import { BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK } from './piece.js';
import { DIRS, KNIGHT_STEPS, to88 } from './tables.js';

/** Exchange values by piece type (index 0 unused); the king's makes its capture decisive. */
export const SEE_VALUE: readonly number[] = [0, 100, 325, 325, 500, 975, 20000];
const VALUE = Int32Array.from(SEE_VALUE);

/** Scratch copy of the mailbox (one search thread at a time per module instance). */
const occ = new Uint8Array(128);
const gain = new Int32Array(40);
/** Square found by `leastAttacker`. */
let foundSq = -1;

/** Type of the least valuable piece of colour `side` attacking 0x88 square `to` on `occ`, or 0. */
const leastAttacker = (to: number, side: number): number => {
  const bit = side << 3;
  let t: number;
  // Pawns: a white pawn attacks up the board, so it stands below `to`.
  const pawn = bit | PAWN;
  if (side === 0) {
    t = to - 15;
    if (!(t & 0x88) && occ[t] === pawn) return (foundSq = t), PAWN;
    t = to - 17;
    if (!(t & 0x88) && occ[t] === pawn) return (foundSq = t), PAWN;
  } else {
    t = to + 15;
    if (!(t & 0x88) && occ[t] === pawn) return (foundSq = t), PAWN;
    t = to + 17;
    if (!(t & 0x88) && occ[t] === pawn) return (foundSq = t), PAWN;
  }
  const knight = bit | KNIGHT;
  for (let k = 0; k < 8; k++) {
    t = to + KNIGHT_STEPS[k]!;
    if (!(t & 0x88) && occ[t] === knight) return (foundSq = t), KNIGHT;
  }
  // Sliders and the king: the first piece on each ray.
  let best = 0;
  let bestSq = -1;
  for (let k = 0; k < 8; k++) {
    const d = DIRS[k]!;
    const slider = k < 4 ? BISHOP : ROOK;
    let n = 1;
    for (t = to + d; !(t & 0x88); t += d, n++) {
      const p = occ[t]!;
      if (p === 0) continue;
      if ((p & 8) === bit) {
        const type = p & 7;
        if ((type === slider || type === QUEEN || (type === KING && n === 1)) && (best === 0 || VALUE[type]! < VALUE[best]!)) {
          best = type;
          bestSq = t;
        }
      }
      break;
    }
  }
  foundSq = bestSq;
  return best;
};

/**
 * The static exchange value of legal move `m` (move.ts encoding) for the side to move, centipawns
 * (SEE_VALUE units): 0 for castling and quiet moves no enemy piece can take back.
 */
export const see = (board: FastChessBoard, m: number): number => {
  const kind = (m >> 15) & 3;
  if (kind === 2) return 0;
  const from = to88(m & 63);
  const to = to88((m >> 6) & 63);
  const captured = (m >> 17) & 7;
  const promotion = (m >> 12) & 7;
  const us = board.turn;
  occ.set(board.squares);
  if (kind === 3) occ[us === 0 ? to - 16 : to + 16] = 0;
  occ[from] = 0;
  gain[0] = VALUE[captured]! + (promotion !== 0 ? VALUE[promotion]! - VALUE[PAWN]! : 0);
  let onSquare = promotion !== 0 ? promotion : (m >> 20) & 7;
  let side = us ^ 1;
  let d = 0;
  const lastRank = (to >> 4) === 0 || (to >> 4) === 7;
  for (;;) {
    const type = leastAttacker(to, side);
    if (type === 0) break;
    d++;
    gain[d] = VALUE[onSquare]! - gain[d - 1]!;
    // Neither side can gain by going on: the result is fixed.
    if (Math.max(-gain[d - 1]!, gain[d]!) < 0) break;
    occ[foundSq] = 0;
    onSquare = type;
    if (type === PAWN && lastRank) {
      gain[d] += VALUE[QUEEN]! - VALUE[PAWN]!;
      onSquare = QUEEN;
    }
    side ^= 1;
  }
  // Back up: each side either stands pat or captures, whichever is better for it.
  for (; d > 0; d--) gain[d - 1] = -Math.max(-gain[d - 1]!, gain[d]!);
  return gain[0]!;
};

/**
 * Whether `see(board, m) >= threshold`, without the exchange when bounds decide: the mover keeps
 * at most what it captures first (the opponent may always stop), and at least that minus the
 * capturing piece (the opponent recaptures once and we stop), unless a pawn may recapture
 * promoting on the destination's last rank.
 */
export const seeGe = (board: FastChessBoard, m: number, threshold: number): boolean => {
  const kind = (m >> 15) & 3;
  if (kind !== 2) {
    const promotion = (m >> 12) & 7;
    const first = VALUE[(m >> 17) & 7]! + (promotion !== 0 ? VALUE[promotion]! - VALUE[PAWN]! : 0);
    if (first < threshold) return false;
    const rank = (m >> 9) & 7;
    if (rank !== 0 && rank !== 7 && first - VALUE[promotion !== 0 ? promotion : (m >> 20) & 7]! >= threshold) return true;
  }
  return see(board, m) >= threshold;
};
