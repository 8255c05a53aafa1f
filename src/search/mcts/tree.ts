/**
 * The MCTS tree as structure-of-arrays in typed arrays (no object per node), after Lc0's split of
 * edges and nodes: expanding a node allocates one edge per legal move (move, prior, child index),
 * and a child node is created only when its edge is first selected.
 *
 * ```
 *   node 0 (root) ── firstEdge ──> [edge e0 | edge e1 | edge e2 ...]   edgeCount = legal moves
 *                                     │ child      │ child = -1 (never visited)
 *                                     v            
 *                                   node 3 ── firstEdge ──> [ ... ]
 * ```
 * Per node: visits N, value sum W (from the view of the player who made the move into the node,
 * i.e. the parent's side to move, so a parent maximises W/N over its children), virtual visits in
 * flight, the edge range, flags (terminal with its value, waiting for the net), and the number of
 * terminal draws among its visits (W counts them as 0; the draw score is added when Q is read).
 */

/** Node flag: the rules end the game here; `termValue` holds the value for the side to move. */
export const FLAG_TERMINAL = 1;
/** Node flag: in the current batch, waiting for the net. */
export const FLAG_PENDING = 2;

const INITIAL_NODES = 1 << 15;
const INITIAL_EDGES = 1 << 18;

/** The arrays of a tree (fresh growable ones, or views of a shared tree's memory: shared-tree.ts). */
export interface TreeArrays {
  readonly visits: Int32Array;
  readonly valueSum: Float64Array;
  readonly virtual: Int32Array;
  readonly firstEdge: Int32Array;
  readonly edgeCount: Int32Array;
  readonly flags: Uint8Array;
  readonly termValue: Float32Array;
  readonly draws: Float64Array;
  readonly edgeMove: Int32Array;
  readonly edgePrior: Float32Array;
  readonly edgeChild: Int32Array;
}

export class Tree {
  // `declare`: no field is defined before the constructor gives it its array, so that V8 tracks
  // each field as the typed array it holds (defined as undefined first, they cost about 3% of the
  // playouts per second in A/B runs against the class-field initialisers this replaced).
  // Nodes.
  declare visits: Int32Array;
  declare valueSum: Float64Array;
  declare virtual: Int32Array;
  declare firstEdge: Int32Array;
  declare edgeCount: Int32Array;
  declare flags: Uint8Array;
  declare termValue: Float32Array;
  /** Terminal draws (by the rules) backed up through the node, for the draw score (see MctsOptions.drawScore). */
  declare draws: Float64Array;
  protected nodes = 0;
  // Edges.
  declare edgeMove: Int32Array;
  declare edgePrior: Float32Array;
  declare edgeChild: Int32Array;
  protected edges = 0;
  /** Most edges this tree may hold. */
  declare readonly maxEdges: number;

  /**
   * A tree holding only the root, in growable arrays; or, with `arrays` (a shared tree's views),
   * a tree over those arrays whose nodes the subclass counts (no root added here).
   */
  constructor(maxEdges: number, arrays?: TreeArrays) {
    this.maxEdges = maxEdges;
    const a = arrays ?? {
      visits: new Int32Array(INITIAL_NODES),
      valueSum: new Float64Array(INITIAL_NODES),
      virtual: new Int32Array(INITIAL_NODES),
      firstEdge: new Int32Array(INITIAL_NODES),
      edgeCount: new Int32Array(INITIAL_NODES),
      flags: new Uint8Array(INITIAL_NODES),
      termValue: new Float32Array(INITIAL_NODES),
      draws: new Float64Array(INITIAL_NODES),
      edgeMove: new Int32Array(INITIAL_EDGES),
      edgePrior: new Float32Array(INITIAL_EDGES),
      edgeChild: new Int32Array(INITIAL_EDGES),
    };
    this.visits = a.visits;
    this.valueSum = a.valueSum;
    this.virtual = a.virtual;
    this.firstEdge = a.firstEdge;
    this.edgeCount = a.edgeCount;
    this.flags = a.flags;
    this.termValue = a.termValue;
    this.draws = a.draws;
    this.edgeMove = a.edgeMove;
    this.edgePrior = a.edgePrior;
    this.edgeChild = a.edgeChild;
    if (arrays === undefined) this.newNode();
  }

