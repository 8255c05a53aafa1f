/**
 * MCTS leaf evaluation with the alpha-beta engine's NNUE network on the CPU (as Monty and
 * Princhess run small networks inside the descent instead of a ResNet on a GPU):
 *
 * - Value: the network's centipawns `cp` for the side to move, resolved by a short quiescence
 *   search over captures (and chess promotions) that do not lose material by static exchange
 *   evaluation (the "cheap tactical guard" of hybrid MCTS engines: a leaf in the middle of an
 *   exchange is not valued as if the recapture never came), then mapped to an expected score with
 *   the trainer's fitted sigmoid scale K: `v = 2 sigmoid(cp / K) - 1 = tanh(cp / 2K)`. A leaf in
 *   check gets the best of its evasions, each valued by the quiescence search after it.
 * - Policy: when no trained policy network is given, a softmax over a one-ply look-ahead: each
 *   move's logit is the network's value of the position after it (one incremental accumulator
 *   update, no board move), lowered by what the static exchange evaluation says the mover then
 *   loses on its destination square (`min(0, SEE - immediate gain)`), at temperature
 *   `priorTemperature * K` centipawns. With a policy network (src/eval/policy/), the softmax of its
 *   logits at temperature `policyTemperature`; a residual network (base weight w > 0) adds w times
 *   the one-ply prior's log probabilities to its logits first (it was trained as a correction of
 *   that prior).
 *
 * The accumulators follow the descent: `attach` refreshes them at the root and the tracked board
 * pushes one lazily computed entry per move (src/eval/nnue/accumulator-stack.ts), so a leaf costs
 * a few entry updates rather than a full refresh.
 */
import type { AccumulatorStack } from '../../eval/nnue/accumulator-stack.js';
import type { MctsBoard } from './mcts-board.js';
import { TrackedBoard, type LeafEvaluator } from './leaf-evaluator.js';

/** Depth cap of the quiescence search (plies of captures). */
const MAX_QPLY = 16;

export interface CpuEvaluatorSettings {
  /** Sigmoid scale of the network's centipawns (the trainer's fitted K, from the manifest). */
  readonly k: number;
  /** Softmax temperature of the one-ply policy, in units of K. */
  readonly priorTemperature: number;
  /** Plies of quiescence search for the value (0: the static evaluation). */
  readonly qsearchPlies: number;
  /** Softmax temperature of the policy network's logits (when one is loaded). */
  readonly policyTemperature: number;
}

/**
 * Defaults measured in `kishi match` (chess, 5 s + 0.05 s, docs/experiments/2026-11-27-mcts-on-the-cpu-networks.md): prior temperature 0.8
 * K +228 [+130, +375] over 0.4 K, 0.2 K -137 [-258, -41]; 8 quiescence plies +137 [+35, +269] over none.
 */
export const DEFAULT_CPU_EVALUATOR: Omit<CpuEvaluatorSettings, 'k'> = { priorTemperature: 0.8, qsearchPlies: 8, policyTemperature: 1 };

/** A policy over the legal moves of a game board (src/eval/policy/policy-network.ts). */
export interface MovePolicy<B> {
  /** Weight of the one-ply prior's logits added to the network's (0: the network alone). */
  readonly baseWeight: number;
  /** Writes a logit (natural-log units) per move of `moves[0..n)`, the legal moves of `board`, into `logits`. */
  logits(board: B, moves: Int32Array, n: number, logits: Float32Array): void;
}

/** What the evaluator needs of a game's internal board (FastChessBoard, FastShogiBoard). */
export interface CpuBoard {
  /** The side to move (0 or 1). */
  readonly turn: number;
  makeMove(m: number): void;
  unmakeMove(): void;
  inCheck(): boolean;
}

/** What the evaluator needs of a game's incremental NNUE (ChessNnue, ShogiNnue) over board `B`. */
export interface IncrementalNnue<B> {
  readonly stack: AccumulatorStack;
  /** Refreshes the accumulators from `board`. */
  attach(board: B): void;
  /** Pushes move `m` of `board` onto the accumulators (before the board moves). */
  make(board: B, m: number): void;
  unmake(): void;
  /** Centipawns for `board`'s side to move (accumulators up to date with it). */
  evaluate(board: B): number;
  /** Centipawns for the opponent after move `m`, pushed on the accumulators only. */
  evaluateAfter(board: B, m: number): number;
}

