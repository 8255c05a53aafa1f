/**
 * The internal shogi board for search: a mailbox with make/unmake, an incremental Zobrist key
 * and a fully legal move generator, about 40x faster than shogiops (see
 * `npm run bench -- --filter movegen-shogi`). shogiops stays the reference: SFEN input is validated by it,
 * and tests/games/shogi/fast/ compare every legal move list with it on random positions.
 *
 * Layout (squares.ts, pieces.ts): `board` holds one byte per cell of a 10x13 padded array, `hands`
 * holds `hands[side * 8 + type]`. Moves are integers (move.ts).
 *
 * Legality: moves are generated fully legal, using the checkers and pinned pieces of the side to
 * move (a pinned piece moves only along its pin line; in check only captures of the checker,
 * interpositions and king moves; in double check only king moves; the king never steps onto an
 * attacked square, judged with the king lifted off the board). Shogi-specific rules: no second
 * unpromoted pawn on a file (nifu); no drop or unpromoted move that leaves a piece without a
 * later move (pawn or lance on the last rank, knight on the last two); promotion is offered when
 * the move starts or ends in the promotion zone, and forced when the piece would otherwise be
 * stuck; a pawn drop that mates at once (uchifuzume) is excluded, exactly as in shogiops.
 *
 * All methods are pure computation (no I/O). The hot paths (`generateMoves`, `makeMove`,
 * `unmakeMove`) allocate nothing.
 */
import { parseSfen } from 'shogiops/sfen';
import type { Role } from 'shogiops/types';
import { KishiError, Result } from '../../../core/result.js';
import {
  NEAR_ATTACKS,
  SLIDE_ATTACKS,
  SLIDE_BEGIN,
  SLIDE_DIR,
  SLIDE_END,
  STEP_BEGIN,
  STEP_END,
  STEP_LINE,
  STEP_OFFSET,
} from './attack-tables.js';
import { DROP_SHIFT, NULL_MOVE, PROMOTE_FLAG, moveToUsi as encodeUsi, parseUsiSyntax } from './move.js';
import {
  BISHOP,
  BLACK,
  BLACK_BIT,
  DRAGON,
  GOLD,
  HAND_TYPES_SFEN_ORDER,
  HORSE,
  KING,
  KNIGHT,
  LANCE,
  PAWN,
  PIECE_SET_COUNT,
  PRO_KNIGHT,
  PRO_LANCE,
  PRO_PAWN,
  PRO_SILVER,
  ROOK,
  SILVER,
  WALL,
  WHITE,
  WHITE_BIT,
  handTypeOf,
  pieceToSfen,
  type FastSide,
} from './pieces.js';
import { Repetition, type RepetitionResult } from './repetition.js';
import { BOARD_SIZE, COL_OF, DIRS, RANK_OF, SQUARES, squareOfFileRank } from './squares.js';
import { HAND_HI, HAND_LO, HAND_SLOTS, PIECE_HI, PIECE_LO, SIDE_HI, SIDE_LO } from './zobrist.js';

/** Capacity a move list needs: the most legal moves any shogi position has is 593. */
export const MAX_MOVES = 600;

/** A move list for `generateMoves`, big enough for any position. */
export const newMoveList = (): Int32Array => new Int32Array(MAX_MOVES);

/** Rank counted from the side's far end, 0 = its last rank: `REL_RANK[side * BOARD_SIZE + sq]`. */
const REL_RANK = new Int8Array(2 * BOARD_SIZE).fill(9);
for (const sq of SQUARES) {
  REL_RANK[sq] = RANK_OF[sq]!;
  REL_RANK[BOARD_SIZE + sq] = 8 - RANK_OF[sq]!;
}
/** Lowest relative rank a piece type may stand on unpromoted (pawn, lance 1; knight 2). */
const MIN_REL_RANK = new Int8Array(16);
MIN_REL_RANK[PAWN] = 1;
MIN_REL_RANK[LANCE] = 1;
MIN_REL_RANK[KNIGHT] = 2;

const BLACK_KNIGHT = BLACK_BIT | KNIGHT;
const WHITE_KNIGHT = WHITE_BIT | KNIGHT;

