/**
 * The float master copy of a network, for learning in TypeScript (TreeStrap, TD-Leaf): the
 * parameters in the trainer's float units in one vector theta, a float forward pass with its
 * gradient (backpropagation through the output layer, the activation and the feature transformer,
 * for the active features only), and the re-quantisation into the integer network the search
 * plays with (network.ts).
 *
 * Why a master copy: one learning step moves a weight by far less than one quantisation step
 * (1/QA = 0.004 for the feature transformer), so updates applied to the integer weights would be
 * rounded away; they accumulate in theta, and the integer network is re-derived from it.
 *
 * Layout of theta (F features, H hidden, B output buckets): `[W1 (F*H, row per feature) | b1 (H) |
 * w2 (2H per bucket: side to move's half, then the opponent's) | b2 (B)]`. Float semantics (the
 * trainer's, trainer/nnue_train.py), with the position's output bucket o (network.ts):
 *   a_p = b1 + sum_{f active for p} W1[f]     (p = side to move, opponent)
 *   x_p = clamp(a_p, 0, 1);  s_p = x_p^2 (SCReLU) or x_p (CReLU)
 *   out = SCALE * (s_us . w2[o][0..H) + s_them . w2[o][H..2H) + b2[o])   centipawns, side to move's view
 * and the integer network is W1, b1 rounded at QA, w2 at QB, b2 at QA * QB.
 */
import type { FeatureSink } from '../linear/sparse.js';
import type { NnueNetwork } from './network.js';

/** The feature transformer's float bound (the trainer's clamp): keeps the int16 accumulators in range. */
export const FT_LIMIT = 1.98;
/** The output weights' float bound (the trainer's clamp, 127 / QB * 4 for QB = 64). */
export const OUT_LIMIT = (127 / 64) * 4;

/** The shape of a network's parameter vector. */
export interface ParamLayout {
  readonly features: number;
  readonly hidden: number;
  readonly buckets: number;
  /** Offsets of W1, b1, w2, b2 in theta. */
  readonly w1: number;
  readonly b1: number;
  readonly w2: number;
  readonly b2: number;
  /** Length of theta. */
  readonly size: number;
}

export const paramLayout = (features: number, hidden: number, buckets = 1): ParamLayout => {
  const w1 = 0;
  const b1 = features * hidden;
  const w2 = b1 + hidden;
  const b2 = w2 + 2 * hidden * buckets;
  return { features, hidden, buckets, w1, b1, w2, b2, size: b2 + buckets };
};

/** The layout of `net`'s parameters. */
export const layoutOf = (net: Pick<NnueNetwork, 'features' | 'hidden' | 'outputBuckets'>): ParamLayout => paramLayout(net.features, net.hidden, net.outputBuckets);

/**
 * Parameter names (`w1.<feature>.<unit>`, `b1.<unit>`, `w2.<us|them>.<unit>`, `b2`; with output
 * buckets `w2.<bucket>.<us|them>.<unit>`, `b2.<bucket>`), by index.
 */
export const paramNames = (layout: ParamLayout): string[] => {
  const out: string[] = [];
  const { features: f, hidden: h, buckets: nb } = layout;
  for (let i = 0; i < f; i++) for (let j = 0; j < h; j++) out.push(`w1.${i}.${j}`);
  for (let j = 0; j < h; j++) out.push(`b1.${j}`);
  for (let b = 0; b < nb; b++) {
    const p = nb === 1 ? 'w2' : `w2.${b}`;
    for (let j = 0; j < h; j++) out.push(`${p}.us.${j}`);
    for (let j = 0; j < h; j++) out.push(`${p}.them.${j}`);
  }
  for (let b = 0; b < nb; b++) out.push(nb === 1 ? 'b2' : `b2.${b}`);
  return out;
};

/** The float parameters an integer network stands for (each integer divided by its scale). */
export const dequantise = (net: NnueNetwork): Float64Array => {
  const L = layoutOf(net);
  const t = new Float64Array(L.size);
  for (let i = 0; i < net.l1w.length; i++) t[L.w1 + i] = net.l1w[i]! / net.qa;
  for (let i = 0; i < net.hidden; i++) t[L.b1 + i] = net.l1b[i]! / net.qa;
  for (let i = 0; i < net.l2w.length; i++) t[L.w2 + i] = net.l2w[i]! / net.qb;
  for (let b = 0; b < L.buckets; b++) t[L.b2 + b] = net.l2b[b]! / (net.qa * net.qb);
  return t;
};

/**
 * Clamps theta in place to what the integer network can hold (the trainer's bounds: the feature
 * transformer to +-FT_LIMIT, the output weights to +-OUT_LIMIT), so that the master copy and its
 * quantisation never drift apart. A projected gradient step: call after every update.
 */
export const clampParams = (theta: Float64Array, layout: ParamLayout): void => {
  for (let i = 0; i < layout.w2; i++) {
    const x = theta[i]!;
    if (x > FT_LIMIT) theta[i] = FT_LIMIT;
    else if (x < -FT_LIMIT) theta[i] = -FT_LIMIT;
  }
  for (let i = layout.w2; i < layout.b2; i++) {
    const x = theta[i]!;
    if (x > OUT_LIMIT) theta[i] = OUT_LIMIT;
    else if (x < -OUT_LIMIT) theta[i] = -OUT_LIMIT;
  }
};

