/**
 * Mate in one ply on the internal shogi board: a legal move of the side to move after which the
 * opponent has no legal move, found without generating the move list (YaneuraOu's `mate_1ply`,
 * `source/mate/mate1ply_*.cpp`, in a mailbox form).
 *
 * Only moves that give check can mate, so only those are looked at:
 * - drops next to the king, a knight's jump from it, or along a lance/bishop/rook line to it
 *   (never a pawn: a pawn drop that mates is illegal, uchifuzume);
 * - board moves (with or without promotion) onto a square from which the moved piece attacks the
 *   king, found by scanning back from each such square for the pieces that reach it;
 * - discovered checks: any move of a piece (the king included) that stands alone between the enemy
 *   king and one of our sliders, off that line.
 * Each candidate is played on the cells (`board.board`, written and restored before returning),
 * kept if our king is then safe, and refuted by the first evasion found, cheapest first: a king
 * step, a capture of the checker, an interposition (drop or board move). The evasion test may miss
 * an exotic evasion (an interposing pawn drop that would itself mate our king is not counted) but
 * never invents one; so a candidate it cannot refute is confirmed on the board itself (make, full
 * legal move generation of the defender, unmake) before it is called mate. A mate found here is a
 * mate by the rules the generator implements; `mateMovesReference` is the slow definition the
 * tests and `tools/mate1-perft.ts` compare it with.
 */
import { NEAR_ATTACKS, SLIDE_ATTACKS, SLIDE_BEGIN, SLIDE_DIR, SLIDE_END, STEP_BEGIN, STEP_END, STEP_LINE, STEP_OFFSET } from './attack-tables.js';
import { MAX_MOVES, type FastShogiBoard } from './board.js';
import { DROP_SHIFT, PROMOTE_FLAG } from './move.js';
import * as piecesModule from './pieces.js';
import * as squaresModule from './squares.js';

// Imported constants copied into module scope (see src/search/alphabeta/shogi-board.ts: under
// vitest every use of an import is a getter call).
const { BISHOP, BLACK, BLACK_BIT, GOLD, KING, KNIGHT, LANCE, PAWN, ROOK, SILVER, WHITE_BIT } = piecesModule;
const { BOARD_SIZE, COL_OF, DIRS, RANK_OF, SQUARES } = squaresModule;

/** Hand types tried as drops, strongest first (a rook drop mates where a lance drop also would). */
const DROP_TYPES = [ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE];
/** Lowest rank, counted from the mover's far end (0 = its last rank), a piece may stand on unpromoted. */
const MIN_REL_RANK = [0, 1, 1, 2, 0, 0, 0, 0, 0];

/** Scratch shared by the calls (the search is single-threaded per worker). */
const moveList = new Int32Array(MAX_MOVES);
const found = new Int32Array(MAX_MOVES);
const blockSquares = new Int32Array(8);
/** Our sliders (lances, bishops, rooks, horses, dragons) on the board, by square. */
const sliders = new Int32Array(40);

/**
 * `LINE_DIR[a * BOARD_SIZE + b]`: the direction (squares.ts `DIRS`) from square a to square b when
 * they share a rank, file or diagonal, else -1.
 */
const LINE_DIR = new Int8Array(BOARD_SIZE * BOARD_SIZE).fill(-1);
for (let i = 0; i < 81; i++) {
  const a = SQUARES[i]!;
  for (let d = 0; d < 8; d++) for (let s = a + DIRS[d]!; RANK_OF[s]! >= 0; s += DIRS[d]!) LINE_DIR[a * BOARD_SIZE + s] = d;
}

/** Rank of `sq` counted from the far end of `side` (0 = its last rank). */
const relRank = (side: number, sq: number): number => (side === BLACK ? RANK_OF[sq]! : 8 - RANK_OF[sq]!);

/** One call's state: the board, the sides, and where the found mates go. */
class Mate1Scan {
  b!: Uint8Array;
  board!: FastShogiBoard;
  us = 0;
  ub = 0;
  eb = 0;
  eks = 0;
  oks = 0;
  /** Mates found so far (`all`) or the one found. */
  count = 0;
  all = false;
  /** Bit d: the king's neighbour in direction d was empty or ours-to-capture and unattacked before the move; -1 until the first candidate. */
  freeMask = -1;
  /** How many entries of `sliders` this call filled. */
  nSliders = 0;

