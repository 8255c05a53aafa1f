/**
 * The record of one match game: what the runner returns, what the PGN/CSA writers and the JSON
 * summary are made from.
 */
import type { GameKind, Side } from '../core/game.js';
import { OUTCOME_REASONS } from '../core/game.js';
import type { Score } from './adjudication.js';
import type { MatchVariant } from '../games/game-factory.js';
import type { Opening } from '../books/openings.js';
import type { TimeControl } from './time-control.js';

/** Every way a match game ends: by the rules (the adapters' reasons) or by the match. */
export const END_REASONS = [
  ...OUTCOME_REASONS,
  /** The engine answered `bestmove resign` (USI). */
  'resign',
  /** Both engines agreed the loser was lost (adjudication). */
  'adjudication-resign',
  /** Both engines agreed the game was drawn (adjudication). */
  'adjudication-draw',
  /** Ran past its time (the move came late, or it answered `stop` after the deadline). */
  'time-forfeit',
  /** Did not answer at all by the deadline and then not to `stop` either: killed. */
  'hang',
  /** The process ended (or the in-process player threw), or it did not answer `isready`. */
  'crash',
  /** A move that is not legal in the position, or no move. */
  'illegal-move',
  /** A `win` declaration (USI) when the entering-king rule does not allow it. */
  'illegal-declaration',
] as const;
export type EndReason = (typeof END_REASONS)[number];

/** Reasons that are a forfeit by one engine (logged with its last output). */
export const FORFEIT_REASONS: readonly EndReason[] = ['time-forfeit', 'hang', 'crash', 'illegal-move', 'illegal-declaration'];

export interface GameEnd {
  /** undefined: a draw. */
  readonly winner: Side | undefined;
  readonly reason: EndReason;
  /** One line for humans: `stockfish loses on time (1234 ms > 1100 ms)`. */
  readonly detail: string;
}

/** One engine move. */
export interface MoveRecord {
  /** UCI/USI text as the adapter writes it. */
  readonly move: string;
  /** Time the move took on the match's clock, ms. */
  readonly elapsedMs: number;
  /** Main time left on the mover's clock after the move (increment included), ms; absent without a clock. */
  readonly clockMs?: number;
  /** The mover's last reported score, from its own view. */
  readonly score?: Score;
  readonly depth?: number;
  readonly nodes?: number;
  /** The first few moves of its principal variation. */
  readonly pv?: readonly string[];
}

export interface ForfeitLog {
  readonly side: Side;
  readonly engine: string;
  /** The engine's last lines, oldest first (`+1.234s > go ...`). */
  readonly lines: readonly string[];
}

export interface GameRecord {
  /** 1-based game number in the match. */
  readonly id: number;
  /** 0-based game pair (the two games of an opening). */
  readonly pair: number;
  /** Round label for records (`pair.game`, e.g. `3.2`). */
  readonly round: string;
  readonly game: GameKind;
  readonly variant: MatchVariant;
  readonly opening: Opening;
  /** Engine names by side. */
  readonly players: Readonly<Record<Side, string>>;
  readonly timeControls: Readonly<Record<Side, TimeControl>>;
  /** Engine moves after the book moves. */
  readonly moves: readonly MoveRecord[];
  readonly end: GameEnd;
  /** ISO time the game started. */
  readonly startedAt: string;
  readonly durationMs: number;
  /** The final position, FEN/SFEN. */
  readonly finalPosition: string;
  readonly forfeit?: ForfeitLog;
}

/** The game's score for `side`: 1, 1/2 or 0. */
export function scoreFor(end: GameEnd, side: Side): 0 | 0.5 | 1 {
  if (end.winner === undefined) return 0.5;
  return end.winner === side ? 1 : 0;
}
