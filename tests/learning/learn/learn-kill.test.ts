/**
 * A real kill: `kishi learn` (the built CLI) killed with SIGKILL in the middle of its datagen step,
 * then started again with the same command line, ends with the same chunks as a run never killed,
 * and its state says the step that follows (learn-torch.test.ts stops after each step; this kills
 * inside one); Ctrl-C ends the datagen step at once.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkFileName } from '../../../src/learning/datagen/chunk.js';
import { runFiles } from './learn-fakes.js';
import { runProcess } from '../../setup/run-process.js';

const args = (dir: string, models: string): string[] => [
  'bin/kishi.js', 'learn', '-g', 'chess', '-d', dir, '--seed', '5', '--nodes', '60', '--positions-per-gen', '400', '--games-per-chunk', '1',
  '--hash', '1', '--models', models, '--initial-net', 'models/chess-nnue.bin', '--python', 'python3', '--stop-after', 'datagen',
];

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('kishi learn killed during datagen', () => {
  it('resumes to the same chunks', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kishi-learn-kill-'));
    const a = await runProcess('node', args(join(root, 'a'), join(root, 'ma')), { timeout: 300_000 });
    expect(a.status, a.stderr).toBe(0);
    const dir = join(root, 'b');
    const child = spawn('node', args(dir, join(root, 'mb')), { stdio: 'ignore' });
    const second = join(dir, 'gen1', 'data', chunkFileName('chess', 0, 1, 1));
    for (let i = 0; i < 1200 && !existsSync(second) && child.exitCode === null; i++) await sleep(100);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(existsSync(second)).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'learn.json'), 'utf8')).step).toBe('datagen');
    const b = await runProcess('node', args(dir, join(root, 'mb')), { timeout: 300_000 });
    expect(b.status, b.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'learn.json'), 'utf8')).step).toBe('train');
    expect(runFiles(dir)).toEqual(runFiles(join(root, 'a')));
    expect(runFiles(dir).size).toBeGreaterThan(3);
  }, 600_000);

  it('stops at once on Ctrl-C during datagen (no handler waits behind the synchronous loop)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kishi-learn-int-'));
    const dir = join(root, 'run');
    const child = spawn('node', args(dir, join(root, 'm')), { stdio: 'ignore' });
    const first = join(dir, 'gen1', 'data', chunkFileName('chess', 0, 1, 0));
    for (let i = 0; i < 1200 && !existsSync(first) && child.exitCode === null; i++) await sleep(100);
    expect(child.exitCode).toBe(null);
    const exited = new Promise<NodeJS.Signals | null>((r) => child.once('exit', (_code, signal) => r(signal)));
    child.kill('SIGINT');
    const t0 = Date.now();
    expect(await exited).toBe('SIGINT');
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(JSON.parse(readFileSync(join(dir, 'learn.json'), 'utf8')).step).toBe('datagen');
  }, 600_000);
});
