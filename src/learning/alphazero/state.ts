/**
 * The AlphaZero loop's state (`<dir>/state.json`): the settings the run was started with, where it
 * is (generation and step), the current best net, the trainer's checkpoint, the games on disk, one
 * record per generation and the learning curve. Written atomically (temporary file, fsync, rename:
 * src/core/atomic-write.ts) after every step, so a run killed at any moment resumes at
 * the step it was in. Game counts are never taken from this file on resume but recounted from the
 * chunk headers on disk (selfplay-chunks.ts), so an interrupted self-play step neither loses nor
 * duplicates games.
 *
 * Layout of the state directory:
 *   state.json             this file
 *   bootstrap/             alpha-beta bootstrap chunks (phase `bootstrap-alphabeta`), when generated
 *   selfplay/              self-play chunks `sp-<first>-<last>.knr` (phase `selfplay`)
 *   trainer/gen-<g>.pt     the trainer's checkpoint after generation g (weights, optimizer, step)
 *   nets/gen-<g>.onnx      candidate nets (+ manifest, + `-int8`), nets/gen-<g>.train.json reports
 *   gate/gen-<g>/          the gate match: engine configs, summary.json, records
 *   best.onnx              the current best net (+ best.manifest.json, best-int8.onnx)
 *   curve-games.json, curve-steps.json (+ .svg)   Elo of each promoted net against games and steps
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import { writeFileAtomic } from '../../core/atomic-write.js';
import type { GateConfig, GateOutcome } from './gate.js';
import type { CurveEntry } from './curve.js';
import type { SelfplaySearchChoices } from './selfplay.js';

export const STATE_FORMAT = 'kishi-alphazero-state';
export const STATE_VERSION = 1;

/** The settings that define a run (a resumed run keeps them; the CLI may change a few, see `RESUMABLE_SETTINGS`). */
export interface LoopSettings extends SelfplaySearchChoices {
  readonly game: GameKind;
  /** Self-play (and the search settings of `SelfplaySearchChoices`). */
  readonly gamesPerGeneration: number;
  readonly workers: number;
  readonly concurrentGames: number;
  readonly gamesPerChunk: number;
  /** Training (trainer/train.py). */
  readonly stepsPerGeneration: number;
  readonly batch: number;
  readonly lr: number;
  /** Cosine decay of the learning rate to this within each training call (undefined: constant `lr`). */
  readonly lrFinal?: number;
  readonly weightDecay: number;
  readonly windowGames: number;
  /** `phase=weight,...` for train.py. */
  readonly phaseWeights: string;
  readonly valueLoss: 'mse' | 'wdl';
  readonly valueMix: number;
  readonly mirror: boolean;
  readonly threads: number;
  /** Self-play and gates use the INT8 nets (made by train.py) when true. */
  readonly int8: boolean;
  /** Gate. */
  readonly gate: GateConfig;
  /** Bootstrap: alpha-beta games (0: start from `init`), nodes per move, training steps. */
  readonly bootstrapGames: number;
  readonly bootstrapNodes: number;
  readonly bootstrapSteps: number;
  /** New nets of the bootstrap phase. */
  readonly blocks: number;
  readonly filters: number;
  /** Start from this net instead of a bootstrap phase of our own: the ONNX file and its PyTorch checkpoint. */
  readonly init?: { readonly model: string; readonly checkpoint: string };
  /** Extra chunk directories mixed into training (existing bootstrap data, online-game records). */
  readonly extraData: readonly string[];
  readonly seed: number;
}

/** Settings a resumed run may change (the rest define the run). */
export const RESUMABLE_SETTINGS = [
  'workers',
  'concurrentGames',
  'threads',
  'stepsPerGeneration',
  'gamesPerGeneration',
  'gate',
  'extraData',
  'phaseWeights',
  'windowGames',
  'lr',
  'lrFinal',
] as const;

export const LOOP_STEPS = ['bootstrap-data', 'bootstrap-train', 'selfplay', 'train', 'gate', 'promote'] as const;
export type LoopStep = (typeof LOOP_STEPS)[number];

/** A net the loop knows (paths relative to the state directory). */
export interface NetRef {
  readonly model: string;
  readonly int8?: string;
  readonly generation: number;
  /** Self-play games (all phases' games in the training data it saw) and trainer steps when it was made. */
  readonly games: number;
  readonly steps: number;
  /** Cumulative Elo against the first best net (sum of the gate results of the promotions). */
  readonly elo: number;
  readonly eloHalfWidth: number;
}

