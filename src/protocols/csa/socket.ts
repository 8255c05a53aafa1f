/**
 * The CSA line transport: one TCP connection, one command per line.
 *
 * - Reads lines ending in LF or CRLF (a lone trailing CR is dropped); sends LF, which shogi-server then
 *   also uses for its replies.
 * - Sends a blank keep-alive line after `keepAliveMs` without sending anything, but never two blank lines
 *   less than `minBlankGapMs` apart (the spec's 30 s rule). The timer runs in the event loop, so it keeps
 *   going while a search runs in a worker or a child process and while we wait for a pairing.
 * - shogi-server answers a blank line with a blank line, so a keep-alive with no data at all back within
 *   `replyTimeoutMs` means the server (or the path to it) is gone: the socket closes with reason `silent`.
 *
 * Every line goes to the transcript (secrets masked there by `redact`).
 */
import { Socket } from 'node:net';
import { KishiError, Result } from '../../core/result.js';
import type { Transcript } from '../../log/transcript.js';
import { nullTranscript } from '../../log/transcript.js';

export interface LineSocketOptions {
  readonly host: string;
  readonly port: number;
  /** Give up connecting after this long, ms. */
  readonly connectTimeoutMs: number;
  /** Send a blank line after this long without sending anything, ms (40 000 in production). */
  readonly keepAliveMs: number;
  /** Never send blank lines closer together than this, ms (30 000 in production). */
  readonly minBlankGapMs: number;
  /** After a blank line, close as `silent` when nothing at all arrives for this long, ms. */
  readonly replyTimeoutMs: number;
  readonly transcript?: Transcript;
}

/** Why the connection ended: the server closed it, a socket error, the server went silent, or we closed it. */
export type CloseReason = 'eof' | 'error' | 'silent' | 'local';

export interface CloseInfo {
  readonly reason: CloseReason;
  readonly error?: Error;
}

export class LineSocket {
  private buffer = '';
  private closed = false;
  /** Set once the server is about to close the connection (after a CSA-mode game): a reset is then its close. */
  private closeExpected = false;
  private lastSentAt: number;
  private lastBlankAt = Number.NEGATIVE_INFINITY;
  private lastReceivedAt: number;
  /** When the blank line we are waiting an answer for was sent. */
  private pingSentAt: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lineHandler: (line: string) => void = () => {};
  private closeHandler: (info: CloseInfo) => void = () => {};
  private readonly transcript: Transcript;
  /** Round trip of the last blank line that was answered and not yet taken, ms. */
  private pingRttMs: number | undefined;

