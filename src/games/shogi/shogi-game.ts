/**
 * The shogi adapter: `GameState<MoveOrDrop>` over shogiops' `Shogi` position.
 *
 * shogiops supplies move generation and legality (including forced promotion, nifu and
 * uchifuzume, which live in its `moveDests`/`dropDests`); this class adds make/undo without
 * cloning, incremental Zobrist keys, the history needed for sennichite, the CSA maximum-moves
 * draw, the entering-king declaration, and SFEN/USI/CSA text I/O with `Result` errors.
 *
 * Moves are shogiops' `MoveOrDrop`: `{ from, to, promotion }` or `{ role, to }` with squares
 * numbered `(file - 1) + 16 * (rank - 1)` (see pieces.ts).
 */
import { Result } from '../../core/result.js';
import { KishiError } from '../../core/result.js';
import type { GameState, Outcome, Side } from '../../core/game.js';
import type { Color, MoveOrDrop, NormalMove, Piece, Role } from 'shogiops/types';
import type { Shogi } from 'shogiops/variant/shogi';
import { makeCsaMove, parseCsaMoveSyntax, resolveCsaMove } from './csa-move.js';
import { canDeclare, declarationStatus } from './entering-king.js';
import type { DeclarationStatus } from './entering-king.js';
import {
  HAND_ROLES,
  canPromote,
  isDeadSquare,
  isHandRole,
  isOnBoard,
  isPromotable,
  opposite,
  promoteRole,
  unpromoteRole,
} from './pieces.js';
import { STARTPOS_SFEN, makeShogiSfen, parseShogiSfen } from './sfen.js';
import { makeUsiMove, parseUsiMove, usiSquare } from './usi.js';
import {
  HAND_HI,
  HAND_LO,
  PIECE_HI,
  PIECE_LO,
  SIDE_HI,
  SIDE_LO,
  computeKey,
  handKeyIndex,
  pieceKeyIndex,
  toBigKey,
} from './zobrist.js';

export type { MoveOrDrop } from 'shogiops/types';

export interface ShogiGameOptions {
  /**
   * The server's Max_Moves (floodgate 256, later 512): once the game's move count (SFEN move
   * number - 1) reaches it, the game is a draw, the limit-reaching move itself being played
   * (shogi-server sends `#MAX_MOVES` after echoing it). 0 or absent: no limit.
   */
  readonly maxMoves?: number;
}

interface UndoRecord {
  readonly move: MoveOrDrop;
  /** The moving piece's role before the move (the dropped role for a drop). */
  readonly role: Role;
  readonly captured: Piece | undefined;
  readonly lastMoveOrDrop: Shogi['lastMoveOrDrop'];
}

const sideOf = (color: Color): Side => (color === 'sente' ? 'first' : 'second');
const colorOf = (side: Side): Color => (side === 'first' ? 'sente' : 'gote');

const illegalMove = (text: string, sfen: string, reason: string): Result<never, KishiError> =>
  Result.err(new KishiError('ERR_ILLEGAL_MOVE', `illegal move "${text}" in ${sfen}: ${reason}`));

export class ShogiGame implements GameState<MoveOrDrop> {
  readonly kind = 'shogi' as const;
  /** Max_Moves in force (0 = none). */
  readonly maxMoves: number;

  private readonly pos: Shogi;
  private readonly startSfen: string;
  private readonly startColor: Color;
  private readonly stack: UndoRecord[];
  /** Key halves of every position since the start, index = ply; the last entry is the current key. */
  private readonly keysHi: number[];
  private readonly keysLo: number[];
  /** Whether the side to move was in check, per position (same indexing). */
  private readonly checks: boolean[];

  private constructor(
    pos: Shogi,
    startSfen: string,
    startColor: Color,
    maxMoves: number,
    stack: UndoRecord[],
    keysHi: number[],
    keysLo: number[],
    checks: boolean[],
  ) {
    this.pos = pos;
    this.startSfen = startSfen;
    this.startColor = startColor;
    this.maxMoves = maxMoves;
    this.stack = stack;
    this.keysHi = keysHi;
    this.keysLo = keysLo;
    this.checks = checks;
  }

