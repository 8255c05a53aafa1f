/**
 * Datagen chunk files (layout in README.md beside this file): a 32-byte header, then `count`
 * fixed-size position records. Chunk `c` of shard `i/n` holds the positions of global games
 * `(c * gamesPerChunk + k) * n + i`, `k < gamesPerChunk`, so shards never overlap and a chunk's
 * content depends only on the seed, the settings and the chunks before it in the same shard.
 */
import { KishiError, Result } from '../../core/result.js';
import type { GameKind } from '../../core/game.js';
import { crc32 } from '../../core/crc32.js';
import { RECORD_BYTES } from './position-record.js';

export const CHUNK_MAGIC = 'KDG1';
export const CHUNK_VERSION = 1;
export const HEADER_BYTES = 32;

export interface DatagenChunkHeader {
  readonly game: GameKind;
  readonly recordBytes: number;
  readonly count: number;
  readonly chunkIndex: number;
  readonly shardIndex: number;
  readonly shardCount: number;
  /** Games played for this chunk (some give no position). */
  readonly games: number;
  readonly seed: number;
  readonly crc: number;
}

/** The bytes of a chunk: header plus `records` (whose length must be `count * recordBytes`). */
export const chunkBytes = (h: Omit<DatagenChunkHeader, 'crc' | 'recordBytes' | 'count'>, records: Uint8Array): Uint8Array => {
  const rb = RECORD_BYTES[h.game];
  if (records.length % rb !== 0) throw new Error(`records length ${records.length} is not a multiple of ${rb}`);
  const out = new Uint8Array(HEADER_BYTES + records.length);
  const v = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) out[i] = CHUNK_MAGIC.charCodeAt(i);
  v.setUint8(4, CHUNK_VERSION);
  v.setUint8(5, h.game === 'chess' ? 0 : 1);
  v.setUint16(6, rb, true);
  v.setUint32(8, records.length / rb, true);
  v.setUint32(12, h.chunkIndex, true);
  v.setUint16(16, h.shardIndex, true);
  v.setUint16(18, h.shardCount, true);
  v.setUint32(20, h.games, true);
  v.setUint32(24, h.seed >>> 0, true);
  out.set(records, HEADER_BYTES);
  v.setUint32(28, crc32(records), true);
  return out;
};

const bad = (source: string, why: string): Result<never, KishiError> => Result.err(new KishiError('ERR_CHUNK', `datagen chunk ${source}: ${why}`));

/**
 * Validates a whole chunk (magic, version, sizes, CRC) and returns its header and record bytes.
 * A file cut short says so with the byte counts (`ERR_CHUNK`).
 */
export const parseChunk = (bytes: Uint8Array, source: string): Result<{ header: DatagenChunkHeader; records: Uint8Array }, KishiError> => {
  if (bytes.length < HEADER_BYTES) return bad(source, `truncated: ${bytes.length} bytes, the header alone is ${HEADER_BYTES}`);
  const magic = String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!);
  if (magic !== CHUNK_MAGIC) return bad(source, `not a datagen chunk (magic ${JSON.stringify(magic)}, expected ${CHUNK_MAGIC})`);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = v.getUint8(4);
  if (version !== CHUNK_VERSION) return bad(source, `format version ${version}, this build reads ${CHUNK_VERSION}`);
  const gameCode = v.getUint8(5);
  if (gameCode > 1) return bad(source, `unknown game code ${gameCode}`);
  const game: GameKind = gameCode === 0 ? 'chess' : 'shogi';
  const recordBytes = v.getUint16(6, true);
  if (recordBytes !== RECORD_BYTES[game]) return bad(source, `record size ${recordBytes}, ${game} records are ${RECORD_BYTES[game]} bytes`);
  const count = v.getUint32(8, true);
  const expected = HEADER_BYTES + count * recordBytes;
  if (bytes.length < expected) return bad(source, `truncated: ${bytes.length} bytes, the header announces ${count} records = ${expected} bytes`);
  if (bytes.length > expected) return bad(source, `${bytes.length - expected} bytes after the ${count} announced records`);
  const records = bytes.subarray(HEADER_BYTES, expected);
  const crc = v.getUint32(28, true);
  const actual = crc32(records);
  if (crc !== actual) return bad(source, `checksum mismatch (header ${crc.toString(16)}, records ${actual.toString(16)}): corrupt`);
  return Result.ok({
    header: {
      game,
      recordBytes,
      count,
      chunkIndex: v.getUint32(12, true),
      shardIndex: v.getUint16(16, true),
      shardCount: v.getUint16(18, true),
      games: v.getUint32(20, true),
      seed: v.getUint32(24, true),
      crc,
    },
    records,
  });
};

/** File name of chunk `c` of shard `i/n`: names sort by chunk index within a shard. */
export const chunkFileName = (game: GameKind, shardIndex: number, shardCount: number, c: number): string =>
  `${game}-s${shardIndex}of${shardCount}-c${String(c).padStart(7, '0')}.kdg`;

/** Chunk index of a file name of shard `i/n`, or undefined for any other name. */
export const chunkIndexOf = (name: string, game: GameKind, shardIndex: number, shardCount: number): number | undefined => {
  const prefix = `${game}-s${shardIndex}of${shardCount}-c`;
  if (!name.startsWith(prefix) || !name.endsWith('.kdg')) return undefined;
  const digits = name.slice(prefix.length, -4);
  return /^\d{7,}$/.test(digits) ? Number(digits) : undefined;
};
