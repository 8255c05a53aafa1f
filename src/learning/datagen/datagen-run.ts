/**
 * `kishi datagen`'s loop: games in chunks, chunks written atomically (atomic-write.ts), resumed
 * after a kill from the chunks on disk with nothing lost or duplicated.
 *
 * 1. Scan `out` for this shard's chunks; they must be numbered 0..k-1 without a gap and each must
 *    parse (checksum included) with this run's game, shard and seed, and the shard's settings file
 *    (`<game>-s<i>of<n>.settings.json`: the game settings, seed and games per chunk, written by the
 *    first run) must equal this run's, so a resumed shard never mixes search budgets. Their position
 *    keys fill the deduplication set.
 * 2. Chunk c plays games `(c * gamesPerChunk + j) * shardCount + shardIndex`, keeps each position
 *    whose key is new, and writes the chunk in one atomic rename. A kill loses at most the chunk in
 *    progress, and replaying it gives the same bytes (the games depend only on seed and index, the
 *    deduplication only on the chunks before it).
 * 3. Stop once the shard holds `targetPositions` positions or `maxChunks` chunks were written in
 *    this run, or when `shouldStop` says so (checked between games; the chunk in progress is dropped).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import type { Opening } from '../../books/openings.js';
import type { SearchBoard } from '../../search/alphabeta/search-board.js';
import type { AlphaBetaSearch } from '../../search/alphabeta/search.js';
import { removeFilesWhere, writeFileAtomic } from '../../core/atomic-write.js';
import { chunkBytes, chunkFileName, chunkIndexOf, parseChunk } from './chunk.js';
import { dedupChunk, playChunkGames, shardSettingsFileName, shardSettingsText } from './chunk-play.js';
import type { DatagenGameSettings } from './datagen-game.js';
import { positionKey } from './position-record.js';
import { KeySet } from './key-set.js';

/** What names a shard and when it is done: shared by the local run and the queued one (src/queue/). */
export interface DatagenShardOptions {
  readonly out: string;
  readonly seed: number;
  readonly shardIndex: number;
  readonly shardCount: number;
  readonly gamesPerChunk: number;
  readonly targetPositions: number;
  /** Stop after writing this many chunks in this run. */
  readonly maxChunks?: number;
  readonly settings: DatagenGameSettings;
}

export interface DatagenRunOptions extends DatagenShardOptions {
  readonly openings: readonly Opening[];
  readonly makeBoard: (o: Opening) => SearchBoard;
  readonly search: AlphaBetaSearch;
  readonly shouldStop?: () => boolean;
  readonly onProgress?: (p: DatagenProgress) => void;
}

export interface DatagenProgress {
  /** Positions in the shard (resumed ones included). */
  readonly positions: number;
  readonly resumedPositions: number;
  readonly chunks: number;
  readonly games: number;
  /** Positions made by this run per second. */
  readonly positionsPerSecond: number;
  readonly nodesPerSecond: number;
  readonly etaSeconds: number;
  readonly duplicates: number;
}

export interface ExistingShard {
  readonly chunks: number;
  readonly positions: number;
  readonly keys: KeySet;
}

/** Step 1: the shard's chunks on disk, checked, and their keys. */
export const scanShard = (out: string, game: GameKind, shardIndex: number, shardCount: number, seed: number): Result<ExistingShard, KishiError> => {
  let names: string[] = [];
  try {
    names = readdirSync(out);
  } catch {
    return Result.ok({ chunks: 0, positions: 0, keys: new KeySet() });
  }
  const indices = names.map((n) => chunkIndexOf(n, game, shardIndex, shardCount)).filter((c): c is number => c !== undefined).sort((a, b) => a - b);
  const keys = new KeySet();
  let positions = 0;
  for (let k = 0; k < indices.length; k++) {
    if (indices[k] !== k) return Result.err(new KishiError('ERR_CHUNK', `${out}: chunk ${k} of shard ${shardIndex}/${shardCount} is missing but chunk ${indices[k]} exists; the shard cannot be resumed`));
    const file = join(out, chunkFileName(game, shardIndex, shardCount, k));
    const parsed = parseChunk(new Uint8Array(readFileSync(file)), file);
    if (parsed.isErr) return Result.err(parsed.error);
    const h = parsed.value.header;
    if (h.game !== game || h.shardIndex !== shardIndex || h.shardCount !== shardCount || h.chunkIndex !== k || h.seed !== seed >>> 0) {
      return Result.err(new KishiError('ERR_CHUNK', `${file}: written for ${h.game} shard ${h.shardIndex}/${h.shardCount} chunk ${h.chunkIndex} seed ${h.seed}, not this run (seed ${seed >>> 0})`));
    }
    const rb = h.recordBytes;
    for (let i = 0; i < h.count; i++) keys.add(positionKey(parsed.value.records, i * rb, game));
    positions += h.count;
  }
  return Result.ok({ chunks: indices.length, positions, keys });
};

