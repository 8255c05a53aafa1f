/**
 * The floodgate comment extension on our moves: `+7776FU,'* 30 -3334FU +2726FU`.
 *
 * The score is in centipawns from black's (sente's) view; the PV starts with the opponent's reply, i.e.
 * leaves out the move just played (shogi-server's `usiToCsa.rb` and ShogiHome's bridge do the same).
 * Pure: no I/O.
 */
import type { SearchInfo } from '../../player/player.js';
import type { ShogiPosition } from './shogi-rules.js';
import { usiLineToCsa } from './shogi-rules.js';
import type { CsaSign } from './summary.js';

/** Centipawns reported for a mate in n plies: `MATE_CP - n` (a nearer mate is a bigger score). */
export const MATE_CP = 100_000;

/** The search score in centipawns from black's view (`info.score` is from the side to move's view). */
export function blackViewCp(info: SearchInfo, mover: CsaSign): number {
  const s = info.score;
  const cp = 'cp' in s ? Math.round(s.cp) : s.mate > 0 ? MATE_CP - s.mate : s.mate < 0 ? -MATE_CP - s.mate : 0;
  return mover === '+' ? cp : -cp;
}

/**
 * The comment for our move `ourUsi` played in `before` (the position before it), or undefined when the
 * search gave no info. The PV is kept only when it starts with our move; it is cut at the first move
 * that is not legal.
 */
export function floodgateComment(before: ShogiPosition, ourUsi: string, info: SearchInfo | undefined, mover: CsaSign): string | undefined {
  if (info === undefined) return undefined;
  const cp = blackViewCp(info, mover);
  const pv = info.pv[0] === ourUsi ? usiLineToCsa(before, info.pv).slice(1) : [];
  return ["'*", String(cp), ...pv].join(' ');
}