  /** Tries a candidate; true when the scan may stop (a mate found and not collecting all). */
  tryMove(m: number): boolean {
    if (this.freeMask < 0) this.freeMask = this.freeSquares();
    if (this.freeMask !== 0 && !this.mayCoverEscapes(m)) return false;
    if (!this.isMate(m)) return false;
    if (this.all) {
      for (let i = 0; i < this.count; i++) if (found[i] === m) return false;
    }
    found[this.count++] = m;
    return !this.all;
  }

  /** Whether candidate `m` (a check by construction, legality not yet known) mates. */
  private isMate(m: number): boolean {
    const b = this.b;
    const to = (m >>> 8) & 255;
    const drop = m >>> DROP_SHIFT;
    let from = 0;
    let pc = 0;
    let captured = 0;
    let ok = this.oks;
    if (drop !== 0) b[to] = this.ub | drop;
    else {
      from = m & 255;
      pc = b[from]!;
      captured = b[to]!;
      b[from] = 0;
      b[to] = (m & PROMOTE_FLAG) !== 0 ? pc + 8 : pc;
      if ((pc & 15) === KING) ok = to;
    }
    // The cheapest refutation first: a king step (the squares free before the move first).
    const refuted = this.kingEscapes() || (ok >= 0 && this.board.attacked(ok, this.eb)) || this.hasEvasion();
    if (drop !== 0) b[to] = 0;
    else {
      b[from] = pc;
      b[to] = captured;
    }
    if (refuted) return false;
    // Confirmation by the rules (rare: only positions the evasion test found no answer in).
    const board = this.board;
    if (!board.isLegal(m)) return false;
    board.makeMove(m);
    const n = board.generateMoves(moveList);
    board.unmakeMove();
    return n === 0;
  }

  /**
   * A necessary condition for `m` to mate, from the cells alone: every square the king may step to
   * now must be attacked after the move, and only the moved piece (from its new square) or a line
   * through the square it leaves can add an attack (a drop adds only its own; blocking removes).
   * The square of a drop, free now, stays free: the king takes the piece.
   */
  private mayCoverEscapes(m: number): boolean {
    const b = this.b;
    const to = (m >>> 8) & 255;
    const drop = m >>> DROP_SHIFT;
    const from = drop !== 0 ? -1 : m & 255;
    const pc = drop !== 0 ? this.ub | drop : (m & PROMOTE_FLAG) !== 0 ? b[from]! + 8 : b[from]!;
    const knight = (pc & 15) === KNIGHT;
    const eks = this.eks;
    const free = this.freeMask;
    for (let d = 0; d < 8; d++) {
      if (((free >>> d) & 1) === 0) continue;
      const f = eks + DIRS[d]!;
      if (from >= 0 && LINE_DIR[from * BOARD_SIZE + f]! >= 0) continue;
      if (f === to) return false;
      if (knight) {
        if (f !== (this.ub === BLACK_BIT ? to - 19 : to + 19) && f !== (this.ub === BLACK_BIT ? to - 21 : to + 21)) return false;
        continue;
      }
      const e = LINE_DIR[to * BOARD_SIZE + f]!;
      if (e < 0) return false;
      const step = DIRS[e]!;
      if (to + step === f) {
        if ((NEAR_ATTACKS[pc]! & (1 << e)) === 0) return false;
        continue;
      }
      if ((SLIDE_ATTACKS[pc]! & (1 << e)) === 0) return false;
      for (let t = to + step; t !== f; t += step) {
        const c = b[t]!;
        if (c !== 0 && t !== eks && t !== from) return false;
      }
    }
    return true;
  }

  /** The enemy king's neighbours it may step to now (bit d: direction d), before any candidate is played. */
  private freeSquares(): number {
    const b = this.b;
    const eks = this.eks;
    const eb = this.eb;
    const king = b[eks]!;
    b[eks] = 0;
    let free = 0;
    for (let d = 0; d < 8; d++) {
      const s = eks + DIRS[d]!;
      if ((b[s]! & eb) === 0 && !this.board.attacked(s, this.ub)) free |= 1 << d;
    }
    b[eks] = king;
    return free;
  }

