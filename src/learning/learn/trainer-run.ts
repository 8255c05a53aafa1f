/**
 * The training step's child process: `python3 trainer/nnue_train.py` on the chunks of the training
 * generations, writing the candidate net, its manifest, the trainer's checkpoint (after every epoch,
 * atomically) and a report last. A kill loses at most the epoch in progress: the next start passes
 * `--resume` and the trainer goes on after the checkpoint's epoch. Its epoch lines (JSON on stderr)
 * become progress lines.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import { packageRoot } from '../../core/package-path.js';

export const TRAIN_DEVICES = ['auto', 'cpu', 'cuda'] as const;
export type TrainDevice = (typeof TRAIN_DEVICES)[number];

/** The trainer options of a run (passed through to nnue_train.py). */
export interface TrainerSettings {
  /** The Python interpreter (needs torch and numpy). */
  readonly python: string;
  readonly hidden: number;
  /** `--features` (undefined: the trainer's default, `base`). */
  readonly features?: string;
  readonly activation?: string;
  readonly epochs: number;
  readonly batch: number;
  readonly device: TrainDevice;
  readonly threads: number;
  readonly seed: number;
  /** Further nnue_train.py arguments, verbatim (e.g. `--lr 0.001`, `--lambda 0.9`, `--steps 3`). */
  readonly extra: readonly string[];
}

/** One training job: the data folders, and where its files go. */
export interface TrainJob {
  readonly game: GameKind;
  readonly data: readonly string[];
  readonly out: string;
  readonly checkpoint: string;
  readonly report: string;
  readonly resume: boolean;
  readonly settings: TrainerSettings;
}

/** trainer/nnue_train.py of this package. */
export const nnueTrainScript = (): string => join(packageRoot(), 'trainer', 'nnue_train.py');

/** The nnue_train.py arguments of a job (after the script). */
export function trainerArgs(j: TrainJob): string[] {
  const s = j.settings;
  const a = ['--game', j.game, '--data', ...j.data, '--out', j.out, '--hidden', String(s.hidden)];
  if (s.features !== undefined) a.push('--features', s.features);
  if (s.activation !== undefined) a.push('--activation', s.activation);
  a.push('--epochs', String(s.epochs), '--batch', String(s.batch), '--device', s.device, '--threads', String(s.threads), '--seed', String(s.seed));
  a.push('--checkpoint', j.checkpoint, '--report', j.report, ...s.extra);
  if (j.resume) a.push('--resume');
  return a;
}

/** The command line as text, for manifests and logs (`python3 trainer/nnue_train.py ...`). */
export const trainerCommandText = (j: TrainJob): string =>
  [j.settings.python, 'trainer/nnue_train.py', ...trainerArgs(j)].map((x) => (/[\s"']/.test(x) ? JSON.stringify(x) : x)).join(' ');

/** One epoch as the trainer prints it (a JSON line). */
export interface EpochLine {
  readonly epoch: number;
  readonly step: number;
  readonly train_loss: number;
  readonly val_loss: number;
  readonly samples_per_s: number;
}

/** The epoch record of a trainer output line, or undefined for any other line. */
export function parseEpochLine(line: string): EpochLine | undefined {
  const t = line.trim();
  if (!t.startsWith('{') || !t.includes('"epoch"')) return undefined;
  try {
    const j = JSON.parse(t) as Partial<EpochLine>;
    return typeof j.epoch === 'number' && typeof j.train_loss === 'number' && typeof j.val_loss === 'number' ? (j as EpochLine) : undefined;
  } catch {
    return undefined;
  }
}

/** What the trainer's report holds. */
export interface TrainerReport {
  readonly history: readonly Readonly<Record<string, number>>[];
  readonly k?: number;
}

/** Reads a trainer report (`ERR_TRAIN` naming the file when unreadable). */
export function readTrainerReport(file: string): Result<TrainerReport, KishiError> {
  try {
    const j = JSON.parse(readFileSync(file, 'utf8')) as Partial<TrainerReport>;
    if (!Array.isArray(j.history)) return Result.err(new KishiError('ERR_TRAIN', `trainer report ${file}: no history`));
    return Result.ok({ history: j.history, ...(typeof j.k === 'number' ? { k: j.k } : {}) });
  } catch (e) {
    return Result.err(new KishiError('ERR_TRAIN', `trainer report ${file}: ${(e as Error).message}`));
  }
}

export interface TrainRunOptions {
  readonly signal?: AbortSignal;
  /** Every output line (also appended to `log` when given). */
  readonly onLine?: (line: string) => void;
  readonly log?: string;
  /** The child's pid once it started (the run's lock names it). */
  readonly onSpawn?: (pid: number) => void;
}

/** Runs the trainer and reads its report. */
export type TrainerRunner = (job: TrainJob, o: TrainRunOptions) => Promise<Result<TrainerReport, KishiError>>;

/** Runs nnue_train.py as a child process (working directory: the current one, so relative paths mean what they meant). */
export const pythonTrainerRunner: TrainerRunner = (job, o) =>
  new Promise((done) => {
    mkdirSync(dirname(job.out), { recursive: true });
    if (o.log !== undefined) appendFileSync(o.log, `# ${new Date().toISOString()} ${trainerCommandText(job)}\n`);
    const child = spawn(job.settings.python, [nnueTrainScript(), ...trainerArgs(job)], { stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid !== undefined) o.onSpawn?.(child.pid);
    const onAbort = (): void => {
      child.kill('SIGTERM');
    };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    let tail = '';
    let partial = '';
    const take = (d: Buffer): void => {
      const text = d.toString('utf8');
      tail = (tail + text).slice(-6000);
      if (o.log !== undefined) appendFileSync(o.log, text);
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') o.onLine?.(line);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (e) => done(Result.err(new KishiError('ERR_TRAIN', `cannot run ${job.settings.python}: ${e.message}`))));
    child.on('close', (code) => {
      o.signal?.removeEventListener('abort', onAbort);
      if (o.signal?.aborted === true) return done(Result.err(new KishiError('ERR_ABORTED', 'training interrupted (the checkpoint keeps the finished epochs)')));
      if (code !== 0) return done(Result.err(new KishiError('ERR_TRAIN', `nnue_train.py exited with ${code}:\n${tail.trimEnd().split('\n').slice(-12).join('\n')}`)));
      done(readTrainerReport(job.report));
    });
  });
