/**
 * Position sync: the game as the server last told it. The first `gameFull` says which side is ours and
 * starts the line; every `gameState` (and a reconnect's fresh `gameFull`) carries the full move list, which
 * the line follows (`moves` is always the full list: the tail is applied, a shorter list is a takeback).
 * Also the clocks as the server keeps them (through the profile's clock: lichess's, or lishogi's byoyomi), our
 * clock charged for the time since the last state.
 */
import { KishiError, Result } from '../../../core/result.js';
import type { ClockState } from '../../../player/player.js';
import type { Color, GameFullEvent, GameStateEvent } from '../types.js';
import type { GameLine } from '../game-line.js';
import type { ClockInput } from '../server-profile.js';
import { lichessClockState } from '../server-profile.js';

/** Makes the line of a game from its variant key and initial position. */
export type LineFactory<L extends GameLine> = (variant: string, initialFen: string) => Result<L, KishiError>;

/** What one `gameState` changed. */
export interface Synced {
  /** Plies before and after. */
  readonly prev: number;
  readonly plies: number;
}

export const other = (c: Color): Color => (c === 'white' ? 'black' : 'white');

export class PositionSync<L extends GameLine> {
  full: GameFullEvent | undefined;
  line: L | undefined;
  ourColor: Color | undefined;
  state: GameStateEvent | undefined;
  /** When `state` arrived (Date.now()). */
  stateAt = 0;

  constructor(
    /** Our account id. */
    private readonly me: string,
    private readonly createLine: LineFactory<L>,
    /** The server's clock as the Player plans from (the profile's: lichess, or lishogi's byoyomi). */
    private readonly clock: (input: ClockInput) => ClockState = lichessClockState,
  ) {}

  /**
   * The first `gameFull`: our side and the line. Err with the reason to leave the game: not ours
   * (`ERR_NOT_OUR_GAME`), or a start position the rules refuse. A later `gameFull` (a reconnect) only
   * replaces the snapshot.
   */
  begin(full: GameFullEvent): Result<{ readonly first: boolean }, KishiError> {
    if (this.full !== undefined) {
      this.full = full;
      return Result.ok({ first: false });
    }
    const me = this.me.toLowerCase();
    const color: Color | undefined = full.white.id?.toLowerCase() === me ? 'white' : full.black.id?.toLowerCase() === me ? 'black' : undefined;
    if (color === undefined) return Result.err(new KishiError('ERR_NOT_OUR_GAME', `not our game (${full.white.name} vs ${full.black.name})`));
    const line = this.createLine(full.variant.key, full.initialFen);
    if (line.isErr) return Result.err(line.error);
    this.full = full;
    this.ourColor = color;
    this.line = line.value;
    return Result.ok({ first: true });
  }

  /** Follows a `gameState`'s full move list; Err when the server's moves cannot be followed. */
  apply(state: GameStateEvent): Result<Synced, KishiError> {
    const line = this.line;
    if (line === undefined) return Result.ok({ prev: 0, plies: 0 });
    const prev = line.plies();
    const moves = state.moves.trim() === '' ? [] : state.moves.trim().split(/\s+/);
    const synced = line.sync(moves);
    if (synced.isErr) return Result.err(synced.error);
    this.state = state;
    this.stateAt = Date.now();
    return Result.ok({ prev, plies: line.plies() });
  }

  /** Whether `moves` can be followed from the game's start (a ponder line: our move and the guess). */
  canFollow(moves: readonly string[]): boolean {
    const line = this.line;
    if (line === undefined) return false;
    const probe = this.createLine(line.variant, line.initialFen);
    return probe.isOk && probe.value.sync(moves).isOk;
  }

  /** The moves played, space-separated: the key of the position our searches are about. */
  key(): string {
    return this.line?.moves().join(' ') ?? '';
  }

  plies(): number {
    return this.line?.plies() ?? 0;
  }

  ourTurn(): boolean {
    return this.line !== undefined && this.ourColor !== undefined && this.line.turn() === this.ourColor;
  }

  /** The side that made ply `ply`. */
  moverAt(ply: number): Color {
    const first = this.line?.firstMover() ?? 'white';
    return ply % 2 === 0 ? first : other(first);
  }

  /** A correspondence game (no clock). */
  isCorrespondence(): boolean {
    return this.full !== undefined && this.full.clock === undefined;
  }

  /** The clocks now; ours has run since lichess sent the state (from our second ply on). */
  clockState(): ClockState | undefined {
    const st = this.state;
    const full = this.full;
    if (st === undefined || full?.clock === undefined || this.ourColor === undefined) return undefined;
    // The move overhead is the time plan's to keep back.
    const running = this.plies() >= 2;
    return this.clock({ state: st, full, ourColor: this.ourColor, elapsedMs: running ? Date.now() - this.stateAt : 0 });
  }

  /** Our time left now, ms; infinite in correspondence. */
  ourTimeMs(): number {
    const clock = this.clockState();
    return clock === undefined ? Number.POSITIVE_INFINITY : this.ourColor === 'white' ? clock.firstMs : clock.secondMs;
  }

  /** Our name and the opponent's (greetings, records). */
  names(me: string): { me: string; opponent: string } {
    const full = this.full;
    const opponent = full === undefined ? '' : this.ourColor === 'white' ? full.black.name : full.white.name;
    return { me, opponent };
  }

  /** The opponent, once the game is known. */
  opponent(): { readonly id: string; readonly name: string; readonly isBot: boolean } | undefined {
    const full = this.full;
    if (full === undefined || this.ourColor === undefined) return undefined;
    const p = this.ourColor === 'white' ? full.black : full.white;
    return { id: p.id?.toLowerCase() ?? '', name: p.name, isBot: p.title === 'BOT' || p.aiLevel !== undefined };
  }
}
