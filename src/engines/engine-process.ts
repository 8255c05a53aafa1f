/**
 * A line-oriented child process for an external engine (transport only; the UCI/USI dialogue is in
 * engine-client.ts): spawn, write lines, read lines, wait for a line with a timeout, and notice
 * when the process exits. The last `logLines` lines in both directions (and stderr, and exit
 * events) are kept with timestamps, so a forfeit can be logged with the engine's last words.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { KishiError, Result } from '../core/result.js';
import type { Transcript } from '../log/transcript.js';

export interface EngineProcessOptions {
  readonly command: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  /** How many recent lines to keep for crash logs (default 100). */
  readonly logLines?: number;
  /** Also copy every line here (full transcripts). */
  readonly transcript?: Transcript;
}

/** How the process ended. */
export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export const describeExit = (e: ExitInfo | undefined): string =>
  e === undefined ? 'running' : e.signal !== null ? `killed by ${e.signal}` : `exit code ${e.code}`;

type LineListener = (line: string, atMs: number) => void;

export class EngineProcess {
  private readonly recent: string[] = [];
  private readonly limit: number;
  private readonly listeners = new Set<LineListener>();
  private readonly exitListeners = new Set<(e: ExitInfo) => void>();
  private readonly born = performance.now();
  private exit: ExitInfo | undefined;
  private killedByUs = false;

  private constructor(
    private readonly proc: ChildProcessWithoutNullStreams,
    private readonly opts: EngineProcessOptions,
  ) {
    this.limit = Math.max(1, opts.logLines ?? 100);
    createInterface({ input: proc.stdout }).on('line', (raw) => {
      const line = raw.replace(/\r$/, '');
      const at = performance.now();
      this.keep('<', line, at);
      opts.transcript?.received(line);
      for (const l of [...this.listeners]) l(line, at);
    });
    createInterface({ input: proc.stderr }).on('line', (line) => {
      this.keep('!', line, performance.now());
      opts.transcript?.note(`stderr: ${line}`);
    });
    proc.stdin.on('error', () => {
      // EPIPE when the engine died: the exit handler reports it.
    });
    proc.on('exit', (code, signal) => {
      this.exit = { code, signal };
      const text = `process ended: ${describeExit(this.exit)}${this.killedByUs ? ' (killed by the match)' : ''}`;
      this.keep('#', text, performance.now());
      opts.transcript?.note(text);
      for (const l of [...this.exitListeners]) l(this.exit);
    });
  }

  /** Starts the process; Err when it cannot be spawned (no such file, not executable). */
  static async spawn(opts: EngineProcessOptions): Promise<Result<EngineProcess, KishiError>> {
    let proc: ChildProcessWithoutNullStreams;
    try {
      proc = spawn(opts.command, [...(opts.args ?? [])], { stdio: ['pipe', 'pipe', 'pipe'], ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}) });
    } catch (e) {
      return Result.err(new KishiError('ERR_ENGINE_START', `cannot start ${opts.command}: ${String(e)}`));
    }
    const error = await new Promise<Error | undefined>((resolve) => {
      proc.once('error', (e) => resolve(e));
      proc.once('spawn', () => resolve(undefined));
    });
    if (error) return Result.err(new KishiError('ERR_ENGINE_START', `cannot start ${opts.command}: ${error.message}`));
    proc.on('error', () => {
      // Later errors (kill of a dead process) are reported through 'exit'.
    });
    return Result.ok(new EngineProcess(proc, opts));
  }

  /** The process id (for logs). */
  get pid(): number | undefined {
    return this.proc.pid;
  }

  /** Whether the process is still running. */
  alive(): boolean {
    return this.exit === undefined;
  }

  /** How it ended, once it has. */
  exitInfo(): ExitInfo | undefined {
    return this.exit;
  }

  /** Writes one line (dropped silently once the process is gone). */
  send(line: string): void {
    const at = performance.now();
    this.keep('>', line, at);
    if (this.exit !== undefined || this.proc.stdin.destroyed) return;
    this.opts.transcript?.sent(line);
    this.proc.stdin.write(`${line}\n`);
  }

  /** Subscribes to stdout lines; returns the unsubscribe function. */
  onLine(listener: LineListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Subscribes to the exit; called at once if already exited. Returns the unsubscribe function. */
  onExit(listener: (e: ExitInfo) => void): () => void {
    if (this.exit !== undefined) {
      listener(this.exit);
      return () => {};
    }
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  /**
   * Waits for the first stdout line satisfying `match`; resolves `{ line }`, or `{ timeout: true }`
   * after `timeoutMs`, or `{ exit }` when the process ends first. `onOther` sees the other lines.
   */
  waitFor(
    match: (line: string) => boolean,
    timeoutMs: number,
    onOther?: (line: string) => void,
  ): Promise<{ line: string; atMs: number } | { timeout: true } | { exit: ExitInfo }> {
    if (this.exit !== undefined) return Promise.resolve({ exit: this.exit });
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        offLine();
        offExit();
      };
      const timer = setTimeout(() => {
        done();
        resolve({ timeout: true });
      }, Math.max(0, timeoutMs));
      const offLine = this.onLine((line, atMs) => {
        if (match(line)) {
          done();
          resolve({ line, atMs });
        } else {
          onOther?.(line);
        }
      });
      const offExit = this.onExit((exit) => {
        done();
        resolve({ exit });
      });
    });
  }

  /** The kept lines, oldest first: `+12.345s > go ...` (`>` sent, `<` stdout, `!` stderr, `#` event). */
  lastLines(): string[] {
    return [...this.recent];
  }

  /** Kills the process (SIGKILL) and waits for it to be gone. */
  async kill(): Promise<void> {
    if (this.exit !== undefined) return;
    this.killedByUs = true;
    const gone = new Promise<void>((r) => this.onExit(() => r()));
    this.proc.kill('SIGKILL');
    await gone;
  }

  /** Waits up to `timeoutMs` for the process to exit by itself; kills it otherwise. */
  async waitExitOrKill(timeoutMs: number): Promise<void> {
    if (this.exit !== undefined) return;
    const exited = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        off();
        resolve(false);
      }, timeoutMs);
      const off = this.onExit(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!exited) await this.kill();
  }

  private keep(mark: string, text: string, atMs: number): void {
    this.recent.push(`+${((atMs - this.born) / 1000).toFixed(3)}s ${mark} ${text}`);
    if (this.recent.length > this.limit) this.recent.shift();
  }
}
