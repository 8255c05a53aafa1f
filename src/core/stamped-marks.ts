/**
 * A set of small integers (board squares) emptied in constant time: a member holds the current
 * stamp, and emptying moves the stamp on, so a hot loop that rebuilds the set for every position
 * never clears an array (the stamps restart, with one clear, long before they could wrap).
 * Subclasses write `marks[i] = stamp` directly in their loops, with the stamp `renew` returned.
 */
export class StampedMarks {
  protected readonly marks: Int32Array;
  private stamp = 0;

  constructor(size: number) {
    this.marks = new Int32Array(size);
  }

  /** Empties the set; returns the stamp that marks a member from now on. */
  protected renew(): number {
    let stamp = this.stamp + 1;
    if (stamp > 0x3fffffff) {
      this.marks.fill(0);
      stamp = 1;
    }
    this.stamp = stamp;
    return stamp;
  }

  /** Whether `i` is in the set. */
  has(i: number): boolean {
    return this.marks[i] === this.stamp;
  }
}
