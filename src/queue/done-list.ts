/**
 * How a producer hears that its jobs finished: a list per run (its *group*), to which the worker
 * that finished a job pushes the job's id, and from which the producer pops with one blocking
 * call (BLPOP) on a connection of its own. One blocking connection per producer whatever the
 * number of jobs in flight, and per finished job one push on the worker's side and one pop on the
 * producer's; the producer then reads only the jobs it was told about.
 *
 * Why not BullMQ's QueueEvents (or `job.waitUntilFinished`, built on it): every listener reads
 * the queue's whole event stream (every event of every job of every producer sharing the queue,
 * return values included), so a producer's cost grows with the other producers' traffic; and the
 * stream is trimmed (a producer away for a while misses events). The list is its own run's only.
 *
 * The announcement is a hint, never the record: the jobs in Redis are (a job finished while its
 * announcement was lost, by a worker killed between finishing and pushing or a Redis restart, is
 * found by the producer's slow sweep of all its jobs). A group is the job id without its last
 * `-` part (jobs.ts: `dg-<run>-c<chunk>` -> `dg-<run>`), so the worker needs nothing beyond the
 * id, and a restarted producer of the same run listens to the same list.
 */
import type { Redis } from 'ioredis';

/** How long an unread list lives after its last push, s (a producer away for longer sweeps instead). */
const DONE_LIST_TTL_S = 24 * 3600;
/** Entries kept per list: a producer away while more finish finds the rest by its sweep. */
const DONE_LIST_MAX = 100_000;

/** The group of a job id: the run part of it (everything before the last `-`). */
export const jobGroup = (jobId: string): string => {
  const cut = jobId.lastIndexOf('-');
  return cut > 0 ? jobId.slice(0, cut) : jobId;
};

/** Key of the list of finished job ids of `group` on queue `queue`. */
export const doneListKey = (prefix: string, queue: string, group: string): string => `${prefix}:${queue}:done:${group}`;

/**
 * Tells the producer of job `jobId` that it finished (completed or failed): appends the id to its
 * group's list (the producer pops from the head: first finished, first read), trimmed and with an expiry, in one round trip. Errors are the caller's to ignore:
 * a lost announcement only delays the result until the producer's next sweep.
 */
export async function announceFinished(client: Redis, prefix: string, queue: string, jobId: string): Promise<void> {
  const key = doneListKey(prefix, queue, jobGroup(jobId));
  await client.multi().rpush(key, jobId).ltrim(key, -DONE_LIST_MAX, -1).expire(key, DONE_LIST_TTL_S).exec();
}
