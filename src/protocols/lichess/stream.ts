/**
 * A resilient ndjson stream: opens, reads lines, and reconnects with backoff when the connection ends,
 * fails, or goes silent. Lichess sends a blank keep-alive line every 7 s, so a stream with no byte for
 * `silenceMs` (20 s in production) is dead even if its socket is still open (lichess-bot#1200: a
 * CLOSE-WAIT hang with no exception); the watchdog then drops it and reconnects. A game stream's watchdog
 * counts from the keep-alives only and reopens a stalled stream at once (`silenceFrom`, `reopenSilentAtOnce`).
 */
import type { Readable } from 'node:stream';
import type winston from 'winston';
import type { Result } from '../../core/result.js';
import type { Transcript } from '../../log/transcript.js';
import type { BackoffOptions } from './backoff.js';
import { Backoff, sleep } from './backoff.js';
import type { LichessError } from './client.js';
import { NdjsonSplitter, parseLine } from './ndjson.js';

export interface ResilientStreamOptions {
  /** For logs: `event stream`, `game abc12345`. */
  readonly name: string;
  readonly open: (signal: AbortSignal) => Promise<Result<Readable, LichessError>>;
  /** One parsed line. Exceptions are logged and the stream goes on. */
  readonly onMessage: (message: unknown) => void;
  /** The connection is open (before its first line). */
  readonly onOpen?: () => void;
  /** The connection is gone; `reason` says why. */
  readonly onDisconnect?: (reason: string) => void;
  /** After a failed open: retry (with backoff) or stop for good (404 for a game, bad token). */
  readonly onOpenError?: (error: LichessError) => 'retry' | 'stop';
  /** After a connection ends: reconnect? (false once the game is over.) */
  readonly shouldReconnect?: () => boolean;
  /** No byte (with `silenceFrom: 'keepAlive'`: no keep-alive) for this long: drop and reconnect, milliseconds. */
  readonly silenceMs: number;
  /**
   * What the watchdog counts the silence from. `anyByte` (the default): the last byte read. `keepAlive`: the
   * open and each keep-alive only, for a server that writes its keep-alives on a fixed cadence whatever else
   * it sends, as the bot game streams do (lila `modules/bot/src/main/GameStateStream.scala` @
   * lichess-org/lila@774695a6: `SetOnline` schedules `CheckOnline` 7 s later, which offers the blank line
   * and sends `SetOnline` again; WandererXII/lishogi@51be91d1 the same every 6 s): there a keep-alive
   * overdue means a dead connection even when a message came since, and counting from that message would
   * add up to one more cadence to the clock a stall costs us.
   */
  readonly silenceFrom?: 'anyByte' | 'keepAlive';
  /**
   * With `silenceFrom: 'keepAlive'`: a message proves the connection alive when it arrives, so the verdict
   * comes no sooner than this long after it (a keep-alive late by less than this while moves flow is no
   * stall), milliseconds; 0 (the default): keep-alives only.
   */
  readonly messageGraceMs?: number;
  /**
   * Reopen a connection dropped for silence at once, without the backoff, when it had delivered a message:
   * the server was answering, a fresh open replaces the stalled stream (lila and lishogi end the previous
   * game stream of the same player, `uniqChan`) and answers with the whole state; every millisecond waited
   * may be our clock. Failed opens and connections that never delivered anything still back off.
   */
  readonly reopenSilentAtOnce?: boolean;
  readonly backoff: BackoffOptions;
  /** Extra wait before reopening an endpoint blocked by a 429, milliseconds. */
  readonly blockedFor?: () => number;
  readonly log: winston.Logger;
  /** Receives every line read (keep-alives excepted). */
  readonly transcript?: Transcript;
}

export interface StreamStats {
  opens: number;
  openFailures: number;
  silenceDrops: number;
  messages: number;
  keepAlives: number;
  badLines: number;
}

export class ResilientStream {
  readonly stats: StreamStats = { opens: 0, openFailures: 0, silenceDrops: 0, messages: 0, keepAlives: 0, badLines: 0 };
  private stopped = false;
  private readonly stopController = new AbortController();
  private dropCurrent: ((reason: string) => void) | undefined;
  private readonly backoff: Backoff;
  private running: Promise<void> | undefined;
  private isConnected = false;

  constructor(private readonly opts: ResilientStreamOptions) {
    this.backoff = new Backoff(opts.backoff);
  }

  /** Starts the read/reconnect loop; the promise settles when the stream stops for good. */
  start(): Promise<void> {
    this.running ??= this.loop();
    return this.running;
  }

  /** Closes the connection and ends the loop. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.stopController.abort();
    this.dropCurrent?.('stopped');
  }

  /** Drops the current connection and opens a new one at once (a fresh snapshot from the server). */
  reconnect(reason: string): void {
    this.backoff.reset();
    this.dropCurrent?.(reason);
  }

