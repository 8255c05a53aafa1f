/**
 * A growable open-addressing set of 52-bit integer keys (position-record.ts `positionKey`), stored
 * in a Float64Array: a JavaScript `Set` stops at 2^24 entries, a data set of tens of millions of
 * positions needs more. Key 0 is stored as a separate flag (0 marks an empty slot).
 */
export class KeySet {
  private slots = new Float64Array(1 << 16);
  private used = 0;
  private hasZero = false;

  get size(): number {
    return this.used + (this.hasZero ? 1 : 0);
  }

  /** Adds `key`; true when it was not in the set. */
  add(key: number): boolean {
    if (key === 0) {
      if (this.hasZero) return false;
      this.hasZero = true;
      return true;
    }
    if ((this.used + 1) * 2 > this.slots.length) this.grow();
    return this.insert(this.slots, key);
  }

  has(key: number): boolean {
    if (key === 0) return this.hasZero;
    const s = this.slots;
    const mask = s.length - 1;
    for (let i = this.home(key, mask); ; i = (i + 1) & mask) {
      const v = s[i]!;
      if (v === 0) return false;
      if (v === key) return true;
    }
  }

  private home(key: number, mask: number): number {
    return (Math.imul(key % 4294967296 | 0, 0x9e3779b1) ^ Math.floor(key / 4294967296)) & mask;
  }

  private insert(s: Float64Array, key: number): boolean {
    const mask = s.length - 1;
    for (let i = this.home(key, mask); ; i = (i + 1) & mask) {
      const v = s[i]!;
      if (v === key) return false;
      if (v === 0) {
        s[i] = key;
        if (s === this.slots) this.used++;
        return true;
      }
    }
  }

  private grow(): void {
    const old = this.slots;
    const next = new Float64Array(old.length * 2);
    for (let i = 0; i < old.length; i++) if (old[i] !== 0) this.insert(next, old[i]!);
    this.slots = next;
  }
}
