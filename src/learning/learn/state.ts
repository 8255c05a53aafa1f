/**
 * The state of a `kishi learn` run (`DIR/learn.json`, layout.ts): what defines the run (game, base
 * seed, datagen nodes), where it is (generation and step) and one record per generation (its data,
 * training, gate and promotion). Written atomically (src/core/atomic-write.ts) after every step,
 * so a run killed at any moment restarts at the step it was in; each step itself resumes from its
 * files (datagen from its chunks, training from its checkpoint, the gate is replayed).
 */
import { existsSync, readFileSync } from 'node:fs';
import type { GameKind } from '../../core/game.js';
import { parseResultJson, stringifyResultJson } from '../../core/json.js';
import { KishiError, Result } from '../../core/result.js';
import { writeFileAtomic } from '../../core/atomic-write.js';
import type { GateMatchResult } from '../alphazero/gate.js';
import { statePath } from './layout.js';

export const LEARN_STATE_FORMAT = 'kishi-learn-state';
export const LEARN_STATE_VERSION = 1;

/** The steps of a generation, in order. */
export const LEARN_STEPS = ['datagen', 'train', 'gate', 'promote'] as const;
export type LearnStep = (typeof LEARN_STEPS)[number];

/** One data set: a generation's chunk folder (relative to the run directory) and what it holds. */
export interface DataSetRecord {
  readonly dir: string;
  readonly chunks: number;
  readonly positions: number;
}

export interface DatagenRecord extends DataSetRecord {
  readonly seed: number;
  readonly nodes: number;
  readonly teacher: string;
  readonly target: number;
}

export interface TrainRecord {
  /** The trainer's command line as run (the last start, `--resume` included when it resumed). */
  readonly command: string;
  readonly dataSets: readonly DataSetRecord[];
  readonly positions: number;
  /** The candidate net, relative to the run directory. */
  readonly net: string;
  /** The trainer's epochs (report.json `history`) and fitted K. */
  readonly history: readonly Readonly<Record<string, number>>[];
  readonly k?: number;
}

export interface GateRecord {
  readonly passed: boolean;
  readonly reason: string;
  readonly nodes: number;
  readonly sprt: string;
  readonly result: GateMatchResult;
}

export interface PromotionRecord {
  /** Where the candidate was promoted to (`models/<game>-nnue.bin`); absent when the gate failed. */
  readonly models?: string;
  /** Generation k+1's teacher and where it came from. */
  readonly nextTeacher: string;
  readonly nextTeacherFrom: 'candidate' | 'teacher';
}

export interface GenerationRecord {
  readonly generation: number;
  datagen?: DatagenRecord;
  train?: TrainRecord;
  gate?: GateRecord;
  promotion?: PromotionRecord;
}

export interface LearnState {
  readonly format: typeof LEARN_STATE_FORMAT;
  readonly version: typeof LEARN_STATE_VERSION;
  readonly game: GameKind;
  /** Base seed (generation k datagens with `generationSeed(seed, k)`) and datagen nodes per move: they define the data. */
  readonly seed: number;
  readonly nodes: number;
  readonly created: string;
  updated: string;
  /** The generation in progress (1-based) and its step. */
  generation: number;
  step: LearnStep;
  generations: GenerationRecord[];
  /** Starts, stops and failures, for the record. */
  events: { readonly at: string; readonly what: string }[];
}

export const newLearnState = (game: GameKind, seed: number, nodes: number, now = new Date()): LearnState => ({
  format: LEARN_STATE_FORMAT,
  version: LEARN_STATE_VERSION,
  game,
  seed,
  nodes,
  created: now.toISOString(),
  updated: now.toISOString(),
  generation: 1,
  step: 'datagen',
  generations: [],
  events: [],
});

/** Reads `DIR/learn.json`; `undefined` when the run has none yet. Errors name the file. */
export function loadLearnState(dir: string): Result<LearnState | undefined, KishiError> {
  const file = statePath(dir);
  if (!existsSync(file)) return Result.ok(undefined);
  let raw: unknown;
  try {
    raw = parseResultJson(readFileSync(file, 'utf8'));
  } catch (e) {
    return Result.err(new KishiError('ERR_STATE', `${file}: unreadable (${(e as Error).message}); the previous version is ${file}.prev`));
  }
  const s = raw as Partial<LearnState>;
  if (s.format !== LEARN_STATE_FORMAT || s.version !== LEARN_STATE_VERSION) {
    return Result.err(new KishiError('ERR_STATE', `${file}: not a ${LEARN_STATE_FORMAT} v${LEARN_STATE_VERSION} file`));
  }
  if (!LEARN_STEPS.includes(s.step as LearnStep) || !Number.isInteger(s.generation) || (s.generation ?? 0) < 1 || !Array.isArray(s.generations)) {
    return Result.err(new KishiError('ERR_STATE', `${file}: bad generation ${JSON.stringify(s.generation)} or step ${JSON.stringify(s.step)}`));
  }
  return Result.ok(s as LearnState);
}

/** Writes the state atomically (the previous version stays as learn.json.prev; infinite Elo bounds as strings, core/json.ts). */
export function saveLearnState(dir: string, state: LearnState, now = new Date()): void {
  state.updated = now.toISOString();
  writeFileAtomic(statePath(dir), `${stringifyResultJson(state)}\n`);
}

/** The record of generation `k`, created when missing. */
export function generationRecord(state: LearnState, k: number): GenerationRecord {
  let rec = state.generations.find((r) => r.generation === k);
  if (rec === undefined) {
    rec = { generation: k };
    state.generations.push(rec);
    state.generations.sort((a, b) => a.generation - b.generation);
  }
  return rec;
}
