/**
 * A `SearchBoard` wrapper that remembers which moves the search made from which position, so that
 * DeltaFromTransTbl can follow only the successors the search visited instead of generating and
 * trying every legal move of every table entry.
 *
 * Why this gives the paper's walk: the table is cleared before the search, so every entry was
 * stored by this search at a position it reached from the root by moves it made, and every
 * position on that path is itself an interior node with an entry (quiescence never stores). The
 * entries reachable from the root through entries of depth >= d are therefore the same whether the
 * walk tries all successors (Algorithm 2, `walkTable` with `children: 'all'`) or only the searched
 * ones; only the order of the visits differs, and the update is a sum. (They could differ only if
 * the table replaced an ancestor's entry; with a table much larger than the search, it does not.
 * tests/learning/treestrap pins the equality.) On 20k-node searches it makes the walk several times
 * cheaper (chess ~35, shogi ~80 successors tried per entry otherwise).
 */
import type { GameKind } from '../../core/game.js';
import type { SearchBoard } from '../../search/alphabeta/search-board.js';

/** A 53-bit number naming a position key. */
export const keyOf = (hi: number, lo: number): number => (hi & 0x1fffff) * 4294967296 + (lo >>> 0);

export class RecordingBoard implements SearchBoard {
  readonly game: GameKind;
  readonly maxMoves: number;
  readonly historySize: number;
  /** Moves made from each position (by key), in first-made order, each once. */
  readonly edges = new Map<number, number[]>();
  recording = true;

  constructor(readonly inner: SearchBoard) {
    this.game = inner.game;
    this.maxMoves = inner.maxMoves;
    this.historySize = inner.historySize;
    // Methods the interface gains later are passed through until they are written out here.
    const self = this as unknown as Record<string, unknown>;
    for (let proto = Object.getPrototypeOf(inner) as object | null; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        const f = (inner as unknown as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof f !== 'function' || name in this) continue;
        self[name] = (...args: unknown[]) => (f as (...a: unknown[]) => unknown).apply(inner, args);
      }
    }
  }

  /** Forgets the recorded moves (before each search). */
  clear(): void {
    this.edges.clear();
  }

  /** The moves made from the current position, or undefined. */
  movesFromHere(): readonly number[] | undefined {
    return this.edges.get(keyOf(this.inner.keyHi(), this.inner.keyLo()));
  }

  make(move: number): void {
    if (this.recording) {
      const key = keyOf(this.inner.keyHi(), this.inner.keyLo());
      const list = this.edges.get(key);
      if (list === undefined) this.edges.set(key, [move]);
      else if (!list.includes(move)) list.push(move);
    }
    this.inner.make(move);
  }

  unmake(): void {
    this.inner.unmake();
  }

  sideToMove(): number {
    return this.inner.sideToMove();
  }
  generate(list: Int32Array, tactical: boolean): number {
    return this.inner.generate(list, tactical);
  }
  makeNull(): void {
    this.inner.makeNull();
  }
  inCheck(): boolean {
    return this.inner.inCheck();
  }
  keyHi(): number {
    return this.inner.keyHi();
  }
  keyLo(): number {
    return this.inner.keyLo();
  }
  ruleState(): number {
    return this.inner.ruleState();
  }
  noMovesIsLoss(inCheck: boolean): boolean {
    return this.inner.noMovesIsLoss(inCheck);
  }
  nullMoveOk(): boolean {
    return this.inner.nullMoveOk();
  }
  tacticalOrder(move: number): number {
    return this.inner.tacticalOrder(move);
  }
  isBadCapture(move: number): boolean {
    return this.inner.isBadCapture(move);
  }
  historyIndex(move: number): number {
    return this.inner.historyIndex(move);
  }
  evaluate(): number {
    return this.inner.evaluate();
  }
  moveToText(move: number): string {
    return this.inner.moveToText(move);
  }
  parseMove(text: string): number {
    return this.inner.parseMove(text);
  }
  toText(): string {
    return this.inner.toText();
  }
}
