/**
 * The internal chess board for alpha-beta search: a 0x88 mailbox with piece lists, make/unmake
 * with an undo stack (no cloning), an incremental Zobrist hash in two 32-bit halves, and a fully
 * legal move generator (pins and check evasions are handled during generation, so every generated
 * move is legal and perft can count leaves without making them).
 *
 * Rules follow chessops exactly (the differential test compares the two on random positions):
 * castling is stored and generated as "king takes own rook" (Chess960 style) with arbitrary
 * king/rook files; standard chess is the special case with the king on e1/e8 and rooks in the
 * corners. FEN parsing and validation go through chessops (not a hot path).
 *
 * Squares in the public API are 0..63 with a1 = 0, b1 = 1, ..., h8 = 63 (chessops numbering);
 * internally the board uses 0x88 squares (`tables.ts`). Moves are small integers (`move.ts`).
 *
 * Sections: 1. state and set-up, 2. attack detection, 3. move generation, 4. make/unmake,
 * 5. queries for search and evaluation, 6. text I/O (FEN, UCI), 7. perft.
 */
import { Result } from '@badrap/result';
import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { KishiError } from '../../../core/result.js';
import {
  MOVE_CASTLE,
  MOVE_DOUBLE_PUSH,
  MOVE_EN_PASSANT,
  MOVE_NORMAL,
  NO_MOVE,
} from './move.js';
import { BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, TYPE_CHARS, WHITE } from './piece.js';
import { ATTACK, ATT_OF_PIECE, DIRS, KNIGHT_STEPS, STEP, to64, to88 } from './tables.js';
import {
  Z_CASTLE_HI,
  Z_CASTLE_LO,
  Z_EP_HI,
  Z_EP_LO,
  Z_PIECE_HI,
  Z_PIECE_LO,
  Z_SIDE_HI,
  Z_SIDE_LO,
} from './zobrist.js';

/** Fields of one undo-stack record (see `makeMove`). */
const U_MOVE = 0;
const U_CASTLING = 1;
const U_EP = 2;
const U_HALFMOVE = 3;
const U_HASH_LO = 4;
const U_HASH_HI = 5;
const U_PSQ_MG = 6;
const U_PSQ_EG = 7;
const U_CAPTURED = 8;
const U_CAPTURED_INDEX = 9;
const U_PLIES_FROM_NULL = 10;
const U_STRIDE = 11;

/** Castling-right bits: bit 2*color is the h-side (king side), bit 2*color+1 the a-side. */
const CASTLE_H = 0;
const CASTLE_A = 1;

const ROLE_TYPES: Record<string, number> = { pawn: PAWN, knight: KNIGHT, bishop: BISHOP, rook: ROOK, queen: QUEEN, king: KING };

/** A zero piece-square table, shared until `setPsqTables` installs real ones. */
const ZERO_PSQ = new Int32Array(16 * 64);

/**
 * Mutable chess position with history. Create it with `FastChessBoard.fromFen`, then walk the
 * tree with `generateMoves` + `makeMove`/`unmakeMove`. Not safe to share between concurrent
 * searches (it has scratch state); use one board per search thread.
 *
 * Public fields and typed arrays are exposed for speed and are read-only for callers: only the
 * methods change them.
 */
export class FastChessBoard {
  // ---------------------------------------------------------------------------------------------
  // 1. State and set-up
  // ---------------------------------------------------------------------------------------------

  /** 0x88 mailbox: piece code per 0x88 square (0 empty). Read-only for callers. */
  readonly squares = new Uint8Array(128);
  /**
   * Piece lists: 0x88 squares, white in 0..15, black in 16..31; the king is always at index 0 of
   * its colour (16*color). Only the first `listSize[color]` entries of a colour are valid.
   */
  readonly pieceList = new Uint8Array(32);
  /** Number of pieces per colour in `pieceList`. */
  readonly listSize = new Uint8Array(2);
  /** Index into `pieceList` of the piece on each occupied 0x88 square. */
  private readonly listIndex = new Uint8Array(128);
  /** Number of pieces on the board per piece code (`color << 3 | type`). Read-only for callers. */
  readonly pieceCounts = new Uint8Array(16);

  /** Side to move: 0 white, 1 black. */
  turn = WHITE;
  /** Castling rights as 4 bits: 1 white h-side, 2 white a-side, 4 black h-side, 8 black a-side. */
  castling = 0;
  /**
   * En passant target square (0x88) if the last move was a double push and a pawn of the side to
   * move stands next to the pushed pawn, else -1. (Whether the capture is legal is not checked
   * here; the generator does it.)
   */
  private ep = -1;
  /** Plies since the last capture or pawn move (the 50-move rule counter). */
  halfmoveClock = 0;
  /** FEN full-move number: starts at 1 and increments after each black move. */
  fullmoveNumber = 1;
  /** Low 32 bits of the Zobrist hash (signed int32). */
  hashLo = 0;
  /** High 32 bits of the Zobrist hash (signed int32). */
  hashHi = 0;
  /** Incremental sum of the middlegame piece-square table (`setPsqTables`), white's point of view. */
  psqMg = 0;
  /** Incremental sum of the endgame piece-square table (`setPsqTables`), white's point of view. */
  psqEg = 0;
  /** Whether this is a Chess960 game: the default for `moveToUci`'s castling form. */
  readonly chess960: boolean;

  /** Rook square (0x88) of each castling right, -1 when the right was never set up. */
  private readonly castleRook = new Int32Array([-1, -1, -1, -1]);
  /** King destination (0x88) per castling right. */
  private readonly castleKingTo = new Int32Array(4);
  /** Rook destination (0x88) per castling right. */
  private readonly castleRookTo = new Int32Array(4);
  /** Squares that must be empty per castling right (king and rook squares excluded). */
  private readonly castleEmpty: Int32Array[] = [new Int32Array(0), new Int32Array(0), new Int32Array(0), new Int32Array(0)];
  /** Squares strictly between the king and its destination, which must not be attacked. */
  private readonly castleSafe: Int32Array[] = [new Int32Array(0), new Int32Array(0), new Int32Array(0), new Int32Array(0)];
  /** Castling rights kept when a piece moves from or to a 0x88 square. */
  private readonly castleKeep = new Uint8Array(128).fill(15);

