/**
 * What the match runner needs from an engine, whatever it is: an external UCI/USI process
 * (engine-client.ts) or an in-process Kishi `Player` (player-engine.ts).
 *
 * `go` never rejects: every way a search can go wrong is a value, because each is a game result
 * (a crash, a hang or a time forfeit loses the game) and must be logged with the engine's last output.
 */
import type { KishiError, Result } from '../core/result.js';
import type { ClockState, SearchInfo } from '../player/player.js';
import type { Side } from '../core/game.js';

/** One search request: position and time, in protocol text. */
export interface EngineGoRequest {
  /** `startpos`, or the start position as FEN (chess) / SFEN (shogi). */
  readonly start: string;
  /** Moves since `start`, UCI/USI. */
  readonly moves: readonly string[];
  /** The clocks when the game has any. */
  readonly clock?: ClockState;
  /** Who is to move (USI: an engine on byoyomi is not sent the opponent's increments). */
  readonly toMove?: Side;
  readonly movetimeMs?: number;
  readonly nodes?: number;
  readonly depth?: number;
  /** Search until `stop` (`go infinite`). */
  readonly infinite?: boolean;
  /** USI `go mate`: a mate search, within `movetimeMs` when given. */
  readonly mate?: boolean;
  /** Think on the opponent's time (`go ponder ...`) until `ponderhit` or `stop`. */
  readonly ponder?: boolean;
  /**
   * How long the search may take before it is a loss on time (or a hang when there is no clock), ms;
   * undefined: no limit (only for tests; the runner always sets one).
   */
  readonly deadlineMs?: number;
}

/** The last search information before the move, score from the mover's view. */
export type EngineInfo = SearchInfo;

export type EngineReply =
  /** A move in time: UCI/USI text, or `resign` / `win` (USI) / `(none)` / `0000`. */
  | { readonly kind: 'move'; readonly move: string; readonly ponder?: string; readonly info?: EngineInfo; readonly elapsedMs: number }
  /**
   * No move by the deadline. `responsive`: it answered `stop` within the grace period (a plain loss on
   * time); otherwise it was killed (a hang).
   */
  | { readonly kind: 'timeout'; readonly elapsedMs: number; readonly responsive: boolean; readonly info?: EngineInfo }
  /** The engine died (process exit, or the in-process player threw). */
  | { readonly kind: 'crash'; readonly elapsedMs: number; readonly detail: string; readonly info?: EngineInfo };

export interface MatchEngine {
  /** The name for records (`name=` of the spec, else the engine's `id name`). */
  readonly name: string;
  /** False after a crash or a kill: the runner starts a new instance before the next game. */
  alive(): boolean;
  /** Prepares a new game (`ucinewgame`/`usinewgame` + `isready`); Err when the engine does not answer. */
  newGame(): Promise<Result<void, KishiError>>;
  /** Searches; never rejects. */
  go(request: EngineGoRequest): Promise<EngineReply>;
  /** Tells a USI engine the result (`gameover win|lose|draw`); a no-op for UCI. */
  gameOver(result: 'win' | 'lose' | 'draw'): void;
  /** Recent traffic, oldest first, for forfeit logs. */
  lastLines(): string[];
  /** Quits politely (`quit`), then kills after a short wait. */
  close(): Promise<void>;
}
