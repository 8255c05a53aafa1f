/**
 * trainer/train.py's data selection and checkpoints: the sliding window keeps the newest whole
 * chunks up to N games (by game index within a directory, directories oldest first), phase weights
 * of 0 drop a phase before the window is taken, and `--resume` continues the step count. Chunks are
 * real self-play chunks made with a scripted net. Skipped only when KISHI_SKIP_TORCH=1.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runSelfplay } from '../../../src/learning/alphazero/selfplay.js';
import { scanSelfplayChunks } from '../../../src/learning/alphazero/selfplay-chunks.js';
import { resolvePython, trainScript } from '../../../src/learning/alphazero/train-process.js';
import { describeIf } from '../../setup/skip.js';
import { runProcess } from '../../setup/run-process.js';

const skip = process.env['KISHI_SKIP_TORCH'] === '1';
const NO_TORCH = 'KISHI_SKIP_TORCH=1: no Python with torch and onnx (tests/setup/prerequisites.ts)';

const chunks = async (outDir: string, phase: string, games: number, perChunk: number): Promise<void> => {
  (
    await runSelfplay({
      game: 'chess',
      model: 'mock:uniform',
      outDir,
      games,
      firstGameIndex: 0,
      workers: 0,
      concurrentGames: 2,
      playouts: 4,
      temperatureMoves: 4,
      maxPlies: 8,
      gamesPerChunk: perChunk,
      seed: 5,
      phase,
    })
  ).unwrap();
};

describeIf(!skip, NO_TORCH)('train.py window, phases and resume', () => {
  it('trains on the newest chunks of the kept phases and resumes the step count', async () => {
    const python = resolvePython(process.env).unwrap();
    const dir = mkdtempSync(join(tmpdir(), 'kishi-az-window-'));
    await chunks(join(dir, 'boot'), 'bootstrap-alphabeta', 2, 1);
    await chunks(join(dir, 'sp'), 'selfplay', 6, 2);
    await chunks(join(dir, 'online'), 'online', 1, 1);
    const sp = scanSelfplayChunks(join(dir, 'sp'));
    const newest = sp.chunks.slice(1).reduce((a, c) => a + c.positions, 0);
    const run = async (extra: string[]): Promise<Record<string, unknown>> => {
      const report = join(dir, 'report.json');
      const args = [trainScript(), '--data', join(dir, 'boot'), join(dir, 'sp'), join(dir, 'online'), '--window-games', '5', '--phase-weights', 'online=0', '--steps', '2', '--batch', '4'];
      const r = await runProcess(python, [...args, '--blocks', '1', '--filters', '4', '--threads', '1', '--log-every', '1', '--checkpoint', join(dir, 't.pt'), '--report', report, ...extra]);
      expect(r.status, r.stderr + r.stdout).toBe(0);
      return JSON.parse(readFileSync(report, 'utf8')) as Record<string, unknown>;
    };
    // Newest first: sp 4-5 (2 games), sp 2-3 (4), sp 0-1 would make 6 > 5; the online chunk is dropped (weight 0) before the window.
    const first = await run([]);
    expect(first['perPhase']).toEqual({ selfplay: { chunks: 2, games: 4, positions: newest, weight: 1 } });
    expect([first['steps'], first['stepsThisRun'], first['samples'], first['games'], first['positions']]).toEqual([2, 2, 8, 4, newest]);
    const second = await run(['--resume', join(dir, 't.pt')]);
    expect([second['steps'], second['stepsThisRun'], second['samples']]).toEqual([4, 2, 16]);
    expect((second['history'] as { step: number }[]).map((h) => h.step)).toEqual([3, 4]);
    // --lr-final: cosine from --lr at the first step of the call to --lr-final at its last.
    const third = await run(['--resume', join(dir, 't.pt'), '--lr', '0.1', '--lr-final', '0.01']);
    expect((third['history'] as { step: number; lr: number }[]).map((h) => [h.step, h.lr])).toEqual([
      [5, 0.1],
      [6, 0.01],
    ]);
    expect(second['history'] as { lr: number }[]).toEqual([expect.objectContaining({ lr: 0.02 }), expect.objectContaining({ lr: 0.02 })]);
    // The checkpoint was written through a temporary file and a rename: no leftovers.
    expect(readdirSync(dir).filter((n) => n.includes('.tmp'))).toEqual([]);
  }, 120_000);
});
