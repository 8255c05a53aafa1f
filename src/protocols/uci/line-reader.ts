/**
 * The transport under `EngineSession`: lines from a readable stream (stdin), CR LF or LF, handed
 * over one by one as they arrive. Nothing here waits on the engine, so a line such as `stop` is
 * delivered while a search runs (the search is in a worker thread).
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** Calls `onLine` for every line and `onEnd` once at end of input; returns a function that stops reading. */
export function readLines(input: Readable, onLine: (line: string) => void, onEnd: () => void): () => void {
  const rl = createInterface({ input, crlfDelay: Infinity, terminal: false });
  rl.on('line', (line) => onLine(line.replace(/\r$/, '')));
  rl.once('close', onEnd);
  return () => rl.close();
}
