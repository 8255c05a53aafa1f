/**
 * Child processes of the queue tests (workers, producers: the real CLI from dist/), every one
 * remembered so that `killAll` in afterAll leaves nothing running, each with its output collected.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface Child {
  readonly proc: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (null after a signal). */
  readonly exited: Promise<number | null>;
  /** Resolves when the output matches (rejects after `ms`). */
  waitFor(re: RegExp, ms: number): Promise<void>;
}

const children = new Set<ChildProcess>();

export function kishi(args: readonly string[], env: NodeJS.ProcessEnv = {}, cwd?: string): Child {
  const proc = spawn(process.execPath, ['bin/kishi.js', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], ...(cwd !== undefined ? { cwd } : {}) });
  children.add(proc);
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (d: Buffer): void => {
    out += d.toString();
    for (const l of listeners) l();
  };
  proc.stdout!.on('data', onData);
  proc.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) =>
    proc.once('exit', (code) => {
      children.delete(proc);
      for (const l of listeners) l();
      resolve(code);
    }),
  );
  return {
    proc,
    output: () => out,
    exited,
    waitFor: (re, ms) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (re.test(out)) {
            done();
            resolve();
          } else if (proc.exitCode !== null || proc.signalCode !== null) {
            done();
            reject(new Error(`process ended before ${re}: ${out.slice(-2000)}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`timed out waiting for ${re}: ${out.slice(-2000)}`));
        }, ms);
        const done = (): void => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      }),
  };
}

/** Kills every child still running (SIGKILL) and waits for them. */
export async function killAll(): Promise<void> {
  await Promise.all(
    [...children].map(
      (p) =>
        new Promise<void>((resolve) => {
          if (p.exitCode !== null || p.signalCode !== null) return resolve();
          p.once('exit', () => resolve());
          p.kill('SIGKILL');
        }),
    ),
  );
}
