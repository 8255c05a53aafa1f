/**
 * The datagen producer's logic against an in-memory job store (no Redis): workers finishing jobs in
 * a scrambled order, jobs and payloads vanishing (a Redis restart without persistence), and a
 * producer stopped half-way and started again all end with the local run's chunk files, byte for
 * byte, and nothing left waiting.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRng } from '../../src/core/rng.js';
import { playChunkGames } from '../../src/learning/datagen/chunk-play.js';
import { runDatagen } from '../../src/learning/datagen/datagen-run.js';
import { prepareDatagen, type DatagenChoices } from '../../src/learning/datagen/datagen-setup.js';
import { runQueuedDatagen, type QueuedDatagenOptions } from '../../src/queue/datagen-producer.js';
import type { JobLook, JobStore } from '../../src/queue/job-store.js';
import { jobDigest, packBytes, sha256Hex, type JobKind, type QueueJob, type QueueJobResult } from '../../src/queue/jobs.js';
import { makeStamp } from '../../src/queue/stamp.js';

const choices: DatagenChoices = { game: 'chess', nodes: 120, hash: 1 };
const common = { seed: 4, shardIndex: 0, shardCount: 1, gamesPerChunk: 2, targetPositions: 400 };

/** Jobs in a Map; `work` plays one waiting job (chosen by the seeded generator) like a worker. */
class MemoryStore implements JobStore {
  readonly name = 'test';
  readonly jobs = new Map<string, { data: QueueJob; result?: QueueJobResult }>();
  readonly payloads = new Map<string, Buffer>();
  /** Ids announced finished and not yet taken by `finished`. */
  readonly announced: string[] = [];
  private readonly rng: () => number;
  constructor(seed: number) {
    this.rng = seededRng(seed);
  }
  async ensure(_kind: JobKind, id: string, data: QueueJob): Promise<void> {
    if (!this.jobs.has(id)) this.jobs.set(id, { data });
  }
  async lookMany(ids: readonly string[]): Promise<JobLook[]> {
    return Promise.all(ids.map((id) => this.look(id)));
  }
  async look(id: string): Promise<JobLook> {
    const j = this.jobs.get(id);
    if (j === undefined) return { state: 'missing' };
    return j.result === undefined ? { state: 'pending' } : { state: 'done', result: j.result };
  }
  async finished(_group: string, ms: number): Promise<string[]> {
    if (this.announced.length === 0) await new Promise((r) => setTimeout(r, Math.min(ms, 2)));
    return this.announced.splice(0);
  }
  async remove(id: string): Promise<boolean> {
    this.jobs.delete(id);
    return true;
  }
  async discard(): Promise<void> {}
  async payload(key: string): Promise<Buffer | undefined> {
    return this.payloads.get(key);
  }
  async deletePayload(key: string): Promise<void> {
    this.payloads.delete(key);
  }
  async putBlob(): Promise<void> {}
  async workers(): Promise<[]> {
    return [];
  }
  /** Plays one waiting job; false when none waits. */
  work(): boolean {
    const waiting = [...this.jobs].filter(([, j]) => j.result === undefined);
    if (waiting.length === 0) return false;
    const [id, j] = waiting[Math.floor(this.rng() * waiting.length)]!;
    const d = j.data;
    if (d.kind !== 'datagen') throw new Error('not a datagen job');
    const raw = playChunkGames(d.chunk, { ...prepareDatagen(d.choices).unwrap(), seed: d.seed, shardIndex: d.shardIndex, shardCount: d.shardCount, gamesPerChunk: d.gamesPerChunk })!;
    const packed = packBytes(raw.records);
    this.payloads.set(`p-${id}`, packed);
    j.result = { kind: 'datagen', worker: 'memory', chunk: raw.chunkIndex, games: raw.games, nodes: raw.nodes, count: raw.count, payloadKey: `p-${id}`, payloadBytes: 0, payloadSha: sha256Hex(packed), ms: 0, jobDigest: jobDigest(d), build: d.stamp.build };
    this.announced.push(id);
    return true;
  }
}

const chunkFiles = (dir: string): string[] => readdirSync(dir).filter((n) => n.endsWith('.kdg')).sort();

describe('datagen producer (in-memory queue)', () => {
  let tmp: string;
  let ref: string;
  let options: (out: string, store: JobStore, signal?: AbortSignal) => QueuedDatagenOptions;

  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'kishi-dg-producer-'));
    ref = join(tmp, 'ref');
    const local = prepareDatagen(choices).unwrap();
    expect(runDatagen({ ...local, ...common, out: ref }).isOk).toBe(true);
    expect(chunkFiles(ref).length).toBeGreaterThanOrEqual(3);
    const made = makeStamp([]);
    if (!('stamp' in made)) throw new Error('no stamp');
    options = (out, store, signal) => ({ ...common, out, choices, settings: local.settings, stamp: made.stamp, queue: store, window: 3, sweepMs: 50, ...(signal !== undefined ? { signal } : {}) });
  });

  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const expectSame = (out: string): void => {
    expect(chunkFiles(out)).toEqual(chunkFiles(ref));
    for (const n of chunkFiles(ref)) expect(Buffer.compare(readFileSync(join(out, n)), readFileSync(join(ref, n))), n).toBe(0);
    expect(readdirSync(join(out, '.queue'))).toEqual([]);
  };

  it('scrambled completion order, vanished jobs and payloads: the local run\'s chunks', async () => {
    const store = new MemoryStore(11);
    const out = join(tmp, 'chaos');
    let done = false;
    let ticks = 0;
    const worker = (async () => {
      while (!done) {
        ticks++;
        // Every few rounds Redis "restarts" empty-handed for one job or one payload.
        if (ticks % 5 === 0 && store.jobs.size > 0) store.jobs.delete([...store.jobs.keys()][0]!);
        if (ticks % 7 === 0 && store.payloads.size > 0) store.payloads.delete([...store.payloads.keys()][0]!);
        store.work();
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const r = await runQueuedDatagen(options(out, store));
    done = true;
    await worker;
    expect(r.isOk).toBe(true);
    expect(r.isOk && r.value.readded).toBeGreaterThan(0);
    expectSame(out);
    expect(store.payloads.size).toBe(0);
  }, 120_000);

  it('a producer stopped half-way and started again collects the results of its first life', async () => {
    const store = new MemoryStore(12);
    const out = join(tmp, 'restart');
    const abort = new AbortController();
    let applied = 0;
    const first = runQueuedDatagen({ ...options(out, store, abort.signal), onProgress: () => (++applied >= 1 ? abort.abort() : undefined) });
    while (applied < 1) {
      store.work();
      await new Promise((r) => setTimeout(r, 5));
    }
    const r1 = await first;
    expect(r1.isErr && r1.error.code).toBe('ERR_ABORTED');
    // While the producer is away, the workers finish what was queued.
    while (store.work());
    const left = chunkFiles(out).length;
    expect(left).toBeLessThan(chunkFiles(ref).length);
    let done = false;
    const worker = (async () => {
      while (!done) {
        store.work();
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const r2 = await runQueuedDatagen(options(out, store));
    done = true;
    await worker;
    expect(r2.isOk && r2.value.resumedPositions).toBeGreaterThan(0);
    expectSame(out);
  }, 120_000);
});
