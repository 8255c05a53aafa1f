/**
 * `kishi learn`'s generation cycle for one game, as Stockfish's and Lozza's nets are made by hand,
 * with all of its state in one directory (layout.ts) so that the same command line resumes a run
 * killed at any moment at the step it was in. Generation k (1-based):
 *
 *   datagen  self-play positions searched with DIR/gen<k>/teacher.bin at a fixed node count into
 *            DIR/gen<k>/data until it holds `positionsPerGen` positions (datagen resumes from its
 *            chunks; locally or over the job queue, whichever runner the command gives);
 *   train    nnue_train.py on the data of the last `trainGens` generations (every chunk checked
 *            first: a corrupt one stops the step with its name), candidate in DIR/gen<k>/train
 *            (resumed from the trainer's checkpoint after a kill; a finished training, its report
 *            written, is not rerun);
 *   gate     the candidate against the teacher, SPRT at fixed nodes (net-gate.ts), in DIR/gen<k>/gate
 *            (an interrupted gate is replayed: its games are deterministic);
 *   promote  a passing candidate goes to `models/<game>-nnue.bin` with its provenance (promote.ts);
 *            DIR/gen<k+1>/teacher.bin becomes the promoted net, or stays generation k's teacher when
 *            the gate failed (recorded). Then generation k+1 starts.
 *
 * learn.json (state.ts) is written atomically after every step; learn.lock (run-lock.ts) keeps a
 * second process off the directory. The run stops once `generations`
 * generations are complete (a total, so the same command resumes to the same end), at `stopAfter`
 * (tests stop after a step, as a kill between steps would), or when the signal aborts a step.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { GameKind } from '../../core/game.js';
import { stringifyResultJson } from '../../core/json.js';
import { KishiError, Result } from '../../core/result.js';
import type { MatchEvent } from '../../match/match-runner.js';
import { formatProgressLine } from '../../match/report.js';
import { writeFileAtomic } from '../../core/atomic-write.js';
import { checkDataFolder } from './data-check.js';
import {
  candidatePath,
  checkpointPath,
  dataDir,
  dataDirs,
  gateDir,
  generationSeed,
  reportPath,
  teacherPath,
  trainDir,
  trainingGenerations,
} from './layout.js';
import type { NetGateRunner, NetGateSettings } from './net-gate.js';
import { copyNet, promoteCandidate, type LearnProvenance } from './promote.js';
import { acquireRunLock, type RunLock } from './run-lock.js';
import {
  generationRecord,
  loadLearnState,
  newLearnState,
  saveLearnState,
  type DataSetRecord,
  type LearnState,
  type LearnStep,
} from './state.js';
import { parseEpochLine, readTrainerReport, trainerCommandText, type EpochLine, type TrainerRunner, type TrainerSettings, type TrainJob } from './trainer-run.js';

/** Datagen options besides the budget and seed (as `kishi datagen` takes them). */
export interface LearnDatagenSettings {
  readonly gamesPerChunk: number;
  readonly hash: number;
  readonly book?: string;
  readonly randomPlies?: string;
  readonly weights?: string;
}

/** Everything a run is given (the command's options, validated). */
export interface LearnSettings {
  readonly game: GameKind;
  readonly dir: string;
  /** Base seed: generation k's datagen seed is `generationSeed(seed, k)`; its gate's too. */
  readonly seed: number;
  /** Datagen nodes per move. */
  readonly nodes: number;
  readonly positionsPerGen: number;
  /** Stop once this many generations are complete. */
  readonly generations: number;
  /** Train on the last this-many generations' data (undefined: all). */
  readonly trainGens?: number;
  readonly datagen: LearnDatagenSettings;
  readonly trainer: TrainerSettings;
  readonly gate: NetGateSettings;
  /** The models folder a passing candidate is promoted into. */
  readonly models: string;
  /** Generation 1's teacher when DIR/gen1/teacher.bin does not exist yet. */
  readonly initialNet: string;
  /** The linear weights the gate's engines load beside their nets. */
  readonly weights: string;
}

/** One datagen step: the shard `kishi datagen` would write with these options. */
export interface DatagenJob {
  readonly generation: number;
  readonly game: GameKind;
  readonly out: string;
  readonly seed: number;
  readonly nodes: number;
  readonly targetPositions: number;
  readonly gamesPerChunk: number;
  /** The teacher, as the path `--nnue` would name it (it is part of the shard's settings file). */
  readonly nnue: string;
  readonly hash: number;
  readonly book?: string;
  readonly randomPlies?: string;
  readonly weights?: string;
}