  /** Undo stack, `U_STRIDE` int32 fields per ply. */
  private undo = new Int32Array(256 * U_STRIDE);
  /** Number of records on the undo stack = plies made since set-up. */
  private sp = 0;
  /** Plies since the last null move (repetition detection does not look across a null move). */
  private pliesFromNull = 0;

  /** Generation scratch: squares marked with the current stamp are pinned / evasion targets. */
  private stamp = 0;
  private readonly pinMark = new Int32Array(128);
  private readonly pinDir = new Int8Array(128);
  private readonly evasionMark = new Int32Array(128);
  /** Per-depth move lists for perft, and one list for text I/O helpers. */
  private readonly perftLists: Int32Array[] = [];
  private readonly scratch = new Int32Array(256);

  private psqTableMg: Int32Array = ZERO_PSQ;
  private psqTableEg: Int32Array = ZERO_PSQ;

  private constructor(chess960: boolean) {
    this.chess960 = chess960;
  }

  /**
   * Parses and validates a FEN (or X-FEN/Shredder-FEN castling for Chess960) through chessops.
   * Errors: `ERR_FEN` for a malformed FEN or an illegal position (chessops' reason is quoted),
   * `ERR_TOO_MANY_PIECES` for more than 16 pieces of one colour.
   */
  static fromFen(fen: string, chess960 = false): Result<FastChessBoard, KishiError> {
    const setup = parseFen(fen);
    if (setup.isErr) return Result.err(new KishiError('ERR_FEN', `invalid FEN ${JSON.stringify(fen)}: ${setup.error.message}`));
    const pos = Chess.fromSetup(setup.value);
    if (pos.isErr) return Result.err(new KishiError('ERR_FEN', `illegal position ${JSON.stringify(fen)}: ${pos.error.message}`));
    return FastChessBoard.fromPosition(pos.value, chess960);
  }

  /**
   * Builds the board from a validated chessops position (castling rooks, en passant square and
   * move counters included). Fails only with `ERR_TOO_MANY_PIECES`.
   */
  static fromPosition(pos: Chess, chess960 = false): Result<FastChessBoard, KishiError> {
    const board = new FastChessBoard(chess960);
    const colorCount = [0, 0];
    for (let sq = 0; sq < 64; sq++) {
      const piece = pos.board.get(sq);
      if (piece && ++colorCount[piece.color === 'white' ? 0 : 1]! > 16) {
        return Result.err(new KishiError('ERR_TOO_MANY_PIECES', `more than 16 ${piece.color} pieces`));
      }
    }
    // Kings first so that each king sits at index 0 of its colour's list.
    for (const pass of [0, 1]) {
      for (let sq = 0; sq < 64; sq++) {
        const piece = pos.board.get(sq);
        if (!piece || (piece.role === 'king') !== (pass === 0)) continue;
        const color = piece.color === 'white' ? WHITE : BLACK;
        board.addPiece((color << 3) | ROLE_TYPES[piece.role]!, to88(sq));
      }
    }
    board.turn = pos.turn === 'white' ? WHITE : BLACK;
    for (const color of [WHITE, BLACK]) {
      const rooks = pos.castles.rook[color === WHITE ? 'white' : 'black'];
      if (rooks.h !== undefined) board.setCastling(color, CASTLE_H, to88(rooks.h));
      if (rooks.a !== undefined) board.setCastling(color, CASTLE_A, to88(rooks.a));
    }
    if (pos.epSquare !== undefined) board.ep = board.epIfCapturable(to88(pos.epSquare));
    board.halfmoveClock = pos.halfmoves;
    board.fullmoveNumber = pos.fullmoves;
    board.hashLo = board.computeHashLo();
    board.hashHi = board.computeHashHi();
    return Result.ok(board);
  }

  private addPiece(piece: number, sq: number): void {
    const color = piece >> 3;
    const index = (color << 4) + this.listSize[color]!++;
    this.squares[sq] = piece;
    this.pieceList[index] = sq;
    this.listIndex[sq] = index;
    this.pieceCounts[piece]!++;
  }

  private setCastling(color: number, side: number, rook: number): void {
    const right = color * 2 + side;
    const king = this.pieceList[color << 4]!;
    const rank = color === WHITE ? 0 : 0x70;
    const kingTo = rank + (side === CASTLE_H ? 6 : 2);
    const rookTo = rank + (side === CASTLE_H ? 5 : 3);
    this.castling |= 1 << right;
    this.castleRook[right] = rook;
    this.castleKingTo[right] = kingTo;
    this.castleRookTo[right] = rookTo;
    const empty: number[] = [];
    const lo = Math.min(king, kingTo, rook, rookTo);
    const hi = Math.max(king, kingTo, rook, rookTo);
    for (let sq = lo; sq <= hi; sq++) {
      if (sq === king || sq === rook) continue;
      const onKingPath = sq >= Math.min(king, kingTo) && sq <= Math.max(king, kingTo);
      const onRookPath = sq >= Math.min(rook, rookTo) && sq <= Math.max(rook, rookTo);
      if (onKingPath || onRookPath) empty.push(sq);
    }
    const safe: number[] = [];
    for (let sq = Math.min(king, kingTo) + 1; sq < Math.max(king, kingTo); sq++) safe.push(sq);
    this.castleEmpty[right] = Int32Array.from(empty);
    this.castleSafe[right] = Int32Array.from(safe);
    this.castleKeep[king] = this.castleKeep[king]! & ~(3 << (color * 2));
    this.castleKeep[rook] = this.castleKeep[rook]! & ~(1 << right);
  }

  /** `sq` if a pawn of the side to move could capture en passant onto it, else -1. */
  private epIfCapturable(sq: number): number {
    const pawn = (this.turn << 3) | PAWN;
    const pushed = sq + (this.turn === WHITE ? -16 : 16);
    const left = pushed - 1;
    const right = pushed + 1;
    if ((!(left & 0x88) && this.squares[left] === pawn) || (!(right & 0x88) && this.squares[right] === pawn)) return sq;
    return -1;
  }