const ROLE_TYPE: Partial<Record<Role, number>> = {
  pawn: PAWN,
  lance: LANCE,
  knight: KNIGHT,
  silver: SILVER,
  gold: GOLD,
  bishop: BISHOP,
  rook: ROOK,
  king: KING,
  tokin: PRO_PAWN,
  promotedlance: PRO_LANCE,
  promotedknight: PRO_KNIGHT,
  promotedsilver: PRO_SILVER,
  horse: HORSE,
  dragon: DRAGON,
};
const HAND_ROLES: readonly [Role, number][] = [
  ['rook', ROOK],
  ['bishop', BISHOP],
  ['gold', GOLD],
  ['silver', SILVER],
  ['knight', KNIGHT],
  ['lance', LANCE],
  ['pawn', PAWN],
];

export class FastShogiBoard {
  /**
   * Board cells indexed by internal square (squares.ts): 0 empty, `WALL`, or `sideBit | type`
   * (pieces.ts). Read it freely (evaluation); never write it.
   */
  readonly board: Uint8Array = new Uint8Array(BOARD_SIZE);
  /** Pieces in hand: `hands[side * 8 + type]` for the droppable types 1..7. Read only. */
  readonly hands: Uint8Array = new Uint8Array(16);
  /** King square per side, -1 when that side has no king (tsume positions). Read only. */
  readonly kingSq: Int32Array = Int32Array.of(-1, -1);

  private side: FastSide = BLACK;
  private hi = 0;
  private lo = 0;
  private plyCount = 0;
  private startMoveNumber = 1;

  // History, indexed by ply: the key and check flag of the position at that ply, and the move
  // played from it with the cell value it captured.
  private capacity = 0;
  private histMove: Int32Array = new Int32Array(0);
  private histCapture: Uint8Array = new Uint8Array(0);
  private histHi: Int32Array = new Int32Array(0);
  private histLo: Int32Array = new Int32Array(0);
  private histCheck: Uint8Array = new Uint8Array(0);

  // Move generator scratch: per-call stamps avoid clearing the per-square marks.
  private stamp = 0;
  private readonly pinStamp = new Int32Array(BOARD_SIZE);
  private readonly pinDir = new Int8Array(BOARD_SIZE);
  private readonly evasionStamp = new Int32Array(BOARD_SIZE);
  private readonly blockSquares = new Int32Array(8);
  private readonly otherDrops = new Int32Array(4);
  private readonly scratchList = new Int32Array(MAX_MOVES);
  private readonly perftLists: Int32Array[] = [];

  private constructor() {
    this.growHistory(256);
  }

  /**
   * Builds a board from an SFEN string (the 4th field, the move number, is optional). The text is
   * validated by shogiops' strict `parseSfen` (no piece that can never move, at most one king a
   * side, the side not to move not in check); in addition no piece type may exceed a standard set.
   * Not for hot paths.
   */
  static fromSfen(sfen: string): Result<FastShogiBoard, KishiError> {
    const parsed = parseSfen('standard', sfen.trim(), true);
    if (parsed.isErr) {
      return Result.err(new KishiError('ERR_SFEN', `invalid SFEN ${JSON.stringify(sfen)}: ${parsed.error.message}`));
    }
    const pos = parsed.value;
    const fb = new FastShogiBoard();
    const b = fb.board;
    b.fill(WALL);
    for (const sq of SQUARES) b[sq] = 0;
    const total = new Int32Array(16);
    for (const [sq, piece] of pos.board) {
      const type = ROLE_TYPE[piece.role];
      if (type === undefined) {
        return Result.err(new KishiError('ERR_SFEN', `invalid SFEN ${JSON.stringify(sfen)}: piece ${piece.role}`));
      }
      const side = piece.color === 'sente' ? BLACK : WHITE;
      const at = squareOfFileRank((sq & 15) + 1, sq >>> 4);
      b[at] = (side === BLACK ? BLACK_BIT : WHITE_BIT) | type;
      if (type === KING) fb.kingSq[side] = at;
      total[handTypeOf(type)]++;
    }
    for (const [color, side] of [['sente', BLACK], ['gote', WHITE]] as const) {
      const hand = pos.hands.color(color);
      for (const [role, type] of HAND_ROLES) {
        const n = hand.get(role);
        fb.hands[side * 8 + type] = n;
        total[type] += n;
      }
    }
    for (let type = PAWN; type <= KING; type++) {
      if (total[type]! > PIECE_SET_COUNT[type]!) {
        const why = `too many pieces of type ${type}`;
        return Result.err(new KishiError('ERR_SFEN', `invalid SFEN ${JSON.stringify(sfen)}: ${why}`));
      }
    }
    fb.side = pos.turn === 'sente' ? BLACK : WHITE;
    fb.startMoveNumber = pos.moveNumber;
    const [hi, lo] = fb.computeKey();
    fb.hi = hi;
    fb.lo = lo;
    fb.histHi[0] = hi;
    fb.histLo[0] = lo;
    const k = fb.kingSq[fb.side]!;
    fb.histCheck[0] = k >= 0 && fb.attacked(k, fb.side === BLACK ? WHITE_BIT : BLACK_BIT) ? 1 : 0;
    return Result.ok(fb);
  }

