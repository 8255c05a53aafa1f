/**
 * The jobs on the queue and their results: plain JSON (BullMQ stores `data` and `returnvalue` as
 * JSON in the job's hash). One queue carries every kind; a worker takes whatever comes. Job ids are
 * derived from what the job computes (run key + chunk/pair/batch), never counters, so that adding a
 * job twice (a restarted producer) is a no-op while the first one exists (BullMQ ignores an add
 * whose custom id is taken), and a result can be matched to its slot however often it was computed.
 */
import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { GameKind } from '../core/game.js';
import type { DatagenGameSettings } from '../learning/datagen/datagen-game.js';
import type { DatagenChoices } from '../learning/datagen/datagen-setup.js';
import type { SelfplaySearchChoices } from '../learning/alphazero/selfplay.js';
import type { RemoteGameSpec } from '../match/remote-games.js';
import type { GameRecord } from '../match/game-record.js';
import type { JobStamp } from './stamp.js';
import type { MatchJobSettings } from './match-engines.js';

/** BullMQ job names, one per kind. */
export const JOB_KINDS = ['datagen', 'match', 'selfplay'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** One datagen chunk: its games, played but not deduplicated (the producer deduplicates in chunk order). */
export interface DatagenJob {
  readonly kind: 'datagen';
  readonly stamp: JobStamp;
  readonly choices: DatagenChoices;
  /** The settings the producer resolved from `choices`; the worker's must be equal. */
  readonly settings: DatagenGameSettings;
  readonly seed: number;
  readonly shardIndex: number;
  readonly shardCount: number;
  readonly gamesPerChunk: number;
  readonly chunk: number;
  /** {@link jobDigest} of every other field: the worker checks it and returns it with the result. */
  readonly digest: string;
}

/** What every result carries to tie it to its job (checked by the producer, {@link resultMismatch}). */
export interface ResultTie {
  /** {@link jobDigest} of the job data the worker ran, computed by the worker. */
  readonly jobDigest: string;
  /** The worker's build hash (stamp.ts `buildHash`). */
  readonly build: string;
}

export interface DatagenJobResult extends ResultTie {
  readonly kind: 'datagen';
  readonly worker: string;
  readonly chunk: number;
  readonly games: number;
  readonly nodes: number;
  readonly count: number;
  /**
   * Redis key of the records (raw-deflated, RFC 1951), written by the worker with a one-day expiry
   * and deleted by the producer once they are on its disk. Kept out of the job itself because
   * BullMQ copies a job's return value into its event stream (kept to ~10,000 entries), where a
   * chunk would linger long after it was collected.
   */
  readonly payloadKey: string;
  readonly payloadBytes: number;
  /** SHA-256 hex of the stored (compressed) payload; '' when the worker stored none (discarded). */
  readonly payloadSha: string;
  readonly ms: number;
}

/** Match games (a pair with colours swapped, or one game) played by one worker with fresh engines. */
export interface MatchJob {
  readonly kind: 'match';
  readonly stamp: JobStamp;
  /** Engines named by id from the worker's allow-list (match-engines.ts), never a command line. */
  readonly settings: MatchJobSettings;
  readonly games: readonly RemoteGameSpec[];
  readonly digest: string;
}

export interface MatchJobResult extends ResultTie {
  readonly kind: 'match';
  readonly worker: string;
  readonly records: readonly GameRecord[];
  readonly ms: number;
}

/** AlphaZero self-play: games `firstGameIndex ..` (one chunk) with a net shipped by hash. */
export interface SelfplayJob {
  readonly kind: 'selfplay';
  readonly stamp: JobStamp;
  /** The loop's self-play options without model, paths, signal, callbacks and first game. */
  readonly options: SelfplayJobOptions;
  /** `mock:<name>`, or the SHA-256 of the ONNX model stored under `blobKey(.., sha)` (its manifest under `blobKey(.., sha + '.manifest')`). */
  readonly model: string;
  readonly firstGameIndex: number;
  readonly games: number;
  readonly digest: string;
}

/** The options a self-play job carries (JSON). */
export interface SelfplayJobOptions extends SelfplaySearchChoices {
  readonly game: GameKind;
  readonly concurrentGames: number;
  readonly seed: number;
  readonly phase: string;
  readonly meta?: Readonly<Record<string, unknown>>;
}

export interface SelfplayJobResult extends ResultTie {
  readonly kind: 'selfplay';
  readonly worker: string;
  /** The chunk file runSelfplay wrote (name) and the key of its bytes (raw deflate; jobs.ts `payloadKey`). */
  readonly file: string;
  readonly payloadKey: string;
  readonly payloadBytes: number;
  /** SHA-256 hex of the stored payload. */
  readonly payloadSha: string;
  readonly games: number;
  readonly positions: number;
  readonly nnEvals: number;
  readonly nnMs: number;
  readonly resignFalsePositives: { readonly checked: number; readonly wrong: number };
  readonly summaries: readonly unknown[];
  readonly ms: number;
}

export type QueueJob = DatagenJob | MatchJob | SelfplayJob;
export type QueueJobResult = DatagenJobResult | MatchJobResult | SelfplayJobResult;

/** JSON with object keys sorted: the same text for the same value however its keys were ordered. */
export const canonicalJson = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x !== null && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x,
  );

