/**
 * The alpha-beta engine behind the Player API, synchronous: it turns one `GoRequest` into a
 * `GoResult` (set up the position, answer terminal positions, `resign` and shogi `win`, mate
 * searches, plan the time, search, report `info`). The worker thread (search-worker.ts) runs it;
 * tests and learners may run it inline.
 *
 * Control while it searches comes through a shared `Int32Array` (see `AbLimits.signal`):
 * word 0 is `stop`, word 1 is `ponderhit`. Infinite and ponder searches that end early (mate
 * found, depth exhausted) wait for `stop` (or `ponderhit`) before answering, as UCI/USI require.
 */
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import { ChessLinearEval } from '../eval/linear/chess-eval.js';
import { ShogiLinearEval } from '../eval/linear/shogi-eval.js';
import { ChessNnue } from '../eval/nnue/chess-nnue.js';
import type { NnueNetwork } from '../eval/nnue/network.js';
import { ShogiNnue } from '../eval/nnue/shogi-nnue.js';
import { simdSupported } from '../eval/nnue/simd/simd-kernels.js';
import { ChessSearchBoard } from '../search/alphabeta/chess-board.js';
import { MateSolver } from '../search/alphabeta/mate-solver.js';
import { searchOptions, type AbLimits, type SearchOptions } from '../search/alphabeta/options.js';
import { matePlies } from '../search/alphabeta/score.js';
import type { SearchBoard } from '../search/alphabeta/search-board.js';
import { AlphaBetaSearch, type IterationInfo } from '../search/alphabeta/search.js';
import { ShogiSearchBoard } from '../search/alphabeta/shogi-board.js';
import { TranspositionTable } from '../search/alphabeta/tt.js';
import { Dyna2 } from '../search/td/dyna2.js';
import { TD_SCALE_CP, type TdSearchParams } from '../search/td/td-search.js';
import { DEFAULT_TUNING } from '../search/alphabeta/tuning.js';
import { byoyomiOnly, byoyomiStopMs } from '../search/time.js';
import { seededRng } from '../core/rng.js';
import type { SparseVector } from '../eval/linear/sparse.js';
import { SIGNAL_STOP } from './control-words.js';
import { clockPlan, holdAnswer, lessArrivalLag, lineLeaf, lineText, prelude } from './engine-prelude.js';
import type { GoRequest, GoResult, SearchInfo } from './player.js';

export interface EngineSettings {
  readonly game: GameKind;
  /** Evaluation weights, indexed like the game's feature set. */
  readonly theta: Float64Array;
  /** The network evaluation (replaces the linear one in the search when given). */
  readonly nnue?: NnueNetwork;
  /** false: run `nnue` without the SIMD kernels (config `nnueSimd`); absent: where the runtime supports them. */
  readonly nnueSimd?: boolean;
  readonly hashMb: number;
  readonly moveOverheadMs: number;
  readonly options?: SearchOptions;
  /** Put the transposition table in shared memory (Lazy SMP: helper threads attach to `tableMemory`). */
  readonly sharedTable?: boolean;
  /** Attach to this shared table instead of allocating one (a Lazy SMP helper). */
  readonly tableMemory?: SharedArrayBuffer;
  /**
   * The two-phase search of Dyna-2 (src/search/td/): TD search for `timeShare` of the move's time,
   * then alpha-beta over the long-term plus the short-term evaluation. Absent: plain alpha-beta.
   */
  readonly dyna2?: TdSearchParams;
}

/** A win probability as centipawns on TD search's logistic scale (td-search.ts `TD_SCALE_CP`), bounded. */
const tdCentipawns = (p: number): number => {
  const q = Math.min(1 - 1e-9, Math.max(1e-9, p));
  return Math.max(-10_000, Math.min(10_000, Math.round(TD_SCALE_CP * Math.log(q / (1 - q)))));
};

/** The control array's words (control-words.ts), where the engine's inline users import them. */
export { SIGNAL_PONDERHIT, SIGNAL_STOP, SIGNAL_WORDS } from './control-words.js';

export class AlphaBetaEngine {
  readonly game: GameKind;
  private readonly tt: TranspositionTable;
  private readonly search: AlphaBetaSearch;
  private readonly mate = new MateSolver(16);
  private readonly chessEval?: ChessLinearEval;
  private readonly shogiEval?: ShogiLinearEval;
  private readonly chessNnue?: ChessNnue;
  private readonly shogiNnue?: ShogiNnue;
  private moveOverheadMs: number;
  private readonly dyna2?: Dyna2;
  /** Nodes of the root mate probe under a clock (tuning `rootMateNodes`; 0: none). */
  private readonly rootMateNodes: number;

