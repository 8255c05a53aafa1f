/**
 * Training checkpoints: the weights, the optimiser state and the run's bookkeeping, written so that
 * a crash at any moment leaves either the old or the new checkpoint, never a torn one.
 *
 * File format (`checkpoint.json`), two parts:
 *   line 1: {"format":"kishi-treestrap-checkpoint","version":1,"sha256":"<hex of the body>","bytes":<body length>}
 *   rest:   the body, JSON ({@link CheckpointBody})
 * Writing: atomic (src/core/atomic-write.ts: a synced temporary file renamed over the file, then
 * the directory synced, so the rename itself is durable).
 * Reading checks the header, the length and the digest before parsing the body, and refuses a
 * file that fails any check with `ERR_CHECKPOINT` saying what is wrong and what to do.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import { writeFileAtomic as writeAtomic } from '../../core/atomic-write.js';

export const CHECKPOINT_FORMAT = 'kishi-treestrap-checkpoint';
export const CHECKPOINT_VERSION = 1;

/** One learning-curve point: Elo of the learner against a fixed reference after `x` training games. */
export interface CurvePointRecord {
  readonly x: number;
  readonly series: string;
  readonly elo: number;
  readonly low: number;
  readonly high: number;
  readonly games: number;
  /** W/D/L of the learner. */
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
}

/** The settings that define a run (a resumed run keeps them). */
export interface TrainSettings {
  readonly game: GameKind;
  readonly method: string;
  readonly init: string;
  readonly eta: number;
  readonly minDepth: number;
  readonly walk: string;
  /** Which table entries are updated: `all` (the paper) or `quiet`. */
  readonly update: string;
  readonly depth?: number;
  readonly nodes?: number;
  /** Fischer clock per side, ms. */
  readonly clock?: { readonly baseMs: number; readonly incMs: number };
  readonly maxPlies: number;
  readonly hashMb: number;
  readonly seed: number;
  readonly book: string;
  readonly bookSize: number;
  readonly bookPlies?: number;
  /** Each node's error is clipped to +-this in the update (absent: no clip, the paper). */
  readonly errorClip?: number;
  /** Names of the features whose weights are not learned. */
  readonly frozen: readonly string[];
  /** What theta is: the linear evaluation's weights (absent: linear, older checkpoints) or a network's float parameters. */
  readonly model?: 'linear' | 'nnue';
  /** `--model nnue`: the network file the run started from (its master copy when one belongs to it). */
  readonly network?: string;
}

/** Plain SGD: no moments to keep, only the step count and the step size. */
export interface OptimizerState {
  readonly kind: 'sgd';
  readonly eta: number;
  readonly steps: number;
}

export interface CheckpointBody {
  readonly settings: TrainSettings;
  readonly featureSet: string;
  readonly features: number;
  /** The command line that started the run. */
  readonly command: string;
  readonly startedAt: string;
  readonly updatedAt: string;
  /** Training games finished. */
  readonly gamesDone: number;
  readonly optimizer: OptimizerState;
  /** Totals over the finished games. */
  readonly totals: {
    readonly searches: number;
    readonly nodes: number;
    readonly visited: number;
    readonly violated: number;
    readonly squaredError: number;
    readonly trainingMs: number;
    readonly evaluationMs: number;
    /** Self-play results, first player's view. */
    readonly firstWins: number;
    readonly draws: number;
    readonly secondWins: number;
  };
  readonly theta: readonly number[];
  /** The weights before training: the "untrained" reference of the evaluations. */
  readonly initialTheta: readonly number[];
  readonly curve: readonly CurvePointRecord[];
  /** Every evaluation match, for the Bradley-Terry rating of the snapshots (ratings.ts). */
  readonly pairings: readonly PairingRecord[];
  /** The weights at the last evaluation point (the `previous` reference of the next one). */
  readonly lastSnapshot?: { readonly x: number; readonly theta: readonly number[] };
}

/** W/D/L of `player` against `opponent` (names: `games-N`, `untrained`, `material`). */
export interface PairingRecord {
  readonly player: string;
  readonly opponent: string;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
}

const bad = (file: string, why: string): Result<never, KishiError> =>
  Result.err(new KishiError('ERR_CHECKPOINT', `checkpoint ${file} is unusable: ${why}. Delete it to start over, or give another --out directory.`));

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The checkpoint's file text. */
export const formatCheckpoint = (body: CheckpointBody): string => {
  const text = JSON.stringify(body);
  const header = { format: CHECKPOINT_FORMAT, version: CHECKPOINT_VERSION, sha256: sha256(text), bytes: Buffer.byteLength(text, 'utf8') };
  return `${JSON.stringify(header)}\n${text}\n`;
};

/** Parses and verifies a checkpoint's text; `file` names it in errors. */
export const parseCheckpoint = (text: string, file: string): Result<CheckpointBody, KishiError> => {
  const nl = text.indexOf('\n');
  if (nl < 0) return bad(file, 'no header line (the file is truncated or not a checkpoint)');
  let header: unknown;
  try {
    header = JSON.parse(text.slice(0, nl));
  } catch {
    return bad(file, 'the header line is not JSON (not a checkpoint, or damaged)');
  }
  const h = header as { format?: unknown; version?: unknown; sha256?: unknown; bytes?: unknown };
  if (h.format !== CHECKPOINT_FORMAT) return bad(file, `format is ${JSON.stringify(h.format)}, expected "${CHECKPOINT_FORMAT}"`);
  if (h.version !== CHECKPOINT_VERSION) return bad(file, `version ${JSON.stringify(h.version)}, this build reads ${CHECKPOINT_VERSION}`);
  let body = text.slice(nl + 1);
  if (body.endsWith('\n')) body = body.slice(0, -1);
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes !== h.bytes) return bad(file, `the body has ${bytes} bytes, the header says ${JSON.stringify(h.bytes)} (truncated?)`);
  if (sha256(body) !== h.sha256) return bad(file, 'the body does not match its sha256 digest (damaged or edited)');
  let parsed: CheckpointBody;
  try {
    parsed = JSON.parse(body) as CheckpointBody;
  } catch (e) {
    return bad(file, `the body is not JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(parsed.theta) || parsed.theta.length !== parsed.features || !parsed.theta.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    return bad(file, `theta must be ${parsed.features} finite numbers`);
  }
  if (!Array.isArray(parsed.initialTheta) || parsed.initialTheta.length !== parsed.features) return bad(file, 'initialTheta has the wrong length');
  if (!Number.isInteger(parsed.gamesDone) || parsed.gamesDone < 0) return bad(file, 'gamesDone is not a count');
  if (!Array.isArray(parsed.curve) || !Array.isArray(parsed.pairings)) return bad(file, 'curve or pairings missing');
  return Result.ok(parsed);
};

/** Writes `text` to `file` atomically (src/core/atomic-write.ts), without keeping a `.prev`. */
export const writeFileAtomic = (file: string, data: string | Uint8Array): void => writeAtomic(file, data, { keepPrevious: false });

/** Saves a checkpoint atomically. */
export const saveCheckpoint = (file: string, body: CheckpointBody): void => writeFileAtomic(file, formatCheckpoint(body));

/** Reads a checkpoint: Ok(undefined) when there is none, Err when it exists but is unusable. */
export const loadCheckpoint = (file: string): Result<CheckpointBody | undefined, KishiError> => {
  if (!existsSync(file)) return Result.ok(undefined);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return bad(file, `cannot read it (${(e as Error).message})`);
  }
  return parseCheckpoint(text, file);
};
