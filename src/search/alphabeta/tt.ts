/**
 * Transposition table with two bounds per entry (lower and upper), as TreeStrap(alpha-beta) reads it.
 *
 * Each entry stores the 64-bit position key (two uint32 halves; the low half picks the bucket, the
 * whole key is verified), the search depth, a lower bound, an upper bound (`-INFINITE`/`INFINITE`
 * when the search proved none) and the best move. An exact value has `lower === upper`.
 * Scores are stored relative to the node (mate distances counted from it, see `scoreToTable`).
 *
 * Layout: struct of typed arrays, buckets of `BUCKET` entries; replacement prefers the same key,
 * then an entry of an older search, then the shallowest one. Size in MiB, rounded down to a power
 * of two buckets.
 *
 * Sharing (Lazy SMP): all arrays live in one buffer, which may be a `SharedArrayBuffer` that
 * several search threads use at once (`TranspositionTable.shared`, `attach`). Writes are not
 * locked; instead the high key half is stored XOR a checksum of the entry's data (Hyatt and Mann's
 * lockless hashing), so an entry torn by two threads writing at once no longer matches its key and
 * reads as a miss.
 */
import * as scoreModule from './score.js';

// Imported constants copied into module scope: under vitest's module transform every use of an
// import is a property read through a getter, several times slower in the hot loops.
const { INFINITE } = scoreModule;

/** Entries per bucket. */
const BUCKET = 4;
/** Bytes per entry: keyHi 4 + keyLo 4 + move 4 + lower 2 + upper 2 + depth 1 + generation 1. */
export const TT_ENTRY_BYTES = 18;

/** Result of a successful probe, copied out of the table (valid until the next probe). */
export interface TtHit {
  depth: number;
  /** Lower bound, relative to the node (`-INFINITE` if none). */
  lower: number;
  /** Upper bound, relative to the node (`INFINITE` if none). */
  upper: number;
  /** Best or refutation move, 0 if none. */
  move: number;
}

export class TranspositionTable {
  private keyHi!: Int32Array;
  private keyLo!: Int32Array;
  private moves!: Int32Array;
  private lowers!: Int16Array;
  private uppers!: Int16Array;
  private depths!: Int8Array;
  private gens!: Uint8Array;
  private bucketMask = 0;
  private generation = 1;
  private buffer!: ArrayBuffer | SharedArrayBuffer;
  /** Scratch result of `probe`. */
  readonly hit: TtHit = { depth: 0, lower: -INFINITE, upper: INFINITE, move: 0 };

  /** A private table of `sizeMb` MiB, or a view of `shared` (a buffer from `shared`/`memory`). */
  constructor(sizeMb: number, shared?: SharedArrayBuffer) {
    if (shared !== undefined) this.attach(shared);
    else this.resize(sizeMb);
  }

  /** A table of `sizeMb` MiB in a `SharedArrayBuffer`, for search threads to share. */
  static shared(sizeMb: number): TranspositionTable {
    const t = new TranspositionTable(1);
    t.allocate(sizeMb, true);
    return t;
  }

  /** The table's memory (a `SharedArrayBuffer` for a shared table). */
  get memory(): ArrayBuffer | SharedArrayBuffer {
    return this.buffer;
  }

  /** Uses `buffer` (the `memory` of a shared table) as this table's storage, without clearing it. */
  attach(buffer: SharedArrayBuffer): void {
    const n = buffer.byteLength / TT_ENTRY_BYTES;
    if (!Number.isInteger(n) || n < BUCKET || (n & (n - 1)) !== 0) throw new RangeError(`not a table buffer: ${buffer.byteLength} bytes`);
    this.layout(buffer, n);
  }

  /** Whether the memory is shared with other threads. */
  get isShared(): boolean {
    return typeof SharedArrayBuffer !== 'undefined' && this.buffer instanceof SharedArrayBuffer;
  }

  private layout(buffer: ArrayBuffer | SharedArrayBuffer, n: number): void {
    this.buffer = buffer;
    this.keyHi = new Int32Array(buffer, 0, n);
    this.keyLo = new Int32Array(buffer, 4 * n, n);
    this.moves = new Int32Array(buffer, 8 * n, n);
    this.lowers = new Int16Array(buffer, 12 * n, n);
    this.uppers = new Int16Array(buffer, 14 * n, n);
    this.depths = new Int8Array(buffer, 16 * n, n);
    this.gens = new Uint8Array(buffer, 17 * n, n);
    this.bucketMask = n / BUCKET - 1;
    this.generation = 1;
  }

  private allocate(sizeMb: number, shared: boolean): void {
    const bytes = Math.max(1, sizeMb) * 1024 * 1024;
    let buckets = 1;
    while (buckets * 2 * BUCKET * TT_ENTRY_BYTES <= bytes) buckets *= 2;
    const n = buckets * BUCKET;
    this.layout(shared ? new SharedArrayBuffer(n * TT_ENTRY_BYTES) : new ArrayBuffer(n * TT_ENTRY_BYTES), n);
  }

  /** Number of entries. */
  get capacity(): number {
    return this.keyHi.length;
  }

