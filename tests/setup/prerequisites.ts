/**
 * Vitest global setup: finds which optional system prerequisites this machine has, so that tests that
 * need a missing one are skipped (not failed) on a fresh machine, and says so in a visible summary at the
 * start and at the end of the run.
 *
 * - PyTorch + onnx (trainer/train.py): without them the train.py tests skip through KISHI_SKIP_TORCH=1,
 *   which this setup sets; KISHI_REQUIRE_ALL=1 (set by .ci/run, which installs everything) makes a
 *   missing prerequisite fail the run instead.
 * - Stockfish, fairy-stockfish, gpsusi (Debian packages in /usr/games): the engine tests check these
 *   themselves; the summary only names them.
 * - redis-server (Debian package): the job-queue tests (tests/queue/) check it themselves likewise.
 */
import { existsSync } from 'node:fs';
import { resolvePython } from '../../src/learning/alphazero/train-process.js';

interface Missing {
  readonly what: string;
  readonly skipped: string;
  readonly install: string;
}

/** The Debian package's server binary, which the job-queue tests start on loopback. */
export const REDIS_SERVER = '/usr/bin/redis-server';

const ENGINES: readonly [string, string, string][] = [
  ['/usr/games/stockfish', 'Stockfish', 'stockfish'],
  ['/usr/games/fairy-stockfish', 'fairy-stockfish', 'fairy-stockfish'],
  ['/usr/games/gpsusi', 'gpsusi', 'gpsshogi'],
];

export function findMissing(env: NodeJS.ProcessEnv): Missing[] {
  const missing: Missing[] = [];
  if (env['KISHI_SKIP_TORCH'] !== '1') {
    const python = resolvePython(env);
    if (python.isErr) {
      missing.push({ what: 'a Python with torch and onnx', skipped: 'the trainer/train.py tests (tests/learning/alphazero/train-py*.test.ts)', install: 'python3-torch python3-onnx' });
    }
  }
  for (const [path, name, pkg] of ENGINES) {
    if (!existsSync(path)) missing.push({ what: `${name} (${path})`, skipped: `the games against ${name}`, install: pkg });
  }
  if (!existsSync(REDIS_SERVER)) missing.push({ what: `redis-server (${REDIS_SERVER})`, skipped: 'the job-queue tests (tests/queue/)', install: 'redis-server' });
  return missing;
}

export function summary(missing: readonly Missing[]): string {
  const lines = ['', 'Prerequisites missing on this machine; these tests are skipped:'];
  for (const m of missing) lines.push(`  - ${m.what} not found: ${m.skipped}`);
  lines.push(`To run them: sudo apt-get install ${missing.map((m) => m.install).join(' ')}   (or .ci/run, which installs them and runs everything)`, '');
  return lines.join('\n');
}

export default function setup(): (() => void) | undefined {
  const missing = findMissing(process.env);
  if (missing.length === 0) return undefined;
  if (process.env['KISHI_REQUIRE_ALL'] === '1') {
    throw new Error(`KISHI_REQUIRE_ALL=1, but prerequisites are missing:${summary(missing)}`);
  }
  // The test workers start after this and inherit the environment.
  if (missing.some((m) => m.install.startsWith('python3-torch'))) process.env['KISHI_SKIP_TORCH'] = '1';
  const text = summary(missing);
  console.warn(text);
  // Again at the end, where the run's result is read.
  return () => console.warn(text);
}
