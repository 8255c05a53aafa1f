import { describe, expect, it } from 'vitest';
import { INFINITE } from '../../../src/search/alphabeta/score.js';
import { walkTable, type TableNode } from '../../../src/search/alphabeta/tree-walk.js';
import { chessBoard, searcher, shogiBoard } from './helpers.js';

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

describe('walking the table from the root (DeltaFromTransTbl)', () => {
  it('visits the root first with the search depth and its exact value, then consistent bounds below', () => {
    const s = searcher('training');
    const board = chessBoard(KIWIPETE);
    const r = s.search(board, { depth: 3 });
    const before = board.toText();
    const nodes: TableNode[] = [];
    const count = walkTable(board, s.tt, (n) => nodes.push({ ...n }), { minDepth: 1 });
    expect(board.toText()).toBe(before);
    expect(count).toBe(nodes.length);
    expect(count).toBeGreaterThan(40);
    const root = nodes[0]!;
    expect(root.ply).toBe(0);
    expect(root.depth).toBe(3);
    expect(root.lower).toBe(r.score);
    expect(root.upper).toBe(r.score);
    expect(root.move).toBe(r.bestMove);
    expect(root.sign).toBe(1);
    for (const n of nodes) {
      expect(n.lower).toBeLessThanOrEqual(n.upper);
      expect(n.depth).toBeGreaterThanOrEqual(1);
      expect(n.lower > -INFINITE || n.upper < INFINITE).toBe(true);
      if (n.ply > 0) expect(n.depth).toBeLessThanOrEqual(3);
    }
    expect(nodes.some((n) => n.ply === 1 && n.sign === -1)).toBe(true);
    // A larger minimum depth keeps fewer entries; following the table moves only, fewer still.
    const deep = walkTable(board, s.tt, () => undefined, { minDepth: 2 });
    expect(deep).toBeLessThan(count);
    const line = walkTable(board, s.tt, () => undefined, { minDepth: 1, children: 'tt-move' });
    expect(line).toBeLessThan(deep + 1);
    expect(walkTable(board, s.tt, () => undefined, { minDepth: 1, maxNodes: 5 })).toBe(5);
  });

  it('works on shogi boards', () => {
    const s = searcher('training');
    const board = shogiBoard('startpos');
    s.search(board, { depth: 2 });
    let count = 0;
    walkTable(board, s.tt, () => count++, { minDepth: 1 });
    expect(count).toBeGreaterThan(1);
  });
});
