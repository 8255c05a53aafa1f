/**
 * `kishi datagen`'s loop: games in chunks, chunks written atomically (atomic-write.ts), resumed
 * after a kill from the chunks on disk with nothing lost or duplicated.
 *
 * 1. Open the shard (shard.ts `openShard`, as the queued run does): its settings file must equal
 *    this run's, its chunks on disk must be numbered 0..k-1 without a gap and parse with this run's
 *    game, shard and seed; their position keys fill the deduplication set.
 * 2. Chunk c plays games `(c * gamesPerChunk + j) * shardCount + shardIndex`, keeps each position
 *    whose key is new, and writes the chunk in one atomic rename. A kill loses at most the chunk in
 *    progress, and replaying it gives the same bytes (the games depend only on seed and index, the
 *    deduplication only on the chunks before it).
 * 3. Stop once the shard holds `targetPositions` positions or `maxChunks` chunks were written in
 *    this run, or when `shouldStop` says so (checked between games; the chunk in progress is dropped).
 */
import { type KishiError, Result } from '../../core/result.js';
import type { Opening } from '../../books/openings.js';
import type { SearchBoard } from '../../search/alphabeta/search-board.js';
import type { AlphaBetaSearch } from '../../search/alphabeta/search.js';
import { dedupChunk, playChunkGames } from './chunk-play.js';
import { openShard, ShardTally, writeShardChunk, type DatagenShardOptions } from './shard.js';

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

/** The progress report of the tally and the nodes searched so far. */
const progressOf = (tally: ShardTally, nodes: number): DatagenProgress => {
  const t = tally.timing();
  return {
    positions: tally.positions,
    resumedPositions: tally.existing.positions,
    chunks: tally.chunks,
    games: tally.games,
    positionsPerSecond: t.positionsPerSecond,
    nodesPerSecond: nodes / t.seconds,
    etaSeconds: t.etaSeconds,
    duplicates: tally.duplicates,
  };
};

/** Runs steps 1-3; returns the final progress. */
export const runDatagen = (o: DatagenRunOptions): Result<DatagenProgress, KishiError> => {
  const existing = openShard(o);
  if (existing.isErr) return Result.err(existing.error);
  const { keys } = existing.value;
  const tally = new ShardTally(existing.value, o.targetPositions);
  let nodes = 0;
  let written = 0;
  while (tally.positions < o.targetPositions && (o.maxChunks === undefined || written < o.maxChunks)) {
    const raw = playChunkGames(tally.chunks, o, o.shouldStop);
    if (raw === undefined) return Result.ok(progressOf(tally, nodes));
    nodes += raw.nodes;
    const kept = dedupChunk(raw, keys);
    const w = writeShardChunk(o, tally.chunks, raw.games, kept);
    if (w.isErr) return Result.err(w.error);
    tally.add(kept, raw.games);
    written++;
    o.onProgress?.(progressOf(tally, nodes));
  }
  return Result.ok(progressOf(tally, nodes));
};
