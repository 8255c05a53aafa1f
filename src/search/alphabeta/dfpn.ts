/**
 * Df-pn (Nagai 2002, "Df-pn algorithm for searching AND/OR trees and its applications"; the shape of
 * YaneuraOu's `source/mate/mate_dfpn.cpp`): a depth-first proof-number search for a mate by checks,
 * the attacker (the side to move at the root) playing only checks and the defender every legal
 * reply. Each node's proof and disproof numbers live in a table (dfpn-table.ts) as (phi, delta) from
 * the side to move's view: phi is the work to prove that the side to move wins, delta the work to
 * prove it loses; a won position is (0, INF), a lost one (INF, 0). A node is expanded with the
 * thresholds its parent grants and returns as soon as one of its numbers reaches a threshold, so
 * the search goes deep along the cheapest line to a proof without the memory of best-first proof
 * number search.
 *
 * At the attacker's nodes the mate-in-one test of the board (`SearchBoard.mateIn1`, shogi) solves
 * the last move without expanding. A repeated position is a failure for the attacker (shogi:
 * perpetual check loses; chess: a draw) and is not stored, since it depends on the path; nodes at
 * `maxPlies` are failures too. Such path-dependent failures can only hide a mate, never invent one:
 * a proof always rests on positions where the defender has no move.
 *
 * The solver proves a mate but not the shortest one; the caller (the engine's `go mate`) may look
 * for a shorter one with the iterative-deepening search of mate-search.ts.
 */
import { DfPnTable } from './dfpn-table.js';
import type { MateLimits, MateResult } from './mate-search.js';
import { MAX_PLY } from './score.js';
import { RULE_NONE, type SearchBoard } from './search-board.js';

/** "Infinite" proof/disproof number: the value of a solved side. */
const INF = 1 << 30;
/** Longest line the solver looks at by default, plies. */
const DEFAULT_MAX_PLIES = 127;

const add = (a: number, b: number): number => (a + b >= INF ? INF : a + b);

export class DfPn {
  private board!: SearchBoard;
  private readonly table: DfPnTable;
  private moves: Int32Array[] = [];
  private phis: Int32Array[] = [];
  private deltas: Int32Array[] = [];
  private dists: Int32Array[] = [];
  private nodes = 0;
  private stopped = false;
  private limits: MateLimits = {};
  private start = 0;
  private maxPly = DEFAULT_MAX_PLIES;
  // The result of the last `mid`: the node's numbers and, when solved, its distance to mate.
  private rPhi = 0;
  private rDelta = 0;
  private rDist = 0;

  constructor(tableMb = 16) {
    this.table = new DfPnTable(tableMb);
  }

  /** Nodes expanded by the last `solve`. */
  get nodeCount(): number {
    return this.nodes;
  }

  /**
   * Looks for a mate by checks of the side to move. `mate`: a line to the defender's mate (the
   * defender's longest resistance the table knows); `nomate`: none within `maxPlies` (or none at
   * all); `timeout`: a limit or the stop word came first. The board is left as it was.
   */
  solve(board: SearchBoard, limits: MateLimits = {}): MateResult {
    this.board = board;
    this.limits = limits;
    this.nodes = 0;
    this.stopped = false;
    this.start = performance.now();
    this.maxPly = Math.min(limits.maxPlies ?? DEFAULT_MAX_PLIES, MAX_PLY - 1);
    this.table.clear();
    if (this.moves.length === 0 || this.moves[0]!.length !== board.maxMoves) {
      this.moves = [];
      this.phis = [];
      this.deltas = [];
      this.dists = [];
      for (let i = 0; i <= MAX_PLY; i++) {
        this.moves.push(new Int32Array(board.maxMoves));
        this.phis.push(new Int32Array(board.maxMoves));
        this.deltas.push(new Int32Array(board.maxMoves));
        this.dists.push(new Int32Array(board.maxMoves));
      }
    }
    this.mid(INF, INF, 0);
    if (this.stopped) return { kind: 'timeout', nodes: this.nodes };
    if (this.rPhi !== 0) return { kind: 'nomate', nodes: this.nodes };
    const line = this.principalVariation();
    // The line must end in mate; should the table have lost a link, the proof stands but has no line.
    if (line === undefined) return { kind: 'timeout', nodes: this.nodes };
    return { kind: 'mate', moves: line, nodes: this.nodes };
  }

  private tick(): boolean {
    this.nodes++;
    const l = this.limits;
    if (l.nodes !== undefined && this.nodes >= l.nodes) this.stopped = true;
    else if ((this.nodes & 255) === 1) {
      if (l.signal !== undefined && Atomics.load(l.signal, 0) !== 0) this.stopped = true;
      else if (l.hardMs !== undefined && performance.now() - this.start >= l.hardMs) this.stopped = true;
    }
    return this.stopped;
  }

  private result(phi: number, delta: number, dist: number): void {
    this.rPhi = phi;
    this.rDelta = delta;
    this.rDist = dist;
  }

