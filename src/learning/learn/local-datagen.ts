/**
 * The datagen step in this process: `kishi datagen`'s own setup and loop (datagen-setup.ts,
 * datagen-run.ts) on one shard (0/1), so the chunks and the shard's settings file are the bytes
 * `kishi datagen --out DIR/gen<k>/data --nodes N --seed S --nnue DIR/gen<k>/teacher.bin` writes, and
 * either resumes the other. The loop is synchronous: a kill loses only the chunk in progress.
 */
import { Result } from '../../core/result.js';
import { runDatagen, type DatagenProgress } from '../datagen/datagen-run.js';
import { prepareDatagen, type DatagenChoices } from '../datagen/datagen-setup.js';
import type { DatagenJob, DatagenRunner } from './learn-loop.js';

/** The choices `kishi datagen` would be given for the job (shared with the queued runner). */
export const datagenChoicesOf = (job: DatagenJob): DatagenChoices => ({
  game: job.game,
  nodes: job.nodes,
  hash: job.hash,
  nnue: job.nnue,
  ...(job.book !== undefined ? { book: job.book } : {}),
  ...(job.randomPlies !== undefined ? { randomPlies: job.randomPlies } : {}),
  ...(job.weights !== undefined ? { weights: job.weights } : {}),
});

/** A runner playing the chunks here; `onProgress` gets a line's worth after every chunk. */
export const localDatagenRunner =
  (onProgress: (p: DatagenProgress, job: DatagenJob) => void): DatagenRunner =>
  async (job) => {
    const setup = prepareDatagen(datagenChoicesOf(job));
    if (setup.isErr) return Result.err(setup.error);
    const { settings, openings, makeBoard, search } = setup.value;
    const r = runDatagen({
      out: job.out,
      seed: job.seed,
      shardIndex: 0,
      shardCount: 1,
      gamesPerChunk: job.gamesPerChunk,
      targetPositions: job.targetPositions,
      settings,
      openings,
      makeBoard,
      search,
      onProgress: (p) => onProgress(p, job),
    });
    return r.map(() => undefined);
  };
