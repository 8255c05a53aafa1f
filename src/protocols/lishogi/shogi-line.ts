/**
 * The moves of one lishogi game replayed over the shogi adapter (src/games/shogi, shogiops underneath):
 * the full USI move list of every `gameState` either extends what we have (apply the tail) or replaces it
 * (a takeback: rebuild from the start). Gives the side to move, the SFEN before each ply, and the rules'
 * verdict (mate, perpetual check, sennichite) for logs; lishogi decides how the game ends.
 * Standard shogi only: lishogi's other variants (minishogi, chushogi, annanshogi, kyotoshogi, checkshogi)
 * are refused with a clear error (the challenge filter declines them before a game starts).
 * Pure: no I/O.
 */
import type { Outcome } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import { STARTPOS_SFEN } from '../../games/shogi/sfen.js';
import { ShogiGame } from '../../games/shogi/shogi-game.js';
import type { GameLine } from '../lichess/game-line.js';
import type { Color } from '../lichess/types.js';

const colorOf = (side: 'first' | 'second'): Color => (side === 'first' ? 'white' : 'black');

export class ShogiLine implements GameLine {
  private game: ShogiGame;
  private readonly played: string[] = [];
  private readonly sfens: string[] = [];

  /** Kishi plays standard shogi only. */
  readonly variant = 'standard';

  private constructor(
    /** `startpos` or an SFEN, as lishogi gives it (GameLine calls it `initialFen`). */
    readonly initialFen: string,
    private readonly start: ShogiGame,
  ) {
    this.game = start.clone();
    this.sfens.push(this.game.toText());
  }

  static create(variantKey: string, initialSfen: string): Result<ShogiLine, KishiError> {
    if (variantKey !== 'standard') return Result.err(new KishiError('ERR_VARIANT', `Kishi plays standard shogi only, not ${JSON.stringify(variantKey)}`));
    const sfen = initialSfen === 'startpos' || initialSfen === '' ? STARTPOS_SFEN : initialSfen;
    const start = ShogiGame.fromSfen(sfen);
    if (start.isErr) return Result.err(new KishiError('ERR_SFEN', `bad initial SFEN ${JSON.stringify(sfen)}: ${start.error.message}`));
    return Result.ok(new ShogiLine(initialSfen, start.value));
  }

  sync(moves: readonly string[]): Result<void, KishiError> {
    const isExtension = moves.length >= this.played.length && this.played.every((m, i) => m === moves[i]);
    if (!isExtension) this.rebuild();
    for (let i = this.played.length; i < moves.length; i++) {
      const r = this.play(moves[i] ?? '');
      if (r.isErr) return r;
    }
    return Result.ok(undefined);
  }

  play(usi: string): Result<void, KishiError> {
    const md = this.game.parseMove(usi);
    if (md.isErr) return Result.err(md.error);
    this.game.play(md.value);
    this.played.push(usi);
    this.sfens.push(this.game.toText());
    return Result.ok(undefined);
  }

  isLegal(usi: string): boolean {
    return this.game.parseMove(usi).isOk;
  }

  turn(): Color {
    return colorOf(this.game.turn());
  }

  firstMover(): Color {
    return colorOf(this.start.turn());
  }

  plies(): number {
    return this.played.length;
  }

  moves(): readonly string[] {
    return this.played;
  }

  fenAt(ply: number): string {
    const sfen = this.sfens[ply];
    if (sfen === undefined) throw new Error(`fenAt(${ply}) outside 0..${this.played.length}`);
    return sfen;
  }

  fen(): string {
    return this.fenAt(this.played.length);
  }

  /** Pieces on the board (captured pieces go to a hand, so this falls as the game goes on). */
  pieceCount(): number {
    const board = this.fen().split(' ')[0] ?? '';
    return board.replace(/[^A-Za-z]/g, '').length;
  }

  legalMoves(): string[] {
    return this.game.legalMoves().map((m) => this.game.moveToText(m));
  }

  /** The outcome by the rules (mate, stalemate, perpetual check, sennichite), or undefined. */
  outcome(): Outcome | undefined {
    return this.game.outcome();
  }

  isEnd(): boolean {
    return this.outcome() !== undefined;
  }

  private rebuild(): void {
    this.game = this.start.clone();
    this.played.length = 0;
    this.sfens.length = 0;
    this.sfens.push(this.game.toText());
  }
}
