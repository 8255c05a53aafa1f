/**
 * Resuming the AlphaZero loop (src/learning/alphazero/loop.ts) after interruptions: an abort in the
 * middle of a generation's self-play, a killed writer's half-written chunk, a trainer killed
 * mid-step. Self-play is the real `runSelfplay` with a scripted net (real chunk files); training
 * and the gate are fakes. After each resume the self-play directory must hold every game index
 * exactly once, and the steps already done must not run again.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GateRequest } from '../../../src/learning/alphazero/gate.js';
import { runLoop, type LoopSelfplayOptions } from '../../../src/learning/alphazero/loop.js';
import { scanSelfplayChunks } from '../../../src/learning/alphazero/selfplay-chunks.js';
import { loadState } from '../../../src/learning/alphazero/state.js';
import type { TrainJob } from '../../../src/learning/alphazero/train-process.js';
import { fakeInit, fakeTrainer, matchResult, mockSelfplay, quietDeps, scriptedGate, tinySettings } from './loop-fakes.js';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'kishi-az-resume-'));

/** Every game index in the chunk headers' game lists, in file order. */
const indicesOnDisk = (dir: string): number[] =>
  scanSelfplayChunks(dir).chunks.flatMap((c) => (c.header.meta['gameList'] as { index: number }[]).map((g) => g.index));

/** A pid that is not running (for a killed writer's temporary file). */
const deadPid = (): number => {
  for (let pid = 4_000_000; ; pid++) {
    try {
      process.kill(pid, 0);
    } catch {
      return pid;
    }
  }
};

describe('an interrupted loop resumes without losing or duplicating games', () => {
  it('abort in the middle of self-play, then a killed writer, then a killed trainer', async () => {
    const dir = tmp();
    const init = fakeInit(join(dir, 'init'));
    const state = join(dir, 'run');
    const sp = join(state, 'selfplay');
    const settings = tinySettings({ gamesPerGeneration: 6, init });
    const trains: TrainJob[] = [];
    const gates: GateRequest[] = [];
    const gate = scriptedGate([matchResult(7, 0, 3), matchResult(3, 0, 7)], gates);

    // 1. Abort after 3 games of generation 1's 6: whole chunks of the finished prefix stay.
    const abort1 = new AbortController();
    const calls1: LoopSelfplayOptions[] = [];
    const r1 = (await runLoop({ dir: state, settings, generations: 2, signal: abort1.signal }, quietDeps({ selfplay: mockSelfplay(calls1, { games: 3, controller: abort1 }), train: fakeTrainer(trains), gate }))).unwrap();
    expect(r1.stopped).toBe('aborted');
    expect(r1.state.generation).toBe(1);
    expect(r1.state.step).toBe('selfplay');
    const partial = indicesOnDisk(sp);
    expect(partial.length).toBe(4);
    expect(partial).toEqual(Array.from({ length: partial.length }, (_, i) => i));
    expect(r1.state.games.selfplay).toBe(partial.length);
    expect(trains).toHaveLength(0);
    expect(loadState(state).unwrap()!.step).toBe('selfplay');

    // 2. A writer killed before its rename leaves a temporary file; resume: it is removed, the run goes on at the next index.
    const stale = join(sp, `.sp-000000099-000000100.knr.tmp-${deadPid()}-1`);
    writeFileSync(stale, 'half a chunk');
    const abort2 = new AbortController();
    const calls2: LoopSelfplayOptions[] = [];
    // The trainer is killed the first time it runs (generation 1).
    const trainer = fakeTrainer(trains, (_job, call) => call === 1);
    const r2 = await runLoop({ dir: state, settings, generations: 2, signal: abort2.signal }, quietDeps({ selfplay: mockSelfplay(calls2), train: trainer, gate }));
    expect(r2.isErr).toBe(true);
    expect(r2.isErr && r2.error.message).toBe('train.py killed');
    expect(existsSync(stale)).toBe(false);
    expect(calls2.map((c) => [c.firstGameIndex, c.games])).toEqual([[partial.length, 6 - partial.length]]);
    expect(indicesOnDisk(sp)).toEqual([0, 1, 2, 3, 4, 5]);
    const afterKill = loadState(state).unwrap()!;
    expect([afterKill.generation, afterKill.step, afterKill.games.selfplay]).toEqual([1, 'train', 6]);

    // 3. Resume after the trainer's crash: no self-play for generation 1, training again from the same checkpoint, then generation 2.
    const calls3: LoopSelfplayOptions[] = [];
    const r3 = (await runLoop({ dir: state, settings, generations: 2 }, quietDeps({ selfplay: mockSelfplay(calls3), train: trainer, gate }))).unwrap();
    expect(r3.stopped).toBe('done');
    expect(calls3.map((c) => [c.firstGameIndex, c.games])).toEqual([[6, 6]]);
    expect(trains.map((t) => [t.out.split('/').pop(), t.resume?.split('/').pop()])).toEqual([
      ['gen-1.onnx', 'gen-0.pt'],
      ['gen-1.onnx', 'gen-0.pt'],
      ['gen-2.onnx', 'gen-1.pt'],
    ]);
    expect(gates).toHaveLength(2);
    expect(indicesOnDisk(sp)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(r3.state.games.selfplay).toBe(12);
    expect(r3.state.best?.generation).toBe(1);
    expect(r3.state.generations.map((g) => [g.generation, g.targetGames, g.selfplay.reduce((a, s) => a + s.games, 0), g.promoted])).toEqual([
      [0, undefined, 0, true],
      [1, 6, 6, true],
      [2, 12, 6, false],
    ]);
    // Nothing but complete chunks in the directory.
    expect(readdirSync(sp).every((n) => /^sp-\d{9}-\d{9}\.knr$/.test(n))).toBe(true);
    // 4. Running the finished command again does nothing.
    const calls4: LoopSelfplayOptions[] = [];
    const r4 = (await runLoop({ dir: state, settings, generations: 2 }, quietDeps({ selfplay: mockSelfplay(calls4), train: trainer, gate }))).unwrap();
    expect(r4.stopped).toBe('done');
    expect(calls4).toHaveLength(0);
    expect(JSON.parse(readFileSync(join(state, 'state.json'), 'utf8')).generation).toBe(3);
  }, 60_000);
});
