/**
 * `info` lines from the Player's `SearchInfo`. The two protocols share the syntax and differ in
 * one unit: a mate score is in moves in UCI (`mate 3`: we mate with our third move) and in plies
 * in USI (`mate 5`). The Player reports plies. `pv` goes last (only `string` may follow it).
 */
import type { SearchInfo } from '../../player/player.js';

/** UCI mate distance in moves from a distance in plies (positive: we mate). */
export const mateMoves = (plies: number): number => (plies > 0 ? Math.ceil(plies / 2) : -Math.ceil(-plies / 2));

export function infoLine(info: SearchInfo, protocol: 'uci' | 'usi'): string {
  const parts = ['info', 'depth', String(info.depth)];
  if (info.seldepth !== undefined) parts.push('seldepth', String(info.seldepth));
  if (info.multipv !== undefined) parts.push('multipv', String(info.multipv));
  if ('mate' in info.score) parts.push('score', 'mate', String(protocol === 'uci' ? mateMoves(info.score.mate) : info.score.mate));
  else parts.push('score', 'cp', String(Math.round(info.score.cp)));
  parts.push('nodes', String(info.nodes), 'nps', String(Math.round(info.nps)));
  if (info.hashfull !== undefined) parts.push('hashfull', String(Math.round(info.hashfull)));
  parts.push('time', String(Math.round(info.timeMs)));
  if (info.pv.length > 0) parts.push('pv', ...info.pv);
  if (info.string !== undefined) parts.push('string', info.string.replace(/[\r\n]+/g, ' '));
  return parts.join(' ');
}

/** An `info string` line; newlines would break the protocol, so they become spaces. */
export const infoString = (text: string): string => `info string ${text.replace(/[\r\n]+/g, ' ')}`;
