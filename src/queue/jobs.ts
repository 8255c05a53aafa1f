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
import type { RemoteMatchSettings, RemoteGameSpec } from '../match/remote-games.js';
import type { GameRecord } from '../match/game-record.js';
import type { JobStamp } from './stamp.js';

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
}

export interface DatagenJobResult {
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
  readonly ms: number;
}

/** Match games (a pair with colours swapped, or one game) played by one worker with fresh engines. */
export interface MatchJob {
  readonly kind: 'match';
  readonly stamp: JobStamp;
  readonly settings: RemoteMatchSettings;
  readonly games: readonly RemoteGameSpec[];
}

export interface MatchJobResult {
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
}

/** The options a self-play job carries (JSON). */
export interface SelfplayJobOptions extends SelfplaySearchChoices {
  readonly game: GameKind;
  readonly concurrentGames: number;
  readonly seed: number;
  readonly phase: string;
  readonly meta?: Readonly<Record<string, unknown>>;
}

export interface SelfplayJobResult {
  readonly kind: 'selfplay';
  readonly worker: string;
  /** The chunk file runSelfplay wrote (name) and the key of its bytes (raw deflate; jobs.ts `payloadKey`). */
  readonly file: string;
  readonly payloadKey: string;
  readonly payloadBytes: number;
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

/** A short hash naming a run: jobs of different runs never share ids. */
export const runKey = (...parts: readonly unknown[]): string => createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);

/** Job ids (BullMQ forbids `:` in custom ids and integer-looking ones). */
export const datagenJobId = (run: string, chunk: number): string => `dg-${run}-c${chunk}`;
export const matchJobId = (run: string, firstGame: number): string => `mt-${run}-g${firstGame}`;
export const selfplayJobId = (run: string, firstGame: number): string => `sp-${run}-g${firstGame}`;

/** Bytes -> the compressed payload stored in Redis. */
export const packBytes = (bytes: Uint8Array): Buffer => deflateRawSync(bytes, { level: 6 });

/** A stored payload -> bytes. */
export const unpackBytes = (packed: Uint8Array): Uint8Array => new Uint8Array(inflateRawSync(packed));

/** Key of the payload of job `jobId` of queue `queue`. */
export const payloadKey = (prefix: string, queue: string, jobId: string): string => `${prefix}:${queue}:payload:${jobId}`;

/** Key marking job `jobId` as no longer wanted by its producer. */
export const discardKey = (prefix: string, queue: string, jobId: string): string => `${prefix}:${queue}:discard:${jobId}`;

/** How long a payload waits for its producer, seconds. */
export const PAYLOAD_TTL_S = 24 * 3600;

/** Key of a shared blob (a network file) of queue `queue`. */
export const blobKey = (prefix: string, queue: string, sha: string): string => `${prefix}:${queue}:blob:${sha}`;

/** Key prefix of worker heartbeats of queue `queue`. */
export const workerKeyPrefix = (prefix: string, queue: string): string => `${prefix}:${queue}:worker:`;