  /** An independent copy with the same position and history. */
  clone(): FastShogiBoard {
    const c = new FastShogiBoard();
    c.board.set(this.board);
    c.hands.set(this.hands);
    c.kingSq.set(this.kingSq);
    c.side = this.side;
    c.hi = this.hi;
    c.lo = this.lo;
    c.plyCount = this.plyCount;
    c.startMoveNumber = this.startMoveNumber;
    c.growHistory(this.capacity);
    c.histMove.set(this.histMove);
    c.histCapture.set(this.histCapture);
    c.histHi.set(this.histHi);
    c.histLo.set(this.histLo);
    c.histCheck.set(this.histCheck);
    return c;
  }

  /** The position as SFEN; the move number is the SFEN's plus the plies played since. */
  toSfen(): string {
    const b = this.board;
    const rows: string[] = [];
    for (let r = 0; r < 9; r++) {
      let row = '';
      let empty = 0;
      for (let c = 0; c < 9; c++) {
        const p = b[SQUARES[r * 9 + c]!]!;
        if (p === 0) {
          empty++;
          continue;
        }
        if (empty > 0) row += String(empty);
        empty = 0;
        row += pieceToSfen(p);
      }
      if (empty > 0) row += String(empty);
      rows.push(row);
    }
    let hand = '';
    for (const side of [BLACK, WHITE] as const) {
      for (const type of HAND_TYPES_SFEN_ORDER) {
        const n = this.hands[side * 8 + type]!;
        if (n === 0) continue;
        const letter = pieceToSfen((side === BLACK ? BLACK_BIT : WHITE_BIT) | type);
        hand += n > 1 ? `${n}${letter}` : letter;
      }
    }
    const moveNumber = Math.max(1, Math.min(9999, this.startMoveNumber + this.plyCount));
    return `${rows.join('/')} ${this.side === BLACK ? 'b' : 'w'} ${hand === '' ? '-' : hand} ${moveNumber}`;
  }

  /** Side to move: 0 black (sente), 1 white (gote). */
  get turn(): FastSide {
    return this.side;
  }

  /** High 32 bits of the position key (board, hands by count, side to move), unsigned. */
  get hashHi(): number {
    return this.hi >>> 0;
  }

  /** Low 32 bits of the position key, unsigned. */
  get hashLo(): number {
    return this.lo >>> 0;
  }

  /** Plies made (including null moves) since `fromSfen`. */
  get ply(): number {
    return this.plyCount;
  }

  /** Whether the side to move is in check (cached by `makeMove`, O(1)). */
  inCheck(): boolean {
    return this.histCheck[this.plyCount] === 1;
  }

  /** Cell value at an internal square (0 empty, `sideBit | type`). */
  pieceAt(sq: number): number {
    return this.board[sq]!;
  }

  /** How many pieces of droppable `type` (1..7) `side` holds. */
  handCount(side: FastSide, type: number): number {
    return this.hands[side * 8 + type]!;
  }

  /** King square of `side`, or -1. */
  kingSquare(side: FastSide): number {
    return this.kingSq[side]!;
  }

  /** Whether `sq` is attacked by the pieces of colour bit `byBit` (`BLACK_BIT`/`WHITE_BIT`). */
  attacked(sq: number, byBit: number): boolean {
    const b = this.board;
    for (let d = 0; d < 8; d++) {
      const step = DIRS[d]!;
      const back = 1 << (d ^ 4);
      let s = sq + step;
      let p = b[s]!;
      if (p !== 0) {
        if ((p & 48) === byBit && (NEAR_ATTACKS[p]! & back) !== 0) return true;
        continue;
      }
      do {
        s += step;
        p = b[s]!;
      } while (p === 0);
      if ((p & 48) === byBit && (SLIDE_ATTACKS[p]! & back) !== 0) return true;
    }
    if (byBit === BLACK_BIT) return b[sq + 19] === BLACK_KNIGHT || b[sq + 21] === BLACK_KNIGHT;
    return b[sq - 19] === WHITE_KNIGHT || b[sq - 21] === WHITE_KNIGHT;
  }