  /**
   * Installs piece-square tables for incremental evaluation: `mg` and `eg` have 16*64 entries
   * indexed by `piece * 64 + square` (piece code, square 0..63), scores from white's point of
   * view (so black entries are usually negative). `psqMg`/`psqEg` are recomputed now and kept up
   * to date by make/unmake. The arrays are used by reference; do not change them afterwards.
   */
  setPsqTables(mg: Int32Array, eg: Int32Array): void {
    if (mg.length !== 16 * 64 || eg.length !== 16 * 64) throw new Error('piece-square tables must have 16*64 entries');
    this.psqTableMg = mg;
    this.psqTableEg = eg;
    this.psqMg = 0;
    this.psqEg = 0;
    for (let sq = 0; sq < 128; sq++) {
      const p = this.squares[sq]!;
      if (p === 0) continue;
      this.psqMg += mg[p * 64 + to64(sq)]!;
      this.psqEg += eg[p * 64 + to64(sq)]!;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // 2. Attack detection
  // ---------------------------------------------------------------------------------------------

  /** Whether 0x88 square `sq` is attacked by a piece of colour `by` on the current board. */
  private attacked(sq: number, by: number): boolean {
    const b = this.squares;
    const byBit = by << 3;
    let t: number;
    if (by === WHITE) {
      t = sq - 15;
      if (!(t & 0x88) && b[t] === PAWN) return true;
      t = sq - 17;
      if (!(t & 0x88) && b[t] === PAWN) return true;
    } else {
      t = sq + 15;
      if (!(t & 0x88) && b[t] === (8 | PAWN)) return true;
      t = sq + 17;
      if (!(t & 0x88) && b[t] === (8 | PAWN)) return true;
    }
    const knight = byBit | KNIGHT;
    for (let k = 0; k < 8; k++) {
      t = sq + KNIGHT_STEPS[k]!;
      if (!(t & 0x88) && b[t] === knight) return true;
    }
    const king = byBit | KING;
    const queen = byBit | QUEEN;
    let slider = byBit | BISHOP;
    for (let k = 0; k < 8; k++) {
      if (k === 4) slider = byBit | ROOK;
      const d = DIRS[k]!;
      t = sq + d;
      if (t & 0x88) continue;
      let p = b[t]!;
      if (p !== 0) {
        if (p === slider || p === queen || p === king) return true;
        continue;
      }
      for (t += d; !(t & 0x88); t += d) {
        p = b[t]!;
        if (p !== 0) {
          if (p === slider || p === queen) return true;
          break;
        }
      }
    }
    return false;
  }

  /** Whether the side to move is in check. */
  inCheck(): boolean {
    return this.attacked(this.pieceList[this.turn << 4]!, this.turn ^ 1);
  }

  /**
   * Whether square `sq` (0..63) is attacked by colour `by` (0 white, 1 black), e.g. for king
   * safety terms. Pieces of both colours block as they stand.
   */
  isSquareAttacked(sq: number, by: number): boolean {
    return this.attacked(to88(sq), by);
  }

  /** Whether the en passant capture from `from` to `to` (0x88) leaves our king safe. */
  private epLegal(from: number, to: number): boolean {
    const b = this.squares;
    const us = this.turn;
    const pawn = b[from]!;
    const captured = to + (us === WHITE ? -16 : 16);
    const victim = b[captured]!;
    b[from] = 0;
    b[captured] = 0;
    b[to] = pawn;
    const ok = !this.attacked(this.pieceList[us << 4]!, us ^ 1);
    b[to] = 0;
    b[captured] = victim;
    b[from] = pawn;
    return ok;
  }

  /** Whether castling right `right` can be exercised now (the caller checked we are not in check). */
  private canCastle(right: number): boolean {
    const b = this.squares;
    const them = this.turn ^ 1;
    const empty = this.castleEmpty[right]!;
    for (let i = 0; i < empty.length; i++) if (b[empty[i]!] !== 0) return false;
    const safe = this.castleSafe[right]!;
    for (let i = 0; i < safe.length; i++) if (this.attacked(safe[i]!, them)) return false;
    // The king's destination is tested with the king and rook already moved: in Chess960 the
    // rook may have been shielding it along the back rank.
    const king = this.pieceList[this.turn << 4]!;
    const rook = this.castleRook[right]!;
    const rookTo = this.castleRookTo[right]!;
    const kp = b[king]!;
    const rp = b[rook]!;
    b[king] = 0;
    b[rook] = 0;
    b[rookTo] = rp;
    const ok = !this.attacked(this.castleKingTo[right]!, them);
    b[rookTo] = 0;
    b[rook] = rp;
    b[king] = kp;
    return ok;
  }

  // ---------------------------------------------------------------------------------------------
  // 3. Move generation
  // ---------------------------------------------------------------------------------------------

  /**
   * Writes every legal move of the side to move into `list` from index `start` and returns how
   * many it wrote. With `capturesOnly`, writes only captures (en passant included) and
   * promotions (all four pieces, quiet ones too); in check that means only the capturing or
   * promoting evasions, so quiescence search should generate all moves when in check.
   * `list` needs room for 218 moves; an `Int32Array` is fastest.
   *
   * Steps: 1. find checkers and pinned pieces from the enemy piece list; 2. in single check,
   * mark the evasion squares (checker and the squares between); 3. generate piece moves,
   * restricted to the pin ray and the evasion squares; 4. king moves and castling.
   */
  generateMoves(list: Int32Array | number[], capturesOnly = false, start = 0): number {
    const b = this.squares;
    const plist = this.pieceList;
    const us = this.turn;
    const them = us ^ 1;
    const king = plist[us << 4]!;
    let stamp = this.stamp + 1;
    if (stamp > 0x3fffffff) {
      // Restart the stamps long before they could wrap around to stale marks.
      this.pinMark.fill(0);
      this.evasionMark.fill(0);
      stamp = 1;
    }
    this.stamp = stamp;
    const pinMark = this.pinMark;
    const pinDir = this.pinDir;
    const evasion = this.evasionMark;
    let n = start;

    // Step 1. Checkers and pinned pieces.
    let checkers = 0;
    let checkSq = -1;
    const themEnd = (them << 4) + this.listSize[them]!;
    for (let i = (them << 4) + 1; i < themEnd; i++) {
      const s = plist[i]!;
      const p = b[s]!;
      const idx = king - s + 119;
      if ((ATTACK[idx]! & ATT_OF_PIECE[p]!) === 0) continue;
      const t = p & 7;
      if (t === PAWN || t === KNIGHT) {
        checkers++;
        checkSq = s;
        continue;
      }
      const step = STEP[idx]!;
      let blocker = -1;
      for (let x = s + step; x !== king; x += step) {
        if (b[x] !== 0) {
          if (blocker !== -1) {
            blocker = -2;
            break;
          }
          blocker = x;
        }
      }
      if (blocker === -1) {
        checkers++;
        checkSq = s;
      } else if (blocker >= 0 && b[blocker]! >> 3 === us) {
        pinMark[blocker] = stamp;
        pinDir[blocker] = step;
      }
    }
    const inCheck = checkers !== 0;

    // Step 2. Evasion squares for a single check.
    if (checkers === 1) {
      evasion[checkSq] = stamp;
      const t = b[checkSq]! & 7;
      if (t === BISHOP || t === ROOK || t === QUEEN) {
        const step = STEP[king - checkSq + 119]!;
        for (let x = checkSq + step; x !== king; x += step) evasion[x] = stamp;
      }
    }

    // Step 3. Piece moves (none in double check).
    if (checkers < 2) {
      const usEnd = (us << 4) + this.listSize[us]!;
      const fwd = us === WHITE ? 16 : -16;
      for (let i = (us << 4) + 1; i < usEnd; i++) {
        const s = plist[i]!;
        const p = b[s]!;
        const t = p & 7;
        const pin = pinMark[s] === stamp ? pinDir[s]! : 0;
        const from = (s + (s & 7)) >> 1;
        if (t === PAWN) {
          const base = from | (PAWN << 20);
          let to = s + fwd;
          const promotes = us === WHITE ? to >= 0x70 : to < 0x08;
          if (b[to] === 0 && (pin === 0 || pin === fwd || pin === -fwd)) {
            if (promotes) {
              if (!inCheck || evasion[to] === stamp) {
                const m = base | (((to + (to & 7)) >> 1) << 6);
                list[n++] = m | (QUEEN << 12);
                list[n++] = m | (KNIGHT << 12);
                list[n++] = m | (ROOK << 12);
                list[n++] = m | (BISHOP << 12);
              }
            } else if (!capturesOnly) {
              if (!inCheck || evasion[to] === stamp) list[n++] = base | (((to + (to & 7)) >> 1) << 6);
              if ((s >> 4) === (us === WHITE ? 1 : 6)) {
                to += fwd;
                if (b[to] === 0 && (!inCheck || evasion[to] === stamp)) {
                  list[n++] = base | (((to + (to & 7)) >> 1) << 6) | (MOVE_DOUBLE_PUSH << 15);
                }
              }
            }
          }
          for (let side = -1; side <= 1; side += 2) {
            const cd = fwd + side;
            to = s + cd;
            if (to & 0x88) continue;
            const q = b[to]!;
            if (q !== 0) {
              if (q >> 3 !== them || (pin !== 0 && pin !== cd && pin !== -cd) || (inCheck && evasion[to] !== stamp)) continue;
              const m = base | (((to + (to & 7)) >> 1) << 6) | ((q & 7) << 17);
              if (promotes) {
                list[n++] = m | (QUEEN << 12);
                list[n++] = m | (KNIGHT << 12);
                list[n++] = m | (ROOK << 12);
                list[n++] = m | (BISHOP << 12);
              } else {
                list[n++] = m;
              }
            } else if (to === this.ep && this.epLegal(s, to)) {
              list[n++] = base | (((to + (to & 7)) >> 1) << 6) | (MOVE_EN_PASSANT << 15) | (PAWN << 17);
            }
          }
        } else if (t === KNIGHT) {
          if (pin !== 0) continue;
          const base = from | (KNIGHT << 20);
          for (let k = 0; k < 8; k++) {
            const to = s + KNIGHT_STEPS[k]!;
            if (to & 0x88) continue;
            const q = b[to]!;
            if (q === 0) {
              if (!capturesOnly && (!inCheck || evasion[to] === stamp)) list[n++] = base | (((to + (to & 7)) >> 1) << 6);
            } else if (q >> 3 === them && (!inCheck || evasion[to] === stamp)) {
              list[n++] = base | (((to + (to & 7)) >> 1) << 6) | ((q & 7) << 17);
            }
          }
        } else {
          // Bishop (directions 0-3), rook (4-7) or queen (0-7).
          const base = from | (t << 20);
          const k1 = t === BISHOP ? 4 : 8;
          for (let k = t === ROOK ? 4 : 0; k < k1; k++) {
            const d = DIRS[k]!;
            if (pin !== 0 && d !== pin && d !== -pin) continue;
            for (let to = s + d; !(to & 0x88); to += d) {
              const q = b[to]!;
              if (q === 0) {
                if (!capturesOnly && (!inCheck || evasion[to] === stamp)) list[n++] = base | (((to + (to & 7)) >> 1) << 6);
              } else {
                if (q >> 3 === them && (!inCheck || evasion[to] === stamp)) {
                  list[n++] = base | (((to + (to & 7)) >> 1) << 6) | ((q & 7) << 17);
                }
                break;
              }
            }
          }
        }
      }
    }

    // Step 4. King moves; in check the king is lifted so that it does not hide the squares
    // behind it from a checking slider.
    const kingBase = ((king + (king & 7)) >> 1) | (KING << 20);
    const kingPiece = b[king]!;
    if (inCheck) b[king] = 0;
    for (let k = 0; k < 8; k++) {
      const to = king + DIRS[k]!;
      if (to & 0x88) continue;
      const q = b[to]!;
      if (q === 0) {
        if (capturesOnly) continue;
      } else if (q >> 3 !== them) continue;
      if (!this.attacked(to, them)) list[n++] = kingBase | (((to + (to & 7)) >> 1) << 6) | ((q & 7) << 17);
    }
    if (inCheck) b[king] = kingPiece;
    else if (!capturesOnly && (this.castling & (3 << (us * 2))) !== 0) {
      for (let right = us * 2; right <= us * 2 + 1; right++) {
        if ((this.castling & (1 << right)) !== 0 && this.canCastle(right)) {
          const rook = this.castleRook[right]!;
          list[n++] = kingBase | (((rook + (rook & 7)) >> 1) << 6) | (MOVE_CASTLE << 15);
        }
      }
    }
    return n - start;
  }

  /** The legal moves as a fresh array (convenience; search should use `generateMoves`). */
  legalMoves(capturesOnly = false): number[] {
    const n = this.generateMoves(this.scratch, capturesOnly);
    return Array.from(this.scratch.subarray(0, n));
  }

  /**
   * Whether `m` is a legal move here, without generating all moves: for validating moves from
   * the transposition table or killer slots. Checks the whole encoding (piece, capture, kind),
   * so a move from another position is accepted only if it means exactly the same here.
   */
  isLegal(m: number): boolean {
    if (!(m > 0 && m < 1 << 23)) return false;
    const b = this.squares;
    const us = this.turn;
    const them = us ^ 1;
    const from = to88(m & 63);
    const to = to88((m >> 6) & 63);
    const promotion = (m >> 12) & 7;
    const kind = (m >> 15) & 3;
    const captured = (m >> 17) & 7;
    const type = (m >> 20) & 7;
    const p = b[from]!;
    if (type === 0 || p !== ((us << 3) | type)) return false;
    const fwd = us === WHITE ? 16 : -16;
    if (kind === MOVE_CASTLE) {
      if (type !== KING || promotion !== 0 || captured !== 0) return false;
      for (let right = us * 2; right <= us * 2 + 1; right++) {
        if ((this.castling & (1 << right)) !== 0 && this.castleRook[right] === to) return !this.inCheck() && this.canCastle(right);
      }
      return false;
    }
    if (kind === MOVE_EN_PASSANT) {
      if (type !== PAWN || to !== this.ep || captured !== PAWN || promotion !== 0) return false;
      if (to - from !== fwd - 1 && to - from !== fwd + 1) return false;
      return this.epLegal(from, to);
    }
    const q = b[to]!;
    if (q !== 0 ? q >> 3 !== them || (q & 7) !== captured || captured === KING : captured !== 0) return false;
    if (type === PAWN) {
      const promotes = (to >> 4) === (us === WHITE ? 7 : 0);
      if (promotes ? promotion < KNIGHT || promotion > QUEEN : promotion !== 0) return false;
      const d = to - from;
      if (kind === MOVE_DOUBLE_PUSH) {
        if (d !== 2 * fwd || q !== 0 || b[from + fwd] !== 0 || (from >> 4) !== (us === WHITE ? 1 : 6)) return false;
      } else if (d === fwd) {
        if (q !== 0) return false;
      } else if (d === fwd - 1 || d === fwd + 1) {
        if (q === 0) return false;
      } else return false;
    } else {
      if (promotion !== 0 || kind !== MOVE_NORMAL) return false;
      const idx = to - from + 119;
      if ((ATTACK[idx]! & ATT_OF_PIECE[p]!) === 0) return false;
      if (type !== KNIGHT && type !== KING) {
        const step = STEP[idx]!;
        for (let x = from + step; x !== to; x += step) if (b[x] !== 0) return false;
      }
    }
    // King safety after the move.
    b[from] = 0;
    b[to] = p;
    const ok = !this.attacked(type === KING ? to : this.pieceList[us << 4]!, them);
    b[to] = q;
    b[from] = p;
    return ok;
  }

  // ---------------------------------------------------------------------------------------------
  // 4. Make / unmake
  // ---------------------------------------------------------------------------------------------

  private pushUndo(m: number): number {
    if ((this.sp + 1) * U_STRIDE > this.undo.length) {
      const bigger = new Int32Array(this.undo.length * 2);
      bigger.set(this.undo);
      this.undo = bigger;
    }
    const u = this.undo;
    const o = this.sp++ * U_STRIDE;
    u[o + U_MOVE] = m;
    u[o + U_CASTLING] = this.castling;
    u[o + U_EP] = this.ep;
    u[o + U_HALFMOVE] = this.halfmoveClock;
    u[o + U_HASH_LO] = this.hashLo;
    u[o + U_HASH_HI] = this.hashHi;
    u[o + U_PSQ_MG] = this.psqMg;
    u[o + U_PSQ_EG] = this.psqEg;
    u[o + U_PLIES_FROM_NULL] = this.pliesFromNull;
    return o;
  }

  /**
   * Plays move `m`, which must be legal here (from `generateMoves` or checked with `isLegal`);
   * an illegal move corrupts the board. Undo with `unmakeMove`.
   */
  makeMove(m: number): void {
    const o = this.pushUndo(m);
    const u = this.undo;
    const b = this.squares;
    const plist = this.pieceList;
    const lindex = this.listIndex;
    const mgT = this.psqTableMg;
    const egT = this.psqTableEg;
    const us = this.turn;
    const them = us ^ 1;
    const f64 = m & 63;
    const t64 = (m >> 6) & 63;
    const from = f64 + (f64 & 56);
    const to = t64 + (t64 & 56);
    const kind = (m >> 15) & 3;
    const p = b[from]!;
    let hLo = this.hashLo ^ Z_SIDE_LO;
    let hHi = this.hashHi ^ Z_SIDE_HI;
    let mg = this.psqMg;
    let eg = this.psqEg;
    if (this.ep !== -1) {
      hLo ^= Z_EP_LO[this.ep & 7]!;
      hHi ^= Z_EP_HI[this.ep & 7]!;
      this.ep = -1;
    }
    this.halfmoveClock++;
    u[o + U_CAPTURED] = 0;

    if (kind === MOVE_CASTLE) {
      const right = us * 2 + (to > from ? CASTLE_H : CASTLE_A);
      const kingTo = this.castleKingTo[right]!;
      const rookTo = this.castleRookTo[right]!;
      const rp = b[to]!;
      const rookIndex = lindex[to]!;
      b[from] = 0;
      b[to] = 0;
      b[kingTo] = p;
      b[rookTo] = rp;
      plist[us << 4] = kingTo;
      lindex[kingTo] = us << 4;
      plist[rookIndex] = rookTo;
      lindex[rookTo] = rookIndex;
      const k1 = p * 64 + f64;
      const k2 = p * 64 + ((kingTo + (kingTo & 7)) >> 1);
      const r1 = rp * 64 + t64;
      const r2 = rp * 64 + ((rookTo + (rookTo & 7)) >> 1);
      hLo ^= Z_PIECE_LO[k1]! ^ Z_PIECE_LO[k2]! ^ Z_PIECE_LO[r1]! ^ Z_PIECE_LO[r2]!;
      hHi ^= Z_PIECE_HI[k1]! ^ Z_PIECE_HI[k2]! ^ Z_PIECE_HI[r1]! ^ Z_PIECE_HI[r2]!;
      mg += mgT[k2]! - mgT[k1]! + mgT[r2]! - mgT[r1]!;
      eg += egT[k2]! - egT[k1]! + egT[r2]! - egT[r1]!;
      const castling = this.castling & ~(3 << (us * 2));
      hLo ^= Z_CASTLE_LO[this.castling]! ^ Z_CASTLE_LO[castling]!;
      hHi ^= Z_CASTLE_HI[this.castling]! ^ Z_CASTLE_HI[castling]!;
      this.castling = castling;
    } else {
      // Capture (en passant: the pawn behind the target square).
      const capSq = kind === MOVE_EN_PASSANT ? to + (us === WHITE ? -16 : 16) : to;
      const cap = b[capSq]!;
      if (cap !== 0) {
        const idx = lindex[capSq]!;
        const last = (them << 4) + --this.listSize[them]!;
        const moved = plist[last]!;
        plist[idx] = moved;
        lindex[moved] = idx;
        u[o + U_CAPTURED] = cap;
        u[o + U_CAPTURED_INDEX] = idx;
        this.pieceCounts[cap]!--;
        const c64 = (capSq + (capSq & 7)) >> 1;
        const kc = cap * 64 + c64;
        hLo ^= Z_PIECE_LO[kc]!;
        hHi ^= Z_PIECE_HI[kc]!;
        mg -= mgT[kc]!;
        eg -= egT[kc]!;
        b[capSq] = 0;
        this.halfmoveClock = 0;
      }
      const promotion = (m >> 12) & 7;
      const np = promotion !== 0 ? (us << 3) | promotion : p;
      if (promotion !== 0) {
        this.pieceCounts[p]!--;
        this.pieceCounts[np]!++;
      }
      b[from] = 0;
      b[to] = np;
      const idx = lindex[from]!;
      plist[idx] = to;
      lindex[to] = idx;
      const k1 = p * 64 + f64;
      const k2 = np * 64 + t64;
      hLo ^= Z_PIECE_LO[k1]! ^ Z_PIECE_LO[k2]!;
      hHi ^= Z_PIECE_HI[k1]! ^ Z_PIECE_HI[k2]!;
      mg += mgT[k2]! - mgT[k1]!;
      eg += egT[k2]! - egT[k1]!;
      if ((p & 7) === PAWN) {
        this.halfmoveClock = 0;
        if (kind === MOVE_DOUBLE_PUSH) {
          // Record the en passant square only if an enemy pawn stands next to the pushed pawn.
          const enemyPawn = (them << 3) | PAWN;
          if ((!((to - 1) & 0x88) && b[to - 1] === enemyPawn) || (!((to + 1) & 0x88) && b[to + 1] === enemyPawn)) {
            const epSq = (from + to) >> 1;
            this.ep = epSq;
            hLo ^= Z_EP_LO[epSq & 7]!;
            hHi ^= Z_EP_HI[epSq & 7]!;
          }
        }
      }
      const castling = this.castling & this.castleKeep[from]! & this.castleKeep[to]!;
      if (castling !== this.castling) {
        hLo ^= Z_CASTLE_LO[this.castling]! ^ Z_CASTLE_LO[castling]!;
        hHi ^= Z_CASTLE_HI[this.castling]! ^ Z_CASTLE_HI[castling]!;
        this.castling = castling;
      }
    }
    this.hashLo = hLo;
    this.hashHi = hHi;
    this.psqMg = mg;
    this.psqEg = eg;
    this.pliesFromNull++;
    if (us === BLACK) this.fullmoveNumber++;
    this.turn = them;
  }

  /** Takes back the last `makeMove` or `makeNullMove`. Throws if there is nothing to undo. */
  unmakeMove(): void {
    if (this.sp === 0) throw new Error('unmakeMove: no move to take back');
    const o = --this.sp * U_STRIDE;
    const u = this.undo;
    const m = u[o + U_MOVE]!;
    this.castling = u[o + U_CASTLING]!;
    this.ep = u[o + U_EP]!;
    this.halfmoveClock = u[o + U_HALFMOVE]!;
    this.hashLo = u[o + U_HASH_LO]!;
    this.hashHi = u[o + U_HASH_HI]!;
    this.psqMg = u[o + U_PSQ_MG]!;
    this.psqEg = u[o + U_PSQ_EG]!;
    this.pliesFromNull = u[o + U_PLIES_FROM_NULL]!;
    const us = this.turn ^ 1;
    this.turn = us;
    if (us === BLACK) this.fullmoveNumber--;
    if (m === NO_MOVE) return;

    const b = this.squares;
    const plist = this.pieceList;
    const lindex = this.listIndex;
    const f64 = m & 63;
    const t64 = (m >> 6) & 63;
    const from = f64 + (f64 & 56);
    const to = t64 + (t64 & 56);
    const kind = (m >> 15) & 3;
    if (kind === MOVE_CASTLE) {
      const right = us * 2 + (to > from ? CASTLE_H : CASTLE_A);
      const kingTo = this.castleKingTo[right]!;
      const rookTo = this.castleRookTo[right]!;
      const kp = b[kingTo]!;
      const rp = b[rookTo]!;
      const rookIndex = lindex[rookTo]!;
      b[kingTo] = 0;
      b[rookTo] = 0;
      b[from] = kp;
      b[to] = rp;
      plist[us << 4] = from;
      lindex[from] = us << 4;
      plist[rookIndex] = to;
      lindex[to] = rookIndex;
      return;
    }
    const np = b[to]!;
    const promotion = (m >> 12) & 7;
    const p = promotion !== 0 ? (us << 3) | PAWN : np;
    if (promotion !== 0) {
      this.pieceCounts[np]!--;
      this.pieceCounts[p]!++;
    }
    b[to] = 0;
    b[from] = p;
    const idx = lindex[to]!;
    plist[idx] = from;
    lindex[from] = idx;
    const cap = u[o + U_CAPTURED]!;
    if (cap !== 0) {
      const them = us ^ 1;
      const capSq = kind === MOVE_EN_PASSANT ? to + (us === WHITE ? -16 : 16) : to;
      const capIndex = u[o + U_CAPTURED_INDEX]!;
      const last = (them << 4) + this.listSize[them]!++;
      const moved = plist[capIndex]!;
      plist[last] = moved;
      lindex[moved] = last;
      plist[capIndex] = capSq;
      lindex[capSq] = capIndex;
      b[capSq] = cap;
      this.pieceCounts[cap]!++;
    }
  }

  /**
   * Passes the move (for null-move pruning): flips the side to move and clears en passant.
   * Must not be called in check. Undo with `unmakeNullMove` (or `unmakeMove`).
   */
  makeNullMove(): void {
    this.pushUndo(NO_MOVE);
    let hLo = this.hashLo ^ Z_SIDE_LO;
    let hHi = this.hashHi ^ Z_SIDE_HI;
    if (this.ep !== -1) {
      hLo ^= Z_EP_LO[this.ep & 7]!;
      hHi ^= Z_EP_HI[this.ep & 7]!;
      this.ep = -1;
    }
    this.hashLo = hLo;
    this.hashHi = hHi;
    this.halfmoveClock++;
    this.pliesFromNull = 0;
    if (this.turn === BLACK) this.fullmoveNumber++;
    this.turn ^= 1;
  }

  /** Takes back `makeNullMove`. */
  unmakeNullMove(): void {
    this.unmakeMove();
  }

  // ---------------------------------------------------------------------------------------------
  // 5. Queries for search and evaluation
  // ---------------------------------------------------------------------------------------------

  /** Number of moves made since set-up (depth of the undo stack). */
  get ply(): number {
    return this.sp;
  }

  /** The move made `back` plies ago (1 = the last one), NO_MOVE for a null move or none. */
  lastMove(back = 1): number {
    const i = this.sp - back;
    return i >= 0 ? this.undo[i * U_STRIDE + U_MOVE]! : NO_MOVE;
  }

  /** Piece code (`color << 3 | type`, 0 empty) on square `sq` (0..63). */
  pieceAt(sq: number): number {
    return this.squares[sq + (sq & 56)]!;
  }

  /** Square (0..63) of the king of `color`. */
  kingSquare(color: number): number {
    return to64(this.pieceList[color << 4]!);
  }

  /** Number of pieces of `color` and `type` on the board. */
  count(color: number, type: number): number {
    return this.pieceCounts[(color << 3) | type]!;
  }

  /** Squares (0..63) of all pieces of `color`, king first. Allocates; hot code should read `pieceList`. */
  squaresOf(color: number): number[] {
    const r: number[] = [];
    for (let i = 0; i < this.listSize[color]!; i++) r.push(to64(this.pieceList[(color << 4) + i]!));
    return r;
  }

  /** En passant target square (0..63) when an en passant capture is pseudo-legal, else -1. */
  get epSquare(): number {
    return this.ep === -1 ? -1 : to64(this.ep);
  }

  /**
   * Whether the current position occurred at least `times` times before, looking back only over
   * reversible plies (the 50-move counter) and not across a null move. Search usually scores
   * `isRepetition()` (one earlier occurrence) as a draw. History starts at `fromFen`: replay the
   * game's moves with `makeMove` to include them.
   */
  isRepetition(times = 1): boolean {
    const limit = Math.max(0, this.sp - Math.min(this.halfmoveClock, this.pliesFromNull));
    const u = this.undo;
    let found = 0;
    for (let i = this.sp - 4; i >= limit; i -= 2) {
      const o = i * U_STRIDE;
      if (u[o + U_HASH_LO] === this.hashLo && u[o + U_HASH_HI] === this.hashHi && ++found >= times) return true;
    }
    return false;
  }

  /**
   * Whether move `m` (legal here) gives check: the enemy king attacked on the board after the
   * move. A normal move or promotion changes only its two squares, which are set in place for the
   * attack test; castling and en passant (three or four squares) cost a make/unmake.
   */
  givesCheck(m: number): boolean {
    const kind = (m >> 15) & 3;
    if (kind === MOVE_CASTLE || kind === MOVE_EN_PASSANT) {
      this.makeMove(m);
      const check = this.inCheck();
      this.unmakeMove();
      return check;
    }
    const b = this.squares;
    const us = this.turn;
    const f64 = m & 63;
    const t64 = (m >> 6) & 63;
    const from = f64 + (f64 & 56);
    const to = t64 + (t64 & 56);
    const p = b[from]!;
    const q = b[to]!;
    const promotion = (m >> 12) & 7;
    b[from] = 0;
    b[to] = promotion !== 0 ? (us << 3) | promotion : p;
    const check = this.attacked(this.pieceList[(us ^ 1) << 4]!, us);
    b[to] = q;
    b[from] = p;
    return check;
  }

  /** Hash as one non-negative number below 2^53 (hashHi's low 21 bits and hashLo). */
  get hash(): number {
    return (this.hashHi & 0x1fffff) * 0x100000000 + (this.hashLo >>> 0);
  }

  /** Low half of the Zobrist hash recomputed from scratch (tests compare it with `hashLo`). */
  computeHashLo(): number {
    return this.computeHash(Z_PIECE_LO, Z_SIDE_LO, Z_CASTLE_LO, Z_EP_LO);
  }

  /** High half of the Zobrist hash recomputed from scratch. */
  computeHashHi(): number {
    return this.computeHash(Z_PIECE_HI, Z_SIDE_HI, Z_CASTLE_HI, Z_EP_HI);
  }

  private computeHash(piece: Int32Array, side: number, castle: Int32Array, ep: Int32Array): number {
    let h = 0;
    for (let sq = 0; sq < 128; sq++) {
      const p = this.squares[sq]!;
      if (p !== 0) h ^= piece[p * 64 + to64(sq)]!;
    }
    if (this.turn === BLACK) h ^= side;
    h ^= castle[this.castling]!;
    if (this.ep !== -1) h ^= ep[this.ep & 7]!;
    return h;
  }

  // ---------------------------------------------------------------------------------------------
  // 6. Text I/O
  // ---------------------------------------------------------------------------------------------

  /**
   * The position as FEN, identical to chessops' `makeFen(pos.toSetup())`: castling as KQkq when
   * the castling rook is the outermost rook on that side, else as a file letter (Shredder style);
   * the en passant square only when the capture is legal; the halfmove clock capped at 150.
   */
  toFen(): string {
    const b = this.squares;
    let fen = '';
    for (let rank = 7; rank >= 0; rank--) {
      let empty = 0;
      for (let file = 0; file < 8; file++) {
        const p = b[rank * 16 + file]!;
        if (p === 0) {
          empty++;
          continue;
        }
        if (empty > 0) fen += empty;
        empty = 0;
        const c = TYPE_CHARS[p & 7]!;
        fen += p >> 3 === WHITE ? c.toUpperCase() : c;
      }
      if (empty > 0) fen += empty;
      if (rank > 0) fen += '/';
    }
    fen += this.turn === WHITE ? ' w ' : ' b ';
    let castling = '';
    for (const color of [WHITE, BLACK]) {
      const rank = color === WHITE ? 0 : 0x70;
      const rook = (color << 3) | ROOK;
      let first = -1;
      let last = -1;
      for (let sq = rank; sq < rank + 8; sq++) {
        if (b[sq] !== rook) continue;
        if (first === -1) first = sq;
        last = sq;
      }
      const king = this.pieceList[color << 4]!;
      for (const right of [color * 2 + CASTLE_H, color * 2 + CASTLE_A]) {
        if ((this.castling & (1 << right)) === 0) continue;
        const sq = this.castleRook[right]!;
        let c: string;
        if (sq === first && sq < king) c = 'q';
        else if (sq === last && king < sq) c = 'k';
        else c = 'abcdefgh'[sq & 7]!;
        castling += color === WHITE ? c.toUpperCase() : c;
      }
    }
    fen += castling || '-';
    const ep = this.legalEpSquare();
    fen += ' ' + (ep === -1 ? '-' : squareName(ep));
    fen += ` ${Math.min(this.halfmoveClock, 150)} ${Math.min(Math.max(this.fullmoveNumber, 1), 9999)}`;
    return fen;
  }

  /** The en passant square (0..63) if an en passant capture is legal now, else -1. */
  legalEpSquare(): number {
    if (this.ep === -1) return -1;
    const pawn = (this.turn << 3) | PAWN;
    const pushed = this.ep + (this.turn === WHITE ? -16 : 16);
    for (const from of [pushed - 1, pushed + 1]) {
      if (!(from & 0x88) && this.squares[from] === pawn && this.epLegal(from, this.ep)) return to64(this.ep);
    }
    return -1;
  }

  /**
   * The move in UCI notation. Castling is written king-takes-rook (`e1h1`) when `chess960Form`,
   * else as the king's two-square move (`e1g1`, `e1c1`). Defaults to the board's `chess960`.
   */
  moveToUci(m: number, chess960Form = this.chess960): string {
    const from = m & 63;
    let to = (m >> 6) & 63;
    if (((m >> 15) & 3) === MOVE_CASTLE && !chess960Form) to = (from & 56) + (to > from ? 6 : 2);
    const promotion = (m >> 12) & 7;
    return squareName(from) + squareName(to) + (promotion !== 0 ? TYPE_CHARS[promotion] : '');
  }

  /**
   * The legal move written as `uci` here, or NO_MOVE (0) if there is none. Castling is accepted
   * both as king-takes-rook and as the king's destination square (`e1g1`); an ordinary king
   * move with the same text wins over the second form.
   */
  parseUci(uci: string): number {
    const n = this.generateMoves(this.scratch);
    for (let i = 0; i < n; i++) if (this.moveToUci(this.scratch[i]!, true) === uci) return this.scratch[i]!;
    for (let i = 0; i < n; i++) {
      const m = this.scratch[i]!;
      if (((m >> 15) & 3) === MOVE_CASTLE && this.moveToUci(m, false) === uci) return m;
    }
    return NO_MOVE;
  }

  // ---------------------------------------------------------------------------------------------
  // 7. Perft
  // ---------------------------------------------------------------------------------------------

  /** Number of leaf nodes of the legal move tree of `depth` plies (bulk-counted at depth 1). */
  perft(depth: number): number {
    if (depth <= 0) return 1;
    let list = this.perftLists[depth];
    if (list === undefined) list = this.perftLists[depth] = new Int32Array(256);
    const n = this.generateMoves(list);
    if (depth === 1) return n;
    let nodes = 0;
    for (let i = 0; i < n; i++) {
      this.makeMove(list[i]!);
      nodes += this.perft(depth - 1);
      this.unmakeMove();
    }
    return nodes;
  }

  /** Perft per root move, keyed by UCI (king-takes-rook castling), for debugging. */
  perftDivide(depth: number): Map<string, number> {
    const r = new Map<string, number>();
    for (const m of this.legalMoves()) {
      this.makeMove(m);
      r.set(this.moveToUci(m, true), this.perft(depth - 1));
      this.unmakeMove();
    }
    return r;
  }
}

/** Algebraic name of square `sq` (0..63), e.g. `e4`. */
export const squareName = (sq: number): string => 'abcdefgh'[sq & 7]! + String.fromCharCode(49 + (sq >> 3));
