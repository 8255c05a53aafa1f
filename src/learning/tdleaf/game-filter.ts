/**
 * Which logged games TD-Leaf learns from: finished games of the right kind that really ended on the
 * board (never aborted games, never games we lost on time because of the network), optionally
 * filtered by opponent rating, time control and date (batch), and by our own rating floor (online).
 */
import { otherSide } from '../../core/game.js';
import type { GameLogHeader } from '../../records/game-log.js';
import type { ReadGameLog } from '../../records/game-log-reader.js';

export const SKIP_REASONS = [
  'other-game',
  'unfinished',
  'aborted',
  'network-time-loss',
  'rating-floor',
  'opponent-rating',
  'time-control',
  'date',
  'too-short',
  'bad-log',
  'already-learnt',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface GameFilter {
  readonly game: 'chess' | 'shogi';
  /** Opponent rating bounds (inclusive); a game without an opponent rating is skipped when either is set. */
  readonly minRating?: number;
  readonly maxRating?: number;
  /** Time controls (`timeControlLabel` form, e.g. `180+2`, `600+10b`) or speeds (`bullet`, `blitz`...). */
  readonly timeControls?: readonly string[];
  /** Games started at or after this instant. */
  readonly since?: Date;
  /** Games started before this instant. */
  readonly until?: Date;
  /** Skip games in which our own rating (as the server gave it at the start) is below this; 0: no floor. */
  readonly ratingFloor?: number;
  /** A loss on time with more than this on our clock when we last had to move counts as lost to the network, ms. */
  readonly networkTimeLossMs: number;
}

/** Statuses of games that never really took place or were cut off (lichess and CSA words, lower case). */
const ABORTED = new Set(['aborted', 'nostart', 'unknownfinish', 'chudan', 'abnormal', 'disconnected', 'cheat', 'created', 'started']);
/** Losses on time: the flag fell (lichess `outoftime`, CSA `time_up`). */
const FLAG = new Set(['outoftime', 'time_up']);
/** Lichess `timeout`: the loser left the game; for us that is always the network. */
const LEFT = new Set(['timeout']);

/** `180+2` (Fischer, seconds), `600+10b` (byoyomi), `3d` (correspondence), `unlimited`. */
export const timeControlLabel = (h: GameLogHeader): string => {
  if (h.clock !== undefined) {
    const s = (ms: number): string => String(Math.round(ms / 100) / 10);
    const byo = h.clock.byoyomiMs ?? 0;
    if (byo > 0) return h.clock.incrementMs > 0 ? `${s(h.clock.initialMs)}+${s(h.clock.incrementMs)}+${s(byo)}b` : `${s(h.clock.initialMs)}+${s(byo)}b`;
    return `${s(h.clock.initialMs)}+${s(h.clock.incrementMs)}`;
  }
  if (h.daysPerTurn !== undefined) return `${h.daysPerTurn}d`;
  return 'unlimited';
};

/** Lichess's speed of a game: the header's, else from the estimated duration initial + 40 * increment (byoyomi counts as increment). */
export const speedOf = (h: GameLogHeader): string => {
  if (h.speed !== undefined) return h.speed;
  if (h.clock === undefined) return h.daysPerTurn !== undefined ? 'correspondence' : 'unlimited';
  const sec = (h.clock.initialMs + 40 * (h.clock.incrementMs + (h.clock.byoyomiMs ?? 0))) / 1000;
  return sec < 30 ? 'ultraBullet' : sec < 180 ? 'bullet' : sec < 480 ? 'blitz' : sec < 1500 ? 'rapid' : 'classical';
};

/** Whether we lost on time for a reason outside the engine (see `GameFilter.networkTimeLossMs`). */
export const lostToNetwork = (log: ReadGameLog, marginMs: number): boolean => {
  const r = log.result;
  if (r === undefined) return false;
  const status = r.status.toLowerCase();
  const weLost = r.winner !== null && r.winner !== log.header.ourSide;
  if (!weLost) return false;
  if (LEFT.has(status)) return true;
  if (!FLAG.has(status)) return false;
  const last = log.moves[log.moves.length - 1];
  // We had moved and still lost on time: the move did not arrive in time. Unknown clocks: assume the network.
  if (last === undefined || last.ours || last.clockMs === undefined) return true;
  return last.clockMs[log.header.ourSide] > marginMs;
};

/** Why `log` is not learnt from, or undefined when it is. */
export function skipReason(log: ReadGameLog, f: GameFilter): SkipReason | undefined {
  const h = log.header;
  if (h.game !== f.game) return 'other-game';
  if (!log.intact) return 'bad-log';
  const r = log.result;
  if (r === undefined) return 'unfinished';
  if (ABORTED.has(r.status.toLowerCase())) return 'aborted';
  if (lostToNetwork(log, f.networkTimeLossMs)) return 'network-time-loss';
  const ourRating = h.players[h.ourSide].rating;
  if ((f.ratingFloor ?? 0) > 0 && ourRating !== undefined && ourRating < f.ratingFloor!) return 'rating-floor';
  if (f.minRating !== undefined || f.maxRating !== undefined) {
    const opp = h.players[otherSide(h.ourSide)].rating;
    if (opp === undefined) return 'opponent-rating';
    if (f.minRating !== undefined && opp < f.minRating) return 'opponent-rating';
    if (f.maxRating !== undefined && opp > f.maxRating) return 'opponent-rating';
  }
  if (f.timeControls !== undefined && f.timeControls.length > 0) {
    const label = timeControlLabel(h);
    const speed = speedOf(h);
    if (!f.timeControls.some((t) => t === label || t.toLowerCase() === speed.toLowerCase())) return 'time-control';
  }
  const started = Date.parse(h.startedAt);
  if (f.since !== undefined && started < f.since.getTime()) return 'date';
  if (f.until !== undefined && started >= f.until.getTime()) return 'date';
  return undefined;
}

/**
 * A date option: `YYYY-MM-DD` (UTC midnight; as `until`, the end of that day) or any ISO 8601 instant.
 * Undefined for text that is not a date.
 */
export const parseDateOption = (text: string, end: boolean): Date | undefined => {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const t = Date.parse(`${text}T00:00:00.000Z`);
    if (Number.isNaN(t)) return undefined;
    return new Date(end ? t + 86_400_000 : t);
  }
  const t = Date.parse(text);
  return Number.isNaN(t) ? undefined : new Date(t);
};
