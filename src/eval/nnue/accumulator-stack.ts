/**
 * The two perspectives' accumulators along the current line, one entry per ply, updated lazily:
 * `push` records the features a move removes and adds (as piece codes, mapped to feature rows per
 * perspective through the game's table), and only `evaluate` brings the accumulators up to date,
 * from the nearest computed ancestor, as Stockfish does since its NNUE import: nodes that are cut
 * off before they evaluate cost nothing. `pop` is free.
 */
import { networkOutput, type NnueNetwork } from './network.js';

const MAX_DELTAS = 4;

export class AccumulatorStack {
  private readonly h: number;
  private acc: Int16Array;
  private computed: Uint8Array;
  private adds: Int32Array;
  private subs: Int32Array;
  private nAdd: Uint8Array;
  private nSub: Uint8Array;
  private capacity = 0;
  /** Current ply (entry index). */
  ply = 0;

  /** `featureOf[p * codes + code]` is the feature row of `code` for perspective p. */
  constructor(
    readonly net: NnueNetwork,
    private readonly featureOf: Int32Array,
    private readonly codes: number,
  ) {
    this.h = net.hidden;
    this.acc = new Int16Array(0);
    this.computed = new Uint8Array(0);
    this.adds = new Int32Array(0);
    this.subs = new Int32Array(0);
    this.nAdd = new Uint8Array(0);
    this.nSub = new Uint8Array(0);
    this.grow(128);
  }

  private grow(capacity: number): void {
    const old = { acc: this.acc, computed: this.computed, adds: this.adds, subs: this.subs, nAdd: this.nAdd, nSub: this.nSub };
    this.acc = new Int16Array(capacity * 2 * this.h);
    this.computed = new Uint8Array(capacity);
    this.adds = new Int32Array(capacity * MAX_DELTAS);
    this.subs = new Int32Array(capacity * MAX_DELTAS);
    this.nAdd = new Uint8Array(capacity);
    this.nSub = new Uint8Array(capacity);
    this.acc.set(old.acc);
    this.computed.set(old.computed);
    this.adds.set(old.adds);
    this.subs.set(old.subs);
    this.nAdd.set(old.nAdd);
    this.nSub.set(old.nSub);
    this.capacity = capacity;
  }

  /** Full refresh: the stack is emptied and entry 0 computed from the active piece codes. */
  reset(codes: ArrayLike<number>, count: number): void {
    this.ply = 0;
    this.refreshInto(this.acc, 0, codes, count);
    this.computed[0] = 1;
  }

  /** Both perspectives' accumulators from scratch into `out[off..off+2H)`. */
  refreshInto(out: Int16Array, off: number, codes: ArrayLike<number>, count: number): void {
    const h = this.h;
    const { l1w, l1b } = this.net;
    for (let p = 0; p < 2; p++) {
      const base = off + p * h;
      for (let i = 0; i < h; i++) out[base + i] = l1b[i]!;
      for (let k = 0; k < count; k++) {
        const row = this.featureOf[p * this.codes + codes[k]!]! * h;
        for (let i = 0; i < h; i++) out[base + i] += l1w[row + i]!;
      }
    }
  }

  /** A new entry; the caller then records the move's changes with `add` / `sub`. */
  push(): void {
    const n = this.ply + 1;
    if (n >= this.capacity) this.grow(this.capacity * 2);
    this.ply = n;
    this.computed[n] = 0;
    this.nAdd[n] = 0;
    this.nSub[n] = 0;
  }

  add(code: number): void {
    const n = this.ply;
    this.adds[n * MAX_DELTAS + this.nAdd[n]!++] = code;
  }

  sub(code: number): void {
    const n = this.ply;
    this.subs[n * MAX_DELTAS + this.nSub[n]!++] = code;
  }

  pop(): void {
    this.ply--;
  }

  /** Brings the current entry up to date; returns its offset in `accumulators`. */
  update(): number {
    let j = this.ply;
    while (this.computed[j] === 0) j--;
    for (let k = j + 1; k <= this.ply; k++) this.apply(k);
    return this.ply * 2 * this.h;
  }

  /** The accumulator array (entry `ply` at `ply * 2H`: white/black or black/white perspective halves). */
  get accumulators(): Int16Array {
    return this.acc;
  }

  /** Output in centipawns for side to move `stm` (0 or 1: the perspective index). */
  evaluate(stm: number): number {
    const off = this.update();
    const h = this.h;
    return networkOutput(this.net, this.acc, off + stm * h, off + (stm ^ 1) * h);
  }

  private apply(k: number): void {
    const h = this.h;
    const acc = this.acc;
    const w = this.net.l1w;
    const fo = this.featureOf;
    const na = this.nAdd[k]!;
    const ns = this.nSub[k]!;
    for (let p = 0; p < 2; p++) {
      const dst = k * 2 * h + p * h;
      const src = dst - 2 * h;
      const po = p * this.codes;
      if (na === 1 && ns === 1) {
        const a = fo[po + this.adds[k * MAX_DELTAS]!]! * h;
        const s = fo[po + this.subs[k * MAX_DELTAS]!]! * h;
        for (let i = 0; i < h; i++) acc[dst + i] = acc[src + i]! + w[a + i]! - w[s + i]!;
      } else if (na === 1 && ns === 2) {
        const a = fo[po + this.adds[k * MAX_DELTAS]!]! * h;
        const s = fo[po + this.subs[k * MAX_DELTAS]!]! * h;
        const s2 = fo[po + this.subs[k * MAX_DELTAS + 1]!]! * h;
        for (let i = 0; i < h; i++) acc[dst + i] = acc[src + i]! + w[a + i]! - w[s + i]! - w[s2 + i]!;
      } else {
        acc.copyWithin(dst, src, src + h);
        for (let d = 0; d < na; d++) {
          const a = fo[po + this.adds[k * MAX_DELTAS + d]!]! * h;
          for (let i = 0; i < h; i++) acc[dst + i] += w[a + i]!;
        }
        for (let d = 0; d < ns; d++) {
          const s = fo[po + this.subs[k * MAX_DELTAS + d]!]! * h;
          for (let i = 0; i < h; i++) acc[dst + i] -= w[s + i]!;
        }
      }
    }
    this.computed[k] = 1;
  }
}