  /**
   * Writes the legal moves of the side to move into `list` from index 0 and returns how many.
   * `list` needs `MAX_MOVES` entries. With `capturesOnly`, only moves that capture (each with
   * its promotion options) are written, in check too (a quiescence search should generate all
   * evasions itself when `inCheck()`). The order is: board moves by square, king moves, drops.
   */
  generateMoves(list: Int32Array, capturesOnly = false): number {
    const b = this.board;
    const us = this.side;
    const ub = us === BLACK ? BLACK_BIT : WHITE_BIT;
    const eb = ub ^ 48;
    const ksq = this.kingSq[us]!;
    let stamp = this.stamp + 1;
    if (stamp > 0x3fffffff) {
      this.pinStamp.fill(0);
      this.evasionStamp.fill(0);
      stamp = 1;
    }
    this.stamp = stamp;
    const pinSt = this.pinStamp;
    const pinDir = this.pinDir;
    const evSt = this.evasionStamp;
    const block = this.blockSquares;
    let checks = 0;
    let nBlock = 0;

    // 1. Checkers, interposition squares and pinned pieces, scanning out from the king.
    if (ksq >= 0) {
      for (let d = 0; d < 8; d++) {
        const step = DIRS[d]!;
        const back = 1 << (d ^ 4);
        let s = ksq + step;
        let p = b[s]!;
        if (p === 0) {
          do {
            s += step;
            p = b[s]!;
          } while (p === 0);
          if ((p & 48) === eb) {
            if ((SLIDE_ATTACKS[p]! & back) !== 0) {
              checks++;
              evSt[s] = stamp;
              for (let t = ksq + step; t !== s; t += step) {
                evSt[t] = stamp;
                block[nBlock++] = t;
              }
            }
            continue;
          }
          if ((p & 48) !== ub) continue;
        } else if ((p & 48) === eb) {
          if ((NEAR_ATTACKS[p]! & back) !== 0) {
            checks++;
            evSt[s] = stamp;
          }
          continue;
        } else if (p === WALL) continue;
        // An own piece at s: pinned if an enemy slider looks at the king through it.
        let s2 = s + step;
        let p2 = b[s2]!;
        while (p2 === 0) {
          s2 += step;
          p2 = b[s2]!;
        }
        if ((p2 & 48) === eb && (SLIDE_ATTACKS[p2]! & back) !== 0) {
          pinSt[s] = stamp;
          pinDir[s] = d;
        }
      }
      if (us === BLACK) {
        if (b[ksq - 19] === WHITE_KNIGHT) {
          checks++;
          evSt[ksq - 19] = stamp;
        }
        if (b[ksq - 21] === WHITE_KNIGHT) {
          checks++;
          evSt[ksq - 21] = stamp;
        }
      } else {
        if (b[ksq + 19] === BLACK_KNIGHT) {
          checks++;
          evSt[ksq + 19] = stamp;
        }
        if (b[ksq + 21] === BLACK_KNIGHT) {
          checks++;
          evSt[ksq + 21] = stamp;
        }
      }
    }

    let n = 0;
    let pawnFiles = 0;
    const rel = us * BOARD_SIZE;

    // 2. Board moves of every piece but the king (none in double check).
    if (checks < 2) {
      for (let i = 0; i < 81; i++) {
        const from = SQUARES[i]!;
        const p = b[from]!;
        if ((p & 48) !== ub) continue;
        const type = p & 15;
        if (type === KING) continue;
        if (type === PAWN) pawnFiles |= 1 << COL_OF[from]!;
        const pinLine = pinSt[from] === stamp ? pinDir[from]! & 3 : -1;
        const promotable = type <= 6;
        const fromZone = REL_RANK[rel + from]! <= 2;
        const minRel = MIN_REL_RANK[type]!;
        const stepEnd = STEP_END[p]!;
        for (let k = STEP_BEGIN[p]!; k < stepEnd; k++) {
          const to = from + STEP_OFFSET[k]!;
          const q = b[to]!;
          if ((q & ub) !== 0) continue;
          if (q === 0 && capturesOnly) continue;
          if (checks !== 0 && evSt[to] !== stamp) continue;
          if (pinLine >= 0 && STEP_LINE[k] !== pinLine) continue;
          const m = from | (to << 8);
          if (promotable) {
            const rr = REL_RANK[rel + to]!;
            if (fromZone || rr <= 2) {
              list[n++] = m | PROMOTE_FLAG;
              if (rr >= minRel) list[n++] = m;
            } else list[n++] = m;
          } else list[n++] = m;
        }
        const slideEnd = SLIDE_END[p]!;
        for (let k = SLIDE_BEGIN[p]!; k < slideEnd; k++) {
          const d = SLIDE_DIR[k]!;
          if (pinLine >= 0 && (d & 3) !== pinLine) continue;
          const step = DIRS[d]!;
          for (let to = from + step; ; to += step) {
            const q = b[to]!;
            if ((q & ub) !== 0) break;
            if ((q !== 0 || !capturesOnly) && (checks === 0 || evSt[to] === stamp)) {
              // The promotion choice of the step moves above, repeated inline: move generation is the hottest loop.
              const m = from | (to << 8);
              if (promotable) {
                const rr = REL_RANK[rel + to]!;
                if (fromZone || rr <= 2) {
                  list[n++] = m | PROMOTE_FLAG;
                  if (rr >= minRel) list[n++] = m;
                } else list[n++] = m;
              } else list[n++] = m;
            }
            if (q !== 0) break;
          }
        }
      }
    }

    // 3. King moves, judged with the king lifted so that sliders see through its square.
    if (ksq >= 0) {
      b[ksq] = 0;
      for (let d = 0; d < 8; d++) {
        const to = ksq + DIRS[d]!;
        const q = b[to]!;
        if ((q & ub) !== 0) continue;
        if (q === 0 && capturesOnly) continue;
        if (!this.attacked(to, eb)) list[n++] = ksq | (to << 8);
      }
      b[ksq] = ub | KING;
    }

    // 4. Drops: on any empty square, or only between king and checker when in check.
    if (!capturesOnly && checks < 2) {
      const h = this.hands;
      const hb = us * 8;
      const hasPawn = h[hb + PAWN]! > 0;
      const hasLance = h[hb + LANCE]! > 0;
      const hasKnight = h[hb + KNIGHT]! > 0;
      const others = this.otherDrops;
      let nOthers = 0;
      if (h[hb + SILVER]! > 0) others[nOthers++] = SILVER << DROP_SHIFT;
      if (h[hb + GOLD]! > 0) others[nOthers++] = GOLD << DROP_SHIFT;
      if (h[hb + BISHOP]! > 0) others[nOthers++] = BISHOP << DROP_SHIFT;
      if (h[hb + ROOK]! > 0) others[nOthers++] = ROOK << DROP_SHIFT;
      if (hasPawn || hasLance || hasKnight || nOthers > 0) {
        const eks = this.kingSq[us ^ 1]!;
        // The one square where a pawn drop checks the enemy king (uchifuzume candidate).
        const pawnCheckSq = eks < 0 ? -1 : us === BLACK ? eks + 10 : eks - 10;
        const count = checks === 0 ? 81 : nBlock;
        for (let i = 0; i < count; i++) {
          const to = checks === 0 ? SQUARES[i]! : block[i]!;
          if (b[to] !== 0) continue;
          const rr = REL_RANK[rel + to]!;
          const tb = to << 8;
          if (rr >= 1) {
            if (
              hasPawn &&
              (pawnFiles & (1 << COL_OF[to]!)) === 0 &&
              (to !== pawnCheckSq || !this.pawnDropMates(to, ub, eks))
            ) {
              list[n++] = (PAWN << DROP_SHIFT) | tb;
            }
            if (hasLance) list[n++] = (LANCE << DROP_SHIFT) | tb;
            if (hasKnight && rr >= 2) list[n++] = (KNIGHT << DROP_SHIFT) | tb;
          }
          for (let j = 0; j < nOthers; j++) list[n++] = others[j]! | tb;
        }
      }
    }
    return n;
  }

