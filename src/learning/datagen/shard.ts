/**
 * One datagen shard on disk, the same for the local run (datagen-run.ts) and the queued one
 * (src/queue/datagen-producer.ts), so that both write the same bytes and resume each other:
 *
 * - opening it (`openShard`): the output directory made, the temporaries of a writer killed
 *   mid-write removed, the shard's settings file (`<game>-s<i>of<n>.settings.json`: the game
 *   settings, seed and games per chunk, written by the first run) checked against this run's so a
 *   resumed shard never mixes search budgets, and the chunks already there scanned (`scanShard`):
 *   they must be numbered 0..k-1 without a gap and each must parse (checksum included) with this
 *   run's game, shard and seed; their position keys fill the deduplication set;
 * - writing a chunk (`writeShardChunk`): its deduplicated records under its header, in one atomic
 *   rename (core/atomic-write.ts), so a chunk on disk is complete or absent;
 * - counting (`ShardTally`): positions, games and duplicates of the shard and this run's rate.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import { removeFilesWhere, writeFileAtomic } from '../../core/atomic-write.js';
import { chunkBytes, chunkFileName, chunkIndexOf, parseChunk } from './chunk.js';
import { shardSettingsFileName, shardSettingsText, type DedupedChunk } from './chunk-play.js';
import type { DatagenGameSettings } from './datagen-game.js';
import { KeySet } from './key-set.js';
import { positionKey } from './position-record.js';

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

/** The shard's chunks already on disk. */
export interface ExistingShard {
  readonly chunks: number;
  readonly positions: number;
  readonly keys: KeySet;
}

/** The shard's chunks on disk, checked, and their keys. */
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

/** Checks the shard's settings file against this run's, or writes it when the shard is new. */
const checkShardSettings = (o: DatagenShardOptions): Result<void, KishiError> => {
  const settingsFile = join(o.out, shardSettingsFileName(o.settings.game, o.shardIndex, o.shardCount));
  const settingsText = shardSettingsText(o.seed, o.gamesPerChunk, o.settings);
  if (existsSync(settingsFile)) {
    const old = readFileSync(settingsFile, 'utf8');
    if (old !== settingsText) {
      return Result.err(new KishiError('ERR_CHUNK', `${settingsFile} was written by a run with other settings:\n${old}this run:\n${settingsText}use another --out (or the same settings) so the shard stays uniform`));
    }
    return Result.ok(undefined);
  }
  try {
    writeFileAtomic(settingsFile, settingsText, { keepPrevious: false });
  } catch (e) {
    return Result.err(new KishiError('ERR_OUTPUT', `cannot write ${settingsFile}: ${(e as Error).message}`));
  }
  return Result.ok(undefined);
};

/** Opens the shard for this run: the directory, the temporaries removed, the settings file checked, the chunks scanned. */
export const openShard = (o: DatagenShardOptions): Result<ExistingShard, KishiError> => {
  try {
    mkdirSync(o.out, { recursive: true });
  } catch (e) {
    return Result.err(new KishiError('ERR_OUTPUT', `cannot create ${o.out}: ${(e as Error).message}`));
  }
  // Temporaries of a writer killed mid-write.
  removeFilesWhere(o.out, (n) => n.startsWith('.') && n.includes('.kdg.tmp-'));
  const settings = checkShardSettings(o);
  if (settings.isErr) return Result.err(settings.error);
  return scanShard(o.out, o.settings.game, o.shardIndex, o.shardCount, o.seed);
};

/** Writes chunk `chunk` of the shard (the records kept after deduplication, from `games` games) in one atomic rename. */
export const writeShardChunk = (o: DatagenShardOptions, chunk: number, games: number, kept: Pick<DedupedChunk, 'records'>): Result<void, KishiError> => {
  const game = o.settings.game;
  const bytes = chunkBytes({ game, chunkIndex: chunk, shardIndex: o.shardIndex, shardCount: o.shardCount, games, seed: o.seed >>> 0 }, kept.records);
  try {
    writeFileAtomic(join(o.out, chunkFileName(game, o.shardIndex, o.shardCount, chunk)), bytes, { keepPrevious: false });
  } catch (e) {
    return Result.err(new KishiError('ERR_OUTPUT', `cannot write chunk ${chunk} to ${o.out}: ${(e as Error).message}`));
  }
  return Result.ok(undefined);
};

/** The shard's counts as chunks are added: positions (resumed ones included), games and duplicates of this run, its rate. */
export class ShardTally {
  /** The next chunk to write: the number of chunks in the shard. */
  chunks: number;
  positions: number;
  /** Positions written by this run. */
  made = 0;
  games = 0;
  duplicates = 0;
  private readonly start = performance.now();

  constructor(
    readonly existing: ExistingShard,
    readonly targetPositions: number,
  ) {
    this.chunks = existing.chunks;
    this.positions = existing.positions;
  }

  /** Counts a chunk just written. */
  add(kept: Pick<DedupedChunk, 'count' | 'duplicates'>, games: number): void {
    this.chunks++;
    this.positions += kept.count;
    this.made += kept.count;
    this.games += games;
    this.duplicates += kept.duplicates;
  }

  /** This run's time so far (at least a millisecond, so rates stay finite), its rate, and the time to the target at that rate (Infinity before the first chunk). */
  timing(): { readonly seconds: number; readonly positionsPerSecond: number; readonly etaSeconds: number } {
    const seconds = Math.max(1e-3, (performance.now() - this.start) / 1000);
    const rate = this.made / seconds;
    return { seconds, positionsPerSecond: rate, etaSeconds: rate > 0 ? Math.max(0, this.targetPositions - this.positions) / rate : Infinity };
  }
}
