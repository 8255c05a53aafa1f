/**
 * Self-play chunk files on disk: whole games only, one file per run of consecutive game indices,
 * named `sp-<first>-<last>.knr` (indices zero-padded to 9 digits, so names sort by index), written
 * atomically (temporary file, fsync, rename, directory fsync). A reader therefore sees a game
 * either in exactly one complete file or not at all, and a resumed loop counts the games on disk
 * (`scanSelfplayChunks`) to know where to go on: nothing duplicated, nothing lost.
 *
 * The header's `meta` carries `phase`, `games`, `firstGameIndex`, `lastGameIndex`, the model and
 * the search settings, and `gameList` (one summary per game), so the directory can be counted from
 * headers alone.
 */
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { KishiError, Result } from '../../core/result.js';
import { removeFilesWhere, writeFileAtomic } from '../../core/atomic-write.js';
import type { EncodingSpec } from '../../nn/encoding.js';
import { CHUNK_MAGIC, ChunkWriter, type ChunkHeader } from '../../nn/training-chunk.js';
import type { SelfplayGameRecord } from './selfplay-game.js';

/** Digits of the game indices in file names. */
const INDEX_DIGITS = 9;
const NAME = /^sp-(\d+)-(\d+)\.knr$/;
const TEMP_PREFIX = '.sp-';

/** The file name of games `first..last` (inclusive). */
export const selfplayChunkName = (first: number, last: number): string =>
  `sp-${String(first).padStart(INDEX_DIGITS, '0')}-${String(last).padStart(INDEX_DIGITS, '0')}.knr`;

/** Writes `bytes` to `file` atomically (src/core/atomic-write.ts; chunk names are unique, so no `.prev`). */
export const writeBytesAtomic = (file: string, bytes: Uint8Array): void => writeFileAtomic(file, bytes, { keepPrevious: false });

/** The chunk bytes of `games` (consecutive indices, in order); `meta` is extended with the game list. */
export const selfplayChunkBytes = (spec: EncodingSpec, games: readonly SelfplayGameRecord[], meta: Record<string, unknown>): Uint8Array => {
  const first = games[0]!.summary.index;
  const last = games[games.length - 1]!.summary.index;
  const writer = new ChunkWriter(spec, {
    ...meta,
    games: games.length,
    firstGameIndex: first,
    lastGameIndex: last,
    positions: games.reduce((a, g) => a + g.summary.positions, 0),
    gameList: games.map((g) => g.summary),
  });
  const size = spec.inputSize;
  for (const g of games) {
    const resultFirst = g.summary.result;
    for (let i = 0; i < g.value.length; i++) {
      const a = g.polStart[i]!;
      const b = g.polStart[i + 1]!;
      writer.add({
        planes: g.planes.subarray(i * size, (i + 1) * size),
        moveIndices: g.polIndex.subarray(a, b),
        policy: g.polProb.subarray(a, b),
        value: g.value[i]!,
        result: g.side[i] === 0 ? resultFirst : -resultFirst,
        text: g.texts[i]!,
      });
    }
  }
  return writer.toBytes();
};

/** One self-play chunk found on disk. */
export interface SelfplayChunkInfo {
  readonly file: string;
  readonly first: number;
  readonly last: number;
  readonly games: number;
  readonly positions: number;
  readonly header: ChunkHeader;
}

/** Reads only the header of a chunk file; `ERR_CHUNK` if it is not one. */
export const readChunkHeader = (file: string): Result<ChunkHeader, KishiError> => {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(12);
    if (readSync(fd, head, 0, 12, 0) !== 12 || head.subarray(0, 4).toString('latin1') !== CHUNK_MAGIC) {
      return Result.err(new KishiError('ERR_CHUNK', `${file}: not a training chunk`));
    }
    const len = head.readUInt32LE(8);
    const json = Buffer.alloc(len);
    if (readSync(fd, json, 0, len, 12) !== len) return Result.err(new KishiError('ERR_CHUNK', `${file}: truncated header`));
    return Result.ok(JSON.parse(json.toString('utf8')) as ChunkHeader);
  } catch (e) {
    return Result.err(new KishiError('ERR_CHUNK', `${file}: ${(e as Error).message}`));
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
};

/** What a self-play directory holds. */
export interface SelfplayDirInfo {
  /** Chunks sorted by first game index. */
  readonly chunks: readonly SelfplayChunkInfo[];
  readonly games: number;
  readonly positions: number;
  /** One past the highest game index on disk (0 when empty): where a resumed run goes on. */
  readonly nextGameIndex: number;
  /** Files whose names look like chunks but whose headers disagree or cannot be read. */
  readonly problems: readonly string[];
}

/** Lists the self-play chunks of `dir` (a missing directory is empty). */
export const scanSelfplayChunks = (dir: string): SelfplayDirInfo => {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    names = [];
  }
  const chunks: SelfplayChunkInfo[] = [];
  const problems: string[] = [];
  for (const name of names) {
    const m = NAME.exec(name);
    if (m === null) continue;
    const file = join(dir, name);
    const h = readChunkHeader(file);
    if (h.isErr) {
      problems.push(h.error.message);
      continue;
    }
    const first = Number(m[1]);
    const last = Number(m[2]);
    const meta = h.value.meta as { games?: unknown; firstGameIndex?: unknown; lastGameIndex?: unknown };
    if (meta.firstGameIndex !== first || meta.lastGameIndex !== last || meta.games !== last - first + 1) {
      problems.push(`${file}: header games ${String(meta.firstGameIndex)}..${String(meta.lastGameIndex)} (${String(meta.games)}) disagree with the name`);
      continue;
    }
    chunks.push({ file, first, last, games: last - first + 1, positions: h.value.count, header: h.value });
  }
  chunks.sort((a, b) => a.first - b.first);
  return {
    chunks,
    games: chunks.reduce((a, c) => a + c.games, 0),
    positions: chunks.reduce((a, c) => a + c.positions, 0),
    nextGameIndex: chunks.reduce((a, c) => Math.max(a, c.last + 1), 0),
    problems,
  };
};

const processAlive = (pid: number): boolean => {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Removes temporary files of writers killed before their rename (those of live processes stay). */
export const removeStaleChunkTemps = (dir: string): void =>
  removeFilesWhere(dir, (name) => {
    const m = /\.tmp-(\d+)-\d+$/.exec(name);
    return name.startsWith(TEMP_PREFIX) && m !== null && !processAlive(Number(m[1]));
  });
