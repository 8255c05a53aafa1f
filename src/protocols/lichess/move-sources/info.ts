/** Search-info records for moves that came from an online source (score from the mover's view). */
import type { SearchInfo } from '../../../player/player.js';

export function sourceInfo(score: SearchInfo['score'], depth: number, pv: readonly string[], nodes = 0): SearchInfo {
  return { depth, score, nodes, nps: 0, timeMs: 0, pv: [...pv] };
}

/** A mate in `moves` moves from White's view (lichess `mate`) as plies from the mover's view. */
export function mateFromWhite(moves: number, moverIsWhite: boolean): { mate: number } {
  const ours = moverIsWhite ? moves : -moves;
  return { mate: ours > 0 ? 2 * ours - 1 : 2 * ours };
}

/** Whether the clock allows asking a source that wants at least `minTimeS` on it. */
export const enoughTime = (timeLeftMs: number, minTimeS: number): boolean => timeLeftMs >= minTimeS * 1000;