  /**
   * Whether a pawn of colour bit `ub` dropped on `to`, right in front of the enemy king at `eks`,
   * would mate. The checker is adjacent, so the defence is a king move or a capture of the pawn;
   * each is tried on the board and undone. Leaves the board unchanged.
   */
  private pawnDropMates(to: number, ub: number, eks: number): boolean {
    const b = this.board;
    const eb = ub ^ 48;
    const pawn = ub | PAWN;
    b[to] = pawn;
    let mate = true;
    b[eks] = 0;
    for (let d = 0; d < 8; d++) {
      const s = eks + DIRS[d]!;
      if ((b[s]! & eb) !== 0) continue;
      if (!this.attacked(s, ub)) {
        mate = false;
        break;
      }
    }
    b[eks] = eb | KING;
    for (let d = 0; mate && d < 8; d++) {
      const step = DIRS[d]!;
      const back = 1 << (d ^ 4);
      let s = to + step;
      let q = b[s]!;
      if (q !== 0) {
        if ((q & 48) !== eb || (q & 15) === KING || (NEAR_ATTACKS[q]! & back) === 0) continue;
      } else {
        do {
          s += step;
          q = b[s]!;
        } while (q === 0);
        if ((q & 48) !== eb || (SLIDE_ATTACKS[q]! & back) === 0) continue;
      }
      b[s] = 0;
      b[to] = q;
      if (!this.attacked(eks, ub)) mate = false;
      b[to] = pawn;
      b[s] = q;
    }
    if (mate) {
      const knight = eb | KNIGHT;
      const k1 = eb === WHITE_BIT ? to - 19 : to + 19;
      const k2 = eb === WHITE_BIT ? to - 21 : to + 21;
      for (const s of [k1, k2]) {
        if (!mate || b[s] !== knight) continue;
        b[s] = 0;
        b[to] = knight;
        if (!this.attacked(eks, ub)) mate = false;
        b[to] = pawn;
        b[s] = knight;
      }
    }
    b[to] = 0;
    return mate;
  }