  /**
   * With the candidate on the cells: whether the enemy king can step to a square we do not attack
   * (lifted, so that sliders see through its square), trying first the squares it could reach
   * before the move (`freeMask`), which most checks leave free.
   */
  private kingEscapes(): boolean {
    const b = this.b;
    const eks = this.eks;
    const eb = this.eb;
    const ub = this.ub;
    const board = this.board;
    const free = this.freeMask;
    const king = b[eks]!;
    b[eks] = 0;
    let escape = false;
    for (let pass = 0; pass < 2 && !escape; pass++) {
      for (let d = 0; d < 8; d++) {
        if (((free >>> d) & 1) !== (pass ^ 1)) continue;
        const s = eks + DIRS[d]!;
        if ((b[s]! & eb) === 0 && !board.attacked(s, ub)) {
          escape = true;
          break;
        }
      }
    }
    b[eks] = king;
    return escape;
  }

  /** With the candidate on the cells and no king step: whether the defender is not in check or has another evasion. */
  private hasEvasion(): boolean {
    const b = this.b;
    const board = this.board;
    const ub = this.ub;
    const eb = this.eb;
    const eks = this.eks;
    // Checkers, and the squares between a distant slider checker and the king.
    let checks = 0;
    let checker = 0;
    let nBlock = 0;
    for (let d = 0; d < 8; d++) {
      const step = DIRS[d]!;
      const back = 1 << (d ^ 4);
      let s = eks + step;
      let p = b[s]!;
      if (p !== 0) {
        if ((p & 48) === ub && (NEAR_ATTACKS[p]! & back) !== 0) {
          checks++;
          checker = s;
        }
        continue;
      }
      do {
        s += step;
        p = b[s]!;
      } while (p === 0);
      if ((p & 48) === ub && (SLIDE_ATTACKS[p]! & back) !== 0) {
        checks++;
        checker = s;
        nBlock = 0;
        for (let t = eks + step; t !== s; t += step) blockSquares[nBlock++] = t;
      }
    }
    const knight = ub | KNIGHT;
    const k1 = ub === BLACK_BIT ? eks + 19 : eks - 19;
    const k2 = ub === BLACK_BIT ? eks + 21 : eks - 21;
    if (b[k1] === knight) {
      checks++;
      checker = k1;
      nBlock = 0;
    }
    if (b[k2] === knight) {
      checks++;
      checker = k2;
      nBlock = 0;
    }
    if (checks === 0) return true;

    if (checks > 1) return false;

    // A capture of the checker by another piece, which must not uncover a check.
    if (this.defenderReaches(checker)) return true;

    // Interpositions: drops, then board moves.
    if (nBlock === 0) return false;
    const them = this.us ^ 1;
    const hands = board.hands;
    const hb = them * 8;
    if (hands[hb + GOLD]! + hands[hb + SILVER]! + hands[hb + BISHOP]! + hands[hb + ROOK]! > 0) return true;
    const lances = hands[hb + LANCE]! > 0;
    const knights = hands[hb + KNIGHT]! > 0;
    const pawns = hands[hb + PAWN]! > 0;
    // A defender's pawn dropped right in front of our king checks it: it might be an illegal pawn-drop mate, so it is not counted.
    const pawnCheckSq = this.oks < 0 ? -1 : them === BLACK ? this.oks + 10 : this.oks - 10;
    for (let i = 0; i < nBlock; i++) {
      const s = blockSquares[i]!;
      const rr = relRank(them, s);
      if (lances && rr >= 1) return true;
      if (knights && rr >= 2) return true;
      if (pawns && rr >= 1 && s !== pawnCheckSq && !this.pawnOnFile(eb | PAWN, s)) return true;
    }
    for (let i = 0; i < nBlock; i++) if (this.defenderReaches(blockSquares[i]!)) return true;
    return false;
  }

  /** Whether an unpromoted pawn `pawn` stands on the file of `sq` (nifu). */
  private pawnOnFile(pawn: number, sq: number): boolean {
    const b = this.b;
    const col = COL_OF[sq]!;
    for (let r = 0; r < 9; r++) if (b[SQUARES[r * 9 + col]!] === pawn) return true;
    return false;
  }

