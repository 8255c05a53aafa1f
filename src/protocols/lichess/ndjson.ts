/**
 * ndjson framing for the lichess streams. A network chunk may hold part of a line, several lines, or split
 * a multi-byte UTF-8 character; the splitter buffers until each `\n` (as api-demo's `ndJsonStream.ts` does,
 * but byte-safe). A blank line is lichess's keep-alive (sent every 7 s) and is reported as such so that a
 * watchdog can tell a quiet stream from a dead one.
 */
import { StringDecoder } from 'node:string_decoder';
import { Result } from '../../core/result.js';
import { KishiError } from '../../core/result.js';

/** What one chunk produced: complete non-blank lines, and how many blank keep-alive lines. */
export interface SplitResult {
  readonly lines: string[];
  readonly keepAlives: number;
}

export class NdjsonSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private buffer = '';

  /** Feeds one chunk; returns the lines it completed. */
  push(chunk: Buffer | string): SplitResult {
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    const parts = this.buffer.split('\n');
    this.buffer = parts.pop() ?? '';
    const lines: string[] = [];
    let keepAlives = 0;
    for (const part of parts) {
      const line = part.endsWith('\r') ? part.slice(0, -1) : part;
      if (line.trim() === '') keepAlives++;
      else lines.push(line);
    }
    return { lines, keepAlives };
  }

  /** The stream ended: a last line without `\n`, if any. */
  end(): SplitResult {
    const rest = (this.buffer + this.decoder.end()).trim();
    this.buffer = '';
    return rest === '' ? { lines: [], keepAlives: 0 } : { lines: [rest], keepAlives: 0 };
  }

  /** Bytes (as characters) waiting for their `\n`. */
  pending(): number {
    return this.buffer.length;
  }
}

/** Parses one ndjson line; a malformed line is an expected failure (logged and skipped by the stream). */
export function parseLine(line: string): Result<unknown, KishiError> {
  try {
    return Result.ok(JSON.parse(line) as unknown);
  } catch {
    return Result.err(new KishiError('ERR_NDJSON', `not a JSON line: ${JSON.stringify(line.slice(0, 200))}`));
  }
}