/** Runs one datagen step to its target (local-datagen.ts, or the job queue's producer). */
export type DatagenRunner = (job: DatagenJob) => Promise<Result<void, KishiError>>;

export interface LearnDeps {
  readonly datagen: DatagenRunner;
  readonly train: TrainerRunner;
  readonly gate: NetGateRunner;
  /** Progress lines. */
  readonly log: (line: string) => void;
}

export interface LearnOptions {
  readonly settings: LearnSettings;
  /** Return after this step completes (its state saved), as if killed right after it. */
  readonly stopAfter?: LearnStep;
  readonly signal?: AbortSignal;
  /** The command line, recorded in the state's events. */
  readonly command?: string;
}

export interface LearnResult {
  readonly state: LearnState;
  readonly stopped: 'done' | 'stop-after';
}

const duration = (s: number): string => {
  if (!Number.isFinite(s)) return '?';
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(Math.floor(s % 60)).padStart(2, '0')}s`;
};

/** The progress line of a training epoch (loss, rate, time left for the remaining epochs). */
export const formatEpochLine = (k: number, e: EpochLine, epochs: number, positions: number): string => {
  const eta = e.samples_per_s > 0 ? ((epochs - e.epoch) * positions) / e.samples_per_s : Infinity;
  return `gen ${k} train: epoch ${e.epoch}/${epochs}, train loss ${e.train_loss.toFixed(6)}, val loss ${e.val_loss.toFixed(6)}, ${Math.round(e.samples_per_s)} positions/s, ETA ${duration(eta)}`;
};

/** The progress line of a gate event (a game: the match's own line with score, Elo, LLR, time left). */
export const gateLine = (k: number, e: MatchEvent): string => {
  if (e.type === 'game') return `gen ${k} gate: ${formatProgressLine(e.snapshot, e.progress, e.sprt)}`;
  if (e.type === 'warning') return `gen ${k} gate: warning: ${e.message}`;
  return `gen ${k} gate: restarting ${e.engine}: ${e.reason}`;
};

const rel = (dir: string, file: string): string => relative(dir, file) || '.';

/** Opens or creates the run's state; a run of another game, seed or node count is refused. */
function openState(s: LearnSettings): Result<LearnState, KishiError> {
  const loaded = loadLearnState(s.dir);
  if (loaded.isErr) return Result.err(loaded.error);
  const state = loaded.value ?? newLearnState(s.game, s.seed, s.nodes);
  const diffs: string[] = [];
  if (state.game !== s.game) diffs.push(`--game ${state.game} (given ${s.game})`);
  if (state.seed !== s.seed) diffs.push(`--seed ${state.seed} (given ${s.seed})`);
  if (state.nodes !== s.nodes) diffs.push(`--nodes ${state.nodes} (given ${s.nodes})`);
  if (diffs.length > 0) return Result.err(new KishiError('ERR_USAGE', `${s.dir} holds a run with ${diffs.join(', ')}: resume it with the same values, or use another --dir`));
  return Result.ok(state);
}

/** Runs (or resumes) the cycle; Err when a step fails or is interrupted (the state stays at that step). */
export async function runLearn(o: LearnOptions, deps: LearnDeps): Promise<Result<LearnResult, KishiError>> {
  const s = o.settings;
  try {
    mkdirSync(s.dir, { recursive: true });
  } catch (e) {
    return Result.err(new KishiError('ERR_OUTPUT', `cannot create ${s.dir}: ${(e as Error).message}`));
  }
  const lock = acquireRunLock(s.dir);
  if (lock.isErr) return Result.err(lock.error);
  try {
    return await runLocked(o, deps, lock.value);
  } finally {
    lock.value.release();
  }
}

async function runLocked(o: LearnOptions, deps: LearnDeps, lock: RunLock): Promise<Result<LearnResult, KishiError>> {
  const s = o.settings;
  const opened = openState(s);
  if (opened.isErr) return Result.err(opened.error);
  const state = opened.value;
  const save = (): Result<void, KishiError> => {
    try {
      saveLearnState(s.dir, state);
      return Result.ok(undefined);
    } catch (e) {
      return Result.err(new KishiError('ERR_OUTPUT', `cannot write the state of ${s.dir}: ${(e as Error).message}`));
    }
  };
  const event = (what: string): void => {
    state.events.push({ at: new Date().toISOString(), what });
  };
  const fail = (e: KishiError): Result<LearnResult, KishiError> => {
    event(`generation ${state.generation} ${state.step}: ${e.code === 'ERR_ABORTED' ? 'interrupted' : 'failed'}: ${e.message.split('\n')[0]}`);
    save();
    return Result.err(e);
  };
  if (state.generation === 1 && state.step === 'datagen' && !existsSync(teacherPath(s.dir, 1))) {
    const copied = copyNet(s.initialNet, teacherPath(s.dir, 1));
    if (copied.isErr) return Result.err(copied.error);
    deps.log(`gen 1: teacher ${teacherPath(s.dir, 1)} copied from ${s.initialNet}`);
  }
  event(`start${o.command !== undefined ? `: ${o.command}` : ''}`);
  const saved = save();
  if (saved.isErr) return Result.err(saved.error);

  while (state.generation <= s.generations) {
    if (o.signal?.aborted === true) return fail(new KishiError('ERR_ABORTED', 'interrupted'));
    const k = state.generation;
    const rec = generationRecord(state, k);
    const step = state.step;
    if (step === 'datagen') {
      const job: DatagenJob = {
        generation: k,
        game: s.game,
        out: dataDir(s.dir, k),
        seed: generationSeed(s.seed, k),
        nodes: s.nodes,
        targetPositions: s.positionsPerGen,
        gamesPerChunk: s.datagen.gamesPerChunk,
        nnue: teacherPath(s.dir, k),
        hash: s.datagen.hash,
        ...(s.datagen.book !== undefined ? { book: s.datagen.book } : {}),
        ...(s.datagen.randomPlies !== undefined ? { randomPlies: s.datagen.randomPlies } : {}),
        ...(s.datagen.weights !== undefined ? { weights: s.datagen.weights } : {}),
      };
      deps.log(`gen ${k} datagen: ${job.out} to ${job.targetPositions} positions, seed ${job.seed}, ${job.nodes} nodes per move, teacher ${job.nnue}`);
      const r = await deps.datagen(job);
      if (r.isErr) return fail(r.error);
      const data = checkDataFolder(job.out, s.game);
      if (data.isErr) return fail(data.error);
      if (data.value.positions < job.targetPositions) {
        return fail(new KishiError('ERR_ABORTED', `datagen stopped at ${data.value.positions} of ${job.targetPositions} positions in ${job.out}`));
      }
      rec.datagen = { dir: rel(s.dir, job.out), ...data.value, seed: job.seed, nodes: job.nodes, teacher: rel(s.dir, job.nnue), target: job.targetPositions };
      deps.log(`gen ${k} datagen: done, ${data.value.positions} positions in ${data.value.chunks} chunks`);
      state.step = 'train';
    } else if (step === 'train') {
      const dataSets: DataSetRecord[] = [];
      const folders = trainingGenerations(k, s.trainGens).flatMap((g) => dataDirs(s.dir, g));
      for (const folder of folders) {
        const d = checkDataFolder(folder, s.game);
        if (d.isErr) return fail(d.error);
        if (d.value.chunks === 0) return fail(new KishiError('ERR_CHUNK', `${folder} holds no ${s.game} chunks`));
        dataSets.push({ dir: rel(s.dir, folder), ...d.value });
      }
      const positions = dataSets.reduce((a, d) => a + d.positions, 0);
      const job: TrainJob = {
        game: s.game,
        data: folders,
        out: candidatePath(s.dir, k),
        checkpoint: checkpointPath(s.dir, k),
        report: reportPath(s.dir, k),
        resume: existsSync(checkpointPath(s.dir, k)),
        settings: s.trainer,
      };
      mkdirSync(trainDir(s.dir, k), { recursive: true });
      // The report is written last: with it (and the net) on disk the training finished before a kill.
      const finished = existsSync(job.report) && existsSync(job.out);
      let command = trainerCommandText(job);
      if (finished) {
        deps.log(`gen ${k} train: already finished (${job.report})`);
        command = rec.train?.command ?? command;
      } else {
        deps.log(`gen ${k} train: ${positions} positions from ${dataSets.map((d) => d.dir).join(', ')}${job.resume ? `, resuming ${job.checkpoint}` : ''}`);
        const r = await deps.train(job, {
          ...(o.signal !== undefined ? { signal: o.signal } : {}),
          log: join(trainDir(s.dir, k), 'train.log'),
          onSpawn: (pid) => lock.setChild(pid),
          onLine: (line) => {
            const e = parseEpochLine(line);
            if (e !== undefined) deps.log(formatEpochLine(k, e, s.trainer.epochs, positions));
          },
        });
        lock.setChild(undefined);
        if (r.isErr) return fail(r.error);
      }
      const report = readTrainerReport(job.report);
      if (report.isErr) return fail(report.error);
      rec.train = { command, dataSets, positions, net: rel(s.dir, job.out), history: report.value.history, ...(report.value.k !== undefined ? { k: report.value.k } : {}) };
      state.step = 'gate';
    } else if (step === 'gate') {
      const outDir = gateDir(s.dir, k);
      mkdirSync(outDir, { recursive: true });
      deps.log(`gen ${k} gate: ${candidatePath(s.dir, k)} against ${teacherPath(s.dir, k)}, ${s.gate.nodes} nodes per move, SPRT ${s.gate.sprtText}, at most ${s.gate.games} games`);
      const r = await deps.gate({
        game: s.game,
        candidate: candidatePath(s.dir, k),
        teacher: teacherPath(s.dir, k),
        weights: s.weights,
        outDir,
        seed: generationSeed(s.seed, k),
        settings: s.gate,
        onEvent: (e) => deps.log(gateLine(k, e)),
        ...(o.signal !== undefined ? { signal: o.signal } : {}),
      });
      if (r.isErr) return fail(r.error);
      rec.gate = { passed: r.value.passed, reason: r.value.reason, nodes: s.gate.nodes, sprt: s.gate.sprtText, result: r.value.result };
      try {
        writeFileAtomic(join(outDir, 'gate.json'), `${stringifyResultJson(rec.gate)}\n`, { keepPrevious: false });
      } catch (e) {
        return fail(new KishiError('ERR_OUTPUT', `cannot write ${join(outDir, 'gate.json')}: ${(e as Error).message}`));
      }
      deps.log(`gen ${k} gate: ${r.value.passed ? 'passed' : 'failed'}: ${r.value.reason}`);
      state.step = 'promote';
    } else {
      const gate = rec.gate;
      const train = rec.train;
      if (gate === undefined || train === undefined) return fail(new KishiError('ERR_STATE', `generation ${k} reached promotion without its ${gate === undefined ? 'gate' : 'training'} record`));
      const provenance: LearnProvenance = {
        generation: k,
        dataSets: train.dataSets,
        positions: train.positions,
        // A manifest names no machine's directories (as nnue_train.py's own): the run directory is $DIR.
        command: train.command.split(s.dir).join('$DIR'),
        gate,
        datagen: { nodes: s.nodes, seeds: trainingGenerations(k, s.trainGens).map((g) => generationSeed(s.seed, g)) },
      };
      let models: string | undefined;
      if (gate.passed) {
        const p = promoteCandidate(candidatePath(s.dir, k), s.models, s.game, provenance);
        if (p.isErr) return fail(p.error);
        models = p.value;
        deps.log(`gen ${k} promote: ${candidatePath(s.dir, k)} -> ${models}`);
      } else deps.log(`gen ${k} promote: gate failed, ${s.models} unchanged; generation ${k + 1} searches with generation ${k}'s teacher`);
      const from = gate.passed ? candidatePath(s.dir, k) : teacherPath(s.dir, k);
      const next = copyNet(from, teacherPath(s.dir, k + 1), gate.passed ? { learn: provenance } : undefined);
      if (next.isErr) return fail(next.error);
      rec.promotion = { ...(models !== undefined ? { models } : {}), nextTeacher: rel(s.dir, teacherPath(s.dir, k + 1)), nextTeacherFrom: gate.passed ? 'candidate' : 'teacher' };
      state.generation = k + 1;
      state.step = 'datagen';
    }
    const w = save();
    if (w.isErr) return Result.err(w.error);
    if (o.stopAfter === step) {
      deps.log(`stopped after ${step} (generation ${k}); the same command resumes at ${state.step} of generation ${state.generation}`);
      return Result.ok({ state, stopped: 'stop-after' });
    }
  }
  event('done');
  save();
  return Result.ok({ state, stopped: 'done' });
}
