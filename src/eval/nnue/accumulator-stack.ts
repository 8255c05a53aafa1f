/**
 * The two perspectives' accumulators along the current line, one entry per ply, updated lazily:
 * `push` records the features a move removes and adds (as piece codes, mapped to feature rows per
 * perspective through the game's table), and only `evaluate` brings the accumulators up to date,
 * from the nearest computed ancestor, as Stockfish does since its NNUE import: nodes that are cut
 * off before they evaluate cost nothing. `pop` is free.
 *
 * King-relative feature sets (shogi-king-features.ts) map a piece code to a different row for each
 * "view" of a perspective (its own king's bucket): the table has `views` blocks per perspective,
 * `featureOf[(p * views + view) * codes + code]`. A move that changes a perspective's view cannot be
 * applied incrementally to it: `refreshAt` records the new view and the position's piece codes, and
 * the update rebuilds that perspective from them (the other perspective still takes the deltas),
 * as Stockfish refreshes the accumulator of a side whose king moved. Each perspective keeps its own
 * "computed" flag, so a refreshed perspective does not force the other one to be recomputed.
 * Such a rebuild starts from a cache of the last accumulator built in that perspective and view, with
 * its piece codes, and applies only the codes that differ (Stockfish's "Finny tables",
 * `AccumulatorCaches`): a king that steps back and forth between two buckets costs a few rows, not
 * the whole position.
 * An optional second table (`zoneOf`, same indexing, -1 for none) gives a code a second row in the
 * same view (shogi-king-zone-features.ts: a piece next to the king). When a view change alters only a
 * few rows (king-zone: the zone rows of the pieces around the king's old and new squares),
 * `moveView` records those rows explicitly and the perspective stays incremental.
 *
 * Where WebAssembly SIMD applies (simd/simd-kernels.ts), the accumulators live in the module's
 * memory and the updates, refreshes and the SCReLU output run there, bit-exact with the loops here.
 */
import { networkOutput, screluOutput, type NnueNetwork } from './network.js';
import { NnueSimd } from './simd/simd-kernels.js';

const MAX_DELTAS = 4;
/** Piece codes a refresh can take (shogi: 40 board pieces + at most 40 hand features). */
const MAX_REFRESH_CODES = 128;
/** Rows `moveView` can take (king-zone: 4 base rows + 24 leaving the old zone + 24 entering the new). */
const MAX_EXPLICIT_ROWS = 64;

export class AccumulatorStack {
  private readonly h: number;
  private acc: Int16Array;
  /** Per entry and perspective (`n * 2 + p`): 1 when that half is up to date. */
  private computed: Uint8Array;
  /** Per entry and perspective: offset of the view's block in `featureOf`. */
  private viewBase: Int32Array;
  /** Per entry: the perspective `refreshAt` rebuilds there (-1: none), its code count and codes. */
  private refreshP: Int8Array;
  private refreshN: Uint8Array;
  private refreshCodes: Int32Array;
  /** Per entry: the perspective `moveView` updates by explicit rows there (-1: none), their count and rows (+(row + 1) add, -(row + 1) subtract). */
  private explicitP: Int8Array;
  private explicitN: Uint8Array;
  private explicitRows: Int32Array;
  private adds: Int32Array;
  private subs: Int32Array;
  private nAdd: Uint8Array;
  private nSub: Uint8Array;
  /** Scratch: the feature rows (offsets) of one entry's deltas when codes have two rows. */
  private readonly rowsAdd = new Int32Array(2 * MAX_DELTAS);
  private readonly rowsSub = new Int32Array(2 * MAX_DELTAS);
  private capacity = 0;
  /**
   * Refresh cache (king-relative sets rebuilt by `refreshAt`): per perspective and view, `H` values
   * in `acc` after the entries (at `cacheOff`), whether they are valid, and the piece codes they were
   * built from.
   */
  private readonly cacheOn: boolean;
  private cacheOff = 0;
  private readonly cacheValid: Uint8Array;
  private readonly cacheN: Uint8Array;
  private readonly cacheCodes: Int32Array;
  /** Scratch: per code, the epoch it was last seen in the rebuilt position's codes (diffs against a cache slot). */
  private readonly seen: Uint32Array;
  private epoch = 0;
  private readonly diffAdd = new Int32Array(MAX_REFRESH_CODES);
  private readonly diffSub = new Int32Array(MAX_REFRESH_CODES);
  /** The WebAssembly SIMD kernels, when they apply to this network (`acc` is then their memory's view). */
  private readonly simd: NnueSimd | undefined;
  /** Current ply (entry index). */
  ply = 0;