/**
 * The game-independent part; `ChessCpuEvaluator` and `ShogiCpuEvaluator` (chess-cpu-evaluator.ts,
 * shogi-cpu-evaluator.ts) supply the board, the network, the capture generation and the exchange
 * evaluation.
 */
export abstract class CpuEvaluator<B extends CpuBoard = CpuBoard, N extends IncrementalNnue<B> = IncrementalNnue<B>>
  implements LeafEvaluator
{
  readonly kind = 'leaf' as const;
  readonly settings: CpuEvaluatorSettings;
  readonly nnue: N;
  /** The game board the accumulators follow (set by `attach`). */
  protected board: B | undefined;
  /** Quiescence move lists and their ordering keys, one per ply. */
  private readonly lists: Int32Array[] = [];
  private readonly keys: Int32Array[] = [];
  private logits = new Float32Array(0);
  private baseLogits = new Float32Array(0);
  /** Quiescence nodes visited since construction (for benchmarks). */
  qnodes = 0;
  /** Leaves valued since construction (self-play's counters). */
  evaluations = 0;
  /** The policy network, when one is loaded (else the one-ply prior). */
  policy: MovePolicy<B> | undefined;

  constructor(settings: CpuEvaluatorSettings, nnue: N, maxMoves: number) {
    if (!(settings.k > 0) || !(settings.priorTemperature > 0) || !(settings.qsearchPlies >= 0) || !(settings.policyTemperature > 0)) {
      throw new Error(`CPU evaluator: bad settings ${JSON.stringify(settings)}`);
    }
    this.settings = settings;
    this.nnue = nnue;
    for (let i = 0; i < MAX_QPLY; i++) {
      this.lists.push(new Int32Array(maxMoves));
      this.keys.push(new Int32Array(maxMoves));
    }
  }

  /** The game board inside `board`; throws when it is another game's. */
  protected abstract gameBoard(board: MctsBoard): B;
  /** Captures (and chess promotions) into `list`; returns their count. */
  protected abstract captures(list: Int32Array): number;
  /** Whether legal move `m` is one `captures` generates. */
  protected abstract isCapture(m: number): boolean;
  /** Quiescence ordering key of a capture (most valuable victim, least valuable attacker). */
  protected abstract order(m: number): number;
  /** Whether the static exchange value of capture `m` is at least 0 (bounds decide most without the exchange). */
  protected abstract seeNonNegative(m: number): boolean;
  /** Prepares `exchangeLoss` for the legal moves of the current position. */
  protected abstract beginExchanges(): void;
  /**
   * What the mover of legal move `m` then loses on its destination square, `min(0, SEE - immediate
   * gain)` in SEE units (the gain: the victim and the promotion), after `beginExchanges`.
   */
  protected abstract exchangeLoss(m: number): number;

  attach(board: MctsBoard): MctsBoard {
    const b = this.gameBoard(board);
    this.board = b;
    this.nnue.attach(b);
    return new TrackedBoard(
      board,
      (m) => this.nnue.make(this.board!, m),
      () => this.nnue.unmake(),
    );
  }

  /** The network's centipawns for the side to move (accumulators up to date with the board). */
  private staticEval(): number {
    return this.nnue.evaluate(this.board!);
  }

  /** The network's centipawns for the opponent after move `m` (pushed on the accumulators only). */
  private childEval(m: number): number {
    return this.nnue.evaluateAfter(this.board!, m);
  }

  private inCheck(): boolean {
    return this.board!.inCheck();
  }

  evaluate(moves: Int32Array, n: number, priors: Float32Array): number {
    const v = this.value(moves, n);
    this.priors(moves, n, priors);
    return v;
  }

  value(moves: Int32Array, n: number): number {
    const s = this.settings;
    this.evaluations++;
    let cp: number;
    if (s.qsearchPlies === 0) cp = this.staticEval();
    else if (this.inCheck()) cp = this.evasions(moves, n);
    else cp = this.qsearch(-1e9, 1e9, 0, moves, n);
    return Math.tanh(cp / (2 * s.k));
  }

  priors(moves: Int32Array, n: number, priors: Float32Array): void {
    const s = this.settings;
    if (this.logits.length < n) this.logits = new Float32Array(Math.max(n, 256));
    const logits = this.logits;
    let max = -Infinity;
    const policy = this.policy;
    if (policy === undefined || policy.baseWeight > 0) {
      const inv = 1 / (s.priorTemperature * s.k);
      this.beginExchanges();
      for (let i = 0; i < n; i++) {
        const m = moves[i]!;
        const l = (-this.childEval(m) + this.exchangeLoss(m)) * inv;
        logits[i] = l;
        if (l > max) max = l;
      }
    }
    if (policy !== undefined) {
      // Residual network: its logits plus w times the one-ply log prior (log softmax = logit - max - log sum).
      if (this.baseLogits.length < n) this.baseLogits = new Float32Array(Math.max(n, 256));
      const base = this.baseLogits;
      const w = policy.baseWeight;
      if (w > 0) {
        let z = 0;
        for (let i = 0; i < n; i++) z += Math.exp(logits[i]! - max);
        const shift = max + Math.log(z);
        for (let i = 0; i < n; i++) base[i] = w * Math.max(-30, logits[i]! - shift);
      }
      policy.logits(this.board!, moves, n, logits);
      const inv = 1 / s.policyTemperature;
      max = -Infinity;
      for (let i = 0; i < n; i++) {
        const l = (logits[i]! + (w > 0 ? base[i]! : 0)) * inv;
        logits[i] = l;
        if (l > max) max = l;
      }
    }
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const e = Math.exp(logits[i]! - max);
      priors[i] = e;
      sum += e;
    }
    const norm = 1 / sum;
    for (let i = 0; i < n; i++) priors[i]! *= norm;
  }

  /**
   * In check: the best evasion by the quiescence value of the position after it (a leaf in check
   * valued by its static evaluation misses the piece the check wins and the mate it threatens).
   */
  private evasions(moves: Int32Array, n: number): number {
    this.staticEval();
    const b = this.board!;
    let best = -1e9;
    for (let i = 0; i < n; i++) {
      const m = moves[i]!;
      this.nnue.make(b, m);
      b.makeMove(m);
      const v = -this.qsearch(-1e9, -best, 1);
      b.unmakeMove();
      this.nnue.unmake();
      if (v > best) best = v;
    }
    return best;
  }

  /**
   * Fail-soft quiescence search over non-losing captures, in centipawns for the side to move. At the
   * leaf, the captures are picked out of its legal moves `legal[0..count)` instead of generated
   * again; the order they are tried in may differ, the value (full window) does not.
   */
  private qsearch(alpha: number, beta: number, ply: number, legal?: Int32Array, count = 0): number {
    this.qnodes++;
    const stand = this.staticEval();
    if (stand >= beta || ply >= this.settings.qsearchPlies || ply >= MAX_QPLY) return stand;
    if (stand > alpha) alpha = stand;
    let best = stand;
    const b = this.board!;
    const list = this.lists[ply]!;
    const keys = this.keys[ply]!;
    let n = 0;
    if (legal === undefined) n = this.captures(list);
    else for (let i = 0; i < count; i++) if (this.isCapture(legal[i]!)) list[n++] = legal[i]!;
    for (let i = 0; i < n; i++) keys[i] = this.order(list[i]!);
    // Selection by key, written out as in the alpha-beta and TreeStrap quiescence searches: a hot loop.
    for (let i = 0; i < n; i++) {
      let bi = i;
      for (let j = i + 1; j < n; j++) if (keys[j]! > keys[bi]!) bi = j;
      const m = list[bi]!;
      if (bi !== i) {
        list[bi] = list[i]!;
        list[i] = m;
        const k = keys[bi]!;
        keys[bi] = keys[i]!;
        keys[i] = k;
      }
      if (!this.seeNonNegative(m)) continue;
      this.nnue.make(b, m);
      b.makeMove(m);
      const score = -this.qsearch(-beta, -alpha, ply + 1);
      b.unmakeMove();
      this.nnue.unmake();
      if (score > best) {
        best = score;
        if (score > alpha) {
          alpha = score;
          if (score >= beta) break;
        }
      }
    }
    return best;
  }
}
