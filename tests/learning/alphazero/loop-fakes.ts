/**
 * Test doubles for the AlphaZero loop: settings for tiny runs, a trainer that writes marker files
 * instead of running PyTorch, a gate that answers from a script, and self-play through the real
 * `runSelfplay` with a scripted net (`mock:uniform`, in the calling thread) so that the chunks on
 * disk are real.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { KishiError, Result } from '../../../src/core/result.js';
import type { GateMatchResult, GateRequest, GateRunner } from '../../../src/learning/alphazero/gate.js';
import type { LoopDeps, LoopSelfplayOptions, SelfplayRunner } from '../../../src/learning/alphazero/loop.js';
import { runAlphaBetaBootstrap } from '../../../src/learning/alphazero/loop-bootstrap.js';
import { runSelfplay } from '../../../src/learning/alphazero/selfplay.js';
import type { LoopSettings } from '../../../src/learning/alphazero/state.js';
import type { TrainJob, TrainReport, TrainRunner } from '../../../src/learning/alphazero/train-process.js';

export const tinySettings = (over: Partial<LoopSettings> = {}): LoopSettings => ({
  game: 'chess',
  gamesPerGeneration: 4,
  playouts: 4,
  temperatureMoves: 4,
  maxPlies: 12,
  workers: 0,
  concurrentGames: 2,
  gamesPerChunk: 2,
  stepsPerGeneration: 3,
  batch: 8,
  lr: 0.01,
  weightDecay: 1e-4,
  windowGames: 1000,
  phaseWeights: 'bootstrap-alphabeta=0.5,selfplay=1',
  valueLoss: 'mse',
  valueMix: 0.3,
  mirror: false,
  threads: 1,
  int8: true,
  gate: { mode: 'fixed', games: 10, playouts: 4, sprt: 'elo0=0,elo1=30', threshold: 0.55, concurrency: 1 },
  bootstrapGames: 0,
  bootstrapNodes: 200,
  bootstrapSteps: 3,
  blocks: 1,
  filters: 8,
  extraData: [],
  seed: 3,
  ...over,
});

/** Writes an init "net" (marker text), its manifest, INT8 variant and checkpoint; returns the init setting. */
export function fakeInit(dir: string): { model: string; checkpoint: string } {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'init.onnx'), 'net:init');
  writeFileSync(join(dir, 'init.manifest.json'), '{"net":"init"}');
  writeFileSync(join(dir, 'init-int8.onnx'), 'net:init-int8');
  writeFileSync(join(dir, 'init-int8.manifest.json'), '{"net":"init-int8"}');
  writeFileSync(join(dir, 'init.pt'), 'ckpt:init');
  return { model: join(dir, 'init.onnx'), checkpoint: join(dir, 'init.pt') };
}

/** A trainer that writes marker files where train.py would write the net, its INT8 variant, the checkpoint and the report. */
export function fakeTrainer(calls: TrainJob[], fail?: (job: TrainJob, call: number) => boolean): TrainRunner {
  return async (job) => {
    calls.push(job);
    if (fail?.(job, calls.length) === true) return Result.err(new KishiError('ERR_TRAIN', 'train.py killed'));
    const name = job.out.split('/').pop()!.replace('.onnx', '');
    const from = job.resume !== undefined ? readFileSync(job.resume, 'utf8') : 'none';
    const parts = from.split(':');
    const steps = (parts.length === 3 ? Number(parts[2]) : 0) + job.steps;
    mkdirSync(dirname(job.out), { recursive: true });
    writeFileSync(job.out, `net:${name}`);
    writeFileSync(job.out.replace('.onnx', '.manifest.json'), `{"net":"${name}"}`);
    if (job.int8 !== undefined) {
      writeFileSync(job.int8, `net:${name}-int8`);
      writeFileSync(job.int8.replace('.onnx', '.manifest.json'), `{"net":"${name}-int8"}`);
    }
    writeFileSync(job.checkpoint, `ckpt:${name}:${steps}`);
    const report: TrainReport = { steps, stepsThisRun: job.steps, samplesPerSecond: 100, secondsTrain: 1, games: 0, positions: 0 };
    writeFileSync(job.report, JSON.stringify(report));
    return Result.ok(report);
  };
}

export const matchResult = (wins: number, draws: number, losses: number, over: Partial<GateMatchResult> = {}): GateMatchResult => {
  const games = wins + draws + losses;
  const score = (wins + draws / 2) / games;
  const elo = -400 * Math.log10(1 / score - 1);
  return { games, gamesPlanned: games, wins, draws, losses, score, elo, eloLow: elo - 100, eloHigh: elo + 100, ...over };
};

/** A gate answering from `script` in order; records the requests. */
export function scriptedGate(script: GateMatchResult[], requests: GateRequest[]): GateRunner {
  return async (r) => {
    requests.push(r);
    const next = script.shift();
    return next !== undefined ? Result.ok(next) : Result.err(new KishiError('ERR_GATE', 'no more scripted results'));
  };
}

/** The real self-play with a scripted net; records the options; `afterGames` aborts `controller` after that many games. */
export function mockSelfplay(calls: LoopSelfplayOptions[], abortAfter?: { games: number; controller: AbortController }): SelfplayRunner {
  let played = 0;
  return (o) => {
    calls.push(o);
    return runSelfplay({
      ...o,
      model: 'mock:uniform',
      onGame: (g) => {
        o.onGame?.(g);
        played++;
        if (abortAfter !== undefined && played === abortAfter.games) abortAfter.controller.abort();
      },
    });
  };
}

export const quietDeps = (over: Partial<LoopDeps>): LoopDeps => ({
  selfplay: mockSelfplay([]),
  bootstrap: runAlphaBetaBootstrap,
  train: fakeTrainer([]),
  gate: scriptedGate([], []),
  log: () => undefined,
  plot: false,
  ...over,
});