  /**
   * `featureOf[(p * views + view) * codes + code]` is the feature row of `code` for perspective p in
   * `view`; `simd`: run on the WebAssembly SIMD kernels where they apply to `net`.
   */
  constructor(
    readonly net: NnueNetwork,
    private readonly featureOf: Int32Array,
    private readonly codes: number,
    private readonly views = 1,
    private readonly zoneOf?: Int32Array,
    simd = true,
  ) {
    if (featureOf.length !== 2 * views * codes) throw new Error(`feature table of ${featureOf.length} entries, expected 2 x ${views} views x ${codes} codes`);
    if (zoneOf !== undefined && zoneOf.length !== featureOf.length) throw new Error(`second feature table of ${zoneOf.length} entries, expected ${featureOf.length}`);
    this.h = net.hidden;
    const slots = 2 * views;
    this.cacheOn = views > 1 && zoneOf === undefined;
    this.cacheValid = new Uint8Array(this.cacheOn ? slots : 0);
    this.cacheN = new Uint8Array(this.cacheOn ? slots : 0);
    this.cacheCodes = new Int32Array(this.cacheOn ? slots * MAX_REFRESH_CODES : 0);
    this.seen = new Uint32Array(this.cacheOn ? codes : 0);
    this.simd = simd ? NnueSimd.create(net, 128 * 2 * net.hidden + this.cacheElems()) : undefined;
    this.acc = new Int16Array(0);
    this.computed = new Uint8Array(0);
    this.viewBase = new Int32Array(0);
    this.refreshP = new Int8Array(0);
    this.refreshN = new Uint8Array(0);
    this.refreshCodes = new Int32Array(0);
    this.explicitP = new Int8Array(0);
    this.explicitN = new Uint8Array(0);
    this.explicitRows = new Int32Array(0);
    this.adds = new Int32Array(0);
    this.subs = new Int32Array(0);
    this.nAdd = new Uint8Array(0);
    this.nSub = new Uint8Array(0);
    this.grow(128);
  }

  /** Accumulator elements the refresh cache takes after the entries. */
  private cacheElems(): number {
    return this.cacheOn ? 2 * this.views * this.h : 0;
  }

  private grow(capacity: number): void {
    const old = { ...this };
    const cacheOff = capacity * 2 * this.h;
    const cache = this.cacheElems();
    if (this.simd !== undefined) {
      // The module's memory keeps the entries when it grows; `acc` becomes a view of the new buffer.
      this.simd.growAcc(cacheOff + cache);
      this.acc = this.simd.acc;
      if (this.capacity > 0) this.acc.copyWithin(cacheOff, this.cacheOff, this.cacheOff + cache);
    } else {
      this.acc = new Int16Array(cacheOff + cache);
      this.acc.set(old.acc.subarray(0, this.capacity * 2 * this.h));
      this.acc.set(old.acc.subarray(this.cacheOff, this.cacheOff + cache), cacheOff);
    }
    this.cacheOff = cacheOff;
    this.computed = new Uint8Array(capacity * 2);
    this.viewBase = new Int32Array(capacity * 2);
    this.refreshP = new Int8Array(capacity);
    this.refreshN = new Uint8Array(capacity);
    this.refreshCodes = new Int32Array(capacity * MAX_REFRESH_CODES);
    this.explicitP = new Int8Array(capacity);
    this.explicitN = new Uint8Array(capacity);
    this.explicitRows = new Int32Array(capacity * MAX_EXPLICIT_ROWS);
    this.adds = new Int32Array(capacity * MAX_DELTAS);
    this.subs = new Int32Array(capacity * MAX_DELTAS);
    this.nAdd = new Uint8Array(capacity);
    this.nSub = new Uint8Array(capacity);
    this.computed.set(old.computed);
    this.viewBase.set(old.viewBase);
    this.refreshP.set(old.refreshP);
    this.refreshN.set(old.refreshN);
    this.refreshCodes.set(old.refreshCodes);
    this.explicitP.set(old.explicitP);
    this.explicitN.set(old.explicitN);
    this.explicitRows.set(old.explicitRows);
    this.adds.set(old.adds);
    this.subs.set(old.subs);
    this.nAdd.set(old.nAdd);
    this.nSub.set(old.nSub);
    this.capacity = capacity;
  }