  /** Nodes in the tree. */
  get nodeCount(): number {
    return this.nodes;
  }

  /** Edges in the tree. */
  get edgeTotal(): number {
    return this.edges;
  }

  /** The root is always node 0. */
  get root(): number {
    return 0;
  }

  /** Empties the tree down to a fresh root, keeping its arrays (self-play's TreeRecycler). */
  clear(): void {
    this.nodes = 0;
    this.edges = 0;
    this.newNode();
  }

  /** Adds an unexpanded node and returns its index. */
  newNode(): number {
    if (this.nodes === this.visits.length) this.growNodes();
    const i = this.nodes++;
    this.initNode(i);
    return i;
  }

  /** Sets node `i` to an unexpanded node with no visits. */
  protected initNode(i: number): void {
    this.visits[i] = 0;
    this.valueSum[i] = 0;
    this.virtual[i] = 0;
    this.firstEdge[i] = -1;
    this.edgeCount[i] = 0;
    this.flags[i] = 0;
    this.termValue[i] = 0;
    this.draws[i] = 0;
  }

  /** Whether `count` more edges fit. */
  hasRoomFor(count: number): boolean {
    return this.edges + count <= this.maxEdges;
  }

  // ---- The tree view: what the one descent (search-worker.ts) asks of a tree, which a tree
  // searched by one thread and a tree shared by several (shared-tree.ts) do each their own way.

  /**
   * A descent steps into `node` (the root first). One thread takes no virtual visit here: no other
   * descent reads it before this one ends, and the visit taken at the leaf (`arrive`) leaves this
   * descent's own c_puct and sqrt(N) on the way down as they were. A shared tree takes it here.
   */
  enter(_node: number): void {}

  /** A descent ends at `path[depth]` and will be backed up, or waits for the net: its virtual visits, if not taken on the way down. */
  arrive(path: Int32Array, depth: number): void {
    const virtual = this.virtual;
    for (let d = 0; d <= depth; d++) virtual[path[d]!]!++;
  }

  /** A descent that collided gives `node`'s virtual visit back, if it took one on the way down (at the end of the gathering). */
  leave(_node: number): void {}

  /** Holds `node`'s visits, value sum and draws for one back-up step (a shared tree's lock; nothing on one thread). */
  lockStats(_node: number): void {}

  /** Releases what `lockStats` held. */
  unlockStats(_node: number): void {}

  /** Takes `count` edges for the caller to fill (children -1), or returns -1 when they do not fit in `maxEdges`; `publishEdges` hands them to a node. */
  reserveEdges(count: number): number {
    if (!this.hasRoomFor(count)) return -1;
    while (this.edges + count > this.edgeMove.length) this.growEdges();
    const first = this.edges;
    this.edges += count;
    this.edgeChild.fill(-1, first, first + count);
    return first;
  }

  /** Makes the filled edges `first .. first+count` those of `node`. */
  publishEdges(node: number, first: number, count: number): void {
    this.edgeCount[node] = count;
    this.firstEdge[node] = first;
  }

  /** Gives `node` `count` edges (moves and priors to be filled by the caller); returns the first edge. */
  expand(node: number, count: number): number {
    while (this.edges + count > this.edgeMove.length) this.growEdges();
    const first = this.edges;
    this.edges += count;
    this.firstEdge[node] = first;
    this.edgeCount[node] = count;
    this.edgeChild.fill(-1, first, first + count);
    return first;
  }

  isExpanded(node: number): boolean {
    return this.firstEdge[node]! >= 0;
  }