  /** Reallocates for `sizeMb` MiB (at least one bucket) and clears; a shared table gets new shared memory. */
  resize(sizeMb: number): void {
    this.allocate(sizeMb, this.buffer !== undefined && this.isShared);
  }

  /** Empties the table (TreeStrap clears it before every training search). */
  clear(): void {
    this.gens.fill(0);
    this.keyHi.fill(0);
    this.keyLo.fill(0);
    this.moves.fill(0);
    this.generation = 1;
  }

  /** Starts a new search: entries of older searches become the first to be replaced. */
  newSearch(): void {
    this.generation = this.generation >= 255 ? 1 : this.generation + 1;
  }

  /** Checksum of entry `i`'s data, XORed into the stored high key half (lockless hashing). */
  private check(i: number): number {
    return Math.imul(this.moves[i]! ^ (this.depths[i]! << 24), 0x9e3779b1) ^ ((this.lowers[i]! << 16) | (this.uppers[i]! & 0xffff));
  }

  /** Index of the entry holding the key, or -1. */
  private find(hi: number, lo: number): number {
    const base = (lo & this.bucketMask) * BUCKET;
    for (let i = base; i < base + BUCKET; i++) {
      if (this.gens[i] !== 0 && this.keyLo[i] === (lo | 0) && (this.keyHi[i]! ^ this.check(i)) === (hi | 0)) return i;
    }
    return -1;
  }

  /** Looks the position up; on success fills `this.hit` (scores relative to the node) and returns true. */
  probe(hi: number, lo: number): boolean {
    const i = this.find(hi, lo);
    if (i < 0) return false;
    const h = this.hit;
    h.depth = this.depths[i]!;
    h.lower = this.lowers[i]!;
    h.upper = this.uppers[i]!;
    h.move = this.moves[i]!;
    return true;
  }

  /** The stored move of the position, 0 if none. */
  probeMove(hi: number, lo: number): number {
    const i = this.find(hi, lo);
    return i < 0 ? 0 : this.moves[i]!;
  }

  /**
   * Stores a search result: `score` (relative to the node) from a search of window (`alpha`, `beta`)
   * at `depth`. A fail-low gives an upper bound, a fail-high a lower bound, anything in between an
   * exact value. A result at the same depth as a stored one for the same key keeps the stored
   * bound that the new one does not replace (when they are consistent).
   */
  store(hi: number, lo: number, depth: number, score: number, alpha: number, beta: number, move: number): void {
    let lower = -INFINITE;
    let upper = INFINITE;
    if (score <= alpha) upper = score;
    else if (score >= beta) lower = score;
    else lower = upper = score;
    this.storeBounds(hi, lo, depth, lower, upper, move);
  }

  /** Stores explicit bounds (relative to the node); see `store`. */
  storeBounds(hi: number, lo: number, depth: number, lower: number, upper: number, move: number): void {
    if (depth > 127) depth = 127;
    else if (depth < -128) depth = -128;
    const base = (lo & this.bucketMask) * BUCKET;
    let slot = base;
    let worst = 1e9;
    for (let i = base; i < base + BUCKET; i++) {
      if (this.gens[i] !== 0 && this.keyLo[i] === (lo | 0) && (this.keyHi[i]! ^ this.check(i)) === (hi | 0)) {
        slot = i;
        break;
      }
      // Replacement value: empty slots first, then entries of older searches, then shallow ones.
      const value = this.gens[i] === 0 ? -1000 : (this.gens[i] === this.generation ? 256 : 0) + this.depths[i]!;
      if (value < worst) {
        worst = value;
        slot = i;
      }
    }
    const i = slot;
    const same = this.gens[i] !== 0 && this.keyLo[i] === (lo | 0) && (this.keyHi[i]! ^ this.check(i)) === (hi | 0);
    if (same) {
      const oldDepth = this.depths[i]!;
      if (depth < oldDepth - 2 && this.gens[i] === this.generation && lower !== upper) {
        // A much shallower bound would throw away a deeper result of this search: keep it, but
        // take the move if the entry has none.
        if (this.moves[i] === 0 && move !== 0) {
          this.moves[i] = move;
          this.keyHi[i] = hi ^ this.check(i);
        }
        return;
      }
      if (depth === oldDepth) {
        // Same depth: the two results are bounds on the same value; keep both when consistent.
        const oldLower = this.lowers[i]!;
        const oldUpper = this.uppers[i]!;
        const newLower = lower > oldLower ? lower : oldLower;
        const newUpper = upper < oldUpper ? upper : oldUpper;
        if (newLower <= newUpper) {
          lower = newLower;
          upper = newUpper;
        }
      }
      if (move === 0) move = this.moves[i]!;
    }
    this.keyLo[i] = lo;
    this.moves[i] = move;
    this.lowers[i] = lower;
    this.uppers[i] = upper;
    this.depths[i] = depth;
    this.gens[i] = this.generation;
    this.keyHi[i] = hi ^ this.check(i);
  }

  /** Permille of the first 1000 entries used by the current search (UCI `hashfull`). */
  hashfull(): number {
    const n = Math.min(1000, this.gens.length);
    let used = 0;
    for (let i = 0; i < n; i++) if (this.gens[i] === this.generation) used++;
    return Math.round((used * 1000) / n);
  }
}
