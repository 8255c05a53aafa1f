/**
 * trainer/train.py's device and precision switches (issue 19, GPU readiness): bf16 autocast is a
 * GPU-only mode, so asking for it on the CPU is refused with a clear message before any data is read,
 * and a CPU run records fp32 in its report. Needs a Python with torch (as train-py.test.ts).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { resolvePython } from '../../../src/learning/alphazero/train-process.js';
import { runProcess } from '../../setup/run-process.js';
import { describeIf } from '../../setup/skip.js';

const skip = process.env['KISHI_SKIP_TORCH'] === '1';
const NO_TORCH = 'KISHI_SKIP_TORCH=1: no Python with torch and onnx (tests/setup/prerequisites.ts)';

describeIf(!skip, NO_TORCH)('train.py --device / --precision', () => {
  it('refuses bf16 on the CPU with a clear message', async () => {
    const python = resolvePython(process.env).unwrap();
    const dir = mkdtempSync(join(tmpdir(), 'kishi-train-device-'));
    const r = await runProcess(python, ['trainer/train.py', '--data', dir, '--device', 'cpu', '--precision', 'bf16']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('--precision bf16 needs --device cuda');
  });

  it('records the device and fp32 in the report of a CPU run', async () => {
    const python = resolvePython(process.env).unwrap();
    const dir = mkdtempSync(join(tmpdir(), 'kishi-train-device-'));
    const data = join(dir, 'data');
    const made = await runProcess('node', ['dist/tools/nn/make-bootstrap-data.js', '--game', 'chess', '--positions', '40', '--nodes', '100', '--out', data, '--seed', '3']);
    expect(made.status, made.stderr).toBe(0);
    const report = join(dir, 'report.json');
    const r = await runProcess(python, ['trainer/train.py', '--data', data, '--blocks', '1', '--filters', '8', '--steps', '2', '--batch', '8', '--device', 'cpu', '--holdout', '0', '--report', report]);
    expect(r.status, r.stderr).toBe(0);
    const rep = JSON.parse(readFileSync(report, 'utf8')) as { device: string; precision: string };
    expect([rep.device, rep.precision]).toEqual(['cpu', 'fp32']);
  });
});
