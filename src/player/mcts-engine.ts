/**
 * The MCTS engine behind the Player API: turns one `GoRequest` into a `GoResult` with a PUCT search
 * (src/search/mcts/) over an `Evaluator` (the ResNet) or a `LeafEvaluator` (the CPU networks,
 * mcts-cpu-nets.ts). The worker thread (mcts-worker.ts) runs it next to its onnxruntime session or
 * its CPU networks; tests run it inline with a mock evaluator.
 *
 * Per request: set up the position; answer terminal positions (`resign`), the shogi
 * entering-king declaration (`win`) and single legal moves at once; reuse the tree when the
 * request continues the previous one (same start, earlier moves a prefix); plan the time from the
 * clock (src/search/time.ts: 60% of the soft budget is the target, extended up to the soft budget
 * while the most visited move is not the best valued one, the hard budget the cap; the search stops early
 * once the most visited move cannot be overtaken); search; report `info`. With the mate guard on
 * (mcts-mate-guard.ts), a short mate of our own found before the search is played at once, and
 * the move chosen after it is replaced when the opponent then has a short mate.
 *
 * Limits: `nodes` counts playouts of this search, `movetimeMs` is a fixed time, `depth` stops once
 * the mean depth of the leaves reaches it; `infinite` and `ponder` search until `stop` (a ponder
 * search continues on its own clock after `ponderhit`). `go mate` is not an MCTS question: the
 * answer is `notimplemented` (the `auto` player sends it to alpha-beta).
 */
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import type { Evaluator } from '../nn/evaluator.js';
import type { SearchBoard } from '../search/alphabeta/search-board.js';
import { ChessMctsBoard } from '../search/mcts/chess-mcts-board.js';
import type { LeafEvaluator } from '../search/mcts/leaf-evaluator.js';
import type { MctsBoard } from '../search/mcts/mcts-board.js';
import { defaultMctsOptions, type MctsOptions } from '../search/mcts/options.js';
import { qToCentipawns } from '../search/mcts/score.js';
import { MctsSearch, bestChild, type MctsLimits, type MctsProgress, type MctsResult } from '../search/mcts/search.js';
import { ShogiMctsBoard } from '../search/mcts/shogi-mcts-board.js';
import type { MctsHelpers, RootPosition } from '../search/mcts/threads.js';
import { SIGNAL_PONDERHIT, SIGNAL_STOP } from './control-words.js';
import { clockPlan, holdAnswer, lessArrivalLag, lineLeaf, lineText, prelude, type Root } from './engine-prelude.js';
import { MctsMateGuard } from './mcts-mate-guard.js';
import type { GoRequest, GoResult, SearchInfo } from './player.js';

export interface MctsEngineSettings {
  readonly game: GameKind;
  /** The batched net (ONNX ResNet) or the CPU networks evaluated inside the descent. */
  readonly evaluator: Evaluator | LeafEvaluator;
  readonly moveOverheadMs: number;
  readonly options?: Partial<MctsOptions>;
  /** Milliseconds between progress `info` reports (default 1000). */
  readonly infoIntervalMs?: number;
  /** Helper search threads (CPU networks, `threads` > 1): the searches share their tree with them. */
  readonly helpers?: MctsHelpers;
}

/** Statistics of the last search, for benchmarks and self-play. */
export interface MctsEngineStats extends MctsResult {
  readonly reused: number;
}

export class MctsEngine {
  readonly game: GameKind;
  readonly search: MctsSearch;
  private moveOverheadMs: number;
  private readonly infoIntervalMs: number;
  /** The position of the tree's root: start text, variant and moves. */
  private rootKey: { start: string; variant: string; moves: readonly string[] } | undefined;
  /** Statistics of the last `go` (undefined when it answered without searching). */
  lastStats: MctsEngineStats | undefined;
  /** The mate checks around the root (mcts-mate-guard.ts), when the options turn them on. */
  private readonly guard: MctsMateGuard | undefined;