const clampInt = (x: number, lo: number, hi: number): number => (x < lo ? lo : x > hi ? hi : x);

/**
 * Re-quantises theta into `net`'s integer arrays in place (rounded, as the trainer's export; clamped
 * to int16 / int32), so that every accumulator stack over `net` sees the new weights once it is
 * refreshed.
 */
export const quantiseInto = (theta: Float64Array, net: NnueNetwork): void => {
  const L = layoutOf(net);
  if (theta.length !== L.size) throw new Error(`theta has ${theta.length} parameters, a ${net.features}x${net.hidden} network with ${L.buckets} output bucket(s) ${L.size}`);
  const { qa, qb } = net;
  for (let i = 0; i < net.l1w.length; i++) net.l1w[i] = clampInt(Math.round(theta[L.w1 + i]! * qa), -32768, 32767);
  for (let i = 0; i < net.hidden; i++) net.l1b[i] = clampInt(Math.round(theta[L.b1 + i]! * qa), -32768, 32767);
  for (let i = 0; i < net.l2w.length; i++) net.l2w[i] = clampInt(Math.round(theta[L.w2 + i]! * qb), -32768, 32767);
  for (let b = 0; b < L.buckets; b++) net.l2b[b] = clampInt(Math.round(theta[L.b2 + b]! * qa * qb), -2147483648, 2147483647);
};

/** A new integer network with `like`'s architecture and theta's weights. */
export const quantise = (theta: Float64Array, like: NnueNetwork): NnueNetwork => {
  const net: NnueNetwork = {
    ...like,
    l1w: new Int16Array(like.l1w.length),
    l1b: new Int16Array(like.hidden),
    l2w: new Int16Array(like.l2w.length),
    l2b: new Int32Array(like.outputBuckets),
  };
  quantiseInto(theta, net);
  return net;
};

/**
 * The float forward pass and its gradient for one position. `us` / `them`: the active feature
 * rows of the side to move's and the opponent's perspective. Scratch buffers are reused between calls.
 */
export class NnueBackprop {
  readonly layout: ParamLayout;
  private readonly a: Float64Array;
  private readonly scale: number;
  private readonly screlu: boolean;

  constructor(readonly net: Pick<NnueNetwork, 'features' | 'hidden' | 'activation' | 'scale' | 'outputBuckets'>) {
    this.layout = layoutOf(net);
    this.a = new Float64Array(2 * net.hidden);
    this.scale = net.scale;
    this.screlu = net.activation === 'screlu';
  }

  /**
   * The output in centipawns (side to move's view) at theta through output `bucket`; when `grad` is
   * given, appends `k * d out / d theta` to it (the weights of inactive features get nothing: their
   * gradient is 0). A unit at a clamp edge (a <= 0 or a >= 1) passes no gradient, as the clamp's subgradient.
   */
  forward(theta: Float64Array, us: ArrayLike<number>, nUs: number, them: ArrayLike<number>, nThem: number, grad?: FeatureSink, k = 1, bucket = 0): number {
    const { hidden: h, b1 } = this.layout;
    const w2 = this.layout.w2 + bucket * 2 * h;
    const b2 = this.layout.b2 + bucket;
    const a = this.a;
    for (let i = 0; i < h; i++) {
      a[i] = theta[b1 + i]!;
      a[h + i] = theta[b1 + i]!;
    }
    for (let n = 0; n < nUs; n++) {
      const row = us[n]! * h;
      for (let i = 0; i < h; i++) a[i] += theta[row + i]!;
    }
    for (let n = 0; n < nThem; n++) {
      const row = them[n]! * h;
      for (let i = 0; i < h; i++) a[h + i] += theta[row + i]!;
    }
    let y = theta[b2]!;
    for (let i = 0; i < 2 * h; i++) {
      const x = a[i]! < 0 ? 0 : a[i]! > 1 ? 1 : a[i]!;
      y += (this.screlu ? x * x : x) * theta[w2 + i]!;
    }
    const out = this.scale * y;
    if (grad === undefined) return out;
    const ks = k * this.scale;
    grad.add(b2, ks);
    // d out / d w2 = SCALE * s; d out / d a = SCALE * w2 * s'(a), stored back into `a`.
    for (let i = 0; i < 2 * h; i++) {
      const ai = a[i]!;
      const x = ai < 0 ? 0 : ai > 1 ? 1 : ai;
      grad.add(w2 + i, ks * (this.screlu ? x * x : x));
      a[i] = ai > 0 && ai < 1 ? ks * theta[w2 + i]! * (this.screlu ? 2 * x : 1) : 0;
    }
    for (let i = 0; i < h; i++) grad.add(b1 + i, a[i]! + a[h + i]!);
    for (let n = 0; n < nUs; n++) {
      const row = us[n]! * h;
      for (let i = 0; i < h; i++) grad.add(row + i, a[i]!);
    }
    for (let n = 0; n < nThem; n++) {
      const row = them[n]! * h;
      for (let i = 0; i < h; i++) grad.add(row + i, a[h + i]!);
    }
    return out;
  }
}
