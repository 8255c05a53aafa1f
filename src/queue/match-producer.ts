/**
 * `kishi match --queue`: the match runner's `RemoteGames` port (src/match/remote-games.ts) over the
 * job queue. Each call is one job (a pair of games with colours swapped, or one game), whose id
 * derives from the match (settings, seed, stamp) and the first game's number. A collected result is
 * first written to `<out>/.queue/<job id>.json`, then the job is deleted from Redis; a rerun of the
 * same match (same --seed and --out) takes those files and the jobs finished while it was away
 * instead of playing the games again. Engines travel by id (match-engines.ts), and a result is
 * taken only when it answers the job as this producer built it (jobs.ts `resultMismatch`);
 * otherwise it is dropped with a warning and the job queued again. The pairs in flight wait for
 * their workers' announcements together (done-list.ts, announcements.ts: one blocking call
 * at a time for the whole match), each looking at its own job when it is announced, and once a
 * sweep period (a minute) in case an announcement was lost.
 */
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { KishiError, Result } from '../core/result.js';
import { writeFileAtomic } from '../core/atomic-write.js';
import type { GameRecord } from '../match/game-record.js';
import type { RemoteGameSpec, RemoteGames, RemoteMatchSettings } from '../match/remote-games.js';
import { Announcements } from './announcements.js';
import { jobGroup } from './done-list.js';
import { matchJobId, resultMismatch, runKey, withDigest, type MatchJob, type MatchJobResult } from './jobs.js';
import type { JobStore } from './job-store.js';
import { engineRefOf, type MatchJobSettings } from './match-engines.js';
import type { JobStamp } from './stamp.js';

export interface QueuedMatchOptions {
  readonly queue: JobStore;
  readonly settings: RemoteMatchSettings;
  readonly stamp: JobStamp;
  /** Seed and games of the match: with the settings, they name its jobs. */
  readonly seed: number;
  readonly games: number;
  /** Where collected results wait (`<out>/.queue`). */
  readonly outDir: string;
  /** Jobs in flight at once. */
  readonly parallel: number;
  /** How often a pair looks at its job unannounced, ms (default 60000). */
  readonly sweepMs?: number;
  readonly signal?: AbortSignal;
  /** One line per collected job. */
  readonly onResult?: (r: MatchJobResult) => void;
  readonly onWarning?: (m: string) => void;
}

/** Default sweep period, ms. */
const SWEEP_MS = 60_000;
/** The match settings as a job carries them: engines by id, never by command line. */
export function matchJobSettings(s: RemoteMatchSettings): Result<MatchJobSettings, KishiError> {
  const a = engineRefOf(s.engines[0].spec);
  if (a.isErr) return Result.err(a.error);
  const b = engineRefOf(s.engines[1].spec);
  if (b.isErr) return Result.err(b.error);
  return Result.ok({ ...s, engines: [{ ref: a.value, tc: s.engines[0].tc }, { ref: b.value, tc: s.engines[1].tc }] });
}

/** The port; Err when an engine cannot travel by id (a command line without a name, a file option). */
export function queuedRemoteGames(o: QueuedMatchOptions): Result<RemoteGames, KishiError> {
  const settings = matchJobSettings(o.settings);
  if (settings.isErr) return Result.err(settings.error);
  const run = runKey('match', settings.value, o.seed, o.games, o.stamp);
  const dir = join(o.outDir, '.queue');
  mkdirSync(dir, { recursive: true });
  const heard = new Announcements(o.queue, jobGroup(matchJobId(run, 0)), o.signal);
  const sweepMs = o.sweepMs ?? SWEEP_MS;
  return Result.ok({
    parallel: o.parallel,
    async play(games: readonly RemoteGameSpec[]): Promise<GameRecord[]> {
      const id = matchJobId(run, games[0]!.id);
      const file = join(dir, `${id}.json`);
      const job = withDigest<MatchJob>({ kind: 'match', stamp: o.stamp, settings: settings.value, games });
      if (existsSync(file)) {
        try {
          const kept = JSON.parse(readFileSync(file, 'utf8')) as MatchJobResult;
          const why = resultMismatch(job, kept);
          if (why !== undefined) throw new Error(why);
          return kept.records.slice();
        } catch (e) {
          // A damaged or foreign file: set aside (never fatal), the games are played again.
          const bad = `${file}.bad-${Date.now()}`;
          renameSync(file, bad);
          o.onWarning?.(`${file}: not a result of this match (${(e as Error).message}); moved to ${bad}, the games are played again`);
        }
      }
      await o.queue.ensure('match', id, job);
      for (;;) {
        if (o.signal?.aborted === true) return [];
        const look = await o.queue.look(id);
        if (look.state === 'done') {
          const why = resultMismatch(job, look.result) ?? (Array.isArray((look.result as MatchJobResult).records) && (look.result as MatchJobResult).records.length === games.length ? undefined : 'it does not hold one record per game');
          if (why !== undefined) {
            o.onWarning?.(`the result of job ${id} is refused: ${why}; queueing the job again`);
            await o.queue.remove(id);
            await o.queue.ensure('match', id, job);
            await heard.wait(id, sweepMs);
            continue;
          }
          const r = look.result as MatchJobResult;
          writeFileAtomic(file, JSON.stringify(r), { keepPrevious: false });
          await o.queue.remove(id);
          o.onResult?.(r);
          return r.records.slice();
        }
        if (look.state === 'failed' && look.corrupt === true) {
          o.onWarning?.(`job ${id} was damaged in Redis (${look.reason}); queueing it again`);
          await o.queue.remove(id);
          await o.queue.ensure('match', id, job);
          await heard.wait(id, sweepMs);
          continue;
        }
        if (look.state === 'failed') throw new Error(`match job ${id} (games ${games.map((g) => g.id).join(', ')}) failed on the workers: ${look.reason}`);
        if (look.state === 'missing') {
          o.onWarning?.(`job ${id} is gone from Redis; adding it again`);
          await o.queue.ensure('match', id, job);
        }
        await heard.wait(id, sweepMs);
      }
    },
  });
}
