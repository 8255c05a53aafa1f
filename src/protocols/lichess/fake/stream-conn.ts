/**
 * One ndjson stream connection of the local server (the event stream or a game stream), with the faults a
 * real connection shows: lines split into several chunks or merged into one, keep-alive gaps, a silent stall
 * with the socket left open (nothing is written any more, nothing is closed), and a dropped connection.
 */
import type { ServerResponse } from 'node:http';

export type ChunkMode = 'normal' | 'split' | 'merge';

export interface StreamConnOptions {
  readonly keepAliveMs: number;
  readonly chunkMode: () => ChunkMode;
  /** Keep-alives are skipped while this returns true (a gap shorter than the client's watchdog). */
  readonly keepAliveGap: () => boolean;
  readonly random: () => number;
  readonly onClose: () => void;
}

export class StreamConn {
  private stalled = false;
  private closed = false;
  private readonly keepAlive: NodeJS.Timeout;
  private mergeBuffer = '';
  private mergeTimer: NodeJS.Timeout | undefined;
  /** Pieces of split lines wait here so that their order holds across the small delays between pieces. */
  private readonly pieces: string[] = [];
  private pieceTimer: NodeJS.Timeout | undefined;
  /** Lines written (for tests); keep-alives not included. */
  lines = 0;

  constructor(
    private readonly res: ServerResponse,
    private readonly opts: StreamConnOptions,
    readonly userAgent: string,
  ) {
    res.writeHead(200, { 'Content-Type': 'application/x-ndjson', 'Cache-Control': 'no-cache' });
    res.flushHeaders();
    this.keepAlive = setInterval(() => {
      if (!this.opts.keepAliveGap()) this.write('\n');
    }, opts.keepAliveMs);
    res.on('close', () => this.cleanup());
  }

  isOpen(): boolean {
    return !this.closed;
  }

  isStalled(): boolean {
    return this.stalled;
  }

  /** Writes one JSON line. */
  send(message: unknown): void {
    if (this.closed || this.stalled) return;
    this.lines++;
    this.write(JSON.stringify(message) + '\n');
  }

  /** Stops writing anything, keep-alives included, and leaves the socket open. */
  stall(): void {
    this.stalled = true;
  }

  /** Ends the response normally. */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.res.end();
    this.cleanup();
  }

  /** Destroys the socket mid-stream. */
  drop(): void {
    if (this.closed) return;
    this.res.socket?.destroy();
    this.cleanup();
  }

  private write(text: string): void {
    if (this.closed || this.stalled) return;
    const mode = this.opts.chunkMode();
    if (this.mergeBuffer !== '') {
      // A merged chunk is waiting: join it, whatever the mode now, to keep the order.
      this.mergeBuffer += text;
      return;
    }
    if (this.pieces.length > 0 && mode !== 'split') {
      // Split pieces still on their way: keep the order (keep-alives included).
      this.pieces.push(text);
      return;
    }
    if (mode === 'merge') {
      this.mergeBuffer += text;
      this.mergeTimer ??= setTimeout(() => {
        this.mergeTimer = undefined;
        this.rawWrite(this.mergeBuffer);
        this.mergeBuffer = '';
      }, 15);
      return;
    }
    if (mode === 'split') {
      let rest = text;
      while (rest.length > 0) {
        const n = 1 + Math.floor(this.opts.random() * Math.min(rest.length, 40));
        this.pieces.push(rest.slice(0, n));
        rest = rest.slice(n);
      }
      this.pumpPieces();
      return;
    }
    this.rawWrite(text);
  }

  private pumpPieces(): void {
    if (this.pieceTimer !== undefined) return;
    const next = (): void => {
      this.pieceTimer = undefined;
      const piece = this.pieces.shift();
      if (piece === undefined) return;
      this.rawWrite(piece);
      if (this.pieces.length > 0) this.pieceTimer = setTimeout(next, 1);
    };
    next();
  }

  private flush(): void {
    clearTimeout(this.mergeTimer);
    this.mergeTimer = undefined;
    clearTimeout(this.pieceTimer);
    this.pieceTimer = undefined;
    const rest = this.mergeBuffer + this.pieces.join('');
    this.mergeBuffer = '';
    this.pieces.length = 0;
    if (rest) this.rawWrite(rest);
  }

  private rawWrite(text: string): void {
    if (this.closed || this.stalled || this.res.writableEnded) return;
    this.res.write(text);
  }

  private cleanup(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepAlive);
    clearTimeout(this.mergeTimer);
    clearTimeout(this.pieceTimer);
    this.opts.onClose();
  }
}
