/** What the search benchmarks share: nodes/s of one alpha-beta search from scratch, and row labels. */
import { performance } from 'node:perf_hooks';
import { searchOptions } from '../../../src/search/alphabeta/options.js';
import type { SearchBoard } from '../../../src/search/alphabeta/search-board.js';
import { AlphaBetaSearch } from '../../../src/search/alphabeta/search.js';
import { TranspositionTable } from '../../../src/search/alphabeta/tt.js';

/** Nodes/s of `reps` searches to `nodes` nodes, each from a fresh board and table (so reps are alike). */
export function searchRates(board: () => SearchBoard, nodes: number, reps: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < reps; i++) {
    const search = new AlphaBetaSearch(new TranspositionTable(64), searchOptions('tournament'));
    const b = board();
    const t0 = performance.now();
    const r = search.search(b, { nodes });
    out.push(r.nodes / ((performance.now() - t0) / 1000));
  }
  return out;
}

/** A short label for a position: `startpos`, or the first 16 characters of its board field. */
export const positionLabel = (text: string): string => (text === 'startpos' ? 'startpos' : text.split(' ')[0]!.slice(0, 16));
