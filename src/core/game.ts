/**
 * Game-agnostic vocabulary shared by every engine and protocol: the `GameState` interface that the
 * chess adapter (over chessops) and the shogi adapter (over shogiops) implement.
 *
 * Sides are named by move order, not by colour, because the games disagree on colours:
 * in chess `first` is white; in shogi `first` is sente, which CSA and USI call black (`+`, `b`).
 */
import type { Result } from './result.js';
import type { KishiError } from './result.js';

export const GAME_KINDS = ['chess', 'shogi'] as const;
export type GameKind = (typeof GAME_KINDS)[number];

export const SIDES = ['first', 'second'] as const;
/** `first` moves first: chess white, shogi sente (black). */
export type Side = (typeof SIDES)[number];

export const otherSide = (side: Side): Side => (side === 'first' ? 'second' : 'first');

export const OUTCOME_REASONS = [
  'checkmate',
  'stalemate',
  'insufficient-material',
  'fifty-moves',
  'threefold-repetition',
  /** Shogi: the same position for the fourth time (draw). */
  'sennichite',
  /** Shogi: fourth repetition during continuous check; the checking side loses. */
  'perpetual-check',
  /** Shogi: a legal entering-king declaration (CSA 27-point rule) wins. */
  'entering-king',
  /** Shogi: the server's maximum number of moves was reached (draw). */
  'max-moves',
] as const;
export type OutcomeReason = (typeof OUTCOME_REASONS)[number];

/** How a game ended by the rules; `winner` is undefined for a draw. */
export interface Outcome {
  readonly winner: Side | undefined;
  readonly reason: OutcomeReason;
}

/**
 * A validated, mutable game position with its history (so repetition rules can be applied).
 * Mutation is explicit: `play` and `undo` mutate, `clone` branches (convention 6).
 * Moves are the adapter's own move type `M`; text I/O uses the engine protocols' notation
 * (UCI for chess, USI for shogi).
 */
export interface GameState<M> {
  /** Which game this is. */
  readonly kind: GameKind;
  /** The side to move. */
  turn(): Side;
  /** Number of plies played since the start position of this state. */
  plies(): number;
  /** Every legal move in the current position (empty when the game is over by mate or stalemate). */
  legalMoves(): M[];
  /** Whether `move` is legal in the current position. */
  isLegal(move: M): boolean;
  /** Plays a legal move (the caller checks legality; playing an illegal move is a bug). */
  play(move: M): void;
  /** Takes back the last move played; throws if there is none. */
  undo(): void;
  /** An independent copy with the same position and history. */
  clone(): GameState<M>;
  /** Whether the side to move is in check. */
  isCheck(): boolean;
  /** The outcome by the rules, or undefined while the game goes on. */
  outcome(): Outcome | undefined;
  /** Incremental Zobrist key of the position (board, side to move, castling/ep or hands). */
  key(): bigint;
  /** Zobrist key recomputed from scratch; equal to `key()` (tested), slower. */
  recomputeKey(): bigint;
  /** The position as FEN (chess) or SFEN (shogi). */
  toText(): string;
  /** A move in UCI (chess) or USI (shogi) notation. */
  moveToText(move: M): string;
  /** Parses a UCI/USI move and checks it is legal here. */
  parseMove(text: string): Result<M, KishiError>;
}
