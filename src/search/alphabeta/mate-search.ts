/**
 * Mate search (USI `go mate`, UCI `go mate`): iterative deepening over odd lengths of an AND/OR
 * search in which the attacker (the side to move at the root) only plays checks and the defender
 * tries every legal reply. A position where the defender has no legal move is mate (shogi's
 * pawn-drop mate is already excluded by the move generator); repetitions count as failures
 * (perpetual check loses in shogi, repetition draws in chess).
 *
 * A table memoises proofs (mate length, exact) and disproofs (no mate within `depth` plies; a
 * disproof that never met the horizon holds at any length, and one read from the table that did
 * bounds its readers in turn). At the attacker's nodes the board's mate-in-one test (shogi) answers
 * the last move without generating the checks. The line is read from the table and rebuilt where
 * an entry was replaced; a mate is announced only with a line that replays to mate.
 * `nomate` is answered when an iteration disproves the root without touching the depth horizon
 * (no check sequence can mate at any length) or when `maxPlies` is exhausted; `timeout` when a
 * limit or the stop word ends the search first.
 */
import { RULE_NONE, type SearchBoard } from './search-board.js';
import { INFINITE, MAX_PLY } from './score.js';
import { TranspositionTable } from './tt.js';

export type MateResult =
  | { readonly kind: 'mate'; readonly moves: readonly number[]; readonly nodes: number }
  | { readonly kind: 'nomate'; readonly nodes: number }
  | { readonly kind: 'timeout'; readonly nodes: number };

export interface MateLimits {
  /** Longest mate looked for, plies (odd); default 63. */
  readonly maxPlies?: number;
  readonly nodes?: number;
  readonly hardMs?: number;
  /** `[0] !== 0` stops the search. */
  readonly signal?: Int32Array;
}

/** "No mate": larger than any mate length. */
const FAIL = 1000;
/** Table depth of a disproof that holds at any length (it never met the horizon). */
const NO_HORIZON = 127;
/** Nodes the line's rebuild may spend at least (else as many as the proof took). */
const REBUILD_MIN_NODES = 100_000;

export class MateSearch {
  private board!: SearchBoard;
  private readonly tt: TranspositionTable;
  private lists: Int32Array[] = [];
  private keys: Int32Array[] = [];
  private nodes = 0;
  private stopped = false;
  private horizon = false;
  private limits: MateLimits = {};
  private start = 0;

  constructor(tableMb = 16) {
    this.tt = new TranspositionTable(tableMb);
  }

