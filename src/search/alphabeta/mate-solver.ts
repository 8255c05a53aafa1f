/**
 * The mate solver behind `go mate` and the root mate probe: df-pn (dfpn.ts) proves or disproves a
 * mate by checks with few nodes but not the shortest one, so a proof of L plies is followed by the
 * iterative-deepening search of mate-search.ts up to L - 2 plies, which finds the shortest mate
 * when it is shorter, within what is left of the budget; should df-pn not prove it within half of a
 * bounded budget, that search looks for any mate with the rest. On the 200 problems of each of
 * data/suites' mate-in-5, 7, 9 and 11 sets df-pn alone gives a line of at most that length for 120,
 * 102, 73 and 67, the pair for all 200 of each within 1M nodes a problem (see
 * tests/search/alphabeta/dfpn.test.ts, `npm run bench -- --filter tsume` and
 * docs/experiments/2026-11-29-tsume-7-to-11.md).
 */
import { DfPn } from './dfpn.js';
import { MateSearch, type MateLimits, type MateResult } from './mate-search.js';
import type { SearchBoard } from './search-board.js';

/** Nodes the shortening may spend when the caller gave no node limit: this many times the proof's. */
const SHORTEN_FACTOR = 4;
/** ... and at least this many. */
const SHORTEN_MIN_NODES = 20_000;

export class MateSolver {
  private readonly dfpn: DfPn;
  private readonly search: MateSearch;

  constructor(tableMb = 16) {
    this.dfpn = new DfPn(tableMb);
    this.search = new MateSearch(Math.max(1, tableMb >> 1));
  }

  /** As `DfPn.solve`, the line shortened where the budget allows; `nodes` counts both searches. */
  solve(board: SearchBoard, limits: MateLimits = {}): MateResult {
    const start = performance.now();
    // Df-pn gets half of a bounded budget: unbounded in depth, it can lose itself in one long line
    // (line 176 of data/suites/tsume_mate-7-ply.sfen takes it more than 5M nodes), where the iterative
    // deepening of the mate search finds the mate in a few hundred.
    const proof = this.dfpn.solve(board, {
      ...limits,
      ...(limits.nodes !== undefined ? { nodes: Math.ceil(limits.nodes / 2) } : {}),
      ...(limits.hardMs !== undefined ? { hardMs: limits.hardMs / 2 } : {}),
    });
    if (proof.kind === 'nomate') return proof;
    if (proof.kind === 'timeout' && this.stoppedByCaller(limits, proof.nodes, start)) return proof;
    // A proof whose line the table lost (rare) or a line that may not be the shortest.
    const longest = proof.kind === 'mate' ? proof.moves.length - 2 : (limits.maxPlies ?? 63);
    if (longest < 1) return proof;
    const nodes = limits.nodes !== undefined ? limits.nodes - proof.nodes : Math.max(SHORTEN_MIN_NODES, SHORTEN_FACTOR * proof.nodes);
    if (nodes <= 0) return proof;
    const hardMs = limits.hardMs !== undefined ? limits.hardMs - (performance.now() - start) : undefined;
    if (hardMs !== undefined && hardMs <= 0) return proof;
    const shorter = this.search.solve(board, {
      maxPlies: longest,
      nodes,
      ...(hardMs !== undefined ? { hardMs } : {}),
      ...(limits.signal !== undefined ? { signal: limits.signal } : {}),
    });
    const total = proof.nodes + shorter.nodes;
    if (shorter.kind === 'mate') return { kind: 'mate', moves: shorter.moves, nodes: total };
    return { ...proof, nodes: total };
  }

  /** Whether a df-pn timeout came from the caller's limits (rather than a lost line). */
  private stoppedByCaller(limits: MateLimits, nodes: number, start: number): boolean {
    if (limits.nodes !== undefined && nodes >= limits.nodes) return true;
    if (limits.hardMs !== undefined && performance.now() - start >= limits.hardMs) return true;
    return limits.signal !== undefined && Atomics.load(limits.signal, 0) !== 0;
  }
}
