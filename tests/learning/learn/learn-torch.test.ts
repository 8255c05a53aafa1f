/**
 * `kishi learn` with every real part: datagen with the teacher net, trainer/nnue_train.py (an
 * H = 8 net, one epoch, CPU), the in-process SPRT gate at small node counts, and promotion or the
 * kept teacher. A run stopped after each step must end with the same files as a run that was never
 * stopped (the trainer is seeded and single-threaded, the gate deterministic at fixed nodes); a
 * training resumes from its checkpoint, and a corrupt checkpoint is refused with its name.
 *
 * Needs a Python with torch and numpy (KISHI_PYTHON, /usr/bin/python3 or python3). Skipped when there
 * is none and the prerequisite check (tests/setup/prerequisites.ts) set KISHI_SKIP_TORCH=1; with
 * KISHI_REQUIRE_ALL=1 that check fails the run instead.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { resolvePython } from '../../../src/learning/alphazero/train-process.js';
import { statePath } from '../../../src/learning/learn/layout.js';
import { runLearn } from '../../../src/learning/learn/learn-loop.js';
import { LEARN_STEPS } from '../../../src/learning/learn/state.js';
import { loadNnueFile } from '../../../src/player/nnue-file.js';
import { gameList, realDeps, runFiles, tinySettings } from './learn-fakes.js';
import { describeIf } from '../../setup/skip.js';

const python = resolvePython(process.env, ['torch', 'numpy']);
const skip = python.isErr && process.env['KISHI_SKIP_TORCH'] === '1';

const temp = (): { dir: string; models: string } => {
  const root = mkdtempSync(join(tmpdir(), 'kishi-learn-torch-'));
  return { dir: join(root, 'run'), models: join(root, 'models') };
};

describeIf(!skip, 'KISHI_SKIP_TORCH=1: no Python with torch and numpy (tests/setup/prerequisites.ts)')('kishi learn with nnue_train.py and the real gate', () => {
  it('goes through every step, and a run stopped after each step ends with the same files', async () => {
    expect(python.isOk, python.isErr ? python.error.message : '').toBe(true);
    const a = temp();
    const lines: string[] = [];
    const r = await runLearn({ settings: tinySettings(a.dir, a.models, python.unwrap()) }, realDeps(lines));
    expect(r.isOk, r.isErr ? r.error.message : '').toBe(true);
    const g = r.unwrap().state.generations[0]!;
    // Every step left its record and its progress lines.
    expect(g.datagen!.positions).toBeGreaterThanOrEqual(60);
    expect(g.train!.command).toMatch(/trainer\/nnue_train\.py --game chess --data \S+gen1\/data --out \S+net\.bin --hidden 8/);
    expect(g.train!.history).toHaveLength(1);
    expect(g.gate!.result.games).toBeGreaterThan(0);
    expect(g.gate!.result.sprt).toBeDefined();
    expect(lines.some((l) => /^gen 1 train: epoch 1\/1, train loss \d/.test(l))).toBe(true);
    expect(lines.some((l) => /^gen 1 gate: \[1\/4\] .* LLR|^gen 1 gate: \[2\/4\] .* LLR/.test(l))).toBe(true);
    // The candidate is a loadable net (the loader recomputes the trainer's reference outputs bit for bit).
    expect(loadNnueFile(join(a.dir, 'gen1', 'train', 'net.bin'), 'chess').isOk).toBe(true);
    // Promotion or the kept teacher, as the gate said.
    const next = readFileSync(join(a.dir, 'gen2', 'teacher.bin'));
    if (g.gate!.passed) {
      expect(next.equals(readFileSync(join(a.models, 'chess-nnue.bin')))).toBe(true);
    } else {
      expect(next.equals(readFileSync(join(a.dir, 'gen1', 'teacher.bin')))).toBe(true);
      expect(runFiles(a.models).size).toBe(0);
    }
    const b = temp();
    for (const step of LEARN_STEPS) {
      const s = await runLearn({ settings: tinySettings(b.dir, b.models, python.unwrap()), stopAfter: step }, realDeps());
      expect(s.isOk, s.isErr ? s.error.message : '').toBe(true);
    }
    expect(runFiles(b.dir)).toEqual(runFiles(a.dir));
    expect(runFiles(b.models)).toEqual(runFiles(a.models));
    expect(gameList(b.dir, 1)).toEqual(gameList(a.dir, 1));
  }, 600_000);

  it('refuses a corrupt checkpoint with its name', async () => {
    const { dir, models } = temp();
    const s = tinySettings(dir, models, python.unwrap());
    expect((await runLearn({ settings: s, stopAfter: 'datagen' }, realDeps())).isOk).toBe(true);
    const checkpoint = join(dir, 'gen1', 'train', 'checkpoint.pt');
    mkdirSync(join(dir, 'gen1', 'train'), { recursive: true });
    writeFileSync(checkpoint, 'PK\u0003\u0004 not a checkpoint');
    const r = await runLearn({ settings: s }, realDeps());
    expect(r.isErr).toBe(true);
    expect(r.isErr && r.error.code).toBe('ERR_TRAIN');
    expect(r.isErr && r.error.message).toContain(`checkpoint ${checkpoint} cannot be resumed`);
    expect(JSON.parse(readFileSync(statePath(dir), 'utf8')).step).toBe('train');
  }, 600_000);

  it('resumes a training from its checkpoint after the epochs it holds', async () => {
    const { dir, models } = temp();
    const s = tinySettings(dir, models, python.unwrap());
    expect((await runLearn({ settings: s, stopAfter: 'train' }, realDeps())).isOk).toBe(true);
    // Killed after epoch 1 of 2: the checkpoint holds epoch 1, the net and report were not written yet.
    rmSync(join(dir, 'gen1', 'train', 'report.json'));
    rmSync(join(dir, 'gen1', 'train', 'net.bin'));
    const state = JSON.parse(readFileSync(statePath(dir), 'utf8'));
    writeFileSync(statePath(dir), JSON.stringify({ ...state, step: 'train' }));
    const two = { ...s, trainer: { ...s.trainer, epochs: 2 } };
    const r = await runLearn({ settings: two, stopAfter: 'train' }, realDeps());
    expect(r.isOk, r.isErr ? r.error.message : '').toBe(true);
    expect(readFileSync(join(dir, 'gen1', 'train', 'train.log'), 'utf8')).toContain(`resumed from ${join(dir, 'gen1', 'train', 'checkpoint.pt')} after epoch 1`);
    expect(r.unwrap().state.generations[0]!.train!.history.map((h) => h['epoch'])).toEqual([1, 2]);
    expect(r.unwrap().state.generations[0]!.train!.command).toMatch(/--epochs 2 .*--resume$/);
  }, 600_000);
});
