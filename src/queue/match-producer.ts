/**
 * `kishi match --queue`: the match runner's `RemoteGames` port (src/match/remote-games.ts) over the
 * job queue. Each call is one job (a pair of games with colours swapped, or one game), whose id
 * derives from the match (settings, seed, stamp) and the first game's number. A collected result is
 * first written to `<out>/.queue/<job id>.json`, then the job is deleted from Redis; a rerun of the
 * same match (same --seed and --out) takes those files and the jobs finished while it was away
 * instead of playing the games again.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.js';
import type { GameRecord } from '../match/game-record.js';
import type { RemoteGameSpec, RemoteGames, RemoteMatchSettings } from '../match/remote-games.js';
import { matchJobId, runKey, type MatchJob, type MatchJobResult } from './jobs.js';
import type { JobStore } from './job-store.js';
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
  readonly pollMs?: number;
  readonly signal?: AbortSignal;
  /** One line per collected job. */
  readonly onResult?: (r: MatchJobResult) => void;
  readonly onWarning?: (m: string) => void;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function queuedRemoteGames(o: QueuedMatchOptions): RemoteGames {
  const run = runKey('match', o.settings, o.seed, o.games, o.stamp);
  const dir = join(o.outDir, '.queue');
  mkdirSync(dir, { recursive: true });
  return {
    parallel: o.parallel,
    async play(games: readonly RemoteGameSpec[]): Promise<GameRecord[]> {
      const id = matchJobId(run, games[0]!.id);
      const file = join(dir, `${id}.json`);
      if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as MatchJobResult).records.slice();
      const job: MatchJob = { kind: 'match', stamp: o.stamp, settings: o.settings, games };
      await o.queue.ensure('match', id, job);
      for (;;) {
        if (o.signal?.aborted === true) return [];
        const look = await o.queue.look(id);
        if (look.state === 'done' && look.result.kind === 'match') {
          writeFileAtomic(file, JSON.stringify(look.result), { keepPrevious: false });
          await o.queue.remove(id);
          o.onResult?.(look.result);
          return look.result.records.slice();
        }
        if (look.state === 'failed') throw new Error(`match job ${id} (games ${games.map((g) => g.id).join(', ')}) failed on the workers: ${look.reason}`);
        if (look.state === 'missing') {
          o.onWarning?.(`job ${id} is gone from Redis; adding it again`);
          await o.queue.ensure('match', id, job);
        }
        await sleep(o.pollMs ?? 500);
      }
    },
  };
}
