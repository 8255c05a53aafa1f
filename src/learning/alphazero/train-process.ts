/**
 * Running trainer/train.py (PyTorch) from the loop: finding a Python that has torch, building the
 * command line, streaming its progress lines, and reading its JSON report.
 *
 * Interpreter: `KISHI_PYTHON` of the environment the caller passes (the command reads the
 * process's; it must import torch), else `/usr/bin/python3` if it imports
 * torch (Debian's python3-torch), else `python3` on the PATH if it does; otherwise `ERR_NO_TORCH`
 * saying what to install.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KishiError, Result } from '../../core/result.js';
import { packageRoot } from '../../core/package-path.js';

const imports = (python: string, modules: readonly string[]): boolean => {
  const r = spawnSync(python, ['-c', `import ${modules.join(', ')}`], { stdio: 'ignore', timeout: 120_000 });
  return r.status === 0;
};

/**
 * The Python interpreter that has torch (see the module comment) and the other `modules`
 * (train.py needs onnx as well; trainer/nnue_train.py only torch and numpy); `env`: the environment to
 * read `KISHI_PYTHON` from.
 */
export function resolvePython(env: Readonly<Record<string, string | undefined>>, modules: readonly string[] = ['torch', 'onnx']): Result<string, KishiError> {
  const tried: string[] = [];
  const explicit = env['KISHI_PYTHON'];
  const named = modules.join(' and ');
  if (explicit !== undefined && explicit !== '') {
    if (imports(explicit, modules)) return Result.ok(explicit);
    return Result.err(new KishiError('ERR_NO_TORCH', `KISHI_PYTHON=${explicit} cannot import ${named}`));
  }
  for (const candidate of ['/usr/bin/python3', 'python3']) {
    if (candidate.startsWith('/') && !existsSync(candidate)) continue;
    tried.push(candidate);
    if (imports(candidate, modules)) return Result.ok(candidate);
  }
  return Result.err(
    new KishiError(
      'ERR_NO_TORCH',
      `no Python with ${named} (tried ${tried.join(', ') || 'nothing'}): apt-get install ${modules.map((m) => `python3-${m}`).join(' ')}, or set KISHI_PYTHON to an interpreter that has them`,
    ),
  );
}

/** trainer/train.py of this package. */
export const trainScript = (): string => join(packageRoot(), 'trainer', 'train.py');

export interface TrainJob {
  /** Chunk directories, oldest source first. */
  readonly data: readonly string[];
  readonly windowGames: number;
  readonly phaseWeights: string;
  /** Start from these weights (first training of a run) ... */
  readonly init?: string;
  /** ... or continue this checkpoint (weights, optimizer, step). */
  readonly resume?: string;
  readonly steps: number;
  readonly batch: number;
  readonly lr: number;
  /** Cosine decay of the learning rate to this over the job's steps (train.py --lr-final). */
  readonly lrFinal?: number;
  readonly weightDecay: number;
  readonly valueLoss: 'mse' | 'wdl';
  readonly valueMix: number;
  readonly mirror: boolean;
  readonly threads: number;
  readonly seed: number;
  readonly blocks: number;
  readonly filters: number;
  readonly checkpoint: string;
  readonly out: string;
  readonly int8?: string;
  readonly reference?: string;
  readonly report: string;
  readonly method: string;
  readonly notes: string;
}

/** The train.py arguments of a job. */
export function trainArgs(j: TrainJob): string[] {
  const a = ['--data', ...j.data, '--window-games', String(j.windowGames), '--steps', String(j.steps), '--batch', String(j.batch)];
  if (j.phaseWeights !== '') a.push('--phase-weights', j.phaseWeights);
  if (j.init !== undefined) a.push('--init', j.init);
  if (j.resume !== undefined) a.push('--resume', j.resume);
  a.push('--lr', String(j.lr));
  if (j.lrFinal !== undefined) a.push('--lr-final', String(j.lrFinal));
  a.push('--weight-decay', String(j.weightDecay), '--value-loss', j.valueLoss, '--value-mix', String(j.valueMix));
  if (j.mirror) a.push('--mirror');
  a.push('--threads', String(j.threads), '--seed', String(j.seed), '--blocks', String(j.blocks), '--filters', String(j.filters));
  a.push('--checkpoint', j.checkpoint, '--out', j.out, '--report', j.report, '--method', j.method, '--notes', j.notes);
  if (j.int8 !== undefined) a.push('--int8', j.int8);
  if (j.reference !== undefined) a.push('--reference', j.reference);
  return a;
}

/** What train.py reports (the fields the loop uses). */
export interface TrainReport {
  readonly steps: number;
  readonly stepsThisRun: number;
  readonly samplesPerSecond: number;
  readonly secondsTrain: number;
  readonly games: number;
  readonly positions: number;
  readonly holdoutBefore?: unknown;
  readonly holdoutAfter?: unknown;
  readonly onnx?: string;
  readonly int8?: { readonly path: string };
}

export type TrainRunner = (job: TrainJob, o: { signal?: AbortSignal; onLine?: (line: string) => void }) => Promise<Result<TrainReport, KishiError>>;

/** Runs train.py with `python` (see `resolvePython`). */
export const pythonTrainRunner =
  (python: string, niceness = 0): TrainRunner =>
  (job, o) =>
    new Promise((done) => {
      const args = [trainScript(), ...trainArgs(job)];
      const [cmd, argv] = niceness > 0 ? ['nice', ['-n', String(niceness), python, ...args]] : [python, args];
      const child = spawn(cmd as string, argv as string[], { stdio: ['ignore', 'pipe', 'pipe'], cwd: packageRoot() });
      const onAbort = (): void => {
        child.kill('SIGTERM');
      };
      o.signal?.addEventListener('abort', onAbort, { once: true });
      let tail = '';
      let partial = '';
      const take = (d: Buffer): void => {
        const text = partial + d.toString('utf8');
        tail = (tail + d.toString('utf8')).slice(-6000);
        const lines = text.split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) if (line.trim() !== '') o.onLine?.(line);
      };
      child.stdout.on('data', take);
      child.stderr.on('data', take);
      child.on('error', (e) => done(Result.err(new KishiError('ERR_TRAIN', `cannot run ${python}: ${e.message}`))));
      child.on('close', (code) => {
        o.signal?.removeEventListener('abort', onAbort);
        if (o.signal?.aborted === true) return done(Result.err(new KishiError('ERR_ABORTED', 'training interrupted')));
        if (code !== 0) return done(Result.err(new KishiError('ERR_TRAIN', `train.py exited with ${code}:\n${tail.split('\n').slice(-15).join('\n')}`)));
        try {
          done(Result.ok(JSON.parse(readFileSync(job.report, 'utf8')) as TrainReport));
        } catch (e) {
          done(Result.err(new KishiError('ERR_TRAIN', `train.py report ${job.report}: ${(e as Error).message}`)));
        }
      });
    });
