/** A `SignalSource` the test fires by hand (SIGTERM/SIGINT stand-in for `kishi run`). */
import type { SignalSource } from '../../src/cli/run.js';

export class Signals implements SignalSource {
  private handler: ((graceful: boolean) => void) | undefined;
  onStop(handler: (graceful: boolean) => void): void {
    this.handler = handler;
  }
  /** Delivers a stop as the process signal handler would: graceful for the first, not for a second. */
  send(graceful: boolean): void {
    this.handler?.(graceful);
  }
}
