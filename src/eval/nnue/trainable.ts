/**
 * A network being learned: the float master copy theta (float-network.ts) and the integer network
 * derived from it, which the search boards' accumulator stacks read. Learning code computes values
 * and gradients from theta, changes theta, then calls `sync()`; the integer weights change in place,
 * so every `ChessNnue` / `ShogiNnue` over `net` sees them once re-attached (a full refresh: their
 * incremental accumulators were built from the old weights).
 */
import type { FastChessBoard } from '../../games/chess/fast/board.js';
import type { FastShogiBoard } from '../../games/shogi/fast/board.js';
import type { FeatureSink } from '../linear/sparse.js';
import { ChessNnue } from './chess-nnue.js';
import { clampParams, dequantise, layoutOf, NnueBackprop, quantise, quantiseInto, type ParamLayout } from './float-network.js';
import { markWeightsChanged, type NnueNetwork, outputBucket } from './network.js';
import { ShogiNnue } from './shogi-nnue.js';

/** Largest number of active features of one perspective (shogi: 40 board pieces + 38 hand features). */
const MAX_ACTIVE = 128;

export class TrainableNetwork {
  readonly layout: ParamLayout;
  /** The integer network the search plays with, re-derived from theta by `sync`. */
  readonly net: NnueNetwork;
  private readonly backprop: NnueBackprop;
  private readonly us = new Int32Array(MAX_ACTIVE);
  private readonly them = new Int32Array(MAX_ACTIVE);
  /** Maps a position to its feature rows (the feature set may depend on the kings' squares). */
  private readonly chess?: ChessNnue;
  private readonly shogi?: ShogiNnue;

  /**
   * `start`: the integer network to learn from (copied, never changed); `theta`: its float master
   * copy when one was kept (default: `start` dequantised). The integer network is re-quantised from
   * theta at once.
   */
  constructor(
    start: NnueNetwork,
    readonly theta: Float64Array = dequantise(start),
  ) {
    this.layout = layoutOf(start);
    if (theta.length !== this.layout.size) throw new Error(`master copy has ${theta.length} parameters, the ${start.features}x${start.hidden} network ${this.layout.size}`);
    this.net = quantise(theta, start);
    this.backprop = new NnueBackprop(start);
    if (start.game === 'shogi') this.shogi = new ShogiNnue(this.net);
    else this.chess = new ChessNnue(this.net);
  }

  get game(): NnueNetwork['game'] {
    return this.net.game;
  }

  /**
   * The float output H(s) of a fast board's position from the FIRST player's view (chess white,
   * shogi sente), centipawns; with `grad`, appends `k * dH/dtheta` (same view) to it.
   */
  value(board: FastChessBoard | FastShogiBoard, grad?: FeatureSink, k = 1): number {
    let nu: number;
    let nt: number;
    if (this.net.game === 'chess') nu = nt = this.chess!.activeFeatures(board as FastChessBoard, this.us, this.them);
    else [nu, nt] = this.shogi!.activeFeatures(board as FastShogiBoard, this.us, this.them);
    const sign = board.turn === 0 ? 1 : -1;
    // Chess's features are one per piece, so nu counts the pieces (network.ts, outputBucket).
    const bucket = outputBucket(this.net.outputBuckets, nu);
    return sign * this.backprop.forward(this.theta, this.us, nu, this.them, nt, grad, sign * k, bucket);
  }

  /** After theta changed: clamps it to the integer range and re-quantises `net` in place. */
  sync(): void {
    clampParams(this.theta, this.layout);
    quantiseInto(this.theta, this.net);
    markWeightsChanged(this.net);
  }
}