  solve(board: SearchBoard, limits: MateLimits = {}): MateResult {
    this.board = board;
    this.limits = limits;
    this.nodes = 0;
    this.stopped = false;
    this.start = performance.now();
    this.tt.clear();
    if (this.lists.length === 0 || this.lists[0]!.length !== board.maxMoves) {
      this.lists = [];
      this.keys = [];
      for (let i = 0; i <= MAX_PLY; i++) {
        this.lists.push(new Int32Array(board.maxMoves));
        this.keys.push(new Int32Array(board.maxMoves));
      }
    }
    const maxPlies = Math.min(limits.maxPlies ?? 63, MAX_PLY - 2);
    for (let depth = 1; depth <= maxPlies; depth += 2) {
      this.horizon = false;
      const r = this.attack(depth, 0);
      if (this.stopped) return { kind: 'timeout', nodes: this.nodes };
      if (r < FAIL) {
        const moves = this.principalVariation(r);
        return moves === undefined ? { kind: 'timeout', nodes: this.nodes } : { kind: 'mate', moves, nodes: this.nodes };
      }
      if (!this.horizon) return { kind: 'nomate', nodes: this.nodes };
    }
    return { kind: 'nomate', nodes: this.nodes };
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

  /** Attacker to move: the shortest mate found within `depth` plies, or FAIL. */
  private attack(depth: number, ply: number): number {
    const board = this.board;
    if (this.tick()) return FAIL;
    if (depth < 1 || ply >= MAX_PLY - 2) {
      this.horizon = true;
      return FAIL;
    }
    const hi = board.keyHi();
    const lo = board.keyLo();
    const tt = this.tt;
    // A longer proof stays in the table over a disproof that only holds up to this depth.
    let provenLonger = false;
    if (tt.probe(hi, lo)) {
      const h = tt.hit;
      if (h.lower > 0 && h.lower <= depth) return h.lower;
      if (h.upper === 0 && h.depth >= depth) {
        // A disproof bounded by a horizon passes that bound on to the nodes above.
        if (h.depth < NO_HORIZON) this.horizon = true;
        return FAIL;
      }
      provenLonger = h.lower > 0;
    }
    // The board's mate-in-one test (shogi) answers the last move at once: a mate in one, or, with
    // fewer than three plies left, no mate within them.
    if (board.mateIn1 !== undefined) {
      const mate = board.mateIn1();
      if (mate !== 0) {
        tt.storeBounds(hi, lo, depth, 1, 1, mate);
        return 1;
      }
      if (depth < 3) {
        this.horizon = true;
        if (!provenLonger) tt.storeBounds(hi, lo, depth, -INFINITE, 0, 0);
        return FAIL;
      }
    }
    const list = this.lists[ply]!;
    const n = board.generate(list, false);
    let horizonHere = false;
    for (let i = 0; i < n; i++) {
      const m = list[i]!;
      if (board.givesCheck !== undefined && !board.givesCheck(m)) continue;
      board.make(m);
      if (!board.inCheck() || board.ruleState() !== RULE_NONE) {
        board.unmake();
        continue;
      }
      const saved = this.horizon;
      this.horizon = false;
      const r = this.defend(depth - 1, ply + 1);
      horizonHere ||= this.horizon;
      this.horizon = saved || this.horizon;
      board.unmake();
      if (this.stopped) return FAIL;
      if (r < FAIL) {
        tt.storeBounds(hi, lo, depth, r + 1, r + 1, m);
        return r + 1;
      }
    }
    // A disproof that met the horizon only holds for this depth; one that did not holds for any.
    if (!(horizonHere && provenLonger)) tt.storeBounds(hi, lo, horizonHere ? depth : NO_HORIZON, -INFINITE, 0, 0);
    return FAIL;
  }

  /** Defender to move (in check): the longest resistance (plies to mate), or FAIL if it escapes. */
  private defend(depth: number, ply: number): number {
    const board = this.board;
    if (this.tick()) return FAIL;
    const list = this.lists[ply]!;
    const n = board.generate(list, false);
    if (n === 0) return board.noMovesIsLoss(true) ? 0 : FAIL;
    if (depth < 2 || ply >= MAX_PLY - 2) {
      this.horizon = true;
      return FAIL;
    }
    const hi = board.keyHi();
    const lo = board.keyLo();
    const tt = this.tt;
    let provenLonger = false;
    if (tt.probe(hi, lo)) {
      const h = tt.hit;
      if (h.lower > 0 && h.lower <= depth) return h.lower;
      if (h.upper === 0 && h.depth >= depth) {
        // A disproof bounded by a horizon passes that bound on to the nodes above.
        if (h.depth < NO_HORIZON) this.horizon = true;
        return FAIL;
      }
      provenLonger = h.lower > 0;
    }
    // Captures first: they most often refute.
    const keys = this.keys[ply]!;
    for (let i = 0; i < n; i++) keys[i] = board.tacticalOrder(list[i]!);
    let worst = 0;
    let worstMove = 0;
    let horizonHere = false;
    for (let i = 0; i < n; i++) {
      let bi = i;
      for (let j = i + 1; j < n; j++) if (keys[j]! > keys[bi]!) bi = j;
      const m = list[bi]!;
      list[bi] = list[i]!;
      list[i] = m;
      const k = keys[bi]!;
      keys[bi] = keys[i]!;
      keys[i] = k;
      board.make(m);
      const saved = this.horizon;
      this.horizon = false;
      const r = board.ruleState() !== RULE_NONE ? FAIL : this.attack(depth - 1, ply + 1);
      horizonHere ||= this.horizon;
      this.horizon = saved || this.horizon;
      board.unmake();
      if (this.stopped) return FAIL;
      if (r >= FAIL) {
        if (!(horizonHere && provenLonger)) tt.storeBounds(hi, lo, horizonHere ? depth : NO_HORIZON, -INFINITE, 0, m);
        return FAIL;
      }
      if (r + 1 > worst) {
        worst = r + 1;
        worstMove = m;
      }
    }
    tt.storeBounds(hi, lo, depth, worst, worst, worstMove);
    return worst;
  }

  /**
   * The mating line: at each node the table's move while its entry still holds the proof (a mate
   * within the plies left: the attacker's proven check, the defender's longest resistance). An
   * entry the table has since replaced is searched again, within a budget of its own (the subtree's
   * other proofs are mostly still there). Undefined when the line cannot be rebuilt: a mate is only
   * announced with a line that replays to mate.
   */
  private principalVariation(length: number): number[] | undefined {
    const board = this.board;
    const pv: number[] = [];
    const callerLimits = this.limits;
    this.limits = { ...callerLimits, nodes: this.nodes + Math.max(REBUILD_MIN_NODES, this.nodes) };
    let left = length;
    while (left > 0) {
      let m = this.provenMove(left, pv.length % 2 === 0);
      if (m === 0) {
        const r = pv.length % 2 === 0 ? this.attack(left, pv.length) : this.defend(left, pv.length);
        if (this.stopped || r > left) break;
        m = this.provenMove(left, pv.length % 2 === 0);
        if (m === 0) break;
      }
      left = this.tt.hit.lower - 1;
      pv.push(m);
      board.make(m);
    }
    const mated = left === 0 && pv.length % 2 === 1 && board.inCheck() && board.generate(this.lists[MAX_PLY]!, false) === 0;
    for (let i = 0; i < pv.length; i++) board.unmake();
    this.limits = callerLimits;
    this.stopped = false;
    return mated ? pv : undefined;
  }

  /**
   * The table's move here if its entry proves a mate within `left` plies and the move is legal
   * (and a check, for the attacker); else 0. Leaves the entry in `tt.hit`.
   */
  private provenMove(left: number, attacker: boolean): number {
    const board = this.board;
    if (!this.tt.probe(board.keyHi(), board.keyLo())) return 0;
    const h = this.tt.hit;
    const m = h.move;
    if (m === 0 || h.lower <= 0 || h.lower > left) return 0;
    const list = this.lists[MAX_PLY]!;
    const n = board.generate(list, false);
    let legal = false;
    for (let j = 0; j < n; j++) if (list[j] === m) legal = true;
    if (!legal) return 0;
    if (attacker) {
      board.make(m);
      const check = board.inCheck();
      board.unmake();
      if (!check) return 0;
    }
    return m;
  }
}
