import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  formatCheckpoint,
  loadCheckpoint,
  parseCheckpoint,
  saveCheckpoint,
  writeFileAtomic,
  type CheckpointBody,
} from '../../../src/learning/treestrap/checkpoint.js';

const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'kishi-ckpt-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const body = (games: number, theta = [0.5, -1.25, 3]): CheckpointBody => ({
  settings: { game: 'chess', method: 'treestrap-ab', init: 'random', eta: 5e-7, minDepth: 1, walk: 'searched', update: 'all', nodes: 1000, maxPlies: 300, hashMb: 16, seed: 1, book: 'default', bookSize: 100, frozen: ['tempo'] },
  featureSet: 'test-3',
  features: 3,
  command: 'kishi train treestrap --nodes 1000',
  startedAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  gamesDone: games,
  optimizer: { kind: 'sgd', eta: 5e-7, steps: 10 * games },
  totals: { searches: 10 * games, nodes: 1, visited: 2, violated: 1, squaredError: 4, trainingMs: 5, evaluationMs: 0, firstWins: 0, draws: games, secondWins: 0 },
  theta,
  initialTheta: [0, 0, 0],
  curve: [{ x: 1, series: 'vs material', elo: -100, low: Number.NEGATIVE_INFINITY, high: 20, games: 4, wins: 1, draws: 0, losses: 3 }].slice(0, 0),
  pairings: [{ player: 'games-1', opponent: 'untrained', wins: 3, draws: 1, losses: 0 }],
  lastSnapshot: { x: 1, theta: [1, 2, 3] },
});

describe('checkpoints', () => {
  it('round-trip exactly, with the digest checked', () => {
    const dir = tempDir();
    const file = join(dir, 'checkpoint.json');
    expect(loadCheckpoint(file).unwrap()).toBeUndefined();
    const b = body(4, [0.1, 1 / 3, -2e-9]);
    saveCheckpoint(file, b);
    expect(loadCheckpoint(file).unwrap()).toEqual(b);
    expect(readdirSync(dir)).toEqual(['checkpoint.json']); // no temporary file left behind
    const [header] = readFileSync(file, 'utf8').split('\n');
    expect(JSON.parse(header!)).toMatchObject({ format: 'kishi-treestrap-checkpoint', version: 1 });
  });

  it('are replaced atomically: a failed write leaves the old checkpoint whole', () => {
    const dir = tempDir();
    const file = join(dir, 'checkpoint.json');
    saveCheckpoint(file, body(1));
    // The rename cannot replace a directory: the write fails after the temporary file was written.
    const blocked = join(dir, 'blocked');
    mkdirSync(blocked);
    writeFileSync(join(blocked, 'x'), 'x');
    expect(() => writeFileAtomic(blocked, formatCheckpoint(body(2)))).toThrow();
    expect(readdirSync(dir).sort()).toEqual(['blocked', 'checkpoint.json']);
    expect(loadCheckpoint(file).unwrap()?.gamesDone).toBe(1);
    saveCheckpoint(file, body(2));
    expect(loadCheckpoint(file).unwrap()?.gamesDone).toBe(2);
  });

  it('refuse a damaged file with a clear error', () => {
    const text = formatCheckpoint(body(3));
    const cases: [string, string][] = [
      [text.slice(0, text.length - 40), 'truncated'],
      [text.replace('"gamesDone":3', '"gamesDone":9'), 'sha256'],
      [text.replace('kishi-treestrap-checkpoint', 'something-else'), 'format'],
      [text.replace('"version":1', '"version":7'), 'version 7'],
      ['{"format": "kishi-treestrap-checkpoint"', 'no header line'],
      ['garbage\n{}', 'header line is not JSON'],
      ['', 'no header line'],
    ];
    for (const [t, why] of cases) {
      const r = parseCheckpoint(t, 'run/checkpoint.json');
      expect(r.isErr, why).toBe(true);
      if (r.isErr) {
        expect(r.error.code).toBe('ERR_CHECKPOINT');
        expect(r.error.message).toContain('run/checkpoint.json');
        expect(r.error.message).toContain(why);
        expect(r.error.message).toContain('Delete it to start over');
      }
    }
    // A body that passes the digest but has the wrong shape is refused too.
    const wrong = formatCheckpoint({ ...body(3), theta: [1, 2] });
    const r = parseCheckpoint(wrong, 'c.json');
    expect(r.isErr && r.error.message).toContain('theta must be 3 finite numbers');
  });

  it('a missing file is no checkpoint, an unreadable one is an error', () => {
    const dir = tempDir();
    expect(loadCheckpoint(join(dir, 'nothing.json')).unwrap()).toBeUndefined();
    mkdirSync(join(dir, 'adir'));
    const r = loadCheckpoint(join(dir, 'adir'));
    expect(r.isErr && r.error.code).toBe('ERR_CHECKPOINT');
    expect(existsSync(join(dir, 'adir'))).toBe(true);
  });
});
