import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { previousVersionPath, writeFileAtomic, type AtomicWriteStep } from '../../src/core/atomic-write.js';
import { createAlphaBetaPlayer } from '../../src/player/factory.js';
import { loadWeightsFile } from '../../src/player/weights-file.js';
import { weightsVersion } from './fixtures/weights-versions.js';

const A = weightsVersion('A');
const B = weightsVersion('B');
const dir = mkdtempSync(join(tmpdir(), 'kishi-atomic-'));
const child = join(dir, 'child.mjs');

beforeAll(() => {
  // The writer as a plain node program (the test kills a real process, not a thread).
  buildSync({
    entryPoints: [join(import.meta.dirname, 'fixtures', 'atomic-writer-child.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: child,
    logLevel: 'silent',
  });
});

/** Starts the child and kills it (SIGKILL) once its output contains `until`. */
function killWhen(args: string[], until: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (until.test(out)) p.kill('SIGKILL');
    });
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve(out) : reject(new Error(`child exited without being killed: ${out} ${err}`))));
  });
}

/** The weights file is one of the two versions, complete, and the bot can start with it. */
function expectWhole(file: string, allowed: readonly string[]): string {
  const text = readFileSync(file, 'utf8');
  expect(allowed.includes(text)).toBe(true);
  expect(loadWeightsFile(file, 'chess').isOk).toBe(true);
  return text;
}

describe('atomic weight updates', () => {
  it('a writer killed at any step leaves the old or the new version, never a partial file', async () => {
    const file = join(dir, 'steps.json');
    const steps: [AtomicWriteStep, string][] = [
      ['temp-chunk', A],
      ['temp-synced', A],
      ['previous-kept', A],
      ['renamed', B],
    ];
    for (const [step, expected] of steps) {
      writeFileAtomic(file, A, { keepPrevious: false });
      const out = await killWhen([file, 'stop', step], new RegExp(`at ${step}`));
      expect(out).toContain(`at ${step}`);
      expect(expectWhole(file, [A, B])).toBe(expected);
      if (existsSync(previousVersionPath(file))) expect(readFileSync(previousVersionPath(file), 'utf8')).toBe(A);
    }
    // A killed writer leaves its temporary file; the next write removes it.
    await killWhen([file, 'stop', 'temp-synced'], /at temp-synced/);
    expect(readdirSync(dir).some((n) => n.includes('.tmp-'))).toBe(true);
    writeFileAtomic(file, A);
    expect(readdirSync(dir).filter((n) => n.startsWith('.steps.json'))).toEqual([]);
  });

  it('a writer updating in a loop and killed at random moments: always a whole version, the bot starts with it', async () => {
    const file = join(dir, 'loop.json');
    writeFileAtomic(file, A);
    for (const writes of [1, 3, 7, 12, 20]) {
      await killWhen([file, 'loop'], new RegExp(`w ${writes}\\n`));
      expectWhole(file, [A, B]);
      expectWhole(previousVersionPath(file), [A, B]);
      const player = createAlphaBetaPlayer({ search: 'alphabeta', hashMb: 1, moveOverheadMs: 0, chessWeights: file, shogiWeights: 'x' }, 'chess');
      expect(player.isOk).toBe(true);
      await player.unwrap().close();
    }
  });

  it('keeps the previous version', () => {
    const file = join(dir, 'prev.json');
    writeFileAtomic(file, A);
    expect(existsSync(previousVersionPath(file))).toBe(false);
    writeFileAtomic(file, B);
    expect(readFileSync(file, 'utf8')).toBe(B);
    expect(readFileSync(previousVersionPath(file), 'utf8')).toBe(A);
    writeFileAtomic(file, A, { keepPrevious: false });
    expect(readFileSync(previousVersionPath(file), 'utf8')).toBe(A);
    expect(readFileSync(file, 'utf8')).toBe(A);
  });
});