  constructor(settings: EngineSettings) {
    this.game = settings.game;
    this.tt =
      settings.tableMemory !== undefined
        ? new TranspositionTable(settings.hashMb, settings.tableMemory)
        : settings.sharedTable === true
          ? TranspositionTable.shared(settings.hashMb)
          : new TranspositionTable(settings.hashMb);
    this.search = new AlphaBetaSearch(this.tt, settings.options ?? searchOptions('tournament'));
    this.moveOverheadMs = settings.moveOverheadMs;
    this.rootMateNodes = settings.game === 'shogi' ? (settings.options?.tuning ?? DEFAULT_TUNING.shogi).rootMateNodes : 0;
    if (settings.game === 'chess') this.chessEval = new ChessLinearEval(settings.theta);
    else this.shogiEval = new ShogiLinearEval(settings.theta);
    if (settings.nnue !== undefined) {
      const simd = settings.nnueSimd ?? simdSupported();
      if (settings.game === 'chess') this.chessNnue = new ChessNnue(settings.nnue, simd);
      else this.shogiNnue = new ShogiNnue(settings.nnue, simd);
    }
    if (settings.dyna2 !== undefined) {
      const names = settings.game === 'chess' ? this.chessEval!.featureSet.names : this.shogiEval!.featureSet.names;
      // A fixed seed: the same request simulates the same games (reproducible matches and tests).
      this.dyna2 = new Dyna2(settings.dyna2, names, seededRng(0x7d5ea5c4));
    }
  }

  /** Forgets the table, killers and history. */
  newGame(): void {
    this.tt.clear();
    this.search.clearHeuristics();
    this.dyna2?.clear();
  }

  setHashMb(mb: number): void {
    this.tt.resize(mb);
  }

  /** The transposition table's memory (shared when built with `sharedTable`). */
  get tableMemory(): ArrayBuffer | SharedArrayBuffer {
    return this.tt.memory;
  }

  /** A Lazy SMP helper: uses `memory` (another engine's shared `tableMemory`) as its table. */
  attachTable(memory: SharedArrayBuffer): void {
    this.tt.attach(memory);
  }

  /** Forgets killers and histories only (a helper's table belongs to the main thread). */
  clearHeuristics(): void {
    this.search.clearHeuristics();
  }

  /**
   * Lazy SMP helper search of `request`'s position: no time limits, until `signal[0]` is set (the
   * main search ended). Its only output is what it writes into the shared table.
   */
  helperGo(request: GoRequest, signal: Int32Array, helperId: number): void {
    const b = this.board(request);
    if (b.isErr) return;
    const probe = new Int32Array(b.value.maxMoves);
    if (b.value.generate(probe, false) === 0) return;
    this.search.search(b.value, { signal, helperId, noEarlyMateStop: true });
  }

  setMoveOverheadMs(ms: number): void {
    this.moveOverheadMs = ms;
  }

  /** The position of a request as a search board. */
  board(request: GoRequest): Result<SearchBoard, KishiError> {
    if (request.game !== this.game) return Result.err(new KishiError('ERR_GAME', `this engine plays ${this.game}, not ${request.game}`));
    return this.parse(request);
  }

  /** The request's start text and moves on this engine's board (with its evaluations). */
  private parse(request: GoRequest): Result<ChessSearchBoard | ShogiSearchBoard, KishiError> {
    if (this.game === 'chess') return ChessSearchBoard.fromText(request.start, request.moves, this.chessEval!, request.variant === 'chess960', this.chessNnue);
    return ShogiSearchBoard.fromText(request.start, request.moves, this.shogiEval!, this.shogiNnue);
  }