  constructor(settings: MctsEngineSettings) {
    this.game = settings.game;
    this.search = new MctsSearch(settings.evaluator, { ...defaultMctsOptions(settings.game), ...settings.options }, settings.helpers);
    this.moveOverheadMs = settings.moveOverheadMs;
    this.infoIntervalMs = settings.infoIntervalMs ?? 1000;
    const o = this.search.options;
    if (o.mateGuardPlies > 0) this.guard = new MctsMateGuard(this.game, { plies: o.mateGuardPlies, nodes: o.mateGuardNodes, candidates: o.mateGuardCandidates });
  }

  /** Forgets the tree (the NN cache stays; it is keyed by position). */
  newGame(): void {
    this.search.reset();
    this.rootKey = undefined;
  }

  setMoveOverheadMs(ms: number): void {
    this.moveOverheadMs = ms;
  }

  /** The position of a request as an MCTS board. */
  board(request: GoRequest): Result<MctsBoard, KishiError> {
    if (request.game !== this.game) return Result.err(new KishiError('ERR_GAME', `this engine plays ${this.game}, not ${request.game}`));
    return this.parse(request);
  }

  /** The request's start text and moves on this engine's board. */
  private parse(request: GoRequest): Result<ChessMctsBoard | ShogiMctsBoard, KishiError> {
    if (this.game === 'chess') return ChessMctsBoard.fromText(request.start, request.moves, request.variant === 'chess960');
    return ShogiMctsBoard.fromText(request.start, request.moves);
  }

  /** Runs one request to completion. `signal` is the shared control array (stop, ponderhit). */
  async go(request: GoRequest, signal: Int32Array, onInfo?: (info: SearchInfo) => void): Promise<Result<GoResult, KishiError>> {
    const p = prelude(this.game, request, (r) => this.parse(r));
    if (p.isErr) return Result.err(p.error);
    if ('answer' in p.value) return Result.ok(p.value.answer);
    const root = p.value.root;
    const board: MctsBoard = root.board;
    const start = root.startedAt;
    const limits = request.limits ?? {};
    const list = root.legal;
    const legal = root.count;
    if (limits.mate === true) return Result.ok({ move: 'notimplemented' });
    const infinite = limits.infinite === true;
    const ponder = request.ponder === true;

    const reused = this.reuseTree(request, board);
    const stopped = (): boolean => Atomics.load(signal, SIGNAL_STOP) !== 0;
    const report = (p: MctsProgress): void => onInfo?.(this.info(board, p, performance.now() - start));

    // A single legal move needs no search in a timed game.
    if (legal === 1 && !infinite && !ponder && limits.nodes === undefined && limits.depth === undefined) {
      const move = board.moveToText(list[0]!);
      this.rootKey = { start: request.start, variant: request.variant, moves: [...request.moves] };
      this.search.reset();
      return Result.ok({ move });
    }

    let timed = this.timeLimits(request, root, limits);
    // When the clock of `timed` started (the search's own clock starts at ponderhit).
    let clockStart = start;
    let guard = infinite || ponder ? undefined : this.guardBoard(root);
    if (guard !== undefined) {
      // A quarter of the target time at most for our own mate (the node limit usually ends it first).
      const line = this.guard!.ownMate(guard, signal, timed.softMs !== undefined ? timed.softMs / 4 : undefined);
      if (line !== undefined) return Result.ok(this.playMate(request, line, start));
    }

    let result: MctsResult;
    const base: { -readonly [K in keyof MctsLimits]: MctsLimits[K] } = {};
    if (limits.nodes !== undefined) base.playouts = Math.max(1, limits.nodes);
    if (limits.depth !== undefined) base.depth = Math.max(1, limits.depth);
    const onProgress = report;
    // For helper threads: the root as text, with the moves that lead to it (repetitions).
    const position: RootPosition = { start: request.start, moves: request.moves, chess960: request.variant === 'chess960' };

    if (infinite || ponder) {
      // Phase 1: until stop (or, pondering, ponderhit).
      const hit = (): boolean => Atomics.load(signal, SIGNAL_PONDERHIT) !== 0;
      result = await this.search.run(board, { ...base, shouldStop: () => stopped() || (ponder && hit()) }, onProgress, this.infoIntervalMs, position);
      if (ponder && !stopped() && hit()) {
        // Phase 2: the pondered move was played; think on our own clock now (the guard follows).
        timed = this.timeLimits(request, root, limits);
        clockStart = performance.now();
        result = await this.search.run(board, { ...base, ...timed, shouldStop: stopped }, onProgress, this.infoIntervalMs, position);
        guard = this.guardBoard(root);
      }
      holdAnswer(request, signal);
      // A ponder search that ended on its own before ponderhit: the move is now ours to play, guarded too.
      if (ponder && !stopped() && guard === undefined) guard = this.guardBoard(root);
    } else {
      result = await this.search.run(
        board,
        { ...base, ...timed, shouldStop: stopped },
        onProgress,
        this.infoIntervalMs,
        position,
      );
    }
    this.lastStats = { ...result, reused };
    this.rootKey = { start: request.start, variant: request.variant, moves: [...request.moves] };

    const info = this.info(board, result, performance.now() - start);
    onInfo?.(info);
    const picked = this.search.chooseMove(this.search.options.temperature > 0 && root.plies < this.search.options.temperaturePlies ? this.search.options.temperature : 0);
    // Never answer with a move that is not legal here (a search that expanded nothing picks 0).
    let chosen = list.subarray(0, legal).includes(picked) ? picked : list[0]!;
    if (guard !== undefined) {
      const left = timed.hardMs !== undefined ? timed.hardMs - (performance.now() - clockStart) : undefined;
      chosen = this.guarded(board, guard, chosen, signal, left);
    }
    const move = board.moveToText(chosen);
    const pv = this.search.principalVariation();
    let ponderMove: string | undefined;
    if (pv[0] === chosen && pv.length >= 2) {
      board.make(pv[0]!);
      ponderMove = board.moveToText(pv[1]!);
      board.unmake();
    }
    const pvLeaf = lineLeaf(board, pv[0] === chosen ? pv : [chosen]);
    return Result.ok(ponderMove !== undefined ? { move, ponder: ponderMove, info, pvLeaf } : { move, info, pvLeaf });
  }

