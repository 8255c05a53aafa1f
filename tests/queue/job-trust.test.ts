/**
 * What a worker and a producer trust of a job (no Redis needed): engines travel by id and are
 * resolved only through the worker's allow-list, options that name files or carry line breaks do
 * not travel, a job's digest covers every field, a result is refused unless it answers the job its
 * producer built (digest and build), and a stamp from another build is refused by the worker.
 */
import { describe, expect, it } from 'vitest';
import { parseEngineSpec } from '../../src/engines/engine-spec.js';
import { jobDigest, resultMismatch, withDigest, type DatagenJob, type DatagenJobResult } from '../../src/queue/jobs.js';
import { jobShapeProblem } from '../../src/queue/job-shape.js';
import { engineRefOf, parseEngineAllowList, resolveEngineRef } from '../../src/queue/match-engines.js';
import { buildHash, makeStamp, stampMismatch } from '../../src/queue/stamp.js';

const spec = (text: string) => parseEngineSpec(text).unwrap();

describe('match engines by id', () => {
  it('Kishi travels with its options; another engine by its name only, never its command line', () => {
    expect(engineRefOf(spec('cmd=kishi,name=new,option.Hash=8')).unwrap()).toEqual({ engine: 'kishi', name: 'new', options: { Hash: '8' }, time: {} });
    const sf = engineRefOf(spec('name=sf,cmd=/usr/games/stockfish,args=--x')).unwrap();
    expect(sf).toEqual({ engine: 'sf', name: 'sf', options: {}, time: {} });
    expect(JSON.stringify(sf)).not.toContain('/usr/games/stockfish');
    expect(engineRefOf(spec('cmd=/usr/games/stockfish')).isErr).toBe(true);
    expect(engineRefOf(spec('cmd=kishi,args=--config /etc/x')).isErr).toBe(true);
  });

  it('options that name files, or whose values are paths or hold line breaks, do not travel', () => {
    expect(engineRefOf(spec('cmd=kishi,option.Debug Log File=x')).isErr).toBe(true);
    expect(engineRefOf(spec('cmd=kishi,option.Threads=/etc/passwd')).isErr).toBe(true);
    expect(resolveEngineRef({ engine: 'kishi', options: { Hash: '8\nquit' }, time: {} }, new Map()).isErr).toBe(true);
  });

  it('the worker resolves ids with its allow-list only: an unknown id is refused, a command in the job is ignored', () => {
    const allow = parseEngineAllowList(['name=sf,cmd=/usr/games/stockfish,option.Threads=1']).unwrap();
    const r = resolveEngineRef({ engine: 'sf', options: { Hash: '16' }, time: { nodes: 100 }, command: '/bin/sh', args: ['-c', 'id'] }, allow).unwrap();
    expect(r.command).toBe('/usr/games/stockfish');
    expect(r.args).toEqual([]);
    expect(r.options).toEqual({ Threads: '1', Hash: '16' });
    const unknown = resolveEngineRef({ engine: 'sh', options: {}, time: {} }, allow);
    expect(unknown.isErr && unknown.error.message).toBe("engine sh is not in this worker's queue.engines (it runs kishi, sf)");
    expect(resolveEngineRef({ spec: { command: '/bin/sh' } }, allow).isErr).toBe(true);
    expect(parseEngineAllowList(['cmd=/usr/games/stockfish']).isErr).toBe(true);
    expect(parseEngineAllowList(['name=kishi,cmd=/bin/sh']).isErr).toBe(true);
  });
});

describe('jobs tied to their results', () => {
  const made = makeStamp([]);
  if (!('stamp' in made)) throw new Error('no stamp');
  const job = withDigest<DatagenJob>({
    kind: 'datagen',
    stamp: made.stamp,
    choices: { game: 'chess', nodes: 100, hash: 1 },
    settings: { game: 'chess', nodes: 100 } as DatagenJob['settings'],
    seed: 7,
    shardIndex: 0,
    shardCount: 1,
    gamesPerChunk: 2,
    chunk: 3,
  });
  const result = (over: Partial<DatagenJobResult> = {}): DatagenJobResult => ({
    kind: 'datagen', worker: 'w', chunk: 3, games: 2, nodes: 1, count: 1, payloadKey: 'k', payloadBytes: 1, payloadSha: '', ms: 1, jobDigest: job.digest, build: made.stamp.build, ...over,
  });

  it('the digest covers every field and ignores key order', () => {
    expect(jobDigest(job)).toBe(job.digest);
    expect(jobDigest({ ...job, seed: 8 })).not.toBe(job.digest);
    expect(jobDigest({ ...job, chunk: 4 })).not.toBe(job.digest);
    expect(jobDigest({ ...job, settings: { ...job.settings, nodes: 101 } })).not.toBe(job.digest);
    const reordered = Object.fromEntries(Object.entries(job).reverse());
    expect(jobDigest(reordered)).toBe(job.digest);
  });

  it('a result for another job, or from another build, is refused with the reason', () => {
    expect(resultMismatch(job, result())).toBeUndefined();
    expect(resultMismatch(job, result({ jobDigest: jobDigest({ ...job, seed: 8 }) }))).toMatch(/answers another job .* changed in Redis/);
    expect(resultMismatch(job, result({ build: 'f'.repeat(64) }))).toMatch(/computed by build ffffffffffff/);
  });

  it('a worker refuses a stamp from another build, and reads the shape of a job before anything else', () => {
    expect(buildHash()).toMatch(/^[0-9a-f]{64}$/);
    expect(stampMismatch({ ...made.stamp, build: 'a'.repeat(64) })).toMatch(/^build aaaaaaaaaaaa… in the job, [0-9a-f]{12}… on this worker/);
    expect(jobShapeProblem(job)).toBeUndefined();
    expect(jobShapeProblem({ ...job, seed: 'x' })).toBe('datagen field seed is not a whole number');
    expect(jobShapeProblem({ ...job, kind: 'shell' })).toMatch(/unknown job kind/);
    expect(jobShapeProblem({ kind: 'selfplay', digest: 'x', stamp: {}, model: '../../etc/passwd', firstGameIndex: 0, games: 1, options: {} })).toMatch(/model/);
    expect(jobShapeProblem('{"kind"')).toBe('it is not an object');
  });
});
