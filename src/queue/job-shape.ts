/**
 * The worker's first look at a job's data: is it the shape of a job of its kind? Data in Redis is
 * input from whoever can write there; a field of the wrong type must end as a clear permanent
 * failure of that job, not as a crash deep inside datagen or a path built from a string. The
 * checks are of shape and range only: what the values mean (engines, files, settings) is checked
 * where they are used (match-engines.ts, stamp.ts, the datagen thread's settings comparison).
 */
import { JOB_KINDS } from './jobs.js';

const isRecord = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);
const isCount = (x: unknown, max = 2 ** 31): boolean => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < max;

/** A network named by a job: a mock's name, or the SHA-256 hex of the ONNX file and manifest. */
export const SELFPLAY_MODEL = /^(mock:[A-Za-z0-9_.-]{1,64}|[0-9a-f]{64})$/;

/** Why `data` is not a job this worker can read, or undefined when it is. */
export function jobShapeProblem(data: unknown): string | undefined {
  if (!isRecord(data)) return 'it is not an object';
  const kind = data['kind'];
  if (typeof kind !== 'string' || !(JOB_KINDS as readonly string[]).includes(kind)) return `unknown job kind ${JSON.stringify(String(kind).slice(0, 40))}`;
  if (typeof data['digest'] !== 'string') return 'it carries no digest';
  if (!isRecord(data['stamp'])) return 'it carries no stamp';
  switch (kind) {
    case 'datagen': {
      for (const f of ['seed', 'shardIndex', 'shardCount', 'gamesPerChunk', 'chunk']) if (!isCount(data[f], 2 ** 32)) return `datagen field ${f} is not a whole number`;
      if ((data['shardIndex'] as number) >= (data['shardCount'] as number)) return 'datagen shard index is not below the shard count';
      if ((data['gamesPerChunk'] as number) < 1 || (data['gamesPerChunk'] as number) > 100_000) return 'datagen games per chunk out of range';
      if (!isRecord(data['choices']) || !isRecord(data['settings'])) return 'datagen choices or settings are not objects';
      return undefined;
    }
    case 'match': {
      if (!isRecord(data['settings'])) return 'match settings are not an object';
      const games = data['games'];
      if (!Array.isArray(games) || games.length === 0 || games.length > 64 || !games.every((g) => isRecord(g) && isCount(g['id']))) return 'match games are not a list of games';
      return undefined;
    }
    case 'selfplay': {
      if (typeof data['model'] !== 'string' || !SELFPLAY_MODEL.test(data['model'])) return 'self-play model is not a mock name or a SHA-256';
      if (!isCount(data['firstGameIndex']) || !isCount(data['games']) || (data['games'] as number) < 1) return 'self-play game range is not whole numbers';
      if (!isRecord(data['options'])) return 'self-play options are not an object';
      return undefined;
    }
  }
  return undefined;
}
