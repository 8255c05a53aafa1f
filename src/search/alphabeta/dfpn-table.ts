/**
 * The df-pn solver's table (dfpn.ts): per position key, the proof and disproof numbers from the
 * side to move's view (phi, delta), the distance to mate of a solved position, the move that proves
 * or resists longest, and the work (nodes) spent on it. Four entries per bucket; a new position
 * replaces the entry with the least work, so that the expensive results stay (Nagai 2002 and
 * YaneuraOu keep the entry that cost most).
 */

const BUCKET = 4;
/** Bytes per entry: key halves, phi, delta, distance, move, work. */
const ENTRY_BYTES = 28;

export class DfPnTable {
  private keyHi = new Int32Array(0);
  private keyLo = new Int32Array(0);
  private phis = new Int32Array(0);
  private deltas = new Int32Array(0);
  private dists = new Int32Array(0);
  private moves = new Int32Array(0);
  private works = new Int32Array(0);
  private used = new Uint8Array(0);
  private mask = 0;

  constructor(mb: number) {
    let buckets = 1;
    while (buckets * 2 * BUCKET * ENTRY_BYTES <= mb * 1024 * 1024) buckets *= 2;
    const n = buckets * BUCKET;
    this.keyHi = new Int32Array(n);
    this.keyLo = new Int32Array(n);
    this.phis = new Int32Array(n);
    this.deltas = new Int32Array(n);
    this.dists = new Int32Array(n);
    this.moves = new Int32Array(n);
    this.works = new Int32Array(n);
    this.used = new Uint8Array(n);
    this.mask = buckets - 1;
  }

  /** Forgets every entry. */
  clear(): void {
    this.used.fill(0);
  }

  /** Index of the entry for the key, or -1. */
  find(hi: number, lo: number): number {
    const base = (lo & this.mask) * BUCKET;
    for (let i = base; i < base + BUCKET; i++) {
      if (this.used[i] === 1 && this.keyLo[i] === (lo | 0) && this.keyHi[i] === (hi | 0)) return i;
    }
    return -1;
  }

  phi(i: number): number {
    return this.phis[i]!;
  }

  delta(i: number): number {
    return this.deltas[i]!;
  }

  /** Plies to mate of a solved position (0: mated now). */
  dist(i: number): number {
    return this.dists[i]!;
  }

  /** The proving move (a won position) or the longest resistance (a lost one); 0 if none. */
  move(i: number): number {
    return this.moves[i]!;
  }

  /** Stores (or updates) the entry of a key. */
  store(hi: number, lo: number, phi: number, delta: number, dist: number, move: number, work: number): void {
    const base = (lo & this.mask) * BUCKET;
    let slot = -1;
    let least = Infinity;
    for (let i = base; i < base + BUCKET; i++) {
      if (this.used[i] === 1 && this.keyLo[i] === (lo | 0) && this.keyHi[i] === (hi | 0)) {
        slot = i;
        work += this.works[i]!;
        break;
      }
      const w = this.used[i] === 0 ? -1 : this.works[i]!;
      if (w < least) {
        least = w;
        slot = i;
      }
    }
    this.used[slot] = 1;
    this.keyHi[slot] = hi | 0;
    this.keyLo[slot] = lo | 0;
    this.phis[slot] = phi;
    this.deltas[slot] = delta;
    this.dists[slot] = dist;
    this.moves[slot] = move;
    this.works[slot] = Math.min(work, 0x7fffffff);
  }
}
