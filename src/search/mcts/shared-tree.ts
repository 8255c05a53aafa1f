/**
 * The MCTS tree in one `SharedArrayBuffer`, for several search threads over one tree (issue 19;
 * the main search and its helpers, threads.ts). The arrays are those of `Tree` (tree.ts), views of
 * one buffer of fixed capacity: `maxEdges` edges and `maxEdges + 1` nodes (each node but the root
 * hangs from one edge, so the nodes never run out before the edges). Linux commits the pages of a
 * buffer when they are first written, so the untouched capacity costs address space, not memory.
 *
 * What the threads share and how (the protocol of the descent on a shared tree, search-worker.ts;
 * this class's side of it is the tree view's methods of `Tree`, overridden here):
 * - the node and edge counters live in the buffer's header and are taken with `Atomics.add`
 *   (nodes) and a compare-exchange loop (edges, which must not pass the capacity);
 * - a never-visited edge's child is created by the thread that swaps its `edgeChild` from -1 to
 *   `CHILD_BUSY` (compare-exchange); it then writes the node and publishes its index, and a
 *   thread that finds `CHILD_BUSY` backs off (a collision). So each edge gets at most one node;
 * - a node's edges are written first and published last (`publishEdges`: the count, then the
 *   first edge with `Atomics.store`), so a thread that reads `firstEdge >= 0` sees whole edges;
 * - visits, value sum and draws change together under a per-node spin lock (`lock`), held for
 *   three additions (KataGo's `statsLock` does the same for its node statistics): the value sum is
 *   a Float64, which `Atomics` cannot add to, and an unlocked `+=` from two threads can lose one
 *   of the two values. Readers read without the lock: a value read between two additions is
 *   stale by one visit, as in every shared-tree MCTS;
 * - virtual visits change with `Atomics.add` / `Atomics.sub` outside the lock;
 * - flags change with `Atomics.or` / `Atomics.and`; the solver's marks are only ever set, and
 *   `termValue` is written before the terminal flag.
 */
import { FLAG_PENDING, Tree, type TreeArrays } from './tree.js';

/** `edgeChild` of an edge whose child a thread is creating right now. */
export const CHILD_BUSY = -2;

/** Header words (Int32): node count, edge count, tree full (1 once an expansion found no room). */
const HEADER_NODES = 0;
const HEADER_EDGES = 1;
const HEADER_FULL = 2;
const HEADER_WORDS = 4;

/** What a thread needs to attach to a shared tree. */
export interface SharedTreeMemory {
  readonly buffer: SharedArrayBuffer;
  readonly maxEdges: number;
}

/** The views of a shared tree's buffer, with the header and the locks. */
const viewsOf = (memory: SharedTreeMemory): TreeArrays & { header: Int32Array; lock: Int32Array } => {
  const nodes = memory.maxEdges + 1;
  const edges = memory.maxEdges;
  const b = memory.buffer;
  let at = 0;
  // Eight-byte arrays first, then four-byte ones, then bytes: every view is aligned.
  const f64 = (n: number): Float64Array => new Float64Array(b, (at += n * 8) - n * 8, n);
  const i32 = (n: number): Int32Array => new Int32Array(b, (at += n * 4) - n * 4, n);
  const f32 = (n: number): Float32Array => new Float32Array(b, (at += n * 4) - n * 4, n);
  const valueSum = f64(nodes);
  const draws = f64(nodes);
  const header = i32(HEADER_WORDS);
  const visits = i32(nodes);
  const virtual = i32(nodes);
  const firstEdge = i32(nodes);
  const edgeCount = i32(nodes);
  const termValue = f32(nodes);
  const lock = i32(nodes);
  const edgeMove = i32(edges);
  const edgePrior = f32(edges);
  const edgeChild = i32(edges);
  const flags = new Uint8Array(b, at, nodes);
  return { visits, valueSum, virtual, firstEdge, edgeCount, flags, termValue, draws, edgeMove, edgePrior, edgeChild, header, lock };
};

/** Bytes of a shared tree of `maxEdges` edges. */
const bytesFor = (maxEdges: number): number => (maxEdges + 1) * (8 + 8 + 4 * 6 + 1) + HEADER_WORDS * 4 + maxEdges * 12;

export class SharedTree extends Tree {
  // Declared, not defined before the constructor sets them (see Tree's arrays).
  declare readonly memory: SharedTreeMemory;
  /** Per-node spin lock of visits, value sum and draws (0 free, 1 held). */
  declare readonly lock: Int32Array;
  private declare readonly header: Int32Array;

  private constructor(memory: SharedTreeMemory) {
    const views = viewsOf(memory);
    super(memory.maxEdges, views);
    this.memory = memory;
    this.lock = views.lock;
    this.header = views.header;
  }