  /**
   * Plays a move that `generateMoves` produced (or `parseUsi` accepted) in this position. An
   * illegal or foreign move corrupts the state: moves are not checked here.
   */
  makeMove(m: number): void {
    const b = this.board;
    const us = this.side;
    const ub = us === BLACK ? BLACK_BIT : WHITE_BIT;
    const ply = this.plyCount;
    if (ply + 2 >= this.capacity) this.growHistory(this.capacity * 2);
    let hi = this.hi;
    let lo = this.lo;
    const to = (m >>> 8) & 255;
    const drop = m >>> DROP_SHIFT;
    let captured = 0;
    if (drop !== 0) {
      const pc = ub | drop;
      b[to] = pc;
      hi ^= PIECE_HI[pc * BOARD_SIZE + to]!;
      lo ^= PIECE_LO[pc * BOARD_SIZE + to]!;
      const hIdx = us * 8 + drop;
      const c = this.hands[hIdx]!;
      this.hands[hIdx] = c - 1;
      const hk = hIdx * HAND_SLOTS + c;
      hi ^= HAND_HI[hk]! ^ HAND_HI[hk - 1]!;
      lo ^= HAND_LO[hk]! ^ HAND_LO[hk - 1]!;
    } else {
      const from = m & 255;
      const pc = b[from]!;
      const npc = (m & PROMOTE_FLAG) !== 0 ? pc + 8 : pc;
      captured = b[to]!;
      b[from] = 0;
      b[to] = npc;
      hi ^= PIECE_HI[pc * BOARD_SIZE + from]! ^ PIECE_HI[npc * BOARD_SIZE + to]!;
      lo ^= PIECE_LO[pc * BOARD_SIZE + from]! ^ PIECE_LO[npc * BOARD_SIZE + to]!;
      if (captured !== 0) {
        hi ^= PIECE_HI[captured * BOARD_SIZE + to]!;
        lo ^= PIECE_LO[captured * BOARD_SIZE + to]!;
        let ct = captured & 15;
        if (ct > KING) ct -= 8;
        const hIdx = us * 8 + ct;
        const c = this.hands[hIdx]!;
        this.hands[hIdx] = c + 1;
        const hk = hIdx * HAND_SLOTS + c;
        hi ^= HAND_HI[hk]! ^ HAND_HI[hk + 1]!;
        lo ^= HAND_LO[hk]! ^ HAND_LO[hk + 1]!;
      }
      if ((pc & 15) === KING) this.kingSq[us] = to;
    }
    hi ^= SIDE_HI;
    lo ^= SIDE_LO;
    this.histMove[ply] = m;
    this.histCapture[ply] = captured;
    const np = ply + 1;
    this.plyCount = np;
    const them = (us ^ 1) as FastSide;
    this.side = them;
    this.hi = hi;
    this.lo = lo;
    this.histHi[np] = hi;
    this.histLo[np] = lo;
    const ek = this.kingSq[them]!;
    this.histCheck[np] = ek >= 0 && this.attacked(ek, ub) ? 1 : 0;
  }

