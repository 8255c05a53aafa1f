/**
 * The moves of one lichess game replayed over chessops: the full move list of every `gameState` either
 * extends what we have (apply the tail) or replaces it (a takeback: rebuild from the start). Gives the side
 * to move, FEN before each ply, SAN for the PGN, and the piece count for draw offers. Uses chessops
 * directly behind this small class so that the game adapter (`src/games/chess/`) can replace it later.
 * Pure: no I/O.
 */
import { Result } from '../../core/result.js';
import { KishiError } from '../../core/result.js';
import type { Position } from 'chessops/chess';
import { normalizeMove } from 'chessops/chess';
import { lichessRules } from 'chessops/compat';
import { INITIAL_FEN, makeFen, parseFen } from 'chessops/fen';
import { makeSan } from 'chessops/san';
import { makeUci, parseUci } from 'chessops/util';
import { setupPosition } from 'chessops/variant';
import type { Color, VariantKey } from './types.js';
import { isChessVariantKey } from './types.js';
import type { GameLine } from './game-line.js';

export class ChessLine implements GameLine {
  private pos: Position;
  private readonly played: string[] = [];
  private readonly sanList: string[] = [];
  private readonly fens: string[] = [];

  private constructor(
    readonly variant: VariantKey,
    /** `startpos` or a FEN, as lichess gives it. */
    readonly initialFen: string,
    private readonly start: Position,
  ) {
    this.pos = start.clone();
    this.fens.push(makeFen(this.pos.toSetup()));
  }

  static create(variantKey: string, initialFen: string): Result<ChessLine, KishiError> {
    if (!isChessVariantKey(variantKey)) return Result.err(new KishiError('ERR_VARIANT', `not a chess variant: ${JSON.stringify(variantKey)}`));
    const variant: VariantKey = variantKey;
    const fen = initialFen === 'startpos' || initialFen === '' ? INITIAL_FEN : initialFen;
    const setup = parseFen(fen);
    if (setup.isErr) return Result.err(new KishiError('ERR_FEN', `bad initial FEN ${JSON.stringify(fen)}: ${setup.error.message}`));
    const rules = lichessRules(variant);
    const pos = setupPosition(rules, setup.value);
    if (pos.isErr) return Result.err(new KishiError('ERR_FEN', `illegal initial position ${JSON.stringify(fen)}: ${pos.error.message}`));
    return Result.ok(new ChessLine(variant, initialFen, pos.value));
  }

  /** Brings the line to exactly `moves` (the full list since the start). */
  sync(moves: readonly string[]): Result<void, KishiError> {
    const isExtension = moves.length >= this.played.length && this.played.every((m, i) => m === moves[i]);
    if (!isExtension) this.rebuild();
    for (let i = this.played.length; i < moves.length; i++) {
      const r = this.play(moves[i] ?? '');
      if (r.isErr) return r;
    }
    return Result.ok(undefined);
  }

  /** Plays one UCI move (either castling form). */
  play(uci: string): Result<void, KishiError> {
    const parsed = this.parse(uci);
    if (parsed.isErr) return Result.err(parsed.error);
    const move = parsed.value;
    this.sanList.push(makeSan(this.pos, move));
    this.pos.play(move);
    this.played.push(uci);
    this.fens.push(makeFen(this.pos.toSetup()));
    return Result.ok(undefined);
  }

  /** Whether `uci` is legal in the current position. */
  isLegal(uci: string): boolean {
    return this.parse(uci).isOk;
  }

  /** The side to move. */
  turn(): Color {
    return this.pos.turn;
  }

  /** The side that moved first from the initial position (black when a FEN says `b`). */
  firstMover(): Color {
    return this.start.turn;
  }

  plies(): number {
    return this.played.length;
  }

  moves(): readonly string[] {
    return this.played;
  }

  sans(): readonly string[] {
    return this.sanList;
  }

  /** FEN before ply `ply` (0 = the initial position, `plies()` = now). */
  fenAt(ply: number): string {
    const fen = this.fens[ply];
    if (fen === undefined) throw new Error(`fenAt(${ply}) outside 0..${this.played.length}`);
    return fen;
  }

  fen(): string {
    return this.fenAt(this.played.length);
  }

  /** The current position, read-only (book and tablebase look-ups). */
  position(): Readonly<Position> {
    return this.pos;
  }

  /** Pieces on the board, both sides, kings included. */
  pieceCount(): number {
    return this.pos.board.occupied.size();
  }

  /** Full-move number of the initial position. */
  startFullmoves(): number {
    return this.start.fullmoves;
  }

  /** Whether the game is over on the board (mate, stalemate, variant end): for logs only, lichess decides. */
  isEnd(): boolean {
    return this.pos.isEnd();
  }

  /** Every legal move in UCI, king-to-rook castling normalised to chessops' form. */
  legalMoves(): string[] {
    const out: string[] = [];
    for (const [from, dests] of this.pos.allDests()) {
      for (const to of dests) {
        const piece = this.pos.board.get(from);
        const rank = Math.floor(to / 8);
        if (piece?.role === 'pawn' && (rank === 0 || rank === 7)) {
          for (const p of ['q', 'r', 'b', 'n'] as const) out.push(makeUci({ from, to, promotion: roleOf(p) }));
          if (this.variant === 'antichess') out.push(makeUci({ from, to, promotion: 'king' }));
        } else out.push(makeUci({ from, to }));
      }
    }
    return out;
  }

  private parse(uci: string): Result<ReturnType<typeof normalizeMove>, KishiError> {
    const move = parseUci(uci);
    if (move === undefined) return Result.err(new KishiError('ERR_UCI', `not a UCI move: ${JSON.stringify(uci)}`));
    const normal = normalizeMove(this.pos, move);
    if (!this.pos.isLegal(normal)) {
      return Result.err(new KishiError('ERR_ILLEGAL_MOVE', `illegal move ${JSON.stringify(uci)} in ${makeFen(this.pos.toSetup())}`));
    }
    return Result.ok(normal);
  }

  private rebuild(): void {
    this.pos = this.start.clone();
    this.played.length = 0;
    this.sanList.length = 0;
    this.fens.length = 0;
    this.fens.push(makeFen(this.pos.toSetup()));
  }
}

const roleOf = (c: 'q' | 'r' | 'b' | 'n'): 'queen' | 'rook' | 'bishop' | 'knight' =>
  c === 'q' ? 'queen' : c === 'r' ? 'rook' : c === 'b' ? 'bishop' : 'knight';