  /**
   * Full refresh: the stack is emptied and entry 0 computed from the active piece codes, in views
   * `view0` / `view1` of perspectives 0 / 1.
   */
  reset(codes: ArrayLike<number>, count: number, view0 = 0, view1 = 0): void {
    this.simd?.syncWeights();
    // The weights may have changed since (learning): the cached accumulators are rebuilt when next used.
    this.cacheValid.fill(0);
    this.ply = 0;
    this.viewBase[0] = this.viewOffset(0, view0);
    this.viewBase[1] = this.viewOffset(1, view1);
    this.refreshInto(this.acc, 0, codes, count, view0, view1);
    this.computed[0] = 1;
    this.computed[1] = 1;
    this.refreshP[0] = -1;
    this.explicitP[0] = -1;
  }

  private viewOffset(p: number, view: number): number {
    if (!(view >= 0 && view < this.views)) throw new Error(`view ${view} out of range (${this.views} views)`);
    return (p * this.views + view) * this.codes;
  }

  /** Both perspectives' accumulators from scratch into `out[off..off+2H)` (in views `view0` / `view1`). */
  refreshInto(out: Int16Array, off: number, codes: ArrayLike<number>, count: number, view0 = 0, view1 = 0): void {
    this.refreshHalf(out, off, this.viewOffset(0, view0), codes, 0, count);
    this.refreshHalf(out, off + this.h, this.viewOffset(1, view1), codes, 0, count);
  }

  /** Whether the WebAssembly SIMD kernels run this stack (tests compare both paths). */
  get simdActive(): boolean {
    return this.simd !== undefined;
  }

  /** One perspective's accumulator from `codes[from..from+count)` under its view block `vb` into `out[off..off+H)`. */
  private refreshHalf(out: Int16Array, off: number, vb: number, codes: ArrayLike<number>, from: number, count: number): void {
    const h = this.h;
    const zo = this.zoneOf;
    const simd = this.simd;
    if (simd !== undefined && out === this.acc) {
      const rows = simd.rows;
      let n = 0;
      for (let k = from; k < from + count; k++) {
        rows[n++] = simd.rowAt(this.featureOf[vb + codes[k]!]! * h);
        const z = zo === undefined ? -1 : zo[vb + codes[k]!]!;
        if (z >= 0) rows[n++] = simd.rowAt(z * h);
      }
      simd.update(off, simd.b1Byte, n, 0);
      return;
    }
    const { l1w, l1b } = this.net;
    for (let i = 0; i < h; i++) out[off + i] = l1b[i]!;
    for (let k = from; k < from + count; k++) {
      const row = this.featureOf[vb + codes[k]!]! * h;
      for (let i = 0; i < h; i++) out[off + i] += l1w[row + i]!;
      if (zo === undefined) continue;
      const z = zo[vb + codes[k]!]!;
      if (z < 0) continue;
      const zr = z * h;
      for (let i = 0; i < h; i++) out[off + i] += l1w[zr + i]!;
    }
  }