/** SHA-256 hex of bytes. */
export const sha256Hex = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

/**
 * The digest of a job: SHA-256 of its canonical JSON without the `digest` field. The producer
 * knows what it asked for and recomputes it; the worker returns the digest of what it actually ran,
 * so a job edited in Redis (another seed, another chunk) yields a result its producer refuses.
 */
export const jobDigest = (job: object): string => {
  const { digest: _ignored, ...rest } = job as { digest?: unknown };
  return sha256Hex(canonicalJson(rest));
};

/** A job with its digest filled in. */
export const withDigest = <T extends QueueJob>(job: Omit<T, 'digest'>): T => ({ ...job, digest: jobDigest(job) }) as T;

/**
 * Why a result does not answer the job its producer asked for (`expected`: the job as the producer
 * built it), or undefined when it does. The payload's digest is checked where the payload is read.
 */
export const resultMismatch = (expected: QueueJob, r: QueueJobResult): string | undefined => {
  if (r === null || typeof r !== 'object') return 'the result is not an object';
  if (r.kind !== expected.kind) return `a ${String((r as { kind?: unknown }).kind)} result for a ${expected.kind} job`;
  if (r.jobDigest !== expected.digest) return `it answers another job (digest ${String(r.jobDigest).slice(0, 12)}…, asked ${expected.digest.slice(0, 12)}…): the job was changed in Redis`;
  if (r.build !== expected.stamp.build) return `it was computed by build ${String(r.build).slice(0, 12)}…, not ${expected.stamp.build.slice(0, 12)}…`;
  return undefined;
};

/** A short hash naming a run: jobs of different runs never share ids. */
export const runKey = (...parts: readonly unknown[]): string => createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);

/** Job ids (BullMQ forbids `:` in custom ids and integer-looking ones). */
export const datagenJobId = (run: string, chunk: number): string => `dg-${run}-c${chunk}`;
export const matchJobId = (run: string, firstGame: number): string => `mt-${run}-g${firstGame}`;
export const selfplayJobId = (run: string, firstGame: number): string => `sp-${run}-g${firstGame}`;

/** Bytes -> the compressed payload stored in Redis. */
export const packBytes = (bytes: Uint8Array): Buffer => deflateRawSync(bytes, { level: 6 });

/** A stored payload -> bytes; throws on data that is not raw deflate (zlib's message). */
export const unpackBytes = (packed: Uint8Array): Uint8Array => new Uint8Array(inflateRawSync(packed));

/** A stored payload -> bytes, or the reason it cannot be read (never throws). */
export const tryUnpackBytes = (packed: Uint8Array): { bytes: Uint8Array } | { error: string } => {
  try {
    return { bytes: unpackBytes(packed) };
  } catch (e) {
    return { error: `the payload is not valid compressed data (${(e as Error).message})` };
  }
};

/** Key of the payload of job `jobId` of queue `queue`. */
export const payloadKey = (prefix: string, queue: string, jobId: string): string => `${prefix}:${queue}:payload:${jobId}`;

/**
 * Key marking job `jobId` as no longer wanted by its producer. A producer that adds the job (again)
 * deletes it first (producer-queue.ts `ensure`), so a marker never outlives the run that set it: a
 * rerun that wants the chunk after all gets its records.
 */
export const discardKey = (prefix: string, queue: string, jobId: string): string => `${prefix}:${queue}:discard:${jobId}`;

/**
 * Prefix of the failure reason of a job whose data is damaged (not JSON, not the shape of a job,
 * a digest that does not match): the worker fails it at once, without retries, and its producer
 * (which knows what it asked for) adds it again.
 */
export const CORRUPT_JOB = 'damaged job data:';

/** How long a payload waits for its producer, seconds. */
export const PAYLOAD_TTL_S = 24 * 3600;

/** Key of a shared blob (a network file) of queue `queue`. */
export const blobKey = (prefix: string, queue: string, sha: string): string => `${prefix}:${queue}:blob:${sha}`;

/** Key of the sorted set of live workers (member: worker id, score: when its heartbeat expires, ms). */
export const workerSetKey = (prefix: string, queue: string): string => `${prefix}:${queue}:workers`;

/** Key prefix of worker heartbeats of queue `queue`. */
export const workerKeyPrefix = (prefix: string, queue: string): string => `${prefix}:${queue}:worker:`;
