/**
 * Shared pieces of the `kishi learn` tests: tiny settings (a few short games at small node
 * counts, an H = 8 net for one epoch, a gate of a few games), a trainer stand-in that "trains" by
 * copying the teacher (for the loop's own logic, without PyTorch), scripted gates, and a snapshot of
 * a run's files for comparing an interrupted run with an uninterrupted one.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { Result } from '../../../src/core/result.js';
import type { GateMatchResult } from '../../../src/learning/alphazero/gate.js';
import { localDatagenRunner } from '../../../src/learning/learn/local-datagen.js';
import type { LearnDeps, LearnSettings } from '../../../src/learning/learn/learn-loop.js';
import { runNetGate, type NetGateOutcome, type NetGateRequest, type NetGateRunner } from '../../../src/learning/learn/net-gate.js';
import { pythonTrainerRunner, type TrainerRunner, type TrainJob } from '../../../src/learning/learn/trainer-run.js';
import { loadOpenings } from '../../../src/books/openings.js';
import { parseSprtParams } from '../../../src/match/rule-text.js';

/** A chess run in `dir` promoting into `models`: 2-game chunks at 60 nodes, H = 8 for 1 epoch, a gate of at most 4 games at 60 nodes. */
export const tinySettings = (dir: string, models: string, python = 'python3', over: Partial<LearnSettings> = {}): LearnSettings => ({
  game: 'chess',
  dir,
  seed: 11,
  nodes: 60,
  positionsPerGen: 60,
  generations: 1,
  datagen: { gamesPerChunk: 2, hash: 1 },
  trainer: { python, hidden: 8, epochs: 1, batch: 32, device: 'cpu', threads: 1, seed: 1, extra: ['--val-every', '2', '--warmup', '2'] },
  gate: {
    nodes: 60,
    games: 4,
    sprt: parseSprtParams('elo0=0,elo1=5').unwrap(),
    sprtText: 'elo0=0,elo1=5',
    concurrency: 1,
    openings: loadOpenings('chess', 'standard', 'data/openings/chess-balanced.epd').unwrap(),
    openingsFile: 'data/openings/chess-balanced.epd',
    hashMb: 1,
    adjudication: { resign: { moveCount: 4, score: 800, twoSided: true }, maxMoves: 60 },
  },
  models,
  initialNet: 'models/chess-nnue.bin',
  weights: 'models/chess-linear.json',
  ...over,
});

/** A stand-in for nnue_train.py: the candidate is the teacher's copy, with a one-epoch report (records each job). */
export const copyingTrainer = (jobs: TrainJob[]): TrainerRunner => async (job, o) => {
  jobs.push(job);
  mkdirSync(dirname(job.out), { recursive: true });
  const teacher = join(job.out, '..', '..', 'teacher.bin');
  copyFileSync(teacher, job.out);
  copyFileSync(teacher.replace(/\.bin$/, '.manifest.json'), job.out.replace(/\.bin$/, '.manifest.json'));
  writeFileSync(job.checkpoint, 'checkpoint');
  o.onLine?.(JSON.stringify({ epoch: 1, step: 3, train_loss: 0.02, val_loss: 0.03, lr: 0.001, samples_per_s: 1000 }));
  writeFileSync(job.report, JSON.stringify({ history: [{ epoch: 1, train_loss: 0.02, val_loss: 0.03 }], k: 300 }));
  return Result.ok({ history: [{ epoch: 1, train_loss: 0.02, val_loss: 0.03 }], k: 300 });
};

export const gateResult = (wins: number, draws: number, losses: number, decision: 'H0' | 'H1' | 'continue'): GateMatchResult => ({
  games: wins + draws + losses,
  gamesPlanned: 4,
  wins,
  draws,
  losses,
  score: (wins + draws / 2) / Math.max(1, wins + draws + losses),
  elo: 0,
  eloLow: -Infinity,
  eloHigh: Infinity,
  sprt: { decision, llr: decision === 'H1' ? 3 : decision === 'H0' ? -3 : 0, lower: -2.94, upper: 2.94 },
});

/** A gate that returns the given outcome (records each request). */
export const scriptedGate = (outcome: NetGateOutcome, requests: NetGateRequest[] = []): NetGateRunner => async (r) => {
  requests.push(r);
  return Result.ok(outcome);
};

/** The real parts: datagen here, nnue_train.py, the in-process gate. */
export const realDeps = (lines: string[] = []): LearnDeps => ({
  datagen: localDatagenRunner(() => {}),
  train: pythonTrainerRunner,
  gate: runNetGate,
  log: (l) => lines.push(l),
});

/**
 * The files of a run that must not depend on how often it was interrupted: every chunk and net
 * byte for byte (relative path -> SHA-256 of the bytes, the run directory replaced in JSON), minus logs, checkpoints, the state, reports and
 * manifests (which hold dates and timings) and the gate's records (move times); `gameList` compares
 * the gate's games.
 */
export const runFiles = (dir: string): Map<string, string> => {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) {
        if (name !== 'gate') walk(p);
      }
      else if (!/(\.log|\.pt|\.prev|learn\.json|manifest\.json|summary\.json|gate\.json|report\.json)$/.test(name)) {
        // The datagen settings name the teacher by its path: the run directory is left out.
        const bytes = name.endsWith('.json') ? Buffer.from(readFileSync(p, 'utf8').split(dir).join('DIR')) : readFileSync(p);
        out.set(relative(dir, p), createHash('sha256').update(bytes).digest('hex'));
      }
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
};

/** The gate's games of generation `k`: result, length and final position of each (no timings). */
export const gameList = (dir: string, k: number): string[] => {
  const s = JSON.parse(readFileSync(join(dir, `gen${k}`, 'gate', 'summary.json'), 'utf8')) as { games: { id: number; result: string; plies: number; final: string }[] };
  return s.games.map((g) => `${g.id} ${g.result} ${g.plies} ${g.final}`);
};
