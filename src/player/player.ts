/**
 * The Player API: the only thing front-ends (lichess, CSA, UCI/USI, `kishi match`) call to get a move.
 * Requests and answers are plain data in text notation so that they cross worker-thread boundaries
 * unchanged: searches run in `worker_threads`, never on the thread that reads network streams.
 */
import type { ClockState } from '../core/clock.js';
import type { GameKind } from '../core/game.js';
import type { TimeBudget } from '../search/time.js';

/** Re-exported: the Player API's requests carry the clock. */
export type { ClockState };

/** Hard limits for one search; any combination, the first one reached stops the search. */
export interface SearchLimits {
  readonly depth?: number;
  readonly nodes?: number;
  readonly movetimeMs?: number;
  /** Search until `stop` (UCI `go infinite`, pondering). */
  readonly infinite?: boolean;
  /** USI `go mate`: look for a forced mate for the side to move. */
  readonly mate?: boolean;
}

/** One request for a move. */
export interface GoRequest {
  readonly game: GameKind;
  /** Chess variant key as lichess names it (`standard`, `chess960`, `fromPosition`); `standard` for shogi. */
  readonly variant: string;
  /** Start position as FEN/SFEN, or `startpos`. */
  readonly start: string;
  /** Moves played since `start`, in UCI (chess) or USI (shogi). */
  readonly moves: readonly string[];
  /** The clock, when the game has one; without `budget` the player plans its own time from it. */
  readonly clock?: ClockState;
  /**
   * The time plan of this move, made by the caller (the bot's Thinker, src/bot/thinker/): the player
   * searches to these soft and hard limits instead of planning from `clock`, so one plan holds per move.
   * Ignored under `limits` and while pondering; external engines never see it (they get `clock`).
   */
  readonly budget?: TimeBudget;
  /**
   * When the move's clock started for us (`Date.now()`, ms since the epoch): the front-end stamps it as
   * the request arrives (a UCI/USI `go`, our turn in the Thinker), `WorkerPlayer.go` otherwise. The
   * player takes the time the request spent reaching its search (queues, the thread hand-off, the board
   * set-up: tens of ms on a loaded machine) off its time limits, so that it answers within the clock
   * as the server or GUI measures it.
   */
  readonly sentAt?: number;
  /** Hard limits; override time planning when present. */
  readonly limits?: SearchLimits;
  /** Think on the opponent's time from this position (the move after `moves` is the guess). */
  readonly ponder?: boolean;
  /** Principal variations to report (UCI/USI MultiPV, alpha-beta only); 1 when absent. */
  readonly multiPv?: number;
}

/** Search progress, as UCI/USI `info` lines report it. */
export interface SearchInfo {
  readonly depth: number;
  readonly seldepth?: number;
  /** Centipawns from the side to move's view, or a mate distance in plies (positive: we mate). */
  readonly score: { readonly cp: number } | { readonly mate: number };
  readonly nodes: number;
  readonly nps: number;
  readonly timeMs: number;
  readonly pv: readonly string[];
  readonly hashfull?: number;
  /** Rank of the line (1 = best) when several are reported (MultiPV). */
  readonly multipv?: number;
  /** Free text for the protocol's `string` field (e.g. what TD search learned before this search). */
  readonly string?: string;
}

/** The answer to a `GoRequest`. */
export interface GoResult {
  /**
   * The move in UCI/USI, or `resign` (no legal move), or `win` (shogi entering-king declaration);
   * for a mate search (`limits.mate`) the first move of the mate (the whole line in `info.pv`),
   * or `nomate` / `timeout`.
   */
  readonly move: string;
  /** The move the player expects in reply (for pondering), when it has one. */
  readonly ponder?: string;
  /** The last `info` of the search, when it searched. */
  readonly info?: SearchInfo;
  /** The position (FEN/SFEN) at the end of the principal variation, for TD-Leaf logs. */
  readonly pvLeaf?: string;
}

/**
 * A Player turns a position and a clock into a move. Implementations: the alpha-beta engine and the
 * MCTS engine, each in a worker thread, and `auto`, which picks between them.
 */
export interface Player {
  /** Human-readable engine name and version, for UCI `id name` and greetings. */
  readonly name: string;
  /** Which games this player can play. */
  supports(game: GameKind, variant: string): boolean;
  /** Starts a search and resolves with the chosen move; `onInfo` receives progress. Must not block. */
  go(request: GoRequest, onInfo?: (info: SearchInfo) => void): Promise<GoResult>;
  /** Ends the current search as soon as possible (within 50 ms); the pending `go` resolves with the best move so far. */
  stop(): void;
  /** The opponent played the pondered move: keep searching, now on our own clock. */
  ponderhit(): void;
  /** Forget game-specific state (hash tables, trees) before a new game. */
  newGame(): Promise<void>;
  /** Releases threads and sessions. */
  close(): Promise<void>;
}
