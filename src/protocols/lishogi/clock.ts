/**
 * lishogi's clock mapped to the core ClockState, so that the shared time planning (search/time.ts) plans
 * shogi moves. How lishogi counts (scalashogi `Clock.scala`):
 * - each side has main time, an increment added after a move made in main time, and `periods` byoyomi
 *   periods of `byoyomi` each; a move that runs past the main time enters byoyomi, and from then on each
 *   move must be made within one period, which starts afresh every move (a move that overruns a period
 *   spends it and goes on in the next; the game is lost when none is left);
 * - in byoyomi the reported time (`btime`/`wtime`, via `currentClockFor`) is the period itself: after each
 *   move the remaining time is set back to `byoyomi`;
 * - `limit` 0 with byoyomi starts in byoyomi (the first period counts as spent), with at least 5 s on the
 *   first move;
 * - `gameState` does not say how many periods a side has spent.
 * So Kishi never counts on more than the period it is in: a side whose reported time is not above the
 * byoyomi (or every side when the main time is 0) is planned as in byoyomi with no main time, and the
 * period less the time already run is what the search may use. A side above the byoyomi has that main
 * time plus one period. The increment is counted only while main time is left (lishogi adds none in
 * byoyomi). Time our clock has run since the state arrived, and the time lishogi holds a bot's move
 * before playing it (bot against bot), come off our main time first, then off the period.
 * Pure.
 */
import type { ClockState } from '../../core/clock.js';
import type { Color } from '../lichess/types.js';

export interface ShogiClockInput {
  /** The normalised state (wire.ts): `wtime`/`winc` are sente's, `btime`/`binc` gote's; `byo` milliseconds. */
  readonly state: { readonly wtime: number; readonly btime: number; readonly winc: number; readonly binc: number; readonly byo?: number };
  /** The game's main time, milliseconds (gameFull `clock.initial`): 0 with byoyomi is pure byoyomi. */
  readonly initialMs: number;
  readonly ourColor: Color;
  /** How long our clock has run since lishogi sent the state, milliseconds. */
  readonly elapsedMs: number;
  /** How long lishogi holds our move before playing it (LISHOGI_BOT_MOVE_DELAY_MS against a bot), milliseconds. */
  readonly serverDelayMs: number;
}

/** One side's reported time split into main time and whether it is (or may be) in byoyomi. */
function split(timeMs: number, byoMs: number, initialMs: number): { mainMs: number; inByoyomi: boolean } {
  const t = Math.max(0, timeMs);
  if (byoMs <= 0) return { mainMs: t, inByoyomi: false };
  if (initialMs <= 0 || t <= byoMs) return { mainMs: 0, inByoyomi: true };
  return { mainMs: t, inByoyomi: false };
}

/** The clock as the Player plans from: main times, increments, and the byoyomi period left to us. */
export function shogiClockState(input: ShogiClockInput): ClockState {
  const { state, initialMs, ourColor } = input;
  const byo = Math.max(0, state.byo ?? 0);
  const first = split(state.wtime, byo, initialMs);
  const second = split(state.btime, byo, initialMs);
  const ours = ourColor === 'white' ? first : second;
  const spent = Math.max(0, input.elapsedMs) + Math.max(0, input.serverDelayMs);
  let ourMain = ours.mainMs;
  let period = byo;
  if (ours.inByoyomi) {
    // The reported period may be shorter than the byoyomi (pure byoyomi games start at max(byoyomi, 5 s)).
    const reported = Math.max(0, ourColor === 'white' ? state.wtime : state.btime);
    period = Math.max(0, Math.min(byo, reported) - spent);
  } else if (spent <= ourMain) {
    ourMain -= spent;
  } else {
    period = Math.max(0, byo - (spent - ourMain));
    ourMain = 0;
  }
  const firstMain = ourColor === 'white' ? ourMain : first.mainMs;
  const secondMain = ourColor === 'black' ? ourMain : second.mainMs;
  return {
    firstMs: firstMain,
    secondMs: secondMain,
    firstIncMs: first.inByoyomi || firstMain <= 0 ? 0 : Math.max(0, state.winc),
    secondIncMs: second.inByoyomi || secondMain <= 0 ? 0 : Math.max(0, state.binc),
    byoyomiMs: period,
  };
}

/** The longest our move may take before lishogi's clock flags us (main time plus the current period), milliseconds. */
export function shogiTimeLeftMs(clock: ClockState, ourColor: Color): number {
  return (ourColor === 'white' ? clock.firstMs : clock.secondMs) + clock.byoyomiMs;
}
