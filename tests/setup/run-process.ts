/**
 * `spawnSync` without blocking the test worker. A vitest worker that blocks its event loop for a minute
 * (a synchronous child process of a loaded two-core machine: PyTorch trainings, whole CLI runs) misses
 * vitest's own 60 s RPC deadline and the run fails with `Timeout calling "onTaskUpdate"` although every
 * test passed. Tests that run a child process for more than a few seconds use this instead.
 */
import { spawn, type SpawnOptions } from 'node:child_process';

/** What `spawnSync(..., { encoding: 'utf8' })` returns, the fields tests read. */
export interface ProcessResult {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Set when the process could not be started, or was killed at `timeout`. */
  readonly error?: Error;
}

/** Options as spawnSync's: `input` is written to stdin and stdin closed; `timeout` kills with SIGTERM. */
export interface RunOptions extends Pick<SpawnOptions, 'cwd' | 'env'> {
  readonly input?: string;
  readonly timeout?: number;
}

/** Runs `command args` to its end and collects its output, as spawnSync would. */
export function runProcess(command: string, args: readonly string[], options: RunOptions = {}): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let error: Error | undefined;
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer =
      options.timeout === undefined
        ? undefined
        : setTimeout(() => {
            error = new Error(`${command} timed out after ${options.timeout} ms`);
            child.kill('SIGTERM');
          }, options.timeout);
    child.on('error', (e) => (error = e));
    child.on('close', (status, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ status, signal, stdout, stderr, ...(error ? { error } : {}) });
    });
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input ?? '');
  });
}