  /** Runs one request to completion. `signal` is the shared control array (stop, ponderhit). */
  go(request: GoRequest, signal: Int32Array, onInfo?: (info: SearchInfo) => void): Result<GoResult, KishiError> {
    const p = prelude(this.game, request, (r) => this.parse(r));
    if (p.isErr) return Result.err(p.error);
    if ('answer' in p.value) return Result.ok(p.value.answer);
    const root = p.value.root;
    const board: SearchBoard = root.board;
    const start = root.startedAt;
    const limits = request.limits ?? {};

    if (limits.mate === true) return Result.ok(this.goMate(board, request, signal, start, onInfo));

    let ab: { -readonly [K in keyof AbLimits]: AbLimits[K] } = { signal };
    if (limits.depth !== undefined) ab.depth = limits.depth;
    if (limits.nodes !== undefined) ab.nodes = limits.nodes;
    const infinite = limits.infinite === true;
    const plan = clockPlan(this.game, request, root, this.moveOverheadMs);
    if (limits.movetimeMs !== undefined) {
      // "Search exactly this long": no soft limit, so no iteration is skipped to save time.
      ab.hardMs = Math.max(1, limits.movetimeMs);
    } else if (plan !== undefined) {
      const budget = plan.budget;
      ab.hardMs = budget.hardMs;
      ab.softMs = budget.softMs;
      if (byoyomiOnly(plan.input)) {
        // The whole period is used, so the stop must come early enough for the answer to reach the
        // server in time under load (polling, the worker's message, the pipe): 5% more, at most 100 ms.
        ab.useAllTime = true;
        ab.hardMs = byoyomiStopMs(budget.hardMs);
      }
    }
    ab = lessArrivalLag(request, ab);
    if (request.ponder === true) ab.ponder = true;
    if (request.multiPv !== undefined && request.multiPv > 1) ab.multiPv = request.multiPv;
    if (infinite || request.ponder === true) ab.noEarlyMateStop = true;

    const mated = this.rootMateProbe(board, ab, start);
    if (mated !== undefined) {
      if (mated.info !== undefined) onInfo?.(mated.info);
      return Result.ok(mated);
    }

    // Dyna-2's first phase (two-phase search, Silver, Sutton and Müller 2012, section 6): TD search
    // for a share of the time, then alpha-beta over long-term + short-term on what is left.
    let searchBoard: SearchBoard = board;
    let tdSummary: string | undefined;
    if (this.dyna2?.params.alone === true) return Result.ok(this.tdAlone(this.dyna2, board, ab, request, signal, start, onInfo));
    if (this.dyna2 !== undefined) {
      const budget = ab.softMs ?? ab.hardMs;
      const share = this.dyna2.params.timeShare;
      const phase = this.dyna2.think(board, this.featuresOf(board), {
        simulations: this.dyna2.params.simulations,
        ...(budget !== undefined ? { deadline: performance.now() + share * budget } : {}),
        stopped: () => Atomics.load(signal, SIGNAL_STOP) !== 0,
      });
      searchBoard = phase.board;
      tdSummary = phase.summary;
      const spent = phase.stats.timeMs;
      if (ab.hardMs !== undefined) ab.hardMs = Math.max(1, ab.hardMs - spent);
      if (ab.softMs !== undefined) ab.softMs = Math.max(1, Math.min(ab.softMs - spent, ab.hardMs ?? Infinity));
    }

    const toInfo = (it: IterationInfo): SearchInfo => {
      const timeMs = Math.round(performance.now() - start);
      const mp = matePlies(it.score);
      // What TD search learned goes out once, with the first line that follows it.
      const text = tdSummary;
      tdSummary = undefined;
      return {
        depth: it.depth,
        seldepth: it.seldepth,
        score: mp !== 0 ? { mate: mp } : { cp: it.score },
        nodes: it.nodes,
        nps: timeMs > 0 ? Math.round((it.nodes * 1000) / timeMs) : 0,
        timeMs,
        pv: lineText(board, it.pv),
        hashfull: this.tt.hashfull(),
        ...(it.multipv !== undefined ? { multipv: it.multipv } : {}),
        ...(text !== undefined ? { string: text } : {}),
      };
    };
    const result = this.search.search(searchBoard, ab, (it) => onInfo?.(toInfo(it)));

    holdAnswer(request, signal);

    const info = toInfo({ depth: result.depth, seldepth: result.seldepth, score: result.score, nodes: result.nodes, timeMs: result.timeMs, pv: result.pv });
    const move = board.moveToText(result.bestMove);
    let ponder: string | undefined;
    if (result.ponderMove !== 0) {
      board.make(result.bestMove);
      ponder = board.moveToText(result.ponderMove);
      board.unmake();
    }
    const pvLeaf = lineLeaf(board, result.pv);
    return Result.ok(ponder !== undefined ? { move, ponder, info, pvLeaf } : { move, info, pvLeaf });
  }