  /** Whether a defender piece other than the king can legally move to `sq` (empty or ours). */
  private defenderReaches(sq: number): boolean {
    const b = this.b;
    const eb = this.eb;
    for (let d = 0; d < 8; d++) {
      const step = DIRS[d]!;
      const back = 1 << (d ^ 4);
      let s = sq + step;
      let p = b[s]!;
      if (p !== 0) {
        if ((p & 48) === eb && (p & 15) !== KING && (NEAR_ATTACKS[p]! & back) !== 0 && this.defenderMoveSafe(s, sq)) return true;
        continue;
      }
      do {
        s += step;
        p = b[s]!;
      } while (p === 0);
      if ((p & 48) === eb && (SLIDE_ATTACKS[p]! & back) !== 0 && this.defenderMoveSafe(s, sq)) return true;
    }
    const knight = eb | KNIGHT;
    // A white knight on s attacks s + 19 and s + 21 (it moves down the board); a black one s - 19, s - 21.
    const k1 = eb === WHITE_BIT ? sq - 19 : sq + 19;
    const k2 = eb === WHITE_BIT ? sq - 21 : sq + 21;
    if (b[k1] === knight && this.defenderMoveSafe(k1, sq)) return true;
    if (b[k2] === knight && this.defenderMoveSafe(k2, sq)) return true;
    return false;
  }

  /** Whether the defender's piece on `from` moving to `to` leaves its king unattacked. */
  private defenderMoveSafe(from: number, to: number): boolean {
    const b = this.b;
    const p = b[from]!;
    const q = b[to]!;
    b[from] = 0;
    b[to] = p;
    const safe = !this.board.attacked(this.eks, this.ub);
    b[to] = q;
    b[from] = p;
    return safe;
  }
}

const scan = new Mate1Scan();

/** Tries the board move(s) of our piece `pc` from `from` to `to`, each promotion choice, that check from `to` (`dirToKing` from `to`, or -1 for a knight's jump; `adjacent` when next to the king). */
const tryDirect = (from: number, to: number, pc: number, dirToKing: number, adjacent: boolean): boolean => {
  const type = pc & 15;
  const m = from | (to << 8);
  const us = scan.us;
  if (type <= 6) {
    const rr = relRank(us, to);
    if (relRank(us, from) <= 2 || rr <= 2) {
      if (checksFrom(pc + 8, dirToKing, adjacent) && scan.tryMove(m | PROMOTE_FLAG)) return true;
      if (rr < MIN_REL_RANK[type]!) return false;
    }
  }
  return checksFrom(pc, dirToKing, adjacent) && scan.tryMove(m);
};

/** Whether piece `pc` standing `dirToKing` of the king (adjacent or along an open line; -1: a knight's jump away) attacks it. */
const checksFrom = (pc: number, dirToKing: number, adjacent: boolean): boolean => {
  if (dirToKing < 0) return (pc & 15) === KNIGHT;
  const bit = 1 << dirToKing;
  return adjacent ? (NEAR_ATTACKS[pc]! & bit) !== 0 : (SLIDE_ATTACKS[pc]! & bit) !== 0;
};

/**
 * Whether our slider `p` on `from` reaches `to` (its step or slide in the direction of `to`, the
 * squares between empty).
 */
const sliderReaches = (from: number, to: number, p: number): boolean => {
  const d = LINE_DIR[from * BOARD_SIZE + to]!;
  if (d < 0) return false;
  const step = DIRS[d]!;
  if (from + step === to) return (NEAR_ATTACKS[p]! & (1 << d)) !== 0;
  if ((SLIDE_ATTACKS[p]! & (1 << d)) === 0) return false;
  const b = scan.b;
  for (let s = from + step; s !== to; s += step) if (b[s] !== 0) return false;
  return true;
};

/**
 * Board moves of our pieces (not the king) onto `to`, a neighbour of the king or a knight's jump
 * from it, that check from there: steppers next to `to`, knights, and our sliders.
 */