  private static fromPosition(pos: Shogi, options: ShogiGameOptions): ShogiGame {
    const [hi, lo] = computeKey(pos.board, pos.hands, pos.turn);
    const maxMoves = options.maxMoves !== undefined && options.maxMoves > 0 ? Math.floor(options.maxMoves) : 0;
    return new ShogiGame(pos, makeShogiSfen(pos), pos.turn, maxMoves, [], [hi], [lo], [pos.isCheck()]);
  }

  /** A game from SFEN text or `startpos`; Err(ERR_SFEN) naming the text when it is malformed or illegal. */
  static fromSfen(text: string, options: ShogiGameOptions = {}): Result<ShogiGame, KishiError> {
    return parseShogiSfen(text).map((pos) => ShogiGame.fromPosition(pos, options));
  }

  /** The standard start position. */
  static startpos(options: ShogiGameOptions = {}): ShogiGame {
    return ShogiGame.fromSfen(STARTPOS_SFEN, options).unwrap();
  }

  // ---- GameState -------------------------------------------------------------------------------

  turn(): Side {
    return sideOf(this.pos.turn);
  }

  plies(): number {
    return this.stack.length;
  }

  /** Moves played in the whole game: SFEN move number - 1 (what Max_Moves counts). */
  moveCount(): number {
    return this.pos.moveNumber - 1;
  }

  /**
   * Every legal move: board moves (a promotable move into, out of or inside the enemy camp appears
   * with `promotion: true`, and also with `false` unless promotion is forced), then drops in hand
   * order R B G S N L P. Not empty after sennichite or max-moves: check `outcome()`.
   */
  legalMoves(): MoveOrDrop[] {
    const pos = this.pos;
    const ctx = pos.ctx();
    const color = ctx.color;
    const out: MoveOrDrop[] = [];
    for (const from of pos.board.color(color)) {
      const dests = pos.moveDests(from, ctx);
      if (dests.isEmpty()) continue;
      const piece = pos.board.get(from)!;
      const promotable = isPromotable(piece.role);
      for (const to of dests) {
        if (promotable && canPromote(piece, from, to)) {
          out.push({ from, to, promotion: true });
          if (!isDeadSquare(piece.role, color, to)) out.push({ from, to, promotion: false });
        } else out.push({ from, to, promotion: false });
      }
    }
    const hand = pos.hands.color(color);
    for (const role of HAND_ROLES) {
      if (hand.get(role) === 0) continue;
      for (const to of pos.dropDests({ role, color }, ctx)) out.push({ role, to });
    }
    return out;
  }

  /** The number of legal moves, without building them (perft's bulk count). */
  countLegalMoves(): number {
    const pos = this.pos;
    const ctx = pos.ctx();
    const color = ctx.color;
    let n = 0;
    for (const from of pos.board.color(color)) {
      const dests = pos.moveDests(from, ctx);
      if (dests.isEmpty()) continue;
      const piece = pos.board.get(from)!;
      if (!isPromotable(piece.role)) {
        n += dests.size();
        continue;
      }
      for (const to of dests) {
        if (!canPromote(piece, from, to)) n += 1;
        else n += isDeadSquare(piece.role, color, to) ? 1 : 2;
      }
    }
    const hand = pos.hands.color(color);
    for (const role of HAND_ROLES) {
      if (hand.get(role) > 0) n += pos.dropDests({ role, color }, ctx).size();
    }
    return n;
  }

  isLegal(move: MoveOrDrop): boolean {
    if (!isWellFormed(move)) return false;
    return this.pos.isLegal(move);
  }

