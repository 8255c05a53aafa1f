/**
 * The root mate guard (tuning `rootGuardNodes`): a root move after which df-pn proves the
 * opponent's mate by checks is scored as that mate, so the search plays another move; its nodes
 * count as the search's. The position is from a game Kishi lost to gpsusi (0014 of the gpsusi
 * match in docs/experiments/2026-11-30-shogi-root-mate-guard.md, Kishi gote, its 78th ply); the
 * material evaluation keeps the test independent of the shipped net.
 */
import { describe, expect, it } from 'vitest';
import { DfPn } from '../../../src/search/alphabeta/dfpn.js';
import type { SearchBoard } from '../../../src/search/alphabeta/search-board.js';
import { DEFAULT_TUNING } from '../../../src/search/alphabeta/tuning.js';
import { searcher, shogiBoard } from './helpers.js';

const LOST = 'l4gknl/4+P1s1g/p1+P1pp1pp/6N2/3s2P2/1r2P4/P1pS1PK1P/4G4/L6RL w BG2N5Pbs 78';

const search = (rootGuardNodes: number, nodes: number): { move: number; nodes: number; board: SearchBoard } => {
  const board = shogiBoard(LOST);
  const s = searcher('tournament', { tuning: { ...DEFAULT_TUNING.shogi, rootGuardNodes } });
  const r = s.search(board, { nodes });
  return { move: r.bestMove, nodes: r.nodes, board };
};

/** Df-pn's verdict on the opponent's mate by checks after `move`. */
const opponentMates = (board: SearchBoard, move: number): string => {
  board.make(move);
  const r = new DfPn(4).solve(board, { nodes: 200_000 });
  board.unmake();
  return r.kind;
};

describe('root mate guard', () => {
  it('without it the search plays into a mate by checks that df-pn proves', () => {
    const off = search(0, 30_000);
    expect(opponentMates(off.board, off.move)).toBe('mate');
  });

  it('with it the search plays a move after which df-pn finds no mate, the guard nodes within the budget', () => {
    const on = search(20_000, 30_000);
    expect(opponentMates(on.board, on.move)).toBe('nomate');
    // The budget is checked at the search's next node, so it overshoots by at most one test.
    expect(on.nodes).toBeLessThanOrEqual(30_000 + 20_000);
  });

  it('leaves the board as it was and answers the same at the same nodes (deterministic)', () => {
    const a = search(20_000, 30_000);
    const b = search(20_000, 30_000);
    expect(a.board.toText()).toBe(LOST);
    expect([b.move, b.nodes]).toEqual([a.move, a.nodes]);
  });
});
