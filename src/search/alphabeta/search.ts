/**
 * Alpha-beta search: iterative deepening, principal variation search with aspiration windows,
 * a transposition table with lower and upper bounds, quiescence search, move ordering (TT move,
 * MVV-LVA, killers, history), check extension, mate scores by distance, the games' draw and
 * repetition rules inside the tree; null-move pruning, reverse futility pruning and late-move
 * reductions in tournament mode only (see options.ts for the training mode), and Giraffe's
 * probability-limited search as an alternative to depth.
 *
 * Tournament mode adds, each behind its switch in options.ts: static exchange evaluation in
 * ordering (losing captures last) and pruning (quiescence, low depth); capture history,
 * continuation history (one and two plies back) and counter moves, all with bounded ("gravity")
 * updates; move-count pruning, futility and history pruning of quiet moves, razoring, internal
 * iterative reduction, reductions driven by history and an "improving" flag; singular extension
 * with multi-cut and negative extension (off by default, see options.ts); correction history on
 * the static evaluation. These are
 * the techniques of Stockfish's search (and of most strong engines since), in simpler forms. Moves
 * that give check are never pruned. MultiPV searches the root moves line by line; time management
 * scales the soft limit by the best move's stability, the score trend and the best move's share of
 * the nodes.
 *
 * Scores are centipawns from the side to move's view (score.ts). The search is synchronous and
 * deterministic for a given table state, options and node budget: nodes are counted at every
 * entry of `negamax` and `quiesce`, and a node budget is checked at every node. Time and the
 * shared stop word are polled every 256 nodes (well under a millisecond at these speeds).
 *
 * Steps of `negamax`, numbered in the code: 1. rules and mate-distance pruning, 2. check extension
 * and horizon, 3. table probe, 4. pruning before moves (tournament), 5. move generation and
 * ordering, 6. the move loop (PVS, reductions), 7. mate/stalemate, 8. table store.
 */
import * as scoreModule from './score.js';
import type { SearchBoard } from './search-board.js';
import * as boardModule from './search-board.js';
import type { AbLimits, SearchOptions } from './options.js';
import { searchOptions } from './options.js';
import { POLL_MASK, QuiescenceSearch } from './quiescence.js';
import type { TranspositionTable } from './tt.js';
import type { SearchTuning } from './tuning.js';
import { DEFAULT_TUNING, lmrTable } from './tuning.js';

// Imported constants copied into module scope: under vitest's module transform every use of an
// import is a property read through a getter, several times slower in the hot loops.
const { RULE_DRAW, RULE_NONE, RULE_WIN } = boardModule;
const { INFINITE, MATE, MATE_BOUND, MAX_PLY, matePlies, scoreFromTable, scoreToTable } = scoreModule;

/** Progress after each completed iteration (and the final one). */
export interface IterationInfo {
  readonly depth: number;
  readonly seldepth: number;
  /** Side to move's view. */
  readonly score: number;
  readonly nodes: number;
  readonly timeMs: number;
  readonly pv: readonly number[];
  /** Rank of this line (1 = best) when the search reports several (`AbLimits.multiPv` > 1). */
  readonly multipv?: number;
}

export interface AbResult {
  /** Best move, 0 when the root has no legal move. */
  readonly bestMove: number;
  /** Expected reply (second PV move or the table's move after the best move), 0 if unknown. */
  readonly ponderMove: number;
  /** Score of the best move, side to move's view; for a root without moves, mate or draw. */
  readonly score: number;
  /** Deepest completed iteration (0 if none completed). */
  readonly depth: number;
  readonly seldepth: number;
  readonly nodes: number;
  readonly timeMs: number;
  readonly pv: readonly number[];
  /** Whether a limit or the stop word ended the search inside an iteration. */
  readonly aborted: boolean;
}

const TT_MOVE_SCORE = 1 << 30;
const TACTICAL_SCORE = 1 << 28;
const KILLER_SCORE = 1 << 27;
/** Captures that risk more than they win (nominal values) go after the killers. */
const BAD_CAPTURE_SCORE = 1 << 26;
/** With SEE, losing captures go after every quiet move (quiet keys are histories, about +-50000). */
const BAD_TACTICAL_SCORE = -(1 << 22);
/** Per-move ordering flags. */
const FLAG_QUIET = 0;
const FLAG_GOOD_TACTICAL = 1;
const FLAG_BAD_TACTICAL = 2;
const HISTORY_MAX = 16384;
/** Correction history: entries per side, and the units (per centipawn) and bound of an entry. */
const CORR_SIZE = 1 << 14;
const CORR_GRAIN = 16;
const CORR_LIMIT = 256 * CORR_GRAIN;
/** Evaluation cache: entries (a power of two) of four words: key low, key high, evaluation, search number. */
const EVAL_CACHE_SIZE = 1 << 18;
/** How often (in nodes, minus one) time and the stop word are polled. */


export class AlphaBetaSearch extends QuiescenceSearch {
  options: SearchOptions;
  readonly tt: TranspositionTable;