const directChecksNear = (to: number, dirToKing: number): boolean => {
  const b = scan.b;
  const ub = scan.ub;
  for (let d = 0; d < 8; d++) {
    const s = to + DIRS[d]!;
    const p = b[s]!;
    if ((p & 48) === ub && (p & 15) !== KING && (NEAR_ATTACKS[p]! & (1 << (d ^ 4))) !== 0 && tryDirect(s, to, p, dirToKing, true)) return true;
  }
  const knight = ub | KNIGHT;
  // Our knight reaches `to` from two ranks behind it.
  const k1 = ub === BLACK_BIT ? to + 19 : to - 19;
  const k2 = ub === BLACK_BIT ? to + 21 : to - 21;
  if (b[k1] === knight && tryDirect(k1, to, knight, dirToKing, true)) return true;
  if (b[k2] === knight && tryDirect(k2, to, knight, dirToKing, true)) return true;
  // Sliders from two or more squares away (a neighbour of `to` was tried above).
  for (let i = 0; i < scan.nSliders; i++) {
    const f = sliders[i]!;
    const d = LINE_DIR[f * BOARD_SIZE + to]!;
    if (d < 0 || f + DIRS[d]! === to) continue;
    const p = b[f]!;
    if (sliderReaches(f, to, p) && tryDirect(f, to, p, dirToKing, true)) return true;
  }
  return false;
};

/** Board moves onto `to`, two or more squares from the king on the open line `dirToKing` of it: only a slider can check from there. */
const directChecksFar = (to: number, dirToKing: number): boolean => {
  const b = scan.b;
  for (let i = 0; i < scan.nSliders; i++) {
    const f = sliders[i]!;
    const p = b[f]!;
    if (sliderReaches(f, to, p) && tryDirect(f, to, p, dirToKing, false)) return true;
  }
  return false;
};

/** Tries the move of our piece `pc` from `from` to `to` (discovered check), each promotion choice. */
const tryDiscovered = (from: number, to: number, pc: number): boolean => {
  const type = pc & 15;
  const m = from | (to << 8);
  if (type <= 6) {
    const us = scan.us;
    const rr = relRank(us, to);
    if (relRank(us, from) <= 2 || rr <= 2) {
      if (scan.tryMove(m | PROMOTE_FLAG)) return true;
      if (rr < MIN_REL_RANK[type]!) return false;
    }
  }
  return scan.tryMove(m);
};

/** Every move of our piece on `from` (alone between our slider and the enemy king on line `line`) that leaves the line. */
const discoveredChecks = (from: number, line: number): boolean => {
  const b = scan.b;
  const ub = scan.ub;
  const pc = b[from]!;
  const stepEnd = STEP_END[pc]!;
  for (let k = STEP_BEGIN[pc]!; k < stepEnd; k++) {
    if (STEP_LINE[k] === line) continue;
    const to = from + STEP_OFFSET[k]!;
    if ((b[to]! & ub) !== 0) continue;
    if (tryDiscovered(from, to, pc)) return true;
  }
  const slideEnd = SLIDE_END[pc]!;
  for (let k = SLIDE_BEGIN[pc]!; k < slideEnd; k++) {
    const d = SLIDE_DIR[k]!;
    if ((d & 3) === line) continue;
    const step = DIRS[d]!;
    for (let to = from + step; ; to += step) {
      const q = b[to]!;
      if ((q & ub) !== 0) break;
      if (tryDiscovered(from, to, pc)) return true;
      if (q !== 0) break;
    }
  }
  return false;
};

