/**
 * Static exchange evaluation (SEE) on the internal shogi board: the material balance, for the side
 * that moves, of the exchange of captures on the move's destination square when both sides always
 * recapture with their least valuable attacker and may stop whenever continuing would lose.
 *
 * The swap-list algorithm as in chess (chessprogramming.org, "SEE - The Swap Algorithm"), with
 * shogi's rules: a captured piece changes sides, so taking it is worth its value on the board plus
 * its (unpromoted) value in hand, the loser's loss and the winner's gain; a piece that moves into,
 * inside or out of the promotion zone promotes when it may (the gain is counted, and the promoted
 * piece is what the next capture takes); attackers are found on a scratch copy of the mailbox from
 * which each piece that has captured is removed, so lances, rooks and bishops behind it join in
 * (x-rays). Drops are exchanges that start with nothing captured. Pins are ignored.
 */
import type { FastShogiBoard } from './board.js';
import { NEAR_ATTACKS, SLIDE_ATTACKS } from './attack-tables.js';
import { BLACK, BLACK_BIT, KING, KNIGHT, WHITE_BIT } from './pieces.js';
import { BOARD_SIZE, DIRS, RANK_OF } from './squares.js';

/**
 * Board values by type (1..14, king 15000), the material values of the evaluation (pawn 100,
 * YaneuraOu's piece values rescaled).
 */
export const SEE_BOARD_VALUE: readonly number[] = [0, 100, 350, 450, 550, 950, 1100, 600, 15000, 600, 600, 600, 600, 1050, 1550];
/** What capturing a piece of each type is worth: its board value plus its value in the captor's hand. */
export const SEE_CAPTURE_VALUE: readonly number[] = SEE_BOARD_VALUE.map((v, t) => (t === 0 ? 0 : t === KING ? v : v + SEE_BOARD_VALUE[t > KING ? t - 8 : t]!));
const CAPTURE = Int32Array.from(SEE_CAPTURE_VALUE);
/** Value added by promoting an unpromoted type (0 for gold, king and promoted types). */
const PROMO_GAIN = Int32Array.from(SEE_BOARD_VALUE.map((v, t) => (t >= 1 && t <= 6 ? SEE_BOARD_VALUE[t + 8]! - v : 0)));

const occ = new Uint8Array(BOARD_SIZE);
const gain = new Int32Array(48);
let foundSq = -1;

/** Whether a piece of the side with colour bit `bit` may promote moving from `from` to `to`. */
const inZone = (sq: number, bit: number): boolean => (bit === BLACK_BIT ? RANK_OF[sq]! <= 2 : RANK_OF[sq]! >= 6);

/** Type of the least valuable piece with colour bit `bit` attacking `to` on `occ`, or 0. */
const leastAttacker = (to: number, bit: number): number => {
  let best = 0;
  let bestValue = 1 << 30;
  let bestSq = -1;
  // Knights jump: a black knight attacks two ranks up, so it stands two ranks below `to`.
  const knight = bit | KNIGHT;
  const k1 = bit === BLACK_BIT ? to + 19 : to - 19;
  const k2 = bit === BLACK_BIT ? to + 21 : to - 21;
  if (occ[k1] === knight) {
    best = KNIGHT;
    bestValue = CAPTURE[KNIGHT]!;
    bestSq = k1;
  } else if (occ[k2] === knight) {
    best = KNIGHT;
    bestValue = CAPTURE[KNIGHT]!;
    bestSq = k2;
  }
  for (let d = 0; d < 8; d++) {
    const step = DIRS[d]!;
    const back = 1 << (d ^ 4);
    let s = to + step;
    let p = occ[s]!;
    let near = true;
    while (p === 0) {
      s += step;
      p = occ[s]!;
      near = false;
    }
    if ((p & 48) !== bit) continue;
    if ((near ? NEAR_ATTACKS[p]! : SLIDE_ATTACKS[p]!) & back) {
      const type = p & 15;
      const v = CAPTURE[type]!;
      if (v < bestValue) {
        best = type;
        bestValue = v;
        bestSq = s;
      }
    }
  }
  foundSq = bestSq;
  return best;
};

/**
 * The static exchange value of legal move `m` (move.ts encoding) for the side to move, centipawns
 * (SEE_BOARD_VALUE units, captures counted with the hand as above): e.g. pawn takes an undefended
 * pawn = 200, a drop on a square the enemy takes for free = minus the dropped piece's capture value.
 */
export const see = (board: FastShogiBoard, m: number): number => {
  const to = (m >>> 8) & 255;
  const drop = m >>> 17;
  const usBit = board.turn === BLACK ? BLACK_BIT : WHITE_BIT;
  occ.set(board.board);
  let onSquare: number;
  if (drop !== 0) {
    gain[0] = 0;
    onSquare = drop;
  } else {
    const from = m & 255;
    const type = occ[from]! & 15;
    gain[0] = CAPTURE[occ[to]! & 15]!;
    onSquare = type;
    if ((m & (1 << 16)) !== 0) {
      gain[0] += PROMO_GAIN[type]!;
      onSquare = type + 8;
    }
    occ[from] = 0;
  }
  let bit = usBit ^ 48;
  let d = 0;
  for (;;) {
    const type = leastAttacker(to, bit);
    if (type === 0) break;
    d++;
    gain[d] = CAPTURE[onSquare]! - gain[d - 1]!;
    if (Math.max(-gain[d - 1]!, gain[d]!) < 0) break;
    const from = foundSq;
    occ[from] = 0;
    onSquare = type;
    if (PROMO_GAIN[type]! > 0 && (inZone(to, bit) || inZone(from, bit))) {
      gain[d] += PROMO_GAIN[type]!;
      onSquare = type + 8;
    }
    bit ^= 48;
  }
  // Back up: each side either stands pat or captures, whichever is better for it.
  for (; d > 0; d--) gain[d - 1] = -Math.max(-gain[d - 1]!, gain[d]!);
  return gain[0]!;
};

/** The most a recapture's promotion adds to the exchange (a pawn becoming a tokin). */
const MAX_PROMO_GAIN = Math.max(...PROMO_GAIN);

/**
 * Whether `see(board, m) >= threshold`, without the exchange when bounds decide: the mover keeps
 * at most what it captures first (with its promotion; the opponent may always stop), and at least
 * that minus the capturing piece's capture value and the largest promotion gain of a recapture
 * (the opponent recaptures once and we stop).
 */
export const seeGe = (board: FastShogiBoard, m: number, threshold: number): boolean => {
  if (m >>> 17 !== 0) {
    // A drop captures nothing.
    if (threshold > 0) return false;
  } else {
    const type = board.board[m & 255]! & 15;
    const promotes = (m & (1 << 16)) !== 0;
    const first = CAPTURE[board.board[(m >>> 8) & 255]! & 15]! + (promotes ? PROMO_GAIN[type]! : 0);
    if (first < threshold) return false;
    if (first - CAPTURE[promotes ? type + 8 : type]! - MAX_PROMO_GAIN >= threshold) return true;
  }
  return see(board, m) >= threshold;
};