  /**
   * Whether legal move `m` gives check, as `inCheck()` after `makeMove(m)` would say: the enemy
   * king attacked on the board after the move, tested with the move's squares set in place.
   */
  givesCheck(m: number): boolean {
    const b = this.board;
    const us = this.side;
    const ub = us === BLACK ? BLACK_BIT : WHITE_BIT;
    const ek = this.kingSq[us ^ 1]!;
    if (ek < 0) return false;
    const to = (m >>> 8) & 255;
    const drop = m >>> DROP_SHIFT;
    // A check needs the arriving piece next to the king, a knight's jump from it or on one of its
    // lines, or (a discovered check) the square left on one of its lines: most moves are neither.
    const kc = COL_OF[ek]!;
    const kr = RANK_OF[ek]!;
    const dc = COL_OF[to]! - kc;
    const dr = RANK_OF[to]! - kr;
    const direct = (dc <= 1 && dc >= -1 && dr <= 2 && dr >= -2) || dc === 0 || dr === 0 || dc === dr || dc === -dr;
    if (!direct) {
      if (drop !== 0) return false;
      const fc = COL_OF[m & 255]! - kc;
      const fr = RANK_OF[m & 255]! - kr;
      if (fc !== 0 && fr !== 0 && fc !== fr && fc !== -fr) return false;
    }
    if (drop !== 0) {
      b[to] = ub | drop;
      const check = this.attacked(ek, ub);
      b[to] = 0;
      return check;
    }
    const from = m & 255;
    const pc = b[from]!;
    const captured = b[to]!;
    b[from] = 0;
    b[to] = (m & PROMOTE_FLAG) !== 0 ? pc + 8 : pc;
    const check = this.attacked(ek, ub);
    b[to] = captured;
    b[from] = pc;
    return check;
  }

  /** Takes back the last `makeMove` or `makeNullMove`. */
  unmakeMove(): void {
    const ply = this.plyCount - 1;
    if (ply < 0) throw new Error('unmakeMove: no move to take back');
    this.plyCount = ply;
    const us = (this.side ^ 1) as FastSide;
    this.side = us;
    this.hi = this.histHi[ply]!;
    this.lo = this.histLo[ply]!;
    const m = this.histMove[ply]!;
    if (m === NULL_MOVE) return;
    const b = this.board;
    const to = (m >>> 8) & 255;
    const drop = m >>> DROP_SHIFT;
    if (drop !== 0) {
      b[to] = 0;
      this.hands[us * 8 + drop]!++;
      return;
    }
    const from = m & 255;
    const npc = b[to]!;
    const pc = (m & PROMOTE_FLAG) !== 0 ? npc - 8 : npc;
    const captured = this.histCapture[ply]!;
    b[from] = pc;
    b[to] = captured;
    if (captured !== 0) {
      let ct = captured & 15;
      if (ct > KING) ct -= 8;
      this.hands[us * 8 + ct]!--;
    }
    if ((pc & 15) === KING) this.kingSq[us] = from;
  }

  /**
   * Passes the turn (null-move pruning). Only call it when not in check; undo with `unmakeMove`.
   * `repetition()` does not look back across a null move.
   */
  makeNullMove(): void {
    const ply = this.plyCount;
    if (ply + 2 >= this.capacity) this.growHistory(this.capacity * 2);
    this.histMove[ply] = NULL_MOVE;
    this.histCapture[ply] = 0;
    const np = ply + 1;
    this.plyCount = np;
    this.side = (this.side ^ 1) as FastSide;
    this.hi ^= SIDE_HI;
    this.lo ^= SIDE_LO;
    this.histHi[np] = this.hi;
    this.histLo[np] = this.lo;
    this.histCheck[np] = 0;
  }

  /** Alias of `unmakeMove`, for symmetry with `makeNullMove`. */
  unmakeNullMove(): void {
    this.unmakeMove();
  }

  /** USI text of a move code (`7g7f`, `8h2b+`, `P*5e`). */
  moveToUsi(m: number): string {
    return encodeUsi(m);
  }

  /** The move code of a USI move if it is legal here, else undefined. Not for hot paths. */
  parseUsi(usi: string): number | undefined {
    const m = parseUsiSyntax(usi.trim());
    if (m === undefined) return undefined;
    const list = this.scratchList;
    const n = this.generateMoves(list);
    for (let i = 0; i < n; i++) if (list[i] === m) return m;
    return undefined;
  }

  /** Whether `m` is a legal move here (generates the move list; not for hot paths). */
  isLegal(m: number): boolean {
    const list = this.scratchList;
    const n = this.generateMoves(list);
    for (let i = 0; i < n; i++) if (list[i] === m) return true;
    return false;
  }

  /** Number of leaf positions `depth` plies down (bulk counting: the last ply is not made). */
  perft(depth: number): number {
    if (depth <= 0) return 1;
    while (this.perftLists.length <= depth) this.perftLists.push(newMoveList());
    return this.perftNode(depth);
  }