  /**
   * The root position for the mate guard, when the guard is on: the search's own board (parsed once),
   * which the guard uses before and after the search, never during it, and leaves as it found it.
   */
  private guardBoard(root: Root<ChessMctsBoard | ShogiMctsBoard>): SearchBoard | undefined {
    return this.guard?.boardOn(root.board.board);
  }

  /** Answers with the first move of a mate the guard found before the search. */
  private playMate(request: GoRequest, line: readonly string[], start: number): GoResult {
    this.rootKey = { start: request.start, variant: request.variant, moves: [...request.moves] };
    this.lastStats = undefined;
    const timeMs = Math.round(performance.now() - start);
    const info: SearchInfo = { depth: line.length, score: { mate: line.length }, nodes: 0, nps: 0, timeMs, pv: line };
    return line.length >= 2 ? { move: line[0]!, ponder: line[1]!, info } : { move: line[0]!, info };
  }

  /**
   * The search's choice `chosen`, or the next root move by visits (then prior) after which the
   * opponent has no mate the guard finds (a proven win is kept as it is), within `hardMs`.
   */
  private guarded(board: MctsBoard, guardBoard: SearchBoard, chosen: number, signal: Int32Array, hardMs: number | undefined): number {
    const children = this.search.rootChildren();
    if (children.some((c) => c.move === chosen && c.proven === 1)) return chosen;
    const others = children.filter((c) => c.move !== chosen && c.proven !== -1).sort((a, b) => b.visits - a.visits || b.prior - a.prior);
    const ranked = [chosen, ...others.map((c) => c.move)];
    const verdict = this.guard!.check(
      guardBoard,
      ranked.map((m) => board.moveToText(m)),
      signal,
      hardMs,
    );
    return verdict.rejected.length === 0 ? chosen : board.parseMove(verdict.move);
  }