  /** The child node of `edge`, created if the edge was never visited (a shared tree: -1 while another thread creates it). */
  childOf(edge: number): number {
    let c = this.edgeChild[edge]!;
    if (c < 0) {
      c = this.newNode();
      this.edgeChild[edge] = c;
    }
    return c;
  }

  /** Mean value of `node` from the view of the player who moved into it (0 when unvisited). */
  q(node: number): number {
    const n = this.visits[node]!;
    return n > 0 ? this.valueSum[node]! / n : 0;
  }

  /** The edge of `node` whose move is `move`, or -1. */
  findEdge(node: number, move: number): number {
    const first = this.firstEdge[node]!;
    if (first < 0) return -1;
    const end = first + this.edgeCount[node]!;
    for (let e = first; e < end; e++) if (this.edgeMove[e] === move) return e;
    return -1;
  }

  /** Bytes held by the arrays (for `hashfull`-like reporting). */
  get bytes(): number {
    return this.visits.length * 37 + this.edgeMove.length * 12;
  }

  /**
   * A new tree holding the subtree of `node` (which becomes the root, node 0), with its visits,
   * values and priors; everything else is dropped. Pending and virtual counts are cleared.
   */
  extract(node: number): Tree {
    const t = this.emptyLike();
    const queue: number[] = [node];
    const map: number[] = [0];
    for (let qi = 0; qi < queue.length; qi++) {
      const from = queue[qi]!;
      const to = map[qi]!;
      t.visits[to] = this.visits[from]!;
      t.valueSum[to] = this.valueSum[from]!;
      t.flags[to] = this.flags[from]! & FLAG_TERMINAL;
      t.termValue[to] = this.termValue[from]!;
      t.draws[to] = this.draws[from]!;
      const first = this.firstEdge[from]!;
      if (first < 0) continue;
      const count = this.edgeCount[from]!;
      const nf = t.expand(to, count);
      t.edgeMove.set(this.edgeMove.subarray(first, first + count), nf);
      t.edgePrior.set(this.edgePrior.subarray(first, first + count), nf);
      for (let k = 0; k < count; k++) {
        const c = this.edgeChild[first + k]!;
        if (c < 0) continue;
        const nc = t.newNode();
        t.edgeChild[nf + k] = nc;
        queue.push(c);
        map.push(nc);
      }
    }
    return t;
  }

  /** A tree of the same kind and capacity holding only the root (extract's target). */
  protected emptyLike(): Tree {
    return new Tree(this.maxEdges);
  }

  private growNodes(): void {
    const n = this.visits.length * 2;
    const grow = <T extends Int32Array | Float64Array | Uint8Array | Float32Array>(a: T, make: (k: number) => T): T => {
      const b = make(n);
      b.set(a as never);
      return b;
    };
    this.visits = grow(this.visits, (k) => new Int32Array(k));
    this.valueSum = grow(this.valueSum, (k) => new Float64Array(k));
    this.virtual = grow(this.virtual, (k) => new Int32Array(k));
    this.firstEdge = grow(this.firstEdge, (k) => new Int32Array(k));
    this.edgeCount = grow(this.edgeCount, (k) => new Int32Array(k));
    this.flags = grow(this.flags, (k) => new Uint8Array(k));
    this.termValue = grow(this.termValue, (k) => new Float32Array(k));
    this.draws = grow(this.draws, (k) => new Float64Array(k));
  }

  private growEdges(): void {
    const n = Math.min(Math.max(this.edgeMove.length * 2, 1024), Math.max(this.maxEdges, this.edgeMove.length + 1024));
    const m = new Int32Array(n);
    m.set(this.edgeMove);
    this.edgeMove = m;
    const p = new Float32Array(n);
    p.set(this.edgePrior);
    this.edgePrior = p;
    const c = new Int32Array(n);
    c.set(this.edgeChild);
    this.edgeChild = c;
  }
}
