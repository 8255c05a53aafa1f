/**
 * Round-trip estimate for the time budget: the largest of the last few samples (a blank line and its
 * answer, LOGIN and its reply, a move and its echo), so one slow echo is enough to widen the margin.
 */
export class RttEstimate {
  private readonly samples: number[] = [];

  constructor(
    private readonly keep = 5,
    /** Samples above this are taken as a stall, not a round trip, ms. */
    private readonly capMs = 5000,
  ) {}

  add(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    this.samples.push(Math.min(ms, this.capMs));
    if (this.samples.length > this.keep) this.samples.shift();
  }

  /** The estimate in ms (0 before any sample). */
  value(): number {
    return this.samples.length === 0 ? 0 : Math.max(...this.samples);
  }
}