  /** Re-roots the tree when `request` continues the previous one; returns the visits kept. */
  private reuseTree(request: GoRequest, board: MctsBoard): number {
    const k = this.rootKey;
    if (k === undefined || k.start !== request.start || k.variant !== request.variant || k.moves.length > request.moves.length) {
      this.search.reset();
      return 0;
    }
    for (let i = 0; i < k.moves.length; i++) {
      if (k.moves[i] !== request.moves[i]) {
        this.search.reset();
        return 0;
      }
    }
    const extra = request.moves.slice(k.moves.length);
    // Move codes of the extra moves: take them back on the board, then replay them.
    for (let i = 0; i < extra.length; i++) board.unmake();
    const codes: number[] = [];
    for (const text of extra) {
      const m = board.parseMove(text);
      codes.push(m);
      board.make(m);
    }
    return this.search.advance(codes) ? this.search.rootVisits : 0;
  }

  /** The time limits less the time the request took to reach the search (see GoRequest.sentAt). */
  private timeLimits(request: GoRequest, root: Root<ChessMctsBoard | ShogiMctsBoard>, limits: NonNullable<GoRequest['limits']>): MctsLimits {
    return lessArrivalLag(request, this.plannedLimits(request, root, limits));
  }

  private plannedLimits(request: GoRequest, root: Root<ChessMctsBoard | ShogiMctsBoard>, limits: NonNullable<GoRequest['limits']>): MctsLimits {
    if (limits.movetimeMs !== undefined) return { softMs: Math.max(1, limits.movetimeMs), hardMs: Math.max(1, limits.movetimeMs), earlyStop: false };
    const plan = clockPlan(this.game, request, root, this.moveOverheadMs);
    if (plan === undefined) return {};
    const budget = plan.budget;
    // The soft budget is alpha-beta's "no new iteration after". MCTS aims at `softTimeShare` of it
    // (stopping earlier when the best move cannot be overtaken) and runs on to `extendTimeShare`
    // of it (within the hard limit) while its choice is unsettled: 60% and 100% by default (the
    // ResNet, whose batches overran the clock at 5 s + 0.05 s when aiming higher), the whole
    // budget and twice it with the CPU networks (cpuNetMctsOptions in mcts-cpu-nets.ts).
    const o = this.search.options;
    return { softMs: Math.max(1, Math.floor(budget.softMs * o.softTimeShare)), hardMs: budget.hardMs, extendMs: Math.min(budget.hardMs, budget.softMs * o.extendTimeShare) };
  }

  /** `info` from the search state: score from the best move's Q (or a mate), PV by visits. */
  info(board: MctsBoard, p: MctsProgress, elapsedMs: number): SearchInfo {
    const children = this.search.rootChildren();
    const timeMs = Math.round(elapsedMs);
    const best = children.length > 0 ? bestChild(children) : undefined;
    const pv = this.search.principalVariation();
    // A proven move's PV follows the solver's proof to the mated leaf, so its length is the mate's
    // distance in plies (as SearchInfo counts it).
    let score: SearchInfo['score'] = { cp: 0 };
    if (best !== undefined) {
      if (best.proven === 1) score = { mate: Math.max(1, pv.length) };
      else if (best.proven === -1) score = { mate: -Math.max(2, pv.length) };
      else if (best.visits > 0) score = { cp: qToCentipawns(best.q) };
    }
    const pvText = lineText(board, pv);
    const tree = this.search.tree;
    return {
      depth: Math.max(1, Math.round(p.depth)),
      seldepth: p.seldepth,
      score,
      nodes: p.playouts,
      nps: timeMs > 0 ? Math.round((p.playouts * 1000) / timeMs) : 0,
      timeMs,
      pv: pvText,
      hashfull: Math.min(1000, Math.round((tree.edgeTotal * 1000) / tree.maxEdges)),
    };
  }
}