  private flags: Uint8Array[] = [];
  private costs: Float64Array[] = [];
  private listSize = 0;
  private readonly killers = new Int32Array(MAX_PLY * 2);
  private history = new Int32Array(0);
  private historySize = 0;
  /**
   * Continuation history: [side to move][1 or 2 plies back][that move's history index][this move's
   * history index], so both the opponent's last move and our previous one shape the ordering.
   */
  private contHist = new Int16Array(0);
  /** Capture history: [side][history index][victim class (tacticalOrder >> 4)]. */
  private captureHistory = new Int16Array(0);
  /**
   * Correction history: [side][correctionKey & (CORR_SIZE - 1)] -> how far searches at such
   * positions ended from the static evaluation (CORR_GRAIN units), added to later evaluations.
   */
  private readonly corrHist = new Int32Array(2 * CORR_SIZE);
  /** Counter moves: [side of the previous move][its history index] -> the quiet reply that cut. */
  private counters = new Int32Array(0);
  /** History index of the move played at each ply (-1 for a null move). */
  private readonly moveIdx = new Int32Array(MAX_PLY + 1);
  /** Static evaluation at each ply (-INFINITE in check), for the "improving" flag. */
  private readonly staticEvals = new Int32Array(MAX_PLY + 1);
  /** Move excluded at each ply by a singular-extension search (0 if none). */
  private readonly excluded = new Int32Array(MAX_PLY + 1);
  private readonly pv = new Int32Array(MAX_PLY * MAX_PLY);
  /**
   * Static evaluations of this search by position key (options.evalCache), direct-mapped; an
   * entry counts only in the search that wrote it (`searchNumber`), so a changed evaluator or
   * board never reads a stale value.
   */
  private evalCache = new Int32Array(0);
  private searchNumber = 0;

  private hardMs = Infinity;
  private softMs = Infinity;
  private useAllTime = false;
  /** Nodes spent below the root move that is best at the end of the iteration, and in all. */
  private bestMoveNodes = 0;
  private signal: Int32Array | undefined;
  private pondering = false;
  private startTime = 0;
  private timeBase = 0;
  private rootDepth = 0;
  private logBranching = Math.log(30);
  /** The margins of this search (options.tuning or the game's defaults) and its late-move reduction table [min(depth,63) * 64 + min(moveNumber,63)]. */
  private tune: SearchTuning = DEFAULT_TUNING.chess;
  private lmr: Int8Array = lmrTable(DEFAULT_TUNING.chess);

  private rootMoves = new Int32Array(0);
  private rootCosts = new Float64Array(0);
  private rootCount = 0;
  private iterBestMove = 0;
  /** Index of the first root move the current root search looks at (MultiPV line). */
  private pvFirst = 0;
  private iterBestScore = -INFINITE;
  private readonly rootPv: number[] = [];

  constructor(tt: TranspositionTable, options: SearchOptions = searchOptions()) {
    super();
    this.tt = tt;
    this.options = options;
  }

  /** Nodes searched by the last (or current) search. */
  get nodeCount(): number {
    return this.nodes;
  }

  /** Forgets killers and history (new game; TreeStrap also clears the table). */
  clearHeuristics(): void {
    this.killers.fill(0);
    this.history.fill(0);
    this.contHist.fill(0);
    this.captureHistory.fill(0);
    this.counters.fill(0);
    this.corrHist.fill(0);
  }

  private prepare(board: SearchBoard): void {
    const tuning = this.options.tuning ?? DEFAULT_TUNING[board.game];
    if (tuning !== this.tune) {
      this.tune = tuning;
      this.lmr = lmrTable(tuning);
    }
    this.deltaPruning = this.options.deltaPruning;
    this.deltaMargin = tuning.deltaMargin;
    this.seePruning = this.options.seePruning;
    this.badCapturePruning = this.options.badCapturePruning;
    if (this.listSize !== board.maxMoves) {
      this.listSize = board.maxMoves;
      this.lists = [];
      this.scores = [];
      this.flags = [];
      this.costs = [];
      for (let i = 0; i <= MAX_PLY; i++) {
        this.lists.push(new Int32Array(board.maxMoves));
        this.scores.push(new Int32Array(board.maxMoves));
        this.flags.push(new Uint8Array(board.maxMoves));
        this.costs.push(new Float64Array(board.maxMoves));
      }
      this.rootMoves = new Int32Array(board.maxMoves);
      this.rootCosts = new Float64Array(board.maxMoves);
    }
    if (this.historySize !== board.historySize) {
      this.historySize = board.historySize;
      this.history = new Int32Array(2 * board.historySize);
      this.contHist = new Int16Array(0);
    }
    if (this.options.extendedHistory && this.contHist.length === 0) {
      const hs = board.historySize;
      this.contHist = new Int16Array(4 * hs * hs);
      this.captureHistory = new Int16Array(2 * hs * 32);
      this.counters = new Int32Array(2 * hs);
    }
  }