  /** A new shared tree of `maxEdges` edges holding only the root. */
  static create(maxEdges: number): SharedTree {
    const t = new SharedTree({ buffer: new SharedArrayBuffer(bytesFor(maxEdges)), maxEdges });
    t.newNode();
    return t;
  }

  /** This thread's view of the shared tree another thread created. */
  static attach(memory: SharedTreeMemory): SharedTree {
    return new SharedTree(memory);
  }

  override get nodeCount(): number {
    return Atomics.load(this.header, HEADER_NODES);
  }

  override get edgeTotal(): number {
    return Math.min(Atomics.load(this.header, HEADER_EDGES), this.maxEdges);
  }

  /** Whether an expansion found no room (set by any thread). */
  get full(): boolean {
    return Atomics.load(this.header, HEADER_FULL) !== 0;
  }

  /** Adds an unexpanded node (its index is published by the caller) and returns its index. */
  override newNode(): number {
    const i = Atomics.add(this.header, HEADER_NODES, 1);
    if (i >= this.visits.length) throw new Error(`shared MCTS tree: node ${i} past its capacity ${this.visits.length}`);
    this.initNode(i);
    this.lock[i] = 0;
    return i;
  }

  /** Virtual visits are taken on the way down, so that the other threads see them at once. */
  override enter(node: number): void {
    Atomics.add(this.virtual, node, 1);
  }

  /** Nothing: the path's virtual visits were taken on the way down (`enter`). */
  override arrive(_path: Int32Array, _depth: number): void {}

  override leave(node: number): void {
    Atomics.sub(this.virtual, node, 1);
  }

  /** Spins: the lock is held for three additions (a Float64 sum cannot be added to atomically). */
  override lockStats(node: number): void {
    while (Atomics.compareExchange(this.lock, node, 0, 1) !== 0) continue;
  }

  override unlockStats(node: number): void {
    Atomics.store(this.lock, node, 0);
  }

  override hasRoomFor(count: number): boolean {
    return Atomics.load(this.header, HEADER_EDGES) + count <= this.maxEdges;
  }

  /**
   * Takes `count` edges for the caller to fill, or returns -1 (and marks the tree full) when they
   * do not fit. The edges' children are -1; `publishEdges` hands them to a node.
   */
  override reserveEdges(count: number): number {
    const h = this.header;
    for (;;) {
      const first = Atomics.load(h, HEADER_EDGES);
      if (first + count > this.maxEdges) {
        Atomics.store(h, HEADER_FULL, 1);
        return -1;
      }
      if (Atomics.compareExchange(h, HEADER_EDGES, first, first + count) === first) {
        this.edgeChild.fill(-1, first, first + count);
        return first;
      }
    }
  }

  /** Makes the filled edges `first .. first+count` those of `node` (count first, then the first edge). */
  override publishEdges(node: number, first: number, count: number): void {
    this.edgeCount[node] = count;
    Atomics.store(this.firstEdge, node, first);
  }

  /**
   * Single-threaded use (the root's expansion before the helpers start, `extract`): reserves and
   * publishes at once, the caller fills the edges after.
   */
  override expand(node: number, count: number): number {
    const first = this.reserveEdges(count);
    if (first < 0) throw new Error(`shared MCTS tree: no room for ${count} edges`);
    this.publishEdges(node, first, count);
    return first;
  }

  /**
   * The child node of `edge`, created if the edge was never visited; -1 when another thread is
   * creating it right now (the caller backs off).
   */
  override childOf(edge: number): number {
    const c = Atomics.load(this.edgeChild, edge);
    if (c >= 0) return c;
    if (c !== -1 || Atomics.compareExchange(this.edgeChild, edge, -1, CHILD_BUSY) !== -1) return -1;
    const n = this.newNode();
    Atomics.store(this.edgeChild, edge, n);
    return n;
  }

  /** Not for a shared tree (its memory may still be read by other threads): a new one is made instead. */
  override clear(): void {
    throw new Error('a shared MCTS tree is not cleared in place');
  }

  /**
   * After a helper thread was lost mid-playout (and terminated): takes away what its playout in
   * flight held, which no thread would ever release: every virtual visit, every `FLAG_PENDING`
   * (a node nobody could value or expand again) and every child left half-created. Only while no
   * other thread plays on the tree.
   */
  recover(): void {
    const nodes = this.nodeCount;
    this.virtual.fill(0, 0, nodes);
    const flags = this.flags;
    for (let i = 0; i < nodes; i++) flags[i] = flags[i]! & ~FLAG_PENDING;
    const edgeChild = this.edgeChild;
    for (let e = 0, end = this.edgeTotal; e < end; e++) if (edgeChild[e] === CHILD_BUSY) edgeChild[e] = -1;
  }

  override get bytes(): number {
    return bytesFor(this.maxEdges);
  }

  protected override emptyLike(): Tree {
    return SharedTree.create(this.maxEdges);
  }
}