  play(move: MoveOrDrop): void {
    const pos = this.pos;
    const color = pos.turn;
    let hi = this.keysHi[this.keysHi.length - 1]!;
    let lo = this.keysLo[this.keysLo.length - 1]!;
    let record: UndoRecord;
    if ('role' in move) {
      const role = move.role;
      const hand = pos.hands.color(color);
      const n = hand.get(role);
      hand.set(role, n - 1);
      let i = handKeyIndex(color, role, n);
      hi ^= HAND_HI[i]!;
      lo ^= HAND_LO[i]!;
      i = handKeyIndex(color, role, n - 1);
      hi ^= HAND_HI[i]!;
      lo ^= HAND_LO[i]!;
      pos.board.set(move.to, { role, color });
      i = pieceKeyIndex(color, role, move.to);
      hi ^= PIECE_HI[i]!;
      lo ^= PIECE_LO[i]!;
      record = { move, role, captured: undefined, lastMoveOrDrop: pos.lastMoveOrDrop };
    } else {
      const piece = pos.board.take(move.from);
      if (piece === undefined) throw new Error(`ShogiGame.play: no piece on ${usiSquare(move.from)}`);
      const role = piece.role;
      let i = pieceKeyIndex(color, role, move.from);
      hi ^= PIECE_HI[i]!;
      lo ^= PIECE_LO[i]!;
      const promote =
        (move.promotion === true && canPromote(piece, move.from, move.to)) || isDeadSquare(role, color, move.to);
      const newRole = promote ? (promoteRole(role) ?? role) : role;
      const captured = pos.board.set(move.to, { role: newRole, color });
      i = pieceKeyIndex(color, newRole, move.to);
      hi ^= PIECE_HI[i]!;
      lo ^= PIECE_LO[i]!;
      if (captured !== undefined) {
        i = pieceKeyIndex(captured.color, captured.role, move.to);
        hi ^= PIECE_HI[i]!;
        lo ^= PIECE_LO[i]!;
        const handRole = unpromoteRole(captured.role);
        const hand = pos.hands.color(color);
        const n = hand.get(handRole);
        hand.set(handRole, n + 1);
        i = handKeyIndex(color, handRole, n);
        hi ^= HAND_HI[i]!;
        lo ^= HAND_LO[i]!;
        i = handKeyIndex(color, handRole, n + 1);
        hi ^= HAND_HI[i]!;
        lo ^= HAND_LO[i]!;
      }
      record = { move, role, captured, lastMoveOrDrop: pos.lastMoveOrDrop };
    }
    pos.turn = opposite(color);
    pos.moveNumber += 1;
    pos.lastMoveOrDrop = move;
    hi ^= SIDE_HI;
    lo ^= SIDE_LO;
    this.stack.push(record);
    this.keysHi.push(hi);
    this.keysLo.push(lo);
    this.checks.push(pos.isCheck());
  }

  undo(): void {
    const record = this.stack.pop();
    if (record === undefined) throw new Error('ShogiGame.undo: no move to take back');
    const pos = this.pos;
    const color = opposite(pos.turn);
    const move = record.move;
    pos.board.take(move.to);
    if ('role' in move) {
      const hand = pos.hands.color(color);
      hand.set(record.role, hand.get(record.role) + 1);
    } else {
      pos.board.set(move.from, { role: record.role, color });
      if (record.captured !== undefined) {
        pos.board.set(move.to, record.captured);
        const handRole = unpromoteRole(record.captured.role);
        const hand = pos.hands.color(color);
        hand.set(handRole, hand.get(handRole) - 1);
      }
    }
    pos.turn = color;
    pos.moveNumber -= 1;
    pos.lastMoveOrDrop = record.lastMoveOrDrop;
    this.keysHi.pop();
    this.keysLo.pop();
    this.checks.pop();
  }

  clone(): ShogiGame {
    return new ShogiGame(
      this.pos.clone(),
      this.startSfen,
      this.startColor,
      this.maxMoves,
      this.stack.slice(),
      this.keysHi.slice(),
      this.keysLo.slice(),
      this.checks.slice(),
    );
  }

  isCheck(): boolean {
    return this.checks[this.checks.length - 1]!;
  }