  /**
   * TD search alone (`search: td`; Silver, Sutton and Müller 2012, section 4): simulations from the
   * root for the whole budget (`go nodes N` counts simulations), then the greedy move over the value
   * function learned. Its `info` has depth 1, the simulations as nodes, and the summary as string.
   */
  private tdAlone(dyna2: Dyna2, board: SearchBoard, ab: AbLimits, request: GoRequest, signal: Int32Array, start: number, onInfo?: (info: SearchInfo) => void): GoResult {
    const budget = ab.softMs ?? ab.hardMs;
    const features = this.featuresOf(board);
    const phase = dyna2.think(board, features, {
      simulations: request.limits?.nodes ?? dyna2.params.simulations,
      ...(budget !== undefined ? { deadline: performance.now() + budget } : {}),
      stopped: () => Atomics.load(signal, SIGNAL_STOP) !== 0,
    });
    // The prelude answered positions without a move, so there is one.
    const best = dyna2.bestMove(board, features)!;
    holdAnswer(request, signal);
    const timeMs = Math.round(performance.now() - start);
    const own = board.sideToMove() === 0 ? best.value : 1 - best.value;
    const info: SearchInfo = {
      depth: 1,
      score: own >= 1 ? { mate: 1 } : { cp: tdCentipawns(own) },
      nodes: phase.stats.simulations,
      nps: timeMs > 0 ? Math.round((phase.stats.simulations * 1000) / timeMs) : 0,
      timeMs,
      pv: [board.moveToText(best.move)],
      string: phase.summary,
    };
    onInfo?.(info);
    return { move: info.pv[0]!, info, pvLeaf: lineLeaf(board, [best.move]) };
  }

  private goMate(board: SearchBoard, request: GoRequest, signal: Int32Array, start: number, onInfo?: (info: SearchInfo) => void): GoResult {
    const limits = request.limits ?? {};
    const r = this.mate.solve(board, {
      signal,
      ...(limits.movetimeMs !== undefined ? { hardMs: limits.movetimeMs } : {}),
      ...(limits.nodes !== undefined ? { nodes: limits.nodes } : {}),
      ...(limits.depth !== undefined ? { maxPlies: limits.depth } : {}),
    });
    const timeMs = Math.round(performance.now() - start);
    if (r.kind !== 'mate') return { move: r.kind };
    const pv = lineText(board, r.moves);
    const info: SearchInfo = {
      depth: r.moves.length,
      score: { mate: r.moves.length },
      nodes: r.nodes,
      nps: timeMs > 0 ? Math.round((r.nodes * 1000) / timeMs) : 0,
      timeMs,
      pv,
    };
    onInfo?.(info);
    return { move: pv[0]!, info };
  }

  /** phi(s) of the linear evaluation at `board`'s current position (Dyna-2's short-term features). */
  private featuresOf(board: SearchBoard): (out: SparseVector) => void {
    if (board instanceof ChessSearchBoard) return (out) => this.chessEval!.features(board.board, out);
    const shogi = board as ShogiSearchBoard;
    return (out) => this.shogiEval!.features(shogi.board, out);
  }

  /**
   * The root mate probe (shogi, a search under a clock, `rootMateNodes` > 0): df-pn for that many
   * nodes; a proven mate is the answer, with its line and a mate score. Not for pondering, infinite,
   * MultiPV or fixed-node/depth searches, whose answers must come from the search itself.
   */
  private rootMateProbe(board: SearchBoard, ab: AbLimits, start: number): GoResult | undefined {
    if (this.rootMateNodes <= 0 || ab.hardMs === undefined || ab.ponder === true || ab.multiPv !== undefined) return undefined;
    const r = this.mate.solve(board, { nodes: this.rootMateNodes, hardMs: ab.hardMs / 4, ...(ab.signal !== undefined ? { signal: ab.signal } : {}) });
    if (r.kind !== 'mate') return undefined;
    const timeMs = Math.round(performance.now() - start);
    const pv = lineText(board, r.moves);
    const info: SearchInfo = { depth: r.moves.length, score: { mate: r.moves.length }, nodes: r.nodes, nps: timeMs > 0 ? Math.round((r.nodes * 1000) / timeMs) : 0, timeMs, pv };
    return pv.length > 1 ? { move: pv[0]!, ponder: pv[1]!, info } : { move: pv[0]!, info };
  }
}