  private perftNode(depth: number): number {
    const list = this.perftLists[depth]!;
    const n = this.generateMoves(list);
    if (depth === 1) return n;
    let total = 0;
    for (let i = 0; i < n; i++) {
      this.makeMove(list[i]!);
      total += this.perftNode(depth - 1);
      this.unmakeMove();
    }
    return total;
  }

  /** Perft split by root move (USI -> leaf count), for debugging against another generator. */
  divide(depth: number): Map<string, number> {
    const out = new Map<string, number>();
    const list = newMoveList();
    const n = this.generateMoves(list);
    for (let i = 0; i < n; i++) {
      this.makeMove(list[i]!);
      out.set(encodeUsi(list[i]!), this.perft(depth - 1));
      this.unmakeMove();
    }
    return out;
  }

  /**
   * Repetition (sennichite) of the current position against the history since `fromSfen`,
   * stopping at a null move. Looks for `occurrences` earlier occurrences with the same side to
   * move (search: 1, i.e. the first repetition; the game rule: 3, i.e. the fourth occurrence).
   * If found, the cycle from the oldest of them to now decides the result: if every move of one
   * side in it gave check, that side loses (perpetual check), otherwise it is a draw.
   * The result is from the side to move's view; `Repetition.None` if not enough occurrences.
   */
  repetition(occurrences = 1): RepetitionResult {
    const n = this.plyCount;
    const hi = this.hi;
    const lo = this.lo;
    const moves = this.histMove;
    let found = 0;
    for (let i = n - 2; i >= 0; i -= 2) {
      if (moves[i + 1] === NULL_MOVE || moves[i] === NULL_MOVE) return Repetition.None;
      if (this.histHi[i] !== hi || this.histLo[i] !== lo) continue;
      if (++found < occurrences) continue;
      // Plies i+1, i+3, .., n-1 were reached by our moves; i+2, .., n by the opponent's.
      let weCheck = true;
      for (let j = i + 1; j < n; j += 2) if (this.histCheck[j] === 0) weCheck = false;
      let theyCheck = true;
      for (let j = i + 2; j <= n; j += 2) if (this.histCheck[j] === 0) theyCheck = false;
      if (weCheck && !theyCheck) return Repetition.Loss;
      if (theyCheck && !weCheck) return Repetition.Win;
      return Repetition.Draw;
    }
    return Repetition.None;
  }

  /** Key halves (unsigned) of the position at history ply `i` (0 .. `ply`). */
  keyAt(i: number): [number, number] {
    return [this.histHi[i]! >>> 0, this.histLo[i]! >>> 0];
  }

  /** Whether the side to move was in check at history ply `i` (0 .. `ply`). */
  checkAt(i: number): boolean {
    return this.histCheck[i] === 1;
  }

  /** The move played from history ply `i` (0 .. `ply - 1`); `NULL_MOVE` for a null move. */
  moveAt(i: number): number {
    return this.histMove[i]!;
  }

  /** The position key recomputed from scratch, unsigned halves [hi, lo]; equals the incremental one. */
  recomputeKey(): [number, number] {
    const [hi, lo] = this.computeKey();
    return [hi >>> 0, lo >>> 0];
  }

  private computeKey(): [number, number] {
    let hi = 0;
    let lo = 0;
    for (const sq of SQUARES) {
      const p = this.board[sq]!;
      if (p === 0) continue;
      hi ^= PIECE_HI[p * BOARD_SIZE + sq]!;
      lo ^= PIECE_LO[p * BOARD_SIZE + sq]!;
    }
    for (let i = 0; i < 16; i++) {
      hi ^= HAND_HI[i * HAND_SLOTS + this.hands[i]!]!;
      lo ^= HAND_LO[i * HAND_SLOTS + this.hands[i]!]!;
    }
    if (this.side === WHITE) {
      hi ^= SIDE_HI;
      lo ^= SIDE_LO;
    }
    return [hi, lo];
  }

  private growHistory(capacity: number): void {
    const grow = <T extends Int32Array | Uint8Array>(old: T, make: (n: number) => T): T => {
      const a = make(capacity);
      a.set(old);
      return a;
    };
    this.histMove = grow(this.histMove, (k) => new Int32Array(k));
    this.histCapture = grow(this.histCapture, (k) => new Uint8Array(k));
    this.histHi = grow(this.histHi, (k) => new Int32Array(k));
    this.histLo = grow(this.histLo, (k) => new Int32Array(k));
    this.histCheck = grow(this.histCheck, (k) => new Uint8Array(k));
    this.capacity = capacity;
  }
}