  /**
   * The outcome by the rules, in shogi-server's order of precedence:
   * 1. fourth occurrence of the position (board, hands, side to move): `perpetual-check` loss for a
   *    side that gave check with every one of its moves from the first occurrence to the fourth,
   *    otherwise a `sennichite` draw (also when both sides checked throughout);
   * 2. Max_Moves reached: `max-moves` draw (even if the last move mated: the server stops first);
   * 3. no legal move: loss for the side to move, `checkmate` when in check, `stalemate` otherwise
   *    (in shogi a side without moves loses either way).
   */
  outcome(): Outcome | undefined {
    const rep = this.repetitionOutcome();
    if (rep !== undefined) return rep;
    if (this.maxMoves > 0 && this.moveCount() >= this.maxMoves) return { winner: undefined, reason: 'max-moves' };
    if (!this.pos.hasDests()) {
      return { winner: sideOf(opposite(this.pos.turn)), reason: this.isCheck() ? 'checkmate' : 'stalemate' };
    }
    return undefined;
  }

  /** How many times the current position has occurred since the start of this state (1 = first). */
  repetitions(): number {
    const n = this.stack.length;
    const hi = this.keysHi[n]!;
    const lo = this.keysLo[n]!;
    let count = 1;
    for (let i = n - 2; i >= 0; i -= 2) if (this.keysHi[i] === hi && this.keysLo[i] === lo) count++;
    return count;
  }

  private repetitionOutcome(): Outcome | undefined {
    const n = this.stack.length;
    const hi = this.keysHi[n]!;
    const lo = this.keysLo[n]!;
    let count = 1;
    let first = n;
    for (let i = n - 2; i >= 0 && count < 4; i -= 2) {
      if (this.keysHi[i] === hi && this.keysLo[i] === lo) {
        count++;
        first = i;
      }
    }
    if (count < 4) return undefined;
    // Moves first..n-1; move i is made by the side to move in position i and gives check
    // when the side to move in position i + 1 is in check.
    const allChecks: Record<Color, boolean> = { sente: true, gote: true };
    for (let i = first; i < n; i++) {
      const mover: Color = (i % 2 === 0) === (this.startColor === 'sente') ? 'sente' : 'gote';
      if (!this.checks[i + 1]) allChecks[mover] = false;
    }
    if (allChecks.sente !== allChecks.gote) {
      const checker: Color = allChecks.sente ? 'sente' : 'gote';
      return { winner: sideOf(opposite(checker)), reason: 'perpetual-check' };
    }
    return { winner: undefined, reason: 'sennichite' };
  }

  key(): bigint {
    return toBigKey(this.keysHi[this.keysHi.length - 1]!, this.keysLo[this.keysLo.length - 1]!);
  }

  recomputeKey(): bigint {
    const [hi, lo] = computeKey(this.pos.board, this.pos.hands, this.pos.turn);
    return toBigKey(hi, lo);
  }

  /** The current position as SFEN. */
  toText(): string {
    return makeShogiSfen(this.pos);
  }

  /** The position this state started from, as SFEN (for `position sfen <start> moves ...`). */
  startText(): string {
    return this.startSfen;
  }

  /** The moves played since the start position, oldest first. */
  moves(): MoveOrDrop[] {
    return this.stack.map((r) => r.move);
  }

  moveToText(move: MoveOrDrop): string {
    return makeUsiMove(move);
  }

  /** Parses a USI move (`7g7f`, `8h2b+`, `B*3d`) and checks that it is legal here. */
  parseMove(text: string): Result<MoveOrDrop, KishiError> {
    const md = parseUsiMove(text);
    if (md === undefined) {
      return Result.err(
        new KishiError('ERR_USI_MOVE', `malformed USI move "${text}": expected e.g. 7g7f, 8h2b+ or B*3d`),
      );
    }
    if (!this.pos.isLegal(md)) return illegalMove(text, this.toText(), this.whyIllegal(md));
    return Result.ok(md);
  }

  /** CSA text of a move from this position, e.g. `+7776FU`, `-0034KA`, `+8822UM`. */
  moveToCsa(move: MoveOrDrop): string {
    return makeCsaMove(this.pos, move);
  }

