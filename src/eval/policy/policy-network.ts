/**
 * Inference of the factorised policy network (format.ts; trainer `trainer/policy_train.py`), in the
 * integer arithmetic the trainer's reference outputs use, so they match bit-exact:
 *
 *   hidden[i] = clamp(b1[i] + sum over active features f of w1[f][i], 0, QA)
 *   logit(move) = sum over the move's keys k of (b2[k] + sum_i hidden[i] * w2[k][i])
 *
 * and the float logit is that over QA * QB. Per position: one pass over the ~30 active feature rows
 * (hidden width H), then one H-long dot product per move key; no per-move network update and no
 * exchange evaluation, which is what the one-ply prior of the CPU MCTS pays per move. The sums stay
 * below 2^31 (H * QA * 32767 * keys per move for H up to 64), exact in doubles anyway.
 */
import type { FastChessBoard } from '../../games/chess/fast/board.js';
import type { FastShogiBoard } from '../../games/shogi/fast/board.js';
import { ChessPolicyInput } from './chess-policy-input.js';
import type { PolicyNet } from './format.js';
import { ShogiPolicyInput } from './shogi-policy-input.js';

/** The game-independent arithmetic. */
abstract class PolicyNetwork<B> {
  protected readonly hidden: Int32Array;
  protected readonly feats = new Int32Array(160);
  protected readonly scratch = new Int32Array(160);
  protected readonly keys: Int32Array;
  /** Per key: the epoch (position) its dot product `dotCache` was computed for. */
  private readonly dotStamp: Int32Array;
  private readonly dotCache: Float64Array;
  private epoch = 0;
  private readonly scale: number;
  /** Weight of the one-ply prior's log probabilities added to the logits (format.ts). */
  readonly baseWeight: number;

  constructor(readonly net: PolicyNet) {
    this.baseWeight = net.baseWeight;
    this.hidden = new Int32Array(net.hidden);
    this.keys = new Int32Array(net.keysPerMove);
    this.dotStamp = new Int32Array(net.keys);
    this.dotCache = new Float64Array(net.keys);
    this.scale = 1 / (net.qa * net.qb);
  }

  /** Active features of the side to move into `feats`, and the key input started on `board`; returns the feature count. */
  protected abstract features(board: B): number;
  /** Keys of move `m` (of the board given to `features`) into `keys`. */
  protected abstract moveKeys(m: number): void;

  /** Fills `hidden` from the board's features (and starts a new epoch of the dot product cache). */
  private forward(board: B): void {
    if (++this.epoch === 0x7fffffff) {
      this.epoch = 1;
      this.dotStamp.fill(0);
    }
    const { w1, b1, hidden: H, qa } = this.net;
    const h = this.hidden;
    for (let i = 0; i < H; i++) h[i] = b1[i]!;
    const n = this.features(board);
    const f = this.feats;
    for (let k = 0; k < n; k++) {
      const row = f[k]! * H;
      for (let i = 0; i < H; i++) h[i]! += w1[row + i]!;
    }
    for (let i = 0; i < H; i++) {
      const x = h[i]!;
      h[i] = x < 0 ? 0 : x > qa ? qa : x;
    }
  }

  /**
   * The integer logit of the move whose keys are in `keys` (hidden up to date). Moves of one
   * position share many keys (the piece-from key of every move of a piece, the victim keys, a
   * dropped piece's keys), so each key's dot product is kept for the position (`epoch`).
   */
  private moveLogit(): number {
    const { w2, b2, hidden: H, keysPerMove } = this.net;
    const h = this.hidden;
    const keys = this.keys;
    const stamp = this.dotStamp;
    const cache = this.dotCache;
    const epoch = this.epoch;
    let sum = 0;
    for (let j = 0; j < keysPerMove; j++) {
      const key = keys[j]!;
      if (stamp[key] === epoch) {
        sum += cache[key]!;
        continue;
      }
      const row = key * H;
      let dot = b2[key]!;
      for (let i = 0; i < H; i++) dot += h[i]! * w2[row + i]!;
      stamp[key] = epoch;
      cache[key] = dot;
      sum += dot;
    }
    return sum;
  }

  /** Integer logits of `moves[0..n)` (legal moves of `board`) into `out` (the trainer's reference values). */
  intLogits(board: B, moves: Int32Array, n: number, out: Int32Array | Float64Array | number[]): void {
    this.forward(board);
    for (let i = 0; i < n; i++) {
      this.moveKeys(moves[i]!);
      out[i] = this.moveLogit();
    }
  }

  /** Float logits (natural-log units) of `moves[0..n)` into `out`. */
  logits(board: B, moves: Int32Array, n: number, out: Float32Array): void {
    this.forward(board);
    const s = this.scale;
    for (let i = 0; i < n; i++) {
      this.moveKeys(moves[i]!);
      out[i] = this.moveLogit() * s;
    }
  }
}

/** The chess policy over the internal board. */
export class ChessPolicy extends PolicyNetwork<FastChessBoard> {
  constructor(net: PolicyNet) {
    if (net.game !== 'chess') throw new Error(`not a chess policy network (${net.game})`);
    super(net);
  }
  private readonly input = new ChessPolicyInput();
  protected features(board: FastChessBoard): number {
    this.input.begin(board);
    return ChessPolicyInput.features(board, this.feats, this.scratch);
  }
  protected moveKeys(m: number): void {
    this.input.keys(m, this.keys, 0);
  }
}

/** The shogi policy over the internal board. */
export class ShogiPolicy extends PolicyNetwork<FastShogiBoard> {
  constructor(net: PolicyNet) {
    if (net.game !== 'shogi') throw new Error(`not a shogi policy network (${net.game})`);
    super(net);
  }
  private readonly input = new ShogiPolicyInput();
  protected features(board: FastShogiBoard): number {
    this.input.begin(board);
    return ShogiPolicyInput.features(board, this.feats, this.scratch);
  }
  protected moveKeys(m: number): void {
    this.input.keys(m, this.keys, 0);
  }
}