  /**
   * Searches `board` (which is left as it was) within `limits`. `onIteration` is called after each
   * completed iteration.
   */
  search(board: SearchBoard, limits: AbLimits, onIteration?: (info: IterationInfo) => void): AbResult {
    this.prepare(board);
    this.board = board;
    const opts = this.options;
    this.logBranching = Math.log(opts.probabilityBranching ?? (board.game === 'chess' ? 30 : 80));
    this.nodes = 0;
    this.seldepth = 0;
    this.stopped = false;
    this.nodeLimit = limits.nodes ?? Infinity;
    this.hardMs = limits.hardMs ?? Infinity;
    this.softMs = limits.softMs ?? Infinity;
    this.useAllTime = limits.useAllTime === true && this.hardMs !== Infinity;
    this.signal = limits.signal;
    this.pondering = limits.ponder === true;
    this.startTime = performance.now();
    this.timeBase = this.startTime;
    this.tt.newSearch();
    if (opts.evalCache && this.evalCache.length === 0) this.evalCache = new Int32Array(4 * EVAL_CACHE_SIZE);
    this.searchNumber = this.searchNumber >= 0x7fffffff ? 1 : this.searchNumber + 1;
    this.killers.fill(0);
    this.excluded.fill(0);
    this.staticEvals.fill(-INFINITE);
    for (let i = 0; i < this.history.length; i++) this.history[i] = this.history[i]! >> 1;

    // Root moves, ordered once by the usual heuristics; later iterations move the best to the front.
    const n = board.generate(this.rootMoves, false);
    this.rootCount = n;
    if (n === 0) {
      const inCheck = board.inCheck();
      const score = board.noMovesIsLoss(inCheck) ? -MATE : 0;
      return { bestMove: 0, ponderMove: 0, score, depth: 0, seldepth: 0, nodes: 0, timeMs: 0, pv: [], aborted: false };
    }
    this.orderRoot();

    const maxDepth = Math.min(limits.depth ?? MAX_PLY - 8, MAX_PLY - 8);
    let bestMove = this.rootMoves[0]!;
    let bestScore = 0;
    let bestPv: number[] = [bestMove];
    let completed = 0;
    let aborted = false;
    let prevBestMove = 0;
    let prevScore = -INFINITE;
    let bestMoveChanges = 0;
    let timeFactor = 1;
    let iterStartNodes = 0;
    // MultiPV: line k searches the root moves from index k on, the k better lines excluded.
    const lines = Math.max(1, Math.min(n, Math.floor(limits.multiPv ?? 1)));
    const lineScores = new Array<number>(lines).fill(0);
    const linePvs: number[][] = Array.from({ length: lines }, () => []);
    for (let depth = 1 + ((limits.helperId ?? 0) & 1); depth <= maxDepth; depth++) {
      this.rootDepth = depth;
      iterStartNodes = this.nodes;
      this.bestMoveNodes = 0;
      let score = 0;
      let line0Done = false;
      for (let k = 0; k < lines; k++) {
        this.pvFirst = k;
        this.iterBestMove = 0;
        this.iterBestScore = -INFINITE;
        const prev = k === 0 ? bestScore : lineScores[k]!;
        if (opts.aspiration && depth >= 4 && Math.abs(prev) < MATE_BOUND) {
          let delta = this.tune.aspirationDelta;
          let alpha = Math.max(prev - delta, -INFINITE);
          let beta = Math.min(prev + delta, INFINITE);
          for (;;) {
            score = this.rootSearch(depth, alpha, beta);
            if (this.stopped) break;
            if (score <= alpha) {
              beta = Math.min((alpha + beta) >> 1, beta);
              alpha = Math.max(score - delta, -INFINITE);
            } else if (score >= beta) {
              beta = Math.min(score + delta, INFINITE);
            } else break;
            delta *= 2;
            if (delta > 1000) {
              alpha = -INFINITE;
              beta = INFINITE;
            }
          }
        } else {
          score = this.rootSearch(depth, -INFINITE, INFINITE);
        }
        if (this.stopped) break;
        const lineMove = this.iterBestMove !== 0 ? this.iterBestMove : this.rootMoves[k]!;
        lineScores[k] = score + 0; // no -0
        linePvs[k] = this.iterBestMove !== 0 ? [...this.rootPv] : [lineMove];
        if (k === 0) {
          line0Done = true;
          bestMove = lineMove;
          bestScore = lineScores[0]!;
          bestPv = linePvs[0]!;
        }
      }
      if (this.stopped) {
        // A move that beat alpha inside this iteration was searched to the new depth: keep it.
        if (!line0Done && this.pvFirst === 0 && this.iterBestMove !== 0) {
          bestMove = this.iterBestMove;
          bestScore = this.iterBestScore + 0; // no -0
          bestPv = [...this.rootPv];
        }
        aborted = true;
        break;
      }
      completed = depth;
      if (lines > 1) {
        // The lines in score order (a later line can beat an earlier one after a re-search).
        const order = Array.from({ length: lines }, (_, i) => i).sort((x, y) => lineScores[y]! - lineScores[x]! || x - y);
        // Re-rank in place: line r's move goes to root index r (the next iteration searches line r
        // from there), and the best line is the move played, so `bestmove` equals `multipv 1`.
        const moves = order.map((k) => this.rootMoves[k]!);
        const costs = order.map((k) => this.rootCosts[k]!);
        const scores = order.map((k) => lineScores[k]!);
        const pvs = order.map((k) => linePvs[k]!);
        for (let r = 0; r < lines; r++) {
          this.rootMoves[r] = moves[r]!;
          this.rootCosts[r] = costs[r]!;
          lineScores[r] = scores[r]!;
          linePvs[r] = pvs[r]!;
        }
        bestMove = linePvs[0]![0] ?? this.rootMoves[0]!;
        bestScore = lineScores[0]!;
        bestPv = linePvs[0]!;
        const elapsed = performance.now() - this.startTime;
        for (let r = 0; r < lines; r++) {
          onIteration?.({ depth, seldepth: this.seldepth, score: lineScores[r]!, nodes: this.nodes, timeMs: elapsed, pv: linePvs[r]!, multipv: r + 1 });
        }
      }
      if (lines === 1) onIteration?.({ depth, seldepth: this.seldepth, score: bestScore, nodes: this.nodes, timeMs: performance.now() - this.startTime, pv: bestPv });
      // Stop: a certain mate, a single legal move under time control, or the soft time limit.
      const mp = matePlies(bestScore);
      if (mp !== 0 && Math.abs(mp) <= depth && !limits.noEarlyMateStop && opts.limit === 'depth') break;
      if (n === 1 && (limits.softMs !== undefined || limits.hardMs !== undefined) && !this.pondering && !this.useAllTime) break;
      // Time: the best move's stability, a score drop and the share of the iteration's nodes spent
      // on the best move scale the soft limit (Stockfish's time management, simplified).
      if (depth >= 2) {
        bestMoveChanges = bestMoveChanges * 0.5 + (bestMove !== prevBestMove ? 1 : 0);
        const drop = prevScore === -INFINITE ? 0 : prevScore - bestScore;
        const iterNodes = Math.max(1, this.nodes - iterStartNodes);
        const share = this.bestMoveNodes / iterNodes;
        timeFactor =
          (0.75 + 0.6 * bestMoveChanges) * Math.min(1.6, Math.max(0.85, 1 + drop / 150)) * Math.min(1.35, Math.max(0.65, 1.55 - share));
        timeFactor = Math.min(2.5, Math.max(0.35, timeFactor));
      }
      prevBestMove = bestMove;
      prevScore = bestScore;
      if (!this.pondering && !this.useAllTime && this.softMs !== Infinity) {
        if (performance.now() - this.timeBase >= Math.min(this.softMs * this.tune.timeSoftRatio * timeFactor, this.hardMs * 0.6)) break;
      }
      if (this.nodes >= this.nodeLimit) break;
    }
    let ponderMove = bestPv.length > 1 ? bestPv[1]! : 0;
    if (ponderMove === 0) {
      board.make(bestMove);
      const m = this.tt.probeMove(board.keyHi(), board.keyLo());
      if (m !== 0) {
        const list = this.lists[1]!;
        const k = board.generate(list, false);
        for (let i = 0; i < k; i++) if (list[i] === m) ponderMove = m;
      }
      board.unmake();
    }
    return {
      bestMove,
      ponderMove,
      score: bestScore,
      depth: completed,
      seldepth: this.seldepth,
      nodes: this.nodes,
      timeMs: performance.now() - this.startTime,
      pv: bestPv,
      aborted,
    };
  }