  /**
   * Parses a CSA move (`+7776FU`, `-0034KA`, `+8822UM`; a trailing `,T<seconds>` as echoed by the
   * server is accepted and ignored) and checks it is legal here.
   */
  parseCsaMove(text: string): Result<MoveOrDrop, KishiError> {
    const syn = parseCsaMoveSyntax(text);
    if (typeof syn === 'string') return Result.err(new KishiError('ERR_CSA_MOVE', `malformed CSA move "${text}": ${syn}`));
    const md = resolveCsaMove(this.pos, syn);
    if (typeof md === 'string') return illegalMove(text, this.toText(), md);
    if (!this.pos.isLegal(md)) return illegalMove(text, this.toText(), this.whyIllegal(md));
    return Result.ok(md);
  }

  /** USI text -> CSA text, through this position. */
  usiToCsa(text: string): Result<string, KishiError> {
    return this.parseMove(text).map((md) => this.moveToCsa(md));
  }

  /** CSA text -> USI text, through this position. */
  csaToUsi(text: string): Result<string, KishiError> {
    return this.parseCsaMove(text).map((md) => this.moveToText(md));
  }

  // ---- entering-king declaration ----------------------------------------------------------------

  /** Whether the side to move may declare a win by the CSA 27-point rule now (time aside). */
  canDeclareWin(): boolean {
    return canDeclare(this.pos);
  }

  /** Declaration points of `side`: its pieces in the enemy camp plus all in hand, king excluded. */
  declarationPoints(side: Side): number {
    return declarationStatus(this.pos, colorOf(side)).points;
  }

  /** Everything the declaration rule looks at for `side`. */
  declarationStatus(side: Side): DeclarationStatus {
    return declarationStatus(this.pos, colorOf(side));
  }

  // ---- diagnostics --------------------------------------------------------------------------------

  /** A human reason why a well-formed move is illegal here. */
  private whyIllegal(md: MoveOrDrop): string {
    const pos = this.pos;
    const color = pos.turn;
    if ('role' in md) {
      if (pos.hands.color(color).get(md.role) === 0) return `${color} has no ${md.role} in hand`;
      if (pos.board.has(md.to)) return `${usiSquare(md.to)} is occupied`;
      if (isDeadSquare(md.role, color, md.to)) return `a ${md.role} dropped on ${usiSquare(md.to)} could never move`;
      if (md.role === 'pawn') {
        for (const sq of pos.board.pieces(color, 'pawn')) {
          if ((sq & 15) === (md.to & 15)) return `two pawns on file ${(md.to & 15) + 1} (nifu)`;
        }
        if (!pos.illegalDropDests({ role: 'pawn', color }).has(md.to)) return 'a pawn drop may not checkmate (uchifuzume)';
      }
      return pos.isCheck() ? 'the drop does not answer the check' : 'illegal drop';
    }
    const piece = pos.board.get(md.from);
    if (piece === undefined) return `no piece on ${usiSquare(md.from)}`;
    if (piece.color !== color) return `the piece on ${usiSquare(md.from)} belongs to the opponent`;
    if (md.promotion === true && !canPromote(piece, md.from, md.to)) return `the ${piece.role} cannot promote on this move`;
    if (md.promotion !== true && isDeadSquare(piece.role, color, md.to)) return `the ${piece.role} must promote on ${usiSquare(md.to)}`;
    if (!pos.illegalMoveDests(md.from).has(md.to)) return `the ${piece.role} on ${usiSquare(md.from)} cannot reach ${usiSquare(md.to)}`;
    return 'it leaves the king in check';
  }
}

/** Whether a value has the exact shape of a standard-shogi move (squares on the 9x9 board, known roles). */
function isWellFormed(md: MoveOrDrop): boolean {
  if (typeof md !== 'object' || md === null) return false;
  if ('role' in md) return isHandRole(md.role) && isOnBoard(md.to) && !('from' in md);
  const m = md as NormalMove;
  return (
    isOnBoard(m.from) &&
    isOnBoard(m.to) &&
    m.from !== m.to &&
    m.midStep === undefined &&
    (m.promotion === undefined || typeof m.promotion === 'boolean')
  );
}
