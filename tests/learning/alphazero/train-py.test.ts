/**
 * A tiny end-to-end AlphaZero loop with the real parts: alpha-beta bootstrap games, trainer/train.py
 * (PyTorch, CPU, a 1x8 net, a few steps) training the bootstrap net from scratch, self-play with
 * that net's INT8 export through onnxruntime-node (real `runSelfplay`, calling thread), a second
 * training continuing the checkpoint, and the promoted net reloaded in onnxruntime-node and checked
 * against the reference outputs PyTorch recorded in its manifest. Only the gate is injected (a
 * `kishi match` needs the compiled CLI; gate.test.ts covers it).
 *
 * Needs a Python with torch and onnx (KISHI_PYTHON, /usr/bin/python3 or python3: CI installs
 * python3-torch). Skipped only when KISHI_SKIP_TORCH=1; otherwise a missing torch fails the test.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { GateRequest } from '../../../src/learning/alphazero/gate.js';
import { runLoop, type LoopSelfplayOptions } from '../../../src/learning/alphazero/loop.js';
import { runSelfplay } from '../../../src/learning/alphazero/selfplay.js';
import { scanSelfplayChunks } from '../../../src/learning/alphazero/selfplay-chunks.js';
import { pythonTrainRunner, resolvePython, type TrainJob } from '../../../src/learning/alphazero/train-process.js';
import { parseManifest } from '../../../src/nn/manifest.js';
import { loadModel } from '../../../src/nn/model-file.js';
import { checkReference } from '../../../src/nn/reference-check.js';
import { matchResult, quietDeps, scriptedGate, tinySettings } from './loop-fakes.js';
import { describeIf } from '../../setup/skip.js';

const skip = process.env['KISHI_SKIP_TORCH'] === '1';
const NO_TORCH = 'KISHI_SKIP_TORCH=1: no Python with torch and onnx (tests/setup/prerequisites.ts)';

describeIf(!skip, NO_TORCH)('tiny end-to-end loop with PyTorch and onnxruntime-node', () => {
  it('bootstrap data -> train.py -> export + INT8 -> self-play with the net -> train.py resumed -> promote -> reload', async () => {
    const python = resolvePython(process.env);
    expect(python.isOk, python.isErr ? python.error.message : '').toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'kishi-az-e2e-'));
    const settings = tinySettings({ bootstrapGames: 2, bootstrapNodes: 150, bootstrapSteps: 4, stepsPerGeneration: 3, gamesPerGeneration: 2, maxPlies: 10, gamesPerChunk: 1 });
    const jobs: TrainJob[] = [];
    const lines: string[] = [];
    const real = pythonTrainRunner(python.unwrap());
    const selfplay: LoopSelfplayOptions[] = [];
    const gates: GateRequest[] = [];
    const r = await runLoop(
      { dir, settings, generations: 1 },
      quietDeps({
        selfplay: (o) => {
          selfplay.push(o);
          return runSelfplay(o);
        },
        train: (job, o) => {
          jobs.push(job);
          return real(job, { ...o, onLine: (l) => lines.push(l) });
        },
        gate: scriptedGate([matchResult(6, 0, 4)], gates),
      }),
    );
    expect(r.isOk, r.isErr ? `${r.error.message}\n${lines.join('\n')}` : '').toBe(true);
    const st = r.unwrap().state;
    // The two phases, kept apart on disk and in the records.
    const boot = scanSelfplayChunks(join(dir, 'bootstrap'));
    const sp = scanSelfplayChunks(join(dir, 'selfplay'));
    expect([boot.games, sp.games]).toEqual([2, 2]);
    expect(boot.chunks.map((c) => c.header.meta['phase'])).toEqual(['bootstrap-alphabeta', 'bootstrap-alphabeta']);
    expect(sp.chunks.map((c) => c.header.meta['phase'])).toEqual(['selfplay', 'selfplay']);
    expect(st.games).toEqual({ bootstrap: 2, selfplay: 2 });
    // Training: from scratch on the bootstrap data, then resumed on both phases.
    expect(jobs.map((j) => [j.init, j.resume?.split('/').pop(), j.steps, j.data.map((d) => d.split('/').pop())])).toEqual([
      [undefined, undefined, 4, ['bootstrap']],
      [undefined, 'gen-0.pt', 3, ['bootstrap', 'selfplay']],
    ]);
    expect(st.generations.map((g) => [g.generation, g.train?.stepsThisRun, g.train?.steps, g.promoted])).toEqual([
      [0, 4, 4, true],
      [1, 3, 7, true],
    ]);
    // Self-play of generation 1 played the bootstrap net's INT8 export.
    expect(selfplay.map((o) => o.model)).toEqual([join(dir, 'best-int8.onnx')]);
    expect(gates.map((g) => g.candidate)).toEqual([join(dir, 'nets', 'gen-1-int8.onnx')]);
    // The manifest says what the net is and where it came from.
    const manifest = parseManifest(readFileSync(join(dir, 'best.manifest.json'), 'utf8'), 'chess', 'best.manifest.json').unwrap();
    expect(manifest.architecture).toMatchObject({ kind: 'resnet', blocks: 1, filters: 8 });
    expect(manifest.training).toMatchObject({ method: 'alphazero', phases: ['bootstrap-alphabeta', 'selfplay'], steps: 7, stepsThisRun: 3, resumed: true });
    expect((manifest.training['data'] as { games: number }).games).toBe(4);
    expect(manifest.reference.positions.length).toBe(7);
    // Reloaded in onnxruntime-node, fp32 reproduces PyTorch's reference outputs; INT8 loads and runs.
    const fp32 = (await loadModel(join(dir, 'best.onnx'), 'chess')).unwrap();
    const check = (await checkReference(fp32.evaluator, 'chess', manifest.reference.positions)).unwrap();
    expect(check.positions).toBe(7);
    expect(check.maxValueError).toBeLessThanOrEqual(1e-4);
    expect(check.maxPriorError).toBeLessThanOrEqual(1e-4);
    await fp32.evaluator.close();
    expect(existsSync(join(dir, 'best-int8.onnx'))).toBe(true);
    const int8 = (await loadModel(join(dir, 'best-int8.onnx'), 'chess')).unwrap();
    expect(int8.manifest.precision).toBe('int8-qdq');
    const q = (await checkReference(int8.evaluator, 'chess', manifest.reference.positions)).unwrap();
    expect(q.positions).toBe(7);
    expect(q.maxValueError).toBeLessThan(0.5);
    await int8.evaluator.close();
    // train.py's report: measured throughput, cumulative steps.
    const report = JSON.parse(readFileSync(join(dir, 'nets', 'gen-1.train.json'), 'utf8')) as { steps: number; samplesPerSecond: number; perPhase: Record<string, { games: number }> };
    expect(report.steps).toBe(7);
    expect(report.samplesPerSecond).toBeGreaterThan(0);
    expect(Object.fromEntries(Object.entries(report.perPhase).map(([k, v]) => [k, v.games]))).toEqual({ 'bootstrap-alphabeta': 2, selfplay: 2 });
  }, 240_000);
});