export interface TrainRecord {
  readonly steps: number;
  readonly stepsThisRun: number;
  readonly samplesPerSecond: number;
  readonly seconds: number;
  readonly games: number;
  readonly positions: number;
  readonly holdoutBefore?: unknown;
  readonly holdoutAfter?: unknown;
  readonly report: string;
}

export interface SelfplayRecord {
  readonly games: number;
  readonly positions: number;
  readonly firstGameIndex: number;
  readonly lastGameIndex: number;
  readonly seconds: number;
  readonly gamesPerHour: number;
  readonly nnEvals?: number;
  readonly nnMs?: number;
  readonly resignFalsePositives?: { readonly checked: number; readonly wrong: number };
}

/** One generation: its data, its training, its gate. Generation 0 is the bootstrap phase. */
export interface GenerationRecord {
  readonly generation: number;
  readonly phase: 'bootstrap' | 'selfplay';
  /** Self-play (or bootstrap) games of this generation; several entries when a step was interrupted and resumed. */
  readonly selfplay: SelfplayRecord[];
  /** Games on disk (this phase's directory) when the generation's self-play is complete. */
  targetGames?: number;
  train?: TrainRecord;
  candidate?: string;
  gate?: GateOutcome;
  promoted?: boolean;
  /** How the bootstrap net came about (generation 0). */
  readonly source?: string;
}

export interface LoopState {
  readonly format: typeof STATE_FORMAT;
  readonly version: typeof STATE_VERSION;
  readonly created: string;
  updated: string;
  settings: LoopSettings;
  /** The generation in progress (0: bootstrap). */
  generation: number;
  step: LoopStep;
  best?: NetRef;
  /** The trainer's latest checkpoint (relative path) and its cumulative steps. */
  trainer?: { readonly checkpoint: string; readonly steps: number };
  /** Games on disk, recounted from chunk headers at every step. */
  games: { bootstrap: number; selfplay: number };
  generations: GenerationRecord[];
  curve: CurveEntry[];
  /** Commands and timings worth keeping (gate command lines, interruptions). */
  events: { readonly at: string; readonly what: string }[];
}

export const statePath = (dir: string): string => join(dir, 'state.json');

export const newState = (settings: LoopSettings, now = new Date()): LoopState => ({
  format: STATE_FORMAT,
  version: STATE_VERSION,
  created: now.toISOString(),
  updated: now.toISOString(),
  settings,
  generation: 0,
  step: settings.bootstrapGames > 0 && settings.init === undefined ? 'bootstrap-data' : 'bootstrap-train',
  games: { bootstrap: 0, selfplay: 0 },
  generations: [],
  curve: [],
  events: [],
});

/** Reads `<dir>/state.json`; `undefined` when there is none yet. */
export function loadState(dir: string): Result<LoopState | undefined, KishiError> {
  const file = statePath(dir);
  if (!existsSync(file)) return Result.ok(undefined);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    return Result.err(new KishiError('ERR_STATE', `${file}: unreadable (${(e as Error).message}); the previous version is ${file}.prev`));
  }
  const s = raw as Partial<LoopState>;
  if (s.format !== STATE_FORMAT || s.version !== STATE_VERSION) {
    return Result.err(new KishiError('ERR_STATE', `${file}: not a ${STATE_FORMAT} v${STATE_VERSION} file`));
  }
  if (!LOOP_STEPS.includes(s.step as LoopStep)) return Result.err(new KishiError('ERR_STATE', `${file}: unknown step ${JSON.stringify(s.step)}`));
  return Result.ok(s as LoopState);
}

/** Writes the state atomically (the previous version stays as state.json.prev). */
export function saveState(dir: string, state: LoopState, now = new Date()): void {
  state.updated = now.toISOString();
  writeFileAtomic(statePath(dir), `${JSON.stringify(state, null, 1)}\n`);
}

/** The record of generation `g`, created when missing. */
export function generationRecord(state: LoopState, g: number): GenerationRecord {
  let rec = state.generations.find((r) => r.generation === g);
  if (rec === undefined) {
    rec = { generation: g, phase: g === 0 ? 'bootstrap' : 'selfplay', selfplay: [] };
    state.generations.push(rec);
  }
  return rec;
}