  connected(): boolean {
    return this.isConnected;
  }

  private async loop(): Promise<void> {
    const { log, name } = this.opts;
    while (!this.stopped) {
      const controller = new AbortController();
      const onStop = (): void => controller.abort();
      this.stopController.signal.addEventListener('abort', onStop, { once: true });
      const opened = await this.opts.open(controller.signal);
      this.stopController.signal.removeEventListener('abort', onStop);
      if (this.stopped) {
        if (opened.isOk) opened.value.destroy();
        break;
      }
      if (opened.isErr) {
        this.stats.openFailures++;
        const decision = this.opts.onOpenError?.(opened.error) ?? 'retry';
        if (decision === 'stop') {
          log.info(`${name}: ${opened.error.message}; not reconnecting`);
          break;
        }
        const wait = Math.max(this.backoff.next(), this.opts.blockedFor?.() ?? 0);
        log.warn(`${name}: ${opened.error.message}; retrying in ${wait} ms`);
        await sleep(wait, this.stopController.signal);
        continue;
      }
      this.stats.opens++;
      this.isConnected = true;
      this.opts.onOpen?.();
      const { reason, silentAfterMessages } = await this.consume(opened.value, controller);
      this.isConnected = false;
      this.opts.onDisconnect?.(reason);
      if (this.stopped) break;
      if (!(this.opts.shouldReconnect?.() ?? true)) break;
      const wait = silentAfterMessages && this.opts.reopenSilentAtOnce === true ? 0 : this.backoff.next();
      log.info(`${name}: ${reason}; reconnecting in ${wait} ms`);
      await sleep(wait, this.stopController.signal);
    }
    this.isConnected = false;
  }

  /**
   * Reads one connection until it ends; resolves with the reason, and whether it was dropped for silence
   * after delivering at least one message.
   */
  private consume(body: Readable, controller: AbortController): Promise<{ reason: string; silentAfterMessages: boolean }> {
    return new Promise((resolve) => {
      const splitter = new NdjsonSplitter();
      const fromKeepAlive = this.opts.silenceFrom === 'keepAlive';
      let done = false;
      let delivered = false;
      let silent = false;
      let timer: NodeJS.Timeout | undefined;
      let arms = 0;
      let deadlineAt = 0;
      const grace = this.opts.messageGraceMs ?? 0;
      const arm = (at: number = Date.now() + this.opts.silenceMs): void => {
        clearTimeout(timer);
        deadlineAt = at;
        const armed = ++arms;
        timer = setTimeout(() => {
          // The verdict waits for the bytes already there: after a pause of this process longer than
          // `silenceMs` (a busy machine, a long GC) the timers run before the socket's pending data is read
          // (Node's event loop: timers, then poll, then check), and the pause would pass for a stall.
          setImmediate(() => {
            if (done || armed !== arms) return;
            this.stats.silenceDrops++;
            silent = true;
            finish(fromKeepAlive ? `no keep-alive for ${this.opts.silenceMs} ms` : `no data for ${this.opts.silenceMs} ms`);
          });
        }, Math.max(0, at - Date.now()));
      };
      const deliver = (lines: readonly string[]): void => {
        for (const line of lines) {
          if (done) return;
          this.opts.transcript?.received(`${this.opts.name}: ${line}`);
          const parsed = parseLine(line);
          if (parsed.isErr) {
            this.stats.badLines++;
            this.opts.log.warn(`${this.opts.name}: ${parsed.error.message}`);
            continue;
          }
          this.stats.messages++;
          delivered = true;
          // A real message proves the connection healthy: the next failure starts from the shortest delay.
          this.backoff.reset();
          try {
            this.opts.onMessage(parsed.value);
          } catch (e) {
            this.opts.log.error(`${this.opts.name}: handler failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
          }
        }
      };
      const finish = (reason: string, flush = false): void => {
        if (done) return;
        if (flush) deliver(splitter.end().lines);
        done = true;
        clearTimeout(timer);
        this.dropCurrent = undefined;
        body.removeAllListeners('data');
        body.on('error', () => {});
        controller.abort();
        body.destroy();
        resolve({ reason, silentAfterMessages: silent && delivered });
      };
      this.dropCurrent = (reason) => finish(reason);
      arm();
      body.on('data', (chunk: Buffer | string) => {
        if (done) return;
        const { lines, keepAlives } = splitter.push(chunk);
        if (!fromKeepAlive || keepAlives > 0) arm();
        else if (grace > 0 && Date.now() + grace > deadlineAt) arm(Date.now() + grace);
        this.stats.keepAlives += keepAlives;
        deliver(lines);
      });
      body.on('end', () => finish('the server closed the stream', true));
      body.on('error', (e: Error) => finish(`stream error: ${e.message}`));
      body.on('close', () => finish('the connection closed', true));
    });
  }
}