/** Runs the scan; true when it stopped at a mate. */
const run = (board: FastShogiBoard, all: boolean): boolean => {
  const us = board.turn;
  scan.board = board;
  scan.b = board.board;
  scan.us = us;
  scan.ub = us === BLACK ? BLACK_BIT : WHITE_BIT;
  scan.eb = scan.ub ^ 48;
  scan.eks = board.kingSq[us ^ 1]!;
  scan.oks = board.kingSq[us]!;
  scan.count = 0;
  scan.all = all;
  const eks = scan.eks;
  if (eks < 0) return false;
  const b = scan.b;
  const ub = scan.ub;
  scan.freeMask = -1;

  // 1. Drops (no pawn: a pawn drop may not mate).
  const hb = us * 8;
  const hands = board.hands;
  for (let i = 0; i < DROP_TYPES.length; i++) {
    const type = DROP_TYPES[i]!;
    if (hands[hb + type] === 0) continue;
    const pc = ub | type;
    const minRel = MIN_REL_RANK[type]!;
    if (type === KNIGHT) {
      // Our knight attacks the king from two ranks behind it.
      const s1 = ub === BLACK_BIT ? eks + 19 : eks - 19;
      const s2 = ub === BLACK_BIT ? eks + 21 : eks - 21;
      if (b[s1] === 0 && relRank(us, s1) >= minRel && scan.tryMove((KNIGHT << DROP_SHIFT) | (s1 << 8))) return true;
      if (b[s2] === 0 && relRank(us, s2) >= minRel && scan.tryMove((KNIGHT << DROP_SHIFT) | (s2 << 8))) return true;
      continue;
    }
    for (let d = 0; d < 8; d++) {
      // A piece on `eks - DIRS[d]` attacks the king if it attacks in direction d.
      const bit = 1 << d;
      if ((NEAR_ATTACKS[pc]! & bit) === 0) continue;
      const step = DIRS[d]!;
      let s = eks - step;
      const slides = (SLIDE_ATTACKS[pc]! & bit) !== 0;
      while (b[s] === 0) {
        if (relRank(us, s) >= minRel && scan.tryMove((type << DROP_SHIFT) | (s << 8))) return true;
        if (!slides) break;
        s -= step;
      }
    }
  }

  // 2. Board moves that check directly: onto the king's neighbours and knight squares (any piece),
  // and onto the squares of its open lines further away (sliders only).
  let nSliders = 0;
  for (let i = 0; i < 81; i++) {
    const sq = SQUARES[i]!;
    const p = b[sq]!;
    if ((p & 48) === ub && SLIDE_ATTACKS[p] !== 0) sliders[nSliders++] = sq;
  }
  scan.nSliders = nSliders;
  for (let d = 0; d < 8; d++) {
    const step = DIRS[d]!;
    // From a square of this ray the king lies in direction d ^ 4.
    const toKing = d ^ 4;
    let to = eks + step;
    if ((b[to]! & ub) !== 0) continue;
    if (directChecksNear(to, toKing)) return true;
    if (nSliders === 0 || b[to] !== 0) continue;
    to += step;
    let q = b[to]!;
    while (q === 0) {
      if (directChecksFar(to, toKing)) return true;
      to += step;
      q = b[to]!;
    }
    if ((q & 48) === (ub ^ 48) && directChecksFar(to, toKing)) return true;
  }
  const n1 = ub === BLACK_BIT ? eks + 19 : eks - 19;
  const n2 = ub === BLACK_BIT ? eks + 21 : eks - 21;
  if ((b[n1]! & ub) === 0 && directChecksNear(n1, -1)) return true;
  if ((b[n2]! & ub) === 0 && directChecksNear(n2, -1)) return true;

  // 3. Discovered checks: our lone piece between the king and one of our sliders, off that line.
  for (let i = 0; i < nSliders; i++) {
    const f = sliders[i]!;
    const d = LINE_DIR[f * BOARD_SIZE + eks]!;
    if (d < 0 || (SLIDE_ATTACKS[b[f]!]! & (1 << d)) === 0) continue;
    const step = DIRS[d]!;
    let s1 = f + step;
    while (b[s1] === 0) s1 += step;
    if (s1 === eks || (b[s1]! & 48) !== ub) continue;
    let s2 = s1 + step;
    while (b[s2] === 0) s2 += step;
    if (s2 === eks && discoveredChecks(s1, d & 3)) return true;
  }
  return false;
};

/**
 * A legal move of the side to move that checkmates at once, or 0 if there is none. The board is
 * left as it was.
 */
export const mateIn1 = (board: FastShogiBoard): number => (run(board, false) ? found[0]! : 0);

/**
 * Every legal move of the side to move that checkmates at once, written into `out` (distinct, in
 * no particular order); returns how many. For tests and `tools/mate1-perft.ts`: slower than
 * `mateIn1`, which stops at the first.
 */
export const mateIn1All = (board: FastShogiBoard, out: Int32Array): number => {
  run(board, true);
  for (let i = 0; i < scan.count; i++) out[i] = found[i]!;
  return scan.count;
};

/**
 * The definition `mateIn1` is checked against: every legal move that gives check and leaves the
 * opponent without a legal move, by full move generation. Slow; for tests and tools.
 */
export const mateMovesReference = (board: FastShogiBoard, out: Int32Array): number => {
  const list = new Int32Array(MAX_MOVES);
  const replies = new Int32Array(MAX_MOVES);
  const n = board.generateMoves(list);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const m = list[i]!;
    if (!board.givesCheck(m)) continue;
    board.makeMove(m);
    if (board.generateMoves(replies) === 0) out[count++] = m;
    board.unmakeMove();
  }
  return count;
};
