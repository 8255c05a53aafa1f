/**
 * A worker's side of a self-play job: fetch the generation's network from Redis by hash (once per
 * worker: cached in a temporary directory under its hash, so a changed net can never be mistaken
 * for the old one), play the job's games with `runSelfplay` into a scratch directory (one chunk
 * file, named by the game range like the producer's own), and store the file's bytes as the job's
 * payload. The net travels through Redis because it changes every generation: a worker cannot be
 * expected to have it, unlike the shipped weights a datagen job names by hash.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { runSelfplay } from '../learning/alphazero/selfplay.js';
import { manifestPathOf } from '../nn/manifest.js';
import { blobKey, packBytes, payloadKey, PAYLOAD_TTL_S, sha256Hex, type ResultTie, type SelfplayJob, type SelfplayJobResult } from './jobs.js';
import { createHash } from 'node:crypto';
import { QUEUE_KEY_PREFIX } from './queue-names.js';

const MOCK = 'mock:';
const netDir = join(tmpdir(), `kishi-queue-nets-${process.pid}`);

/** The local path of the job's net (fetched on first use); an Error when Redis no longer has it. */
async function netPath(redis: Redis, queue: string, model: string): Promise<string> {
  if (model.startsWith(MOCK)) return model;
  const file = join(netDir, `${model}.onnx`);
  if (existsSync(file) && existsSync(manifestPathOf(file))) return file;
  const [onnx, manifest] = await Promise.all([redis.getBuffer(blobKey(QUEUE_KEY_PREFIX, queue, model)), redis.getBuffer(blobKey(QUEUE_KEY_PREFIX, queue, `${model}.manifest`))]);
  if (onnx === null || manifest === null) throw new Error(`the network ${model.slice(0, 12)}… is not in Redis any more (its producer stopped?)`);
  // The blob is named by its hash: bytes that do not hash to it were changed in Redis.
  if (createHash('sha256').update(onnx).update(manifest).digest('hex') !== model) throw new Error(`the network ${model.slice(0, 12)}… in Redis does not match its hash`);
  mkdirSync(netDir, { recursive: true });
  writeFileSync(manifestPathOf(file), manifest);
  writeFileSync(file, onnx);
  return file;
}

/** Runs the job; the chunk's bytes go to Redis under the job's payload key. */
export async function runSelfplayJob(redis: Redis, queue: string, jobId: string, worker: string, d: SelfplayJob, tie: ResultTie): Promise<SelfplayJobResult> {
  const t0 = performance.now();
  const model = await netPath(redis, queue, d.model);
  const out = mkdtempSync(join(tmpdir(), 'kishi-queue-sp-'));
  try {
    const r = await runSelfplay({
      ...d.options,
      model,
      outDir: out,
      games: d.games,
      firstGameIndex: d.firstGameIndex,
      workers: 1,
      gamesPerChunk: d.games,
    });
    if (r.isErr) throw new Error(r.error.message);
    const files = readdirSync(out).filter((n) => n.endsWith('.knr'));
    if (files.length !== 1) throw new Error(`self-play wrote ${files.length} chunk files for games ${d.firstGameIndex}..${d.firstGameIndex + d.games - 1}, expected 1`);
    const packed = packBytes(new Uint8Array(readFileSync(join(out, files[0]!))));
    const key = payloadKey(QUEUE_KEY_PREFIX, queue, jobId);
    await redis.set(key, packed, 'EX', PAYLOAD_TTL_S);
    return {
      kind: 'selfplay',
      worker,
      file: files[0]!,
      payloadKey: key,
      payloadBytes: packed.length,
      payloadSha: sha256Hex(packed),
      ...tie,
      games: r.value.games,
      positions: r.value.positions,
      nnEvals: r.value.nnEvals,
      nnMs: r.value.nnMs,
      resignFalsePositives: r.value.resignFalsePositives,
      summaries: r.value.summaries,
      ms: Math.round(performance.now() - t0),
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
