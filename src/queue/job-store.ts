/**
 * What a producer needs of the queue (the seam between the producers' logic and BullMQ/Redis):
 * `ProducerQueue` is the real one; tests drive the producers with an in-memory store.
 */
import type { JobKind, QueueJob, QueueJobResult } from './jobs.js';
import type { WorkerHeartbeat } from './worker-heartbeat.js';

/** Where a job stands, seen from its producer. */
export type JobLook =
  | { readonly state: 'missing' }
  | { readonly state: 'pending' }
  | { readonly state: 'done'; readonly result: QueueJobResult }
  /** `corrupt`: the job's data or result was damaged (edited in Redis): its producer adds it again. */
  | { readonly state: 'failed'; readonly reason: string; readonly corrupt?: boolean };

export interface JobStore {
  /** The queue's name (keys of blobs). */
  readonly name: string;
  /** Adds the job unless one with this id exists. */
  ensure(kind: JobKind, id: string, data: QueueJob): Promise<void>;
  /** Where the job stands. */
  look(id: string): Promise<JobLook>;
  /** Where each job stands (one round trip on Redis), in the order of `ids`. */
  lookMany(ids: readonly string[]): Promise<JobLook[]>;
  /**
   * Ids of jobs of `group` (done-list.ts `jobGroup`) that finished since the last call, as their
   * workers announced them: waits up to `ms` for the first, then takes all that are there. Empty
   * after `ms`, or at once when the producer is stopped. A hint: a job may finish unannounced.
   */
  finished(group: string, ms: number): Promise<string[]>;
  /** Deletes a job; false when a worker holds it. */
  remove(id: string): Promise<boolean>;
  /** Marks a job a worker holds as unwanted (its worker stores no payload). */
  discard(id: string): Promise<void>;
  /** A payload a worker stored; undefined when it is gone. */
  payload(key: string): Promise<Buffer | undefined>;
  deletePayload(key: string): Promise<void>;
  /** Stores a blob unless it is there; refreshes its expiry either way. */
  putBlob(key: string, bytes: Uint8Array, ttlSeconds: number): Promise<void>;
  /** The live workers' heartbeats. */
  workers(): Promise<WorkerHeartbeat[]>;
}