/** Runs steps 1-3; returns the final progress. */
export const runDatagen = (o: DatagenRunOptions): Result<DatagenProgress, KishiError> => {
  const game = o.settings.game;
  try {
    mkdirSync(o.out, { recursive: true });
  } catch (e) {
    return Result.err(new KishiError('ERR_OUTPUT', `cannot create ${o.out}: ${(e as Error).message}`));
  }
  // Temporaries of a writer killed mid-write.
  removeFilesWhere(o.out, (n) => n.startsWith('.') && n.includes('.kdg.tmp-'));
  const settingsFile = join(o.out, shardSettingsFileName(game, o.shardIndex, o.shardCount));
  const settingsText = shardSettingsText(o.seed, o.gamesPerChunk, o.settings);
  if (existsSync(settingsFile)) {
    const old = readFileSync(settingsFile, 'utf8');
    if (old !== settingsText) {
      return Result.err(new KishiError('ERR_CHUNK', `${settingsFile} was written by a run with other settings:\n${old}this run:\n${settingsText}use another --out (or the same settings) so the shard stays uniform`));
    }
  } else {
    try {
      writeFileAtomic(settingsFile, settingsText, { keepPrevious: false });
    } catch (e) {
      return Result.err(new KishiError('ERR_OUTPUT', `cannot write ${settingsFile}: ${(e as Error).message}`));
    }
  }
  const existing = scanShard(o.out, game, o.shardIndex, o.shardCount, o.seed);
  if (existing.isErr) return Result.err(existing.error);
  const { keys } = existing.value;
  const start = performance.now();
  let positions = existing.value.positions;
  let chunk = existing.value.chunks;
  let made = 0;
  let games = 0;
  let nodes = 0;
  let duplicates = 0;
  let written = 0;
  const progress = (): DatagenProgress => {
    const s = Math.max(1e-3, (performance.now() - start) / 1000);
    const rate = made / s;
    return {
      positions,
      resumedPositions: existing.value.positions,
      chunks: chunk,
      games,
      positionsPerSecond: rate,
      nodesPerSecond: nodes / s,
      etaSeconds: rate > 0 ? Math.max(0, o.targetPositions - positions) / rate : Infinity,
      duplicates,
    };
  };
  while (positions < o.targetPositions && (o.maxChunks === undefined || written < o.maxChunks)) {
    const raw = playChunkGames(chunk, o, o.shouldStop);
    if (raw === undefined) return Result.ok(progress());
    nodes += raw.nodes;
    const kept = dedupChunk(raw, keys);
    duplicates += kept.duplicates;
    const count = kept.count;
    const chunkGames = raw.games;
    const bytes = chunkBytes({ game, chunkIndex: chunk, shardIndex: o.shardIndex, shardCount: o.shardCount, games: chunkGames, seed: o.seed >>> 0 }, kept.records);
    try {
      writeFileAtomic(join(o.out, chunkFileName(game, o.shardIndex, o.shardCount, chunk)), bytes, { keepPrevious: false });
    } catch (e) {
      return Result.err(new KishiError('ERR_OUTPUT', `cannot write chunk ${chunk} to ${o.out}: ${(e as Error).message}`));
    }
    chunk++;
    written++;
    games += chunkGames;
    positions += count;
    made += count;
    o.onProgress?.(progress());
  }
  return Result.ok(progress());
};
