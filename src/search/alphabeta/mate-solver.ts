/**
 * The mate solver behind `go mate` and the root mate probe: df-pn (dfpn.ts) proves or disproves a
 * mate by checks with few nodes but not the shortest one, so a proof of L plies is followed by the
 * iterative-deepening search of mate-search.ts up to L - 2 plies, which finds the shortest mate
 * when it is shorter, within what is left of the budget. On the 200 mate-in-5 problems of
 * data/suites df-pn alone gives a line of at most 5 plies for 120, the pair for all 200 (see
 * tests/search/alphabeta/dfpn.test.ts and `npm run bench -- --filter tsume`).
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
    const proof = this.dfpn.solve(board, limits);
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
