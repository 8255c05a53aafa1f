/**
 * Where `kishi learn` keeps a run (one directory per game), so that any of its steps can be run,
 * resumed or inspected by hand:
 *
 *   DIR/learn.json                  the run's state (state.ts), written atomically after every step
 *   DIR/learn.lock                  the pid of the process running it (run-lock.ts)
 *   DIR/gen<k>/teacher.bin          the net generation k searches with (+ teacher.manifest.json); gen1's
 *                                   is a copy of models/<game>-nnue.bin, gen<k+1>'s the net promoted by
 *                                   generation k's gate, or generation k's teacher when the gate failed
 *   DIR/gen<k>/data/                generation k's datagen chunks, exactly as `kishi datagen --out
 *                                   DIR/gen<k>/data --nodes N --seed S --nnue DIR/gen<k>/teacher.bin`
 *                                   writes them (so a run started by hand with that command is adopted)
 *   DIR/gen<k>/data-<name>/         more chunks of generation k made elsewhere with the same teacher
 *                                   (a lent GPU machine's cores: trainer/device-learn.sh), other seeds;
 *                                   trained on beside data/
 *   DIR/gen<k>/train/               net.bin + net.manifest.json (the candidate), checkpoint.pt (the
 *                                   trainer's, resumed after a kill), report.json, train.log
 *   DIR/gen<k>/gate/                the SPRT match (records, summary.json) and gate.json (its verdict)
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The state file of a run. */
export const statePath = (dir: string): string => join(dir, 'learn.json');

/** The folder of generation `k` (1-based). */
export const genDir = (dir: string, k: number): string => join(dir, `gen${k}`);

/** The net generation `k` searches with. */
export const teacherPath = (dir: string, k: number): string => join(genDir(dir, k), 'teacher.bin');

/** Generation `k`'s datagen chunks. */
export const dataDir = (dir: string, k: number): string => join(genDir(dir, k), 'data');

/** Every chunk folder of generation `k`: data/, then the extra `data-<name>/` sets in name order. */
export const dataDirs = (dir: string, k: number): string[] => {
  const g = genDir(dir, k);
  const extra = existsSync(g)
    ? readdirSync(g, { withFileTypes: true })
        .filter((e) => e.isDirectory() && e.name.startsWith('data-'))
        .map((e) => join(g, e.name))
        .sort()
    : [];
  return [dataDir(dir, k), ...extra];
};

/** Generation `k`'s training output. */
export const trainDir = (dir: string, k: number): string => join(genDir(dir, k), 'train');

/** The candidate net of generation `k` (the trainer's `--out`). */
export const candidatePath = (dir: string, k: number): string => join(trainDir(dir, k), 'net.bin');

/** The trainer's checkpoint of generation `k` (resumed with `--resume` after a kill). */
export const checkpointPath = (dir: string, k: number): string => join(trainDir(dir, k), 'checkpoint.pt');

/** The trainer's report of generation `k`, written last: its presence means the training finished. */
export const reportPath = (dir: string, k: number): string => join(trainDir(dir, k), 'report.json');

/** Generation `k`'s gate match and verdict. */
export const gateDir = (dir: string, k: number): string => join(genDir(dir, k), 'gate');

/**
 * The datagen seed of generation `k`: the base seed for generation 1 (so a generation started by
 * hand with `kishi datagen --seed S` is adopted as it is), then `base + 1000 * (k - 1)`, distinct for
 * every generation and, for bases that differ by less than 1000 (one per game), across games.
 */
export const generationSeed = (base: number, k: number): number => base + 1000 * (k - 1);

/** The generations whose data trains generation `k`: the last `window` ones (all when undefined). */
export const trainingGenerations = (k: number, window: number | undefined): number[] => {
  const first = window === undefined ? 1 : Math.max(1, k - window + 1);
  return Array.from({ length: k - first + 1 }, (_, i) => first + i);
};
