/**
 * `kishi learn`'s cycle with the real datagen and the in-repo parts, the trainer replaced by a copy
 * of the teacher and the gate scripted (learn-torch.test.ts runs nnue_train.py and the real gate):
 * promotion and the next teacher, per-generation seeds and training windows, adoption of a data
 * folder `kishi datagen` started, resumption after a stop at each step, a killed training resumed
 * from its checkpoint, and corrupt chunks or state refused with their names.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KishiError, Result } from '../../../src/core/result.js';
import { chunkFileName } from '../../../src/learning/datagen/chunk.js';
import { checkDataFolder } from '../../../src/learning/learn/data-check.js';
import { generationSeed, statePath, trainingGenerations } from '../../../src/learning/learn/layout.js';
import { runLearn, type LearnDeps } from '../../../src/learning/learn/learn-loop.js';
import { localDatagenRunner } from '../../../src/learning/learn/local-datagen.js';
import type { NetGateRequest } from '../../../src/learning/learn/net-gate.js';
import { acquireRunLock, lockPath } from '../../../src/learning/learn/run-lock.js';
import { LEARN_STEPS } from '../../../src/learning/learn/state.js';
import { learnStatus } from '../../../src/learning/learn/status.js';
import type { TrainJob } from '../../../src/learning/learn/trainer-run.js';
import { loadNnueFile } from '../../../src/player/nnue-file.js';
import { copyingTrainer, gateResult, runFiles, scriptedGate, tinySettings } from './learn-fakes.js';

const temp = (): { dir: string; models: string } => {
  const root = mkdtempSync(join(tmpdir(), 'kishi-learn-'));
  return { dir: join(root, 'run'), models: join(root, 'models') };
};

const deps = (o: { jobs?: TrainJob[]; gates?: NetGateRequest[]; pass?: (k: number) => boolean; lines?: string[] } = {}): LearnDeps => ({
  datagen: localDatagenRunner(() => {}),
  train: copyingTrainer(o.jobs ?? []),
  gate: async (r) => {
    o.gates?.push(r);
    const k = Number(/gen(\d+)/.exec(r.outDir)![1]);
    const pass = o.pass?.(k) ?? false;
    return scriptedGate({ passed: pass, reason: pass ? 'SPRT accepted H1' : 'SPRT accepted H0', result: gateResult(pass ? 3 : 0, 1, pass ? 0 : 3, pass ? 'H1' : 'H0') })(r);
  },
  log: (l) => o.lines?.push(l),
});

describe('layout', () => {
  it('generation 1 datagens with the base seed (so a run started by hand is adopted), later ones with distinct seeds', () => {
    expect(generationSeed(101, 1)).toBe(101);
    expect(generationSeed(101, 2)).toBe(1101);
    expect(new Set([1, 2, 3, 4].flatMap((k) => [generationSeed(101, k), generationSeed(102, k)])).size).toBe(8);
  });
  it('trains on the last m generations, or all of them', () => {
    expect(trainingGenerations(3, undefined)).toEqual([1, 2, 3]);
    expect(trainingGenerations(3, 2)).toEqual([2, 3]);
    expect(trainingGenerations(1, 5)).toEqual([1]);
  });
});

describe('kishi learn cycle (scripted trainer and gate)', () => {
  it('runs two generations: a passing gate promotes into models/ and teaches the next generation, a failing one keeps the teacher', async () => {
    const { dir, models } = temp();
    const jobs: TrainJob[] = [];
    const gates: NetGateRequest[] = [];
    const lines: string[] = [];
    const r = await runLearn({ settings: tinySettings(dir, models, 'python3', { generations: 2, trainGens: 1 }) }, deps({ jobs, gates, pass: (k) => k === 1, lines }));
    expect(r.isOk, r.isErr ? r.error.message : '').toBe(true);
    const state = r.unwrap().state;
    expect([state.generation, state.step]).toEqual([3, 'datagen']);
    // Generation 1 passed: models/ holds its candidate with the provenance, and it is generation 2's teacher.
    const cand1 = readFileSync(join(dir, 'gen1', 'train', 'net.bin'));
    expect(readFileSync(join(models, 'chess-nnue.bin')).equals(cand1)).toBe(true);
    expect(readFileSync(join(dir, 'gen2', 'teacher.bin')).equals(cand1)).toBe(true);
    const manifest = JSON.parse(readFileSync(join(models, 'chess-nnue.manifest.json'), 'utf8'));
    expect(manifest.learn.generation).toBe(1);
    expect(manifest.learn.dataSets).toEqual([{ dir: join('gen1', 'data'), chunks: state.generations[0]!.datagen!.chunks, positions: state.generations[0]!.datagen!.positions }]);
    expect(manifest.learn.positions).toBeGreaterThanOrEqual(60);
    expect(manifest.learn.command).toContain(`trainer/nnue_train.py --game chess --data ${join('$DIR', 'gen1', 'data')} --out ${join('$DIR', 'gen1', 'train', 'net.bin')}`);
    expect(manifest.learn.gate.passed).toBe(true);
    expect(loadNnueFile(join(models, 'chess-nnue.bin'), 'chess').isOk).toBe(true);
    // Generation 2 failed: models/ keeps generation 1's net, generation 3 searches with generation 2's teacher.
    expect(readFileSync(join(dir, 'gen3', 'teacher.bin')).equals(cand1)).toBe(true);
    expect(state.generations[1]!.promotion).toEqual({ nextTeacher: join('gen3', 'teacher.bin'), nextTeacherFrom: 'teacher' });
    // Seeds, teachers and the training window (--train-gens 1).
    expect(JSON.parse(readFileSync(join(dir, 'gen2', 'data', 'chess-s0of1.settings.json'), 'utf8')).seed).toBe(1011);
    expect(JSON.parse(readFileSync(join(dir, 'gen2', 'data', 'chess-s0of1.settings.json'), 'utf8')).settings.evaluation).toBe(`nnue ${join(dir, 'gen2', 'teacher.bin')}`);
    expect(jobs.map((j) => j.data)).toEqual([[join(dir, 'gen1', 'data')], [join(dir, 'gen2', 'data')]]);
    expect(gates.map((g) => [g.candidate, g.teacher, g.seed])).toEqual([
      [join(dir, 'gen1', 'train', 'net.bin'), join(dir, 'gen1', 'teacher.bin'), 11],
      [join(dir, 'gen2', 'train', 'net.bin'), join(dir, 'gen2', 'teacher.bin'), 1011],
    ]);
    expect(JSON.parse(readFileSync(join(dir, 'gen1', 'gate', 'gate.json'), 'utf8')).passed).toBe(true);
    // A progress line per step.
    expect(lines.some((l) => /^gen 1 train: epoch 1\/1, train loss 0\.020000, val loss 0\.030000, 1000 positions\/s, ETA/.test(l))).toBe(true);
    expect(lines.some((l) => l.startsWith('gen 2 promote: gate failed'))).toBe(true);
    // The status names every generation and where the run is.
    const status = learnStatus(dir).unwrap();
    expect(status).toContain('gen 1: data');
    expect(status).toContain(`promoted to ${join(models, 'chess-nnue.bin')}`);
    expect(status).toContain('now: generation 3, datagen');
    // Raising --generations goes on from there; the same total does nothing more.
    const again = await runLearn({ settings: tinySettings(dir, models, 'python3', { generations: 2, trainGens: 1 }) }, deps({ jobs }));
    expect(again.unwrap().state.generation).toBe(3);
    expect(jobs).toHaveLength(2);
  }, 240_000);

  it('stopped after each step, the same settings resume to the same files', async () => {
    const a = temp();
    const b = temp();
    const pass = (k: number): boolean => k === 1;
    expect((await runLearn({ settings: tinySettings(a.dir, a.models) }, deps({ pass }))).isOk).toBe(true);
    for (const step of LEARN_STEPS) {
      const r = await runLearn({ settings: tinySettings(b.dir, b.models), stopAfter: step }, deps({ pass }));
      expect(r.unwrap().stopped).toBe('stop-after');
      const next = LEARN_STEPS[LEARN_STEPS.indexOf(step) + 1] ?? 'datagen';
      expect(JSON.parse(readFileSync(statePath(b.dir), 'utf8')).step).toBe(next);
    }
    expect([...runFiles(a.dir).keys()]).toEqual(
      expect.arrayContaining([join('gen1', 'data', chunkFileName('chess', 0, 1, 0)), join('gen1', 'train', 'net.bin'), join('gen2', 'teacher.bin')]),
    );
    expect([...runFiles(a.models).keys()]).toEqual(['chess-nnue.bin']);
    expect(runFiles(b.dir)).toEqual(runFiles(a.dir));
    expect(runFiles(b.models)).toEqual(runFiles(a.models));
  }, 240_000);

  it('adopts a data folder that `kishi datagen` started and takes it to the target', async () => {
    const { dir, models } = temp();
    mkdirSync(join(dir, 'gen1'), { recursive: true });
    copyFileSync('models/chess-nnue.bin', join(dir, 'gen1', 'teacher.bin'));
    copyFileSync('models/chess-nnue.manifest.json', join(dir, 'gen1', 'teacher.manifest.json'));
    const s = tinySettings(dir, models);
    // What `kishi datagen --out DIR/gen1/data --nodes 60 --seed 11 --nnue DIR/gen1/teacher.bin --games-per-chunk 2 --hash 1` writes before it is stopped.
    const job = { generation: 1, game: 'chess' as const, out: join(dir, 'gen1', 'data'), seed: 11, nodes: 60, targetPositions: 1, gamesPerChunk: 2, nnue: join(dir, 'gen1', 'teacher.bin'), hash: 1 };
    expect((await localDatagenRunner(() => {})(job)).isOk).toBe(true);
    const first = readFileSync(join(job.out, chunkFileName('chess', 0, 1, 0)));
    // A target above what the first chunk holds (its size depends on the shipped net's games), so that
    // `kishi learn` has to add chunks of its own.
    const target = checkDataFolder(job.out, 'chess').unwrap().positions + 1;
    const r = await runLearn({ settings: { ...s, positionsPerGen: target }, stopAfter: 'datagen' }, deps());
    expect(r.isOk, r.isErr ? r.error.message : '').toBe(true);
    expect(readFileSync(join(job.out, chunkFileName('chess', 0, 1, 0))).equals(first)).toBe(true);
    expect(checkDataFolder(job.out, 'chess').unwrap().positions).toBeGreaterThanOrEqual(target);
    expect(r.unwrap().state.generations[0]!.datagen!.chunks).toBeGreaterThan(1);
  }, 240_000);

  it('resumes a killed training from its checkpoint, and does not rerun a training that finished', async () => {
    const { dir, models } = temp();
    const s = tinySettings(dir, models);
    expect((await runLearn({ settings: s, stopAfter: 'datagen' }, deps())).isOk).toBe(true);
    mkdirSync(join(dir, 'gen1', 'train'), { recursive: true });
    writeFileSync(join(dir, 'gen1', 'train', 'checkpoint.pt'), 'epochs 1..n');
    const jobs: TrainJob[] = [];
    expect((await runLearn({ settings: s, stopAfter: 'train' }, deps({ jobs }))).isOk).toBe(true);
    expect(jobs.map((j) => j.resume)).toEqual([true]);
    // Killed after the trainer wrote its report but before the state was saved: the training is adopted.
    const state = JSON.parse(readFileSync(statePath(dir), 'utf8'));
    writeFileSync(statePath(dir), JSON.stringify({ ...state, step: 'train' }));
    expect((await runLearn({ settings: s, stopAfter: 'train' }, deps({ jobs }))).isOk).toBe(true);
    expect(jobs).toHaveLength(1);
  }, 240_000);

  it('trains on the extra data-<name> sets of a generation beside data/', async () => {
    const { dir, models } = temp();
    const s = tinySettings(dir, models);
    expect((await runLearn({ settings: s, stopAfter: 'datagen' }, deps())).isOk).toBe(true);
    // Chunks of the same generation made elsewhere (trainer/device-learn.sh on a GPU machine's cores).
    mkdirSync(join(dir, 'gen1', 'data-gpu'), { recursive: true });
    copyFileSync(join(dir, 'gen1', 'data', chunkFileName('chess', 0, 1, 0)), join(dir, 'gen1', 'data-gpu', chunkFileName('chess', 0, 2, 0)));
    const jobs: TrainJob[] = [];
    expect((await runLearn({ settings: s, stopAfter: 'train' }, deps({ jobs }))).isOk).toBe(true);
    expect(jobs.map((j) => j.data)).toEqual([[join(dir, 'gen1', 'data'), join(dir, 'gen1', 'data-gpu')]]);
    const state = JSON.parse(readFileSync(statePath(dir), 'utf8'));
    expect(state.generations[0].train.dataSets.map((d: { dir: string }) => d.dir)).toEqual([join('gen1', 'data'), join('gen1', 'data-gpu')]);
  }, 240_000);

  it('refuses a corrupt chunk with its name, at training and at a datagen resume', async () => {
    const { dir, models } = temp();
    const s = tinySettings(dir, models);
    expect((await runLearn({ settings: s, stopAfter: 'datagen' }, deps())).isOk).toBe(true);
    const chunk = join(dir, 'gen1', 'data', chunkFileName('chess', 0, 1, 0));
    const bytes = readFileSync(chunk);
    bytes[40] = bytes[40]! ^ 0xff;
    writeFileSync(chunk, bytes);
    const jobs: TrainJob[] = [];
    const r = await runLearn({ settings: s }, deps({ jobs }));
    expect(r.isErr).toBe(true);
    expect(r.isErr && r.error.code).toBe('ERR_CHUNK');
    expect(r.isErr && r.error.message).toContain(chunk);
    expect(jobs).toHaveLength(0);
    expect(JSON.parse(readFileSync(statePath(dir), 'utf8')).step).toBe('train');
    // The same chunk met by a datagen step (a new run in the same folder with a higher target).
    const again = temp();
    const s2 = tinySettings(again.dir, again.models);
    expect((await runLearn({ settings: s2, stopAfter: 'datagen' }, deps())).isOk).toBe(true);
    const chunk2 = join(again.dir, 'gen1', 'data', chunkFileName('chess', 0, 1, 0));
    writeFileSync(chunk2, readFileSync(chunk2).subarray(0, 50));
    const state = JSON.parse(readFileSync(statePath(again.dir), 'utf8'));
    writeFileSync(statePath(again.dir), JSON.stringify({ ...state, step: 'datagen' }));
    const d = await runLearn({ settings: { ...s2, positionsPerGen: 10_000 } }, deps());
    expect(d.isErr && d.error.message).toContain(chunk2);
    expect(d.isErr && d.error.message).toContain('truncated');
  }, 240_000);

  it('refuses a run of another seed, node count or game, and an unreadable state, by name', async () => {
    const { dir, models } = temp();
    const s = tinySettings(dir, models);
    expect((await runLearn({ settings: s, stopAfter: 'datagen' }, deps())).isOk).toBe(true);
    const other = await runLearn({ settings: { ...s, seed: 12, nodes: 61 } }, deps());
    expect(other.isErr && other.error.message).toContain('--seed 11 (given 12), --nodes 60 (given 61)');
    writeFileSync(statePath(dir), '{"format": "kishi-learn-state", ');
    const broken = await runLearn({ settings: s }, deps());
    expect(broken.isErr && broken.error.message).toContain(statePath(dir));
    expect(learnStatus(dir).isErr).toBe(true);
    expect(existsSync(`${statePath(dir)}.prev`)).toBe(true);
  }, 240_000);

  it('keeps a second process off a run directory, and takes over a lock its dead owner left', async () => {
    const { dir, models } = temp();
    mkdirSync(dir, { recursive: true });
    writeFileSync(lockPath(dir), `${process.ppid}\n`);
    const busy = await runLearn({ settings: tinySettings(dir, models), stopAfter: 'datagen' }, deps());
    expect(busy.isErr && busy.error.code).toBe('ERR_LOCKED');
    expect(busy.isErr && busy.error.message).toContain(`process ${process.ppid}`);
    expect(existsSync(statePath(dir))).toBe(false);
    // A pid above Linux's pid_max (2^22) belongs to no process: the lock is stale.
    writeFileSync(lockPath(dir), '4194305\n');
    const r = await runLearn({ settings: tinySettings(dir, models), stopAfter: 'datagen' }, deps());
    expect(r.isOk, r.isErr ? r.error.message : '').toBe(true);
    expect(existsSync(lockPath(dir))).toBe(false);
    // The owner is gone but its trainer still runs (a kill -9 of the parent orphans it): still in use.
    const lock = acquireRunLock(dir).unwrap();
    lock.setChild(process.ppid);
    writeFileSync(lockPath(dir), readFileSync(lockPath(dir), 'utf8').replace(String(process.pid), '4194305'));
    const orphan = acquireRunLock(dir);
    expect(orphan.isErr && orphan.error.message).toContain(`in use by process ${process.ppid}`);
    lock.release();
    expect(acquireRunLock(dir).isOk).toBe(true);
  }, 240_000);

  it('leaves an interrupted step where it was, records it, and replays it on the next start', async () => {
    const { dir, models } = temp();
    const s = tinySettings(dir, models);
    const base = deps();
    const interrupted = await runLearn({ settings: s }, { ...base, gate: async () => Result.err(new KishiError('ERR_ABORTED', 'gate interrupted')) });
    expect(interrupted.isErr && interrupted.error.code).toBe('ERR_ABORTED');
    const state = JSON.parse(readFileSync(statePath(dir), 'utf8'));
    expect(state.step).toBe('gate');
    expect(state.events.at(-1).what).toBe('generation 1 gate: interrupted: gate interrupted');
    const gates: NetGateRequest[] = [];
    const r = await runLearn({ settings: s }, deps({ gates, pass: () => true }));
    expect(r.unwrap().state.generations[0]!.promotion!.nextTeacherFrom).toBe('candidate');
    expect(gates).toHaveLength(1);
  }, 240_000);
});