  /** Orders the root moves: table move, captures by MVV-LVA, then the rest as generated. */
  private orderRoot(): void {
    const board = this.board;
    const n = this.rootCount;
    const moves = this.rootMoves;
    const ttMove = this.tt.probeMove(board.keyHi(), board.keyLo());
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const m = moves[i]!;
      keys[i] = m === ttMove ? TT_MOVE_SCORE : board.tacticalOrder(m) > 0 ? TACTICAL_SCORE + board.tacticalOrder(m) : 0;
    }
    const idx = Array.from({ length: n }, (_, i) => i).sort((a, b) => keys[b]! - keys[a]! || a - b);
    const sorted = idx.map((i) => moves[i]!);
    for (let i = 0; i < n; i++) moves[i] = sorted[i]!;
    // Probability-limited search: the root's children split probability 1.
    if (this.options.limit === 'probability') this.moveCosts(moves, n, this.rootCosts);
  }

  /** Fills `out` with the depth cost of each move (probability search). */
  private moveCosts(moves: Int32Array, n: number, out: Float64Array): void {
    const probs = this.options.moveProbabilities;
    if (probs === undefined) {
      const c = Math.log(n) / this.logBranching;
      for (let i = 0; i < n; i++) out[i] = c;
      return;
    }
    probs(this.board, moves, n, out);
    for (let i = 0; i < n; i++) {
      const p = out[i]!;
      out[i] = p > 1e-12 ? -Math.log(p) / this.logBranching : 1e6;
    }
  }

  private rootSearch(depth: number, alpha: number, beta: number): number {
    const board = this.board;
    const moves = this.rootMoves;
    const costs = this.rootCosts;
    const n = this.rootCount;
    const prob = this.options.limit === 'probability';
    const origAlpha = alpha;
    let best = -INFINITE;
    const first = this.pvFirst;
    this.nodes++;
    this.pvLen[0] = 0;
    for (let i = first; i < n; i++) {
      const m = moves[i]!;
      const childDepth = depth - (prob ? costs[i]! : 1);
      this.moveIdx[0] = board.historyIndex(m);
      const nodesBefore = this.nodes;
      board.make(m);
      const check = board.inCheck();
      let score: number;
      if (i === first) score = -this.negamax(-beta, -alpha, childDepth, 1, true, true, check);
      else {
        score = -this.negamax(-alpha - 1, -alpha, childDepth, 1, false, true, check);
        if (!this.stopped && score > alpha && score < beta) score = -this.negamax(-beta, -alpha, childDepth, 1, true, true, check);
      }
      board.unmake();
      if (this.stopped) break;
      if (score > best) {
        best = score;
        if (score > alpha) {
          alpha = score;
          this.iterBestMove = m;
          this.bestMoveNodes = this.nodes - nodesBefore;
          this.iterBestScore = score;
          this.rootPv.length = 0;
          this.rootPv.push(m);
          const len = this.pvLen[1]!;
          for (let k = 0; k < len; k++) this.rootPv.push(this.pv[1 * MAX_PLY + k]!);
          // Move to the front of this line's moves, keeping the others' order.
          if (i > first) {
            const c = costs[i]!;
            for (let k = i; k > first; k--) {
              moves[k] = moves[k - 1]!;
              costs[k] = costs[k - 1]!;
            }
            moves[first] = m;
            costs[first] = c;
          }
          if (score >= beta) break;
        }
      }
    }
    if (!this.stopped && first === 0) {
      const lower = best > origAlpha ? best : -INFINITE;
      const upper = best < beta ? best : INFINITE;
      this.tt.storeBounds(
        board.keyHi(),
        board.keyLo(),
        Math.floor(depth),
        lower === -INFINITE ? lower : scoreToTable(lower, 0),
        upper === INFINITE ? upper : scoreToTable(upper, 0),
        this.iterBestMove !== 0 ? this.iterBestMove : moves[0]!,
      );
    }
    return best;
  }

  /** Checks the node budget, the stop word and the clock; sets `stopped`. */
  protected poll(): void {
    if (this.nodes >= this.nodeLimit) {
      this.stopped = true;
      return;
    }
    const s = this.signal;
    if (s !== undefined) {
      if (Atomics.load(s, 0) !== 0) {
        this.stopped = true;
        return;
      }
      if (this.pondering && Atomics.load(s, 1) !== 0) {
        this.pondering = false;
        this.timeBase = performance.now();
      }
    }
    if (!this.pondering && this.hardMs !== Infinity && performance.now() - this.timeBase >= this.hardMs) this.stopped = true;
  }

  /** The board's static evaluation, through the evaluation cache when it is on. */
  protected override evaluate(): number {
    const board = this.board;
    if (!this.options.evalCache) return board.evaluate();
    const lo = board.keyLo() | 0;
    const hi = board.keyHi() | 0;
    const c = this.evalCache;
    const i = (lo & (EVAL_CACHE_SIZE - 1)) << 2;
    if (c[i] === lo && c[i + 1] === hi && c[i + 3] === this.searchNumber) return c[i + 2]!;
    const v = board.evaluate();
    c[i] = lo;
    c[i + 1] = hi;
    c[i + 2] = v;
    c[i + 3] = this.searchNumber;
    return v;
  }

  /**
   * Whether the opponent, were we to pass, would mate in one (tuning `mateThreat`, boards with the
   * mate-in-one test; the caller is not in check). A position under such a threat is not cut by its
   * static evaluation or a null move: the evaluation does not see the mate.
   */
  private mateThreat(): boolean {
    const board = this.board;
    if (this.tune.mateThreat === 0 || board.mateIn1 === undefined) return false;
    board.makeNull();
    const threat = board.mateIn1() !== 0;
    board.unmake();
    return threat;
  }

  /** Whether legal move `m` gives check (made and taken back when the board cannot tell without). */
  private givesCheck(m: number): boolean {
    const b = this.board;
    if (b.givesCheck !== undefined) return b.givesCheck(m);
    b.make(m);
    const check = b.inCheck();
    b.unmake();
    return check;
  }

  /** Bounded ("gravity") update of a history entry towards +-HISTORY_MAX. */
  private static bump(table: Int16Array | Int32Array, i: number, bonus: number): void {
    const v = table[i]!;
    table[i] = v + bonus - Math.trunc((v * Math.abs(bonus)) / HISTORY_MAX);
  }

  /** `inCheck`: whether the side to move is in check here (the caller knows it from making the move). */
  private negamax(alpha: number, beta: number, depth: number, ply: number, pvNode: boolean, nullOk: boolean, inCheck: boolean): number {
    const board = this.board;
    const opts = this.options;
    this.pvLen[ply] = 0;
    const excluded = this.excluded[ply]!;

    // Step 1. Rules (repetition, fifty moves, material) and mate-distance pruning.
    const rule = board.ruleState();
    if (rule !== RULE_NONE) {
      this.nodes++;
      return rule === RULE_DRAW ? 0 : rule === RULE_WIN ? MATE - ply : -(MATE - ply);
    }
    if (alpha < -(MATE - ply)) alpha = -(MATE - ply);
    if (beta > MATE - ply - 1) beta = MATE - ply - 1;
    if (alpha >= beta) {
      this.nodes++;
      return alpha;
    }

    // Step 2. Check extension and the horizon.
    if (inCheck && opts.checkExtension && opts.limit === 'depth' && ply < 2 * this.rootDepth + 4) depth += 1;
    if (depth <= 0 || ply >= MAX_PLY - 4) return this.quiesce(alpha, beta, ply, inCheck);

    if ((++this.nodes & POLL_MASK) === 0 || this.nodes >= this.nodeLimit) {
      this.poll();
      if (this.stopped) return 0;
    }
    if (ply > this.seldepth) this.seldepth = ply;

    // Step 3. Transposition table (not in a singular-extension search, which excludes a move).
    const hi = board.keyHi();
    const lo = board.keyLo();
    let ttMove = 0;
    let ttDepth = -1000;
    let ttLower = -INFINITE;
    let ttUpper = INFINITE;
    const tt = this.tt;
    const ttHit = excluded === 0 && tt.probe(hi, lo);
    if (ttHit) {
      const h = tt.hit;
      ttMove = h.move;
      ttDepth = h.depth;
      if (h.lower > -INFINITE) ttLower = scoreFromTable(h.lower, ply);
      if (h.upper < INFINITE) ttUpper = scoreFromTable(h.upper, ply);
      if (!pvNode && h.depth >= depth) {
        if (ttLower >= beta) return ttLower;
        if (ttUpper <= alpha) return ttUpper;
      }
    }

    // Step 3b. Mate in one, found without a search (shogi), where the table knows nothing yet.
    if (!ttHit && !inCheck && excluded === 0 && opts.mateIn1 && depth >= this.tune.mate1MinDepth && board.mateIn1 !== undefined) {
      const mate = board.mateIn1();
      if (mate !== 0) {
        const score = MATE - ply - 1;
        if (pvNode) {
          this.pv[ply * MAX_PLY] = mate;
          this.pvLen[ply] = 1;
        }
        tt.storeBounds(hi, lo, Math.min(MAX_PLY - 1, Math.floor(depth) + 6), scoreToTable(score, ply), scoreToTable(score, ply), mate);
        return score;
      }
    }

    // Step 4. Pruning before the moves (tournament only: it trusts the evaluation).
    const quietPruning = opts.quietPruning;
    const tune = this.tune;
    let staticEval = -INFINITE;
    let improving = false;
    let corrIdx = -1;
    let corrEval = 0;
    if (!inCheck && (opts.nullMove || opts.futility || quietPruning)) {
      staticEval = this.evaluate();
      if (opts.correctionHistory && board.correctionKey !== undefined) {
        corrIdx = board.sideToMove() * CORR_SIZE + (board.correctionKey() & (CORR_SIZE - 1));
        staticEval += Math.trunc(this.corrHist[corrIdx]! / CORR_GRAIN);
        if (staticEval >= MATE_BOUND) staticEval = MATE_BOUND - 1;
        else if (staticEval <= -MATE_BOUND) staticEval = -MATE_BOUND + 1;
        corrEval = staticEval;
      }
      // The table's bounds are a better guess than the static evaluation.
      if (ttLower > staticEval && ttLower < MATE_BOUND) staticEval = ttLower;
      else if (ttUpper < staticEval && ttUpper > -MATE_BOUND) staticEval = ttUpper;
      const prev = ply >= 2 ? this.staticEvals[ply - 2]! : -INFINITE;
      improving = prev !== -INFINITE && staticEval > prev;
    }
    this.staticEvals[ply] = staticEval;
    // Shogi: pieces in hand widen the futility margins (tuning handMargin).
    const handExtra = staticEval !== -INFINITE && tune.handMargin > 0 && board.handCount !== undefined ? tune.handMargin * board.handCount() : 0;
    if (!pvNode && !inCheck && excluded === 0 && staticEval !== -INFINITE) {
      // The mate-threat test, run at most once here for both cuts that ask for it.
      let threat: boolean | undefined;
      // Reverse futility: far above beta near the horizon.
      if (opts.futility && Math.abs(beta) < MATE_BOUND) {
        const maxDepth = quietPruning ? tune.rfpMaxDepth : 3;
        const margin = (quietPruning ? (improving ? tune.rfpMarginImproving : tune.rfpMargin) * depth : 120 * depth) + handExtra;
        if (depth <= maxDepth && staticEval - margin >= beta && !(threat ??= this.mateThreat())) return staticEval;
      }
      // Razoring: hopeless near the horizon unless a capture saves it.
      if (quietPruning && depth <= 3 && staticEval + tune.razorBase + tune.razorDepth2 * depth * depth < alpha) {
        const v = this.quiesce(alpha, alpha + 1, ply, false);
        if (this.stopped) return 0;
        if (v <= alpha) return v;
      }
      // Null move.
      if (opts.nullMove && nullOk && depth >= 2 && staticEval >= beta && board.nullMoveOk() && !(threat ??= this.mateThreat())) {
        const r = quietPruning
          ? tune.nullBase + Math.floor(depth / tune.nullDepthDivisor) + Math.min(3, Math.floor((staticEval - beta) / tune.nullEvalDivisor))
          : 2 + Math.floor(depth / 4);
        this.moveIdx[ply] = -1;
        board.makeNull();
        const score = -this.negamax(-beta, -beta + 1, depth - 1 - r, ply + 1, false, false, false);
        board.unmake();
        if (this.stopped) return 0;
        if (score >= beta) return score >= MATE_BOUND ? beta : score;
      }
    }

    // Internal iterative reduction: without a table move this node was not searched before (or
    // was overwritten); a shallower search is cheaper and fills the table for the next iteration.
    if (quietPruning && ttMove === 0 && excluded === 0 && depth >= tune.iirMinDepth) depth -= 1;

    // Singular extension (before this ply's move list is built: the verification search reuses it).
    let singularExt = 0;
    if (
      opts.singularExtension &&
      excluded === 0 &&
      ttMove !== 0 &&
      depth >= tune.singularMinDepth &&
      ply < 2 * this.rootDepth &&
      ttLower > -MATE_BOUND &&
      ttLower < MATE_BOUND &&
      ttDepth >= depth - 3
    ) {
      const singularBeta = ttLower - Math.floor(tune.singularMargin * Math.floor(depth));
      this.excluded[ply] = ttMove;
      const v = this.negamax(singularBeta - 1, singularBeta, Math.floor((depth - 1) / 2), ply, false, false, inCheck);
      this.excluded[ply] = 0;
      if (this.stopped) return 0;
      if (v < singularBeta) singularExt = 1;
      // Multi-cut: another move also beats beta.
      else if (singularBeta >= beta) return singularBeta;
      else if (ttLower >= beta) singularExt = -1;
      this.pvLen[ply] = 0;
    }

    // Step 5. Moves, scored for ordering.
    const list = this.lists[ply]!;
    const keys = this.scores[ply]!;
    const flags = this.flags[ply]!;
    const n = board.generate(list, false);
    // Step 7 (early). No legal move: mate or stalemate.
    if (n === 0) return board.noMovesIsLoss(inCheck) ? -(MATE - ply) : 0;
    const side = board.sideToMove();
    const hist = this.history;
    const HS = this.historySize;
    const hbase = side * HS;
    const ext = opts.extendedHistory;
    const cont = this.contHist;
    const capt = this.captureHistory;
    const p1 = ply >= 1 ? this.moveIdx[ply - 1]! : -1;
    const p2 = ply >= 2 ? this.moveIdx[ply - 2]! : -1;
    const c1 = ext && p1 >= 0 ? ((side * 2) * HS + p1) * HS : -1;
    const c2 = ext && p2 >= 0 ? ((side * 2 + 1) * HS + p2) * HS : -1;
    const counter = ext && p1 >= 0 ? this.counters[(side ^ 1) * HS + p1]! : 0;
    const useSee = opts.seePruning;
    const k1 = this.killers[ply * 2]!;
    const k2 = this.killers[ply * 2 + 1]!;
    const checkBonus = board.givesCheck !== undefined ? this.tune.checkBonus : 0;
    for (let i = 0; i < n; i++) {
      const m = list[i]!;
      let s: number;
      let f = FLAG_QUIET;
      const t = board.tacticalOrder(m);
      if (t > 0) {
        if (useSee) {
          const good = this.seeGe(m, 0);
          f = good ? FLAG_GOOD_TACTICAL : FLAG_BAD_TACTICAL;
          const ch = ext ? capt[(hbase + board.historyIndex(m)) * 32 + Math.min(t >> 4, 31)]! : 0;
          s = (good ? TACTICAL_SCORE : BAD_TACTICAL_SCORE) + (t >> 4) * 2048 + (t & 15) + ch;
        } else {
          const bad = board.isBadCapture(m);
          f = bad ? FLAG_BAD_TACTICAL : FLAG_GOOD_TACTICAL;
          s = (bad ? BAD_CAPTURE_SCORE : TACTICAL_SCORE) + t;
        }
      } else if (m === k1) s = KILLER_SCORE + 1;
      else if (m === k2) s = KILLER_SCORE;
      else if (m === counter) s = KILLER_SCORE - 1;
      else {
        const hi2 = board.historyIndex(m);
        s = hist[hbase + hi2]!;
        if (c1 >= 0) s += cont[c1 + hi2]!;
        if (c2 >= 0) s += cont[c2 + hi2]!;
        // Quiet checks (drops included) before the other quiets.
        if (checkBonus !== 0 && board.givesCheck!(m)) s += checkBonus;
      }
      if (m === ttMove) s = TT_MOVE_SCORE;
      keys[i] = s;
      flags[i] = f;
    }
    const prob = opts.limit === 'probability';
    const costs = this.costs[ply]!;
    if (prob) this.moveCosts(list, n, costs);

    // Step 6. The move loop.
    const origAlpha = alpha;
    let best = -INFINITE;
    let bestMove = 0;
    const lmr = opts.lateMoveReductions && depth >= 3 && !inCheck;
    const idepth = Math.floor(depth);
    const lmpLimit = improving ? tune.lmpBase + idepth * idepth : (tune.lmpBase + idepth * idepth) >> 1;
    const lmrTable = this.lmr;
    const pruneOk = quietPruning && !pvNode && !inCheck && staticEval !== -INFINITE;
    let moveCount = 0;
    let skipQuiets = false;
    for (let i = 0; i < n; i++) {
      // Selection: bring the best remaining move to slot i.
      let bi = i;
      let bs = keys[i]!;
      for (let j = i + 1; j < n; j++) {
        if (keys[j]! > bs) {
          bs = keys[j]!;
          bi = j;
        }
      }
      const m = list[bi]!;
      const f = flags[bi]!;
      if (bi !== i) {
        list[bi] = list[i]!;
        list[i] = m;
        keys[bi] = keys[i]!;
        keys[i] = bs;
        flags[bi] = flags[i]!;
        flags[i] = f;
        if (prob) {
          const c = costs[bi]!;
          costs[bi] = costs[i]!;
          costs[i] = c;
        }
      }
      if (m === excluded) continue;
      const quiet = f === FLAG_QUIET;
      const hidx = board.historyIndex(m);
      let histScore = 0;
      if (quiet) {
        histScore = hist[hbase + hidx]!;
        if (c1 >= 0) histScore += cont[c1 + hidx]!;
        if (c2 >= 0) histScore += cont[c2 + hidx]!;
      }
      // Pruning near the horizon, never of the first move, of a check (tsume lines are all checks)
      // or when every move so far loses to a mate.
      this.moveIdx[ply] = hidx;
      if (moveCount > 0 && best > -MATE_BOUND) {
        let prune = false;
        if (quiet) {
          if (skipQuiets) prune = true;
          else if (pruneOk && depth <= tune.lmpMaxDepth && moveCount >= lmpLimit) prune = skipQuiets = true;
          else {
            const lmrDepth = Math.max(0, idepth - 1 - (moveCount < 64 && idepth < 64 ? lmrTable[idepth * 64 + moveCount]! : 4));
            if (pruneOk && lmrDepth <= tune.futilityMaxDepth && staticEval + tune.futilityBase + handExtra + tune.futilityPerDepth * lmrDepth <= alpha && m !== k1 && m !== k2) prune = true;
            else if (pruneOk && lmrDepth <= 3 && histScore < -tune.historyPruning * idepth) prune = true;
            else if (useSee && !inCheck && lmrDepth <= 6 && !pvNode && !this.seeGe(m, -tune.seeQuiet * lmrDepth * lmrDepth)) prune = true;
          }
        } else if (useSee && !pvNode && !inCheck && depth <= 6 && f === FLAG_BAD_TACTICAL && !this.seeGe(m, -tune.seeCapture * idepth)) prune = true;
        if (prune && !this.givesCheck(m)) continue;
      }
      board.make(m);
      const check = board.inCheck();
      const extension = m === ttMove ? singularExt : 0;
      const childDepth = depth - (prob ? costs[i]! : 1) + extension;
      moveCount++;
      let score: number;
      if (moveCount === 1) {
        score = -this.negamax(-beta, -alpha, childDepth, ply + 1, pvNode, true, check);
      } else {
        let r = 0;
        if (lmr && moveCount >= 3 && f !== FLAG_GOOD_TACTICAL && !check) {
          r = lmrTable[Math.min(idepth, 63) * 64 + Math.min(moveCount, 63)]!;
          if (quietPruning) {
            if (!improving) r++;
            if (quiet) r -= Math.trunc(histScore / tune.lmrHistoryDivisor);
            if (m === k1 || m === k2 || m === counter) r--;
          }
          if (pvNode && r > 0) r--;
          if (r < 0) r = 0;
          if (r > childDepth - 1) r = Math.max(0, Math.floor(childDepth - 1));
        }
        score = -this.negamax(-alpha - 1, -alpha, childDepth - r, ply + 1, false, true, check);
        if (r > 0 && score > alpha && !this.stopped) score = -this.negamax(-alpha - 1, -alpha, childDepth, ply + 1, false, true, check);
        if (pvNode && score > alpha && score < beta && !this.stopped) score = -this.negamax(-beta, -alpha, childDepth, ply + 1, true, true, check);
      }
      board.unmake();
      if (this.stopped) return 0;
      if (score > best) {
        best = score;
        if (score > alpha) {
          bestMove = m;
          alpha = score;
          if (pvNode) {
            // Triangular PV: this move, then the child's line.
            const base = ply * MAX_PLY;
            const cbase = (ply + 1) * MAX_PLY;
            const clen = this.pvLen[ply + 1]!;
            this.pv[base] = m;
            for (let k = 0; k < clen; k++) this.pv[base + 1 + k] = this.pv[cbase + k]!;
            this.pvLen[ply] = clen + 1;
          }
          if (score >= beta) {
            this.updateHistories(list, flags, i, ply, side, idepth, c1, c2, p1);
            break;
          }
        }
      }
    }
    if (moveCount === 0) {
      // Every move was excluded (singular search with a single legal move): fail low.
      return excluded !== 0 ? alpha : best;
    }

    // Correction history: learn how far the search ended from the corrected evaluation, unless a
    // capture decided it or the bound says nothing about the difference.
    if (
      corrIdx >= 0 &&
      excluded === 0 &&
      Math.abs(best) < MATE_BOUND &&
      (bestMove === 0 || board.tacticalOrder(bestMove) === 0) &&
      !(best >= beta && best <= corrEval) &&
      !(bestMove === 0 && best >= corrEval)
    ) {
      let bonus = Math.trunc(((best - corrEval) * CORR_GRAIN * idepth) / 8);
      if (bonus > CORR_LIMIT / 4) bonus = CORR_LIMIT / 4;
      else if (bonus < -CORR_LIMIT / 4) bonus = -CORR_LIMIT / 4;
      const v = this.corrHist[corrIdx]!;
      this.corrHist[corrIdx] = v + bonus - Math.trunc((v * Math.abs(bonus)) / CORR_LIMIT);
    }

    // Step 8. Store: a fail-low is an upper bound, a fail-high a lower bound, else exact.
    if (excluded === 0) {
      const lower = best > origAlpha ? scoreToTable(best, ply) : -INFINITE;
      const upper = best < beta ? scoreToTable(best, ply) : INFINITE;
      tt.storeBounds(hi, lo, Math.floor(depth), lower, upper, bestMove !== 0 ? bestMove : ttMove);
    }
    return best;
  }

  /**
   * After a beta cutoff by `list[cut]`: killers, counter move, history and continuation history for
   * a quiet cut (penalties for the quiet moves tried before it), capture history for every capture.
   */
  private updateHistories(list: Int32Array, flags: Uint8Array, cut: number, ply: number, side: number, depth: number, c1: number, c2: number, p1: number): void {
    const board = this.board;
    const m = list[cut]!;
    const HS = this.historySize;
    const hbase = side * HS;
    const bonus = Math.min(depth * depth + depth, 1200);
    const ext = this.options.extendedHistory;
    if (flags[cut] === FLAG_QUIET) {
      if (this.killers[ply * 2] !== m) {
        this.killers[ply * 2 + 1] = this.killers[ply * 2]!;
        this.killers[ply * 2] = m;
      }
      if (ext && p1 >= 0) this.counters[(side ^ 1) * HS + p1] = m;
      const hm = board.historyIndex(m);
      AlphaBetaSearch.bump(this.history, hbase + hm, bonus);
      if (c1 >= 0) AlphaBetaSearch.bump(this.contHist, c1 + hm, bonus);
      if (c2 >= 0) AlphaBetaSearch.bump(this.contHist, c2 + hm, bonus);
    } else if (ext) {
      const t = board.tacticalOrder(m);
      AlphaBetaSearch.bump(this.captureHistory, (hbase + board.historyIndex(m)) * 32 + Math.min(t >> 4, 31), bonus);
    }
    for (let j = 0; j < cut; j++) {
      const q = list[j]!;
      if (q === this.excluded[ply]) continue;
      if (flags[j] === FLAG_QUIET) {
        if (flags[cut] !== FLAG_QUIET) continue;
        const hj = board.historyIndex(q);
        AlphaBetaSearch.bump(this.history, hbase + hj, -bonus);
        if (c1 >= 0) AlphaBetaSearch.bump(this.contHist, c1 + hj, -bonus);
        if (c2 >= 0) AlphaBetaSearch.bump(this.contHist, c2 + hj, -bonus);
      } else if (ext) {
        const t = board.tacticalOrder(q);
        AlphaBetaSearch.bump(this.captureHistory, (hbase + board.historyIndex(q)) * 32 + Math.min(t >> 4, 31), -bonus);
      }
    }
  }
}
