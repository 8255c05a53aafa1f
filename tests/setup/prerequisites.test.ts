/** The global setup's view of the machine: a missing PyTorch skips the train.py tests, visibly. */
import { describe, expect, it } from 'vitest';
import { findMissing, summary } from './prerequisites.js';

describe('test prerequisites', () => {
  it('reports a Python without torch, names what is skipped and the command that installs it', () => {
    const missing = findMissing({ KISHI_PYTHON: '/bin/false' });
    const torch = missing.find((m) => m.install === 'python3-torch python3-onnx');
    expect(torch?.skipped).toContain('train.py');
    const text = summary(missing);
    expect(text).toContain('Prerequisites missing on this machine; these tests are skipped:');
    expect(text).toMatch(/sudo apt-get install python3-torch python3-onnx/);
  });

  it('says nothing about torch when the run skips it on purpose', () => {
    expect(findMissing({ KISHI_SKIP_TORCH: '1', KISHI_PYTHON: '/bin/false' }).some((m) => m.install.startsWith('python3-torch'))).toBe(false);
  });

  it('the train.py tests were told to skip when this machine has no torch', () => {
    // The global setup ran before this worker started: it set KISHI_SKIP_TORCH exactly when torch is missing.
    const noTorch = findMissing({ ...process.env, KISHI_SKIP_TORCH: '0' }).some((m) => m.install.startsWith('python3-torch'));
    if (noTorch) expect(process.env['KISHI_SKIP_TORCH']).toBe('1');
    else expect(process.env['KISHI_SKIP_TORCH'] === '1' && process.env['KISHI_PYTHON'] === undefined).toBe(false);
  });
});