  /**
   * Searches the current node (the attacker to move at even plies) until its phi reaches `thPhi`
   * or its delta reaches `thDelta`; the numbers come back in `rPhi`/`rDelta` (and `rDist`).
   */
  private mid(thPhi: number, thDelta: number, ply: number): void {
    const board = this.board;
    const or = (ply & 1) === 0;
    if (this.tick()) return this.result(1, 1, 0);
    const hi = board.keyHi();
    const lo = board.keyLo();
    const table = this.table;
    const e = table.find(hi, lo);
    if (e >= 0 && (table.phi(e) >= thPhi || table.delta(e) >= thDelta)) return this.result(table.phi(e), table.delta(e), table.dist(e));
    const nodesBefore = this.nodes;

    // Children: the attacker's checks (not into a repetition), or all of the defender's replies.
    const moves = this.moves[ply]!;
    const phis = this.phis[ply]!;
    const deltas = this.deltas[ply]!;
    const dists = this.dists[ply]!;
    if (or && board.mateIn1 !== undefined) {
      const mate = board.mateIn1();
      if (mate !== 0) {
        table.store(hi, lo, 0, INF, 1, mate, 1);
        return this.result(0, INF, 1);
      }
    }
    let n = board.generate(moves, false);
    if (!or && n === 0) {
      // The defender is in check (every attacker move checks): mate.
      table.store(hi, lo, INF, 0, 0, 0, 1);
      return this.result(INF, 0, 0);
    }
    // Too deep for a mate within maxPlies: an attacker's node needs one ply more (three with the
    // mate-in-one test, which found nothing), a defender's two.
    if (or ? ply + (board.mateIn1 !== undefined ? 3 : 1) > this.maxPly : ply + 2 > this.maxPly) return this.result(or ? INF : 0, or ? 0 : INF, 0);
    let k = 0;
    for (let i = 0; i < n; i++) {
      const m = moves[i]!;
      if (or && board.givesCheck !== undefined && !board.givesCheck(m)) continue;
      board.make(m);
      if (or && (!board.inCheck() || board.ruleState() !== RULE_NONE)) {
        board.unmake();
        continue;
      }
      if (!or && board.ruleState() !== RULE_NONE) {
        // The defender repeats: the attacker fails here (on this path only, so nothing is stored).
        phis[k] = INF;
        deltas[k] = 0;
        dists[k] = 0;
      } else {
        const c = table.find(board.keyHi(), board.keyLo());
        phis[k] = c >= 0 ? table.phi(c) : 1;
        deltas[k] = c >= 0 ? table.delta(c) : 1;
        dists[k] = c >= 0 ? table.dist(c) : 0;
      }
      board.unmake();
      moves[k++] = m;
    }
    n = k;
    if (n === 0) {
      // No check (or only repetitions): the attacker has failed.
      table.store(hi, lo, INF, 0, 0, 0, 1);
      return this.result(INF, 0, 0);
    }

    let phi = INF;
    let delta = 0;
    for (;;) {
      // phi = min over the children of their delta; delta = the sum of their phi.
      let best = 0;
      let bestDelta = INF;
      let second = INF;
      delta = 0;
      for (let i = 0; i < n; i++) {
        const cd = deltas[i]!;
        delta = add(delta, phis[i]!);
        if (cd < bestDelta) {
          second = bestDelta;
          bestDelta = cd;
          best = i;
        } else if (cd < second) second = cd;
      }
      phi = bestDelta;
      if (phi >= thPhi || delta >= thDelta) break;
      const childThPhi = Math.min(INF, thDelta - delta + phis[best]!);
      const childThDelta = Math.min(thPhi, add(second, 1));
      board.make(moves[best]!);
      this.mid(childThPhi, childThDelta, ply + 1);
      board.unmake();
      if (this.stopped) return;
      phis[best] = this.rPhi;
      deltas[best] = this.rDelta;
      dists[best] = this.rDist;
    }

    // A solved node's distance and move: the quickest win, or the longest loss.
    let dist = 0;
    let move = 0;
    if (phi === 0) {
      dist = INF;
      for (let i = 0; i < n; i++) {
        if (deltas[i] === 0 && dists[i]! + 1 < dist) {
          dist = dists[i]! + 1;
          move = moves[i]!;
        }
      }
    } else if (delta === 0) {
      for (let i = 0; i < n; i++) {
        if (dists[i]! + 1 > dist) {
          dist = dists[i]! + 1;
          move = moves[i]!;
        }
      }
    } else {
      let bi = 0;
      for (let i = 1; i < n; i++) if (deltas[i]! < deltas[bi]!) bi = i;
      move = moves[bi]!;
    }
    table.store(hi, lo, phi, delta, dist, move, this.nodes - nodesBefore);
    return this.result(phi, delta, dist);
  }

  /**
   * The mating line from the table: the attacker's proving moves and the defender's longest
   * resistance, checked move by move to be legal and to end in mate; undefined if a link is missing.
   */
  private principalVariation(): number[] | undefined {
    const board = this.board;
    const pv: number[] = [];
    const list = this.moves[MAX_PLY]!;
    let ok = false;
    for (let i = 0; i < MAX_PLY; i++) {
      const n = board.generate(list, false);
      if (n === 0) {
        ok = (pv.length & 1) === 1 && board.inCheck() && board.noMovesIsLoss(true);
        break;
      }
      const e = this.table.find(board.keyHi(), board.keyLo());
      if (e < 0) break;
      const m = this.table.move(e);
      let legal = false;
      for (let j = 0; j < n; j++) if (list[j] === m) legal = true;
      if (m === 0 || !legal) break;
      pv.push(m);
      board.make(m);
    }
    for (let i = 0; i < pv.length; i++) board.unmake();
    return ok ? pv : undefined;
  }
}