  /** A new entry; the caller then records the move's changes with `add` / `sub`. */
  push(): void {
    const n = this.ply + 1;
    if (n >= this.capacity) this.grow(this.capacity * 2);
    this.ply = n;
    this.computed[2 * n] = 0;
    this.computed[2 * n + 1] = 0;
    this.viewBase[2 * n] = this.viewBase[2 * n - 2]!;
    this.viewBase[2 * n + 1] = this.viewBase[2 * n - 1]!;
    this.refreshP[n] = -1;
    this.explicitP[n] = -1;
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

  /**
   * After `push`: perspective p moves to `view` at this entry, whose position has the piece codes
   * `codes[0..count)`; its half of the accumulator is rebuilt from them when needed (the recorded
   * deltas still serve the other perspective).
   */
  refreshAt(p: number, view: number, codes: ArrayLike<number>, count: number): void {
    const n = this.ply;
    if (count > MAX_REFRESH_CODES) throw new Error(`${count} piece codes, a refresh takes at most ${MAX_REFRESH_CODES}`);
    this.viewBase[2 * n + p] = this.viewOffset(p, view);
    this.refreshP[n] = p;
    this.refreshN[n] = count;
    const base = n * MAX_REFRESH_CODES;
    for (let k = 0; k < count; k++) this.refreshCodes[base + k] = codes[k]!;
  }

  /**
   * After `push`: perspective p moves to `view` at this entry, and its accumulator follows from the
   * previous entry's by the feature rows `rows[0..count)` (+(row + 1) to add, -(row + 1) to
   * subtract) instead of the recorded deltas, which still serve the other perspective.
   */
  moveView(p: number, view: number, rows: ArrayLike<number>, count: number): void {
    const n = this.ply;
    if (count > MAX_EXPLICIT_ROWS) throw new Error(`${count} rows, an explicit update takes at most ${MAX_EXPLICIT_ROWS}`);
    this.viewBase[2 * n + p] = this.viewOffset(p, view);
    this.explicitP[n] = p;
    this.explicitN[n] = count;
    const base = n * MAX_EXPLICIT_ROWS;
    for (let k = 0; k < count; k++) this.explicitRows[base + k] = rows[k]!;
  }

  pop(): void {
    this.ply--;
  }

  /** Brings the current entry up to date; returns its offset in `accumulators`. */
  update(): number {
    const ply = this.ply;
    const h = this.h;
    for (let p = 0; p < 2; p++) {
      if (this.computed[2 * ply + p] !== 0) continue;
      // Down to the nearest entry that is computed for p, or that rebuilds p (then from there).
      let j = ply;
      while (this.computed[2 * j + p] === 0 && this.refreshP[j] !== p) j--;
      if (this.computed[2 * j + p] === 0) {
        const dst = j * 2 * h + p * h;
        const vb = this.viewBase[2 * j + p]!;
        if (this.cacheOn) this.refreshCached(dst, vb, j * MAX_REFRESH_CODES, this.refreshN[j]!);
        else this.refreshHalf(this.acc, dst, vb, this.refreshCodes, j * MAX_REFRESH_CODES, this.refreshN[j]!);
        this.computed[2 * j + p] = 1;
      }
      for (let k = j + 1; k <= ply; k++) this.apply(k, p);
    }
    return ply * 2 * h;
  }

  /**
   * One perspective's accumulator at `dst` from `refreshCodes[from..from+count)` in view block `vb`,
   * through that view's cache slot: the codes the slot was built from that are gone are subtracted,
   * the new ones added, and the slot copied out. A stale slot (more changes than codes) or an empty
   * one is rebuilt from the biases.
   */
  private refreshCached(dst: number, vb: number, from: number, count: number): void {
    const h = this.h;
    const slot = vb / this.codes;
    const off = this.cacheOff + slot * h;
    const codes = this.refreshCodes;
    const cached = this.cacheCodes;
    const cbase = slot * MAX_REFRESH_CODES;
    const cn = this.cacheN[slot]!;
    let nAdd = 0;
    let nSub = 0;
    if (this.cacheValid[slot] !== 0) {
      // Codes present in the slot get this epoch; the position's codes without it are added, then the
      // position's codes get the next epoch and the slot's codes without that are subtracted.
      const seen = this.seen;
      const e1 = ++this.epoch;
      for (let k = 0; k < cn; k++) seen[cached[cbase + k]!] = e1;
      for (let k = from; k < from + count; k++) if (seen[codes[k]!] !== e1) this.diffAdd[nAdd++] = codes[k]!;
      const e2 = ++this.epoch;
      for (let k = from; k < from + count; k++) seen[codes[k]!] = e2;
      for (let k = 0; k < cn; k++) if (seen[cached[cbase + k]!] !== e2) this.diffSub[nSub++] = cached[cbase + k]!;
    }
    if (this.cacheValid[slot] === 0 || nAdd + nSub >= count) {
      this.refreshHalf(this.acc, off, vb, codes, from, count);
      this.cacheValid[slot] = 1;
    } else if (nAdd + nSub > 0) {
      this.applyRows(off, vb, nAdd, nSub);
    }
    for (let k = 0; k < count; k++) cached[cbase + k] = codes[from + k]!;
    this.cacheN[slot] = count;
    this.acc.copyWithin(dst, off, off + h);
  }

  /** acc[off..off+H) += the rows of `diffAdd[0..nAdd)` - those of `diffSub[0..nSub)` (codes in view block `vb`). */
  private applyRows(off: number, vb: number, nAdd: number, nSub: number): void {
    const h = this.h;
    const fo = this.featureOf;
    const simd = this.simd;
    if (simd !== undefined) {
      const rows = simd.rows;
      for (let d = 0; d < nAdd; d++) rows[d] = simd.rowAt(fo[vb + this.diffAdd[d]!]! * h);
      for (let d = 0; d < nSub; d++) rows[nAdd + d] = simd.rowAt(fo[vb + this.diffSub[d]!]! * h);
      simd.update(off, simd.accAt(off), nAdd, nSub);
      return;
    }
    const acc = this.acc;
    const w = this.net.l1w;
    for (let d = 0; d < nAdd; d++) {
      const a = fo[vb + this.diffAdd[d]!]! * h;
      for (let i = 0; i < h; i++) acc[off + i] += w[a + i]!;
    }
    for (let d = 0; d < nSub; d++) {
      const s = fo[vb + this.diffSub[d]!]! * h;
      for (let i = 0; i < h; i++) acc[off + i] -= w[s + i]!;
    }
  }

  /** The accumulator array (entry `ply` at `ply * 2H`: white/black or black/white perspective halves). */
  get accumulators(): Int16Array {
    return this.acc;
  }

  /** Output in centipawns for side to move `stm` (0 or 1: the perspective index) through output `bucket` (network.ts). */
  evaluate(stm: number, bucket = 0): number {
    const off = this.update();
    const h = this.h;
    if (this.simd !== undefined && this.net.activation === 'screlu') return screluOutput(this.net, this.simd.screlu(off + stm * h, off + (stm ^ 1) * h, bucket), bucket);
    return networkOutput(this.net, this.acc, off + stm * h, off + (stm ^ 1) * h, bucket);
  }

  /** Entry k's half p from entry k - 1's by the recorded deltas (the view is the same at both). */
  private apply(k: number, p: number): void {
    const h = this.h;
    const acc = this.acc;
    const w = this.net.l1w;
    const fo = this.featureOf;
    const na = this.nAdd[k]!;
    const ns = this.nSub[k]!;
    if (this.simd !== undefined) {
      this.applySimd(k, p, na, ns);
      return;
    }
    {
      const dst = k * 2 * h + p * h;
      const src = dst - 2 * h;
      const po = this.viewBase[2 * k + p]!;
      const zo = this.zoneOf;
      if (this.explicitP[k] === p) {
        acc.copyWithin(dst, src, src + h);
        const base = k * MAX_EXPLICIT_ROWS;
        for (let e = 0; e < this.explicitN[k]!; e++) {
          const r = this.explicitRows[base + e]!;
          if (r > 0) {
            const a = (r - 1) * h;
            for (let i = 0; i < h; i++) acc[dst + i] += w[a + i]!;
          } else {
            const a = (-r - 1) * h;
            for (let i = 0; i < h; i++) acc[dst + i] -= w[a + i]!;
          }
        }
      } else if (zo !== undefined) {
        // Both tables: the rows to add and to subtract (a code in the zone has two), then one fused
        // pass per add/subtract pair, as in the one-table case below.
        const ra = this.rowsAdd;
        const rs = this.rowsSub;
        let nra = 0;
        let nrs = 0;
        for (let d = 0; d < na; d++) {
          const code = this.adds[k * MAX_DELTAS + d]!;
          ra[nra++] = fo[po + code]! * h;
          const z = zo[po + code]!;
          if (z >= 0) ra[nra++] = z * h;
        }
        for (let d = 0; d < ns; d++) {
          const code = this.subs[k * MAX_DELTAS + d]!;
          rs[nrs++] = fo[po + code]! * h;
          const z = zo[po + code]!;
          if (z >= 0) rs[nrs++] = z * h;
        }
        let from = src;
        let d = 0;
        for (; d < nra && d < nrs; d++) {
          const a = ra[d]!;
          const r = rs[d]!;
          for (let i = 0; i < h; i++) acc[dst + i] = acc[from + i]! + w[a + i]! - w[r + i]!;
          from = dst;
        }
        if (from === src) acc.copyWithin(dst, src, src + h);
        for (let e = d; e < nra; e++) {
          const a = ra[e]!;
          for (let i = 0; i < h; i++) acc[dst + i] += w[a + i]!;
        }
        for (let e = d; e < nrs; e++) {
          const r = rs[e]!;
          for (let i = 0; i < h; i++) acc[dst + i] -= w[r + i]!;
        }
      } else if (na === 1 && ns === 1) {
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
    this.computed[2 * k + p] = 1;
  }

  /** `apply` through the SIMD kernels: the entry's rows to add, then to subtract, in one pass. */
  private applySimd(k: number, p: number, na: number, ns: number): void {
    const simd = this.simd!;
    const h = this.h;
    const dst = k * 2 * h + p * h;
    const src = dst - 2 * h;
    const po = this.viewBase[2 * k + p]!;
    const fo = this.featureOf;
    const zo = this.zoneOf;
    const rows = simd.rows;
    let nAdd = 0;
    let nSub = 0;
    if (this.explicitP[k] === p) {
      const base = k * MAX_EXPLICIT_ROWS;
      const n = this.explicitN[k]!;
      for (let e = 0; e < n; e++) {
        const r = this.explicitRows[base + e]!;
        if (r > 0) rows[nAdd++] = simd.rowAt((r - 1) * h);
      }
      for (let e = 0; e < n; e++) {
        const r = this.explicitRows[base + e]!;
        if (r < 0) rows[nAdd + nSub++] = simd.rowAt((-r - 1) * h);
      }
    } else if (zo === undefined && na === 1 && ns === 1) {
      simd.addSub(dst, src, fo[po + this.adds[k * MAX_DELTAS]!]! * h, fo[po + this.subs[k * MAX_DELTAS]!]! * h);
      this.computed[2 * k + p] = 1;
      return;
    } else {
      for (let d = 0; d < na; d++) {
        const code = this.adds[k * MAX_DELTAS + d]!;
        rows[nAdd++] = simd.rowAt(fo[po + code]! * h);
        const z = zo === undefined ? -1 : zo[po + code]!;
        if (z >= 0) rows[nAdd++] = simd.rowAt(z * h);
      }
      for (let d = 0; d < ns; d++) {
        const code = this.subs[k * MAX_DELTAS + d]!;
        rows[nAdd + nSub++] = simd.rowAt(fo[po + code]! * h);
        const z = zo === undefined ? -1 : zo[po + code]!;
        if (z >= 0) rows[nAdd + nSub++] = simd.rowAt(z * h);
      }
    }
    simd.update(dst, simd.accAt(src), nAdd, nSub);
    this.computed[2 * k + p] = 1;
  }
}
