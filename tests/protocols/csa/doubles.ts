/**
 * CSA-specific helpers for the shared fake Player (tests/fakes/player.ts): positions of a request in
 * shogiops terms, and a Player that replays a transcript's moves with their floodgate comments.
 */
import type { GoRequest, GoResult, SearchInfo } from '../../../src/player/player.js';
import { legalUsiMoves, parseUsiMove, positionFromSfen } from '../../../src/protocols/csa/shogi-rules.js';
import type { ShogiPosition } from '../../../src/protocols/csa/shogi-rules.js';
import { FakePlayer } from '../../fakes/player.js';

export function positionOf(req: GoRequest): ShogiPosition {
  const pos = positionFromSfen(req.start).unwrap();
  for (const u of req.moves) pos.play(parseUsiMove(pos, u).unwrap().md);
  return pos;
}

/** Finds the legal USI move that corresponds to a CSA move in the request's position. */
export function usiOfCsa(req: GoRequest, csa: string): string {
  const pos = positionOf(req);
  for (const u of legalUsiMoves(pos)) if (parseUsiMove(pos, u).unwrap().csa === csa) return u;
  throw new Error(`no legal move ${csa}`);
}

/**
 * TEST DOUBLE: plays a transcript's moves as sent (`+7776FU,'* 30 -3334FU +2726FU`, `%TORYO`), turning a
 * floodgate comment back into the search info that produces it.
 */
export class CsaScriptPlayer extends FakePlayer {
  constructor(lines: readonly string[]) {
    super({ name: 'csa-script (test double)', games: ['shogi'], answer: (request, i) => answerOf(request, lines[i] ?? '%TORYO') });
  }
}

/** The answer that sends `line` (a transcript's move line, `%TORYO` or `%KACHI`). */
function answerOf(request: GoRequest, line: string): GoResult {
  if (line === '%TORYO') return { move: 'resign' };
  if (line === '%KACHI') return { move: 'win' };
  const [csa, comment] = line.split(',');
  const move = usiOfCsa(request, csa!);
  if (comment === undefined) return { move };
  const [, cp, ...pvCsa] = comment.split(' ');
  const pos = positionOf(request);
  const blackToMove = pos.turn === 'sente';
  const pv = [move];
  pos.play(parseUsiMove(pos, move).unwrap().md);
  for (const c of pvCsa) {
    const u = legalUsiMoves(pos).find((x) => parseUsiMove(pos, x).unwrap().csa === c)!;
    pv.push(u);
    pos.play(parseUsiMove(pos, u).unwrap().md);
  }
  const info: SearchInfo = { depth: 1, score: { cp: (blackToMove ? 1 : -1) * Number(cp) }, nodes: 1, nps: 1, timeMs: 1, pv };
  return { move, info };
}