  private constructor(
    private readonly socket: Socket,
    private readonly opts: LineSocketOptions,
  ) {
    this.transcript = opts.transcript ?? nullTranscript;
    this.lastSentAt = Date.now();
    this.lastReceivedAt = Date.now();
    socket.setEncoding('utf8');
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 30_000);
    socket.on('data', (chunk: string) => this.onData(chunk));
    socket.on('error', (error) => {
      // After a CSA-mode game shogi-server closes the socket while our LOGOUT is still on its way; the
      // reset that answers it is the close we expected, not an error.
      const code = (error as NodeJS.ErrnoException).code;
      if (this.closeExpected && (code === 'ECONNRESET' || code === 'EPIPE')) this.finish({ reason: 'eof' });
      else this.finish({ reason: 'error', error });
    });
    socket.on('close', () => this.finish({ reason: 'eof' }));
    socket.on('end', () => {
      // The server half-closed: deliver what is buffered, then close our side too.
      if (this.buffer !== '') this.emitLine(this.buffer);
      this.buffer = '';
      socket.end();
    });
    this.schedule();
  }

  /** Connects; an unreachable host or a timeout is an expected failure. */
  static connect(opts: LineSocketOptions): Promise<Result<LineSocket, KishiError>> {
    return new Promise((resolve) => {
      const socket = new Socket();
      const transcript = opts.transcript ?? nullTranscript;
      const fail = (why: string): void => {
        clearTimeout(timer);
        socket.removeAllListeners();
        socket.on('error', () => {});
        socket.destroy();
        transcript.note(`connect to ${opts.host}:${opts.port} failed: ${why}`);
        resolve(Result.err(new KishiError('ERR_CONNECT', `cannot connect to ${opts.host}:${opts.port}: ${why}`)));
      };
      const timer = setTimeout(() => fail(`no answer within ${opts.connectTimeoutMs} ms`), opts.connectTimeoutMs);
      socket.once('error', (e) => fail(e.message));
      socket.connect(opts.port, opts.host, () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        transcript.note(`connected to ${opts.host}:${opts.port}`);
        resolve(Result.ok(new LineSocket(socket, opts)));
      });
    });
  }

  /** The round trip of the last answered blank line, once (undefined when there is no new one). */
  takePingRtt(): number | undefined {
    const v = this.pingRttMs;
    this.pingRttMs = undefined;
    return v;
  }

  /** Registers the receiver of every line (keep-alive answers included, as empty strings). */
  onLine(handler: (line: string) => void): void {
    this.lineHandler = handler;
  }

  /** Registers the handler called once when the connection ends, whatever the reason. */
  onClose(handler: (info: CloseInfo) => void): void {
    this.closeHandler = handler;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Sends one line (LF-terminated); false when the connection is already closed. `shown` is what the
   * transcript gets instead (the LOGIN line with its password masked, whatever its length).
   */
  send(line: string, shown: string = line): boolean {
    if (this.closed) return false;
    this.transcript.sent(shown);
    this.socket.write(`${line}\n`);
    const now = Date.now();
    this.lastSentAt = now;
    if (line === '') {
      this.lastBlankAt = now;
      if (this.pingSentAt === undefined) this.pingSentAt = now;
    }
    this.schedule();
    return true;
  }

  /** Sends a blank line now if the 30 s rule allows it (used to measure the round trip); true when sent. */
  ping(): boolean {
    if (this.closed || Date.now() - this.lastBlankAt < this.opts.minBlankGapMs) return false;
    return this.send('');
  }

  /** Says that the server is expected to close the connection now (a reset then counts as its close). */
  expectClose(): void {
    this.closeExpected = true;
  }

  /** Closes the connection (reason `local`); idempotent. */
  close(): void {
    if (this.closed) return;
    this.socket.end();
    this.socket.destroySoon();
    // A server that never closes its side must not keep us waiting.
    setTimeout(() => this.socket.destroy(), 2000).unref();
    this.finish({ reason: 'local' });
  }

  /** Drops the connection at once, without the polite FIN. */
  destroy(): void {
    if (this.closed) return;
    this.socket.destroy();
    this.finish({ reason: 'local' });
  }

  private onData(chunk: string): void {
    this.lastReceivedAt = Date.now();
    if (this.pingSentAt !== undefined) {
      this.pingRttMs = this.lastReceivedAt - this.pingSentAt;
      this.pingSentAt = undefined;
    }
    this.buffer += chunk;
    let i: number;
    while ((i = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, i);
      this.buffer = this.buffer.slice(i + 1);
      this.emitLine(line);
      if (this.closed) return;
    }
    this.schedule();
  }

  private emitLine(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    this.transcript.received(line);
    this.lineHandler(line);
  }

  /** (Re)arms the one timer for the next keep-alive or the silence check, whichever comes first. */
  private schedule(): void {
    if (this.closed) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    const now = Date.now();
    const nextPing = Math.max(this.lastSentAt + this.opts.keepAliveMs, this.lastBlankAt + this.opts.minBlankGapMs);
    const silentAt = this.pingSentAt !== undefined ? this.pingSentAt + this.opts.replyTimeoutMs : Number.POSITIVE_INFINITY;
    const at = Math.min(nextPing, silentAt);
    this.timer = setTimeout(() => this.onTimer(), Math.max(1, at - now));
  }

  private onTimer(): void {
    this.timer = undefined;
    if (this.closed) return;
    const now = Date.now();
    if (this.pingSentAt !== undefined && now - this.pingSentAt >= this.opts.replyTimeoutMs) {
      this.transcript.note(`no reply for ${now - this.pingSentAt} ms after a keep-alive: closing`);
      this.socket.destroy();
      this.finish({ reason: 'silent' });
      return;
    }
    if (now - this.lastSentAt >= this.opts.keepAliveMs && now - this.lastBlankAt >= this.opts.minBlankGapMs) {
      this.send('');
      return;
    }
    this.schedule();
  }

  private finish(info: CloseInfo): void {
    if (this.closed) return;
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer !== '' && info.reason !== 'local') {
      const rest = this.buffer;
      this.buffer = '';
      this.emitLine(rest);
    }
    this.transcript.note(`closed (${info.reason}${info.error ? `: ${info.error.message}` : ''})`);
    this.closeHandler(info);
  }
}
