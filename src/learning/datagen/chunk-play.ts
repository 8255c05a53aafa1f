/**
 * One datagen chunk split in its two halves, so that they can run on different machines (the job
 * queue, src/queue/): playing the chunk's games, which depends only on (seed, shard, chunk index,
 * settings), and deduplicating their positions against the shard's earlier chunks, which depends
 * on the chunks before it. `runDatagen` runs both in a row; a queued run plays chunks on any worker
 * in any order and deduplicates them in chunk order at the producer, so both write the same bytes.
 */
import type { GameKind } from '../../core/game.js';
import type { Opening } from '../../books/openings.js';
import type { SearchBoard } from '../../search/alphabeta/search-board.js';
import type { AlphaBetaSearch } from '../../search/alphabeta/search.js';
import { playDatagenGame, type DatagenGameSettings } from './datagen-game.js';
import type { KeySet } from './key-set.js';
import { positionKey, RECORD_BYTES } from './position-record.js';
import { recordWriter } from './record-writers.js';

/** What playing a chunk needs. */
export interface ChunkPlayOptions {
  readonly seed: number;
  readonly shardIndex: number;
  readonly shardCount: number;
  readonly gamesPerChunk: number;
  readonly settings: DatagenGameSettings;
  readonly openings: readonly Opening[];
  readonly makeBoard: (o: Opening) => SearchBoard;
  readonly search: AlphaBetaSearch;
}

/** The selected positions of a chunk's games, in game order, before deduplication. */
export interface RawChunk {
  readonly game: GameKind;
  readonly chunkIndex: number;
  readonly games: number;
  readonly nodes: number;
  /** `count` records of `RECORD_BYTES[game]` bytes each. */
  readonly records: Uint8Array;
  readonly count: number;
}

/** The chunk's records after deduplication against the shard so far. */
export interface DedupedChunk {
  readonly records: Uint8Array;
  readonly count: number;
  readonly duplicates: number;
}

/**
 * Plays the games of chunk `chunk`: global games `(chunk * gamesPerChunk + j) * shardCount +
 * shardIndex`. `shouldStop` is asked between games; undefined when it said stop.
 */
export const playChunkGames = (chunk: number, o: ChunkPlayOptions, shouldStop?: () => boolean): RawChunk | undefined => {
  const game = o.settings.game;
  const rb = RECORD_BYTES[game];
  const write = recordWriter(game);
  let buf = new Uint8Array(rb * 4096);
  let count = 0;
  let nodes = 0;
  for (let j = 0; j < o.gamesPerChunk; j++) {
    if (shouldStop?.() === true) return undefined;
    const index = (chunk * o.gamesPerChunk + j) * o.shardCount + o.shardIndex;
    const g = playDatagenGame(index, o.seed, o.settings, o.openings, o.makeBoard, o.search, write);
    nodes += g.nodes;
    if ((count + g.count) * rb > buf.length) {
      const grown = new Uint8Array(Math.max(buf.length * 2, (count + g.count) * rb));
      grown.set(buf.subarray(0, count * rb));
      buf = grown;
    }
    buf.set(g.records.subarray(0, g.count * rb), count * rb);
    count += g.count;
  }
  return { game, chunkIndex: chunk, games: o.gamesPerChunk, nodes, records: buf.slice(0, count * rb), count };
};

/** Keeps the records whose position key is new to `keys` (adding them), in order. */
export const dedupChunk = (raw: Pick<RawChunk, 'game' | 'records' | 'count'>, keys: KeySet): DedupedChunk => {
  const rb = RECORD_BYTES[raw.game];
  const out = new Uint8Array(raw.count * rb);
  let count = 0;
  let duplicates = 0;
  for (let i = 0; i < raw.count; i++) {
    if (!keys.add(positionKey(raw.records, i * rb, raw.game))) {
      duplicates++;
      continue;
    }
    out.set(raw.records.subarray(i * rb, (i + 1) * rb), count * rb);
    count++;
  }
  return { records: out.subarray(0, count * rb), count, duplicates };
};

/**
 * The text of a shard's settings file (`<game>-s<i>of<n>.settings.json`): a resumed shard, local or
 * queued, must have been started with exactly this text.
 */
export const shardSettingsText = (seed: number, gamesPerChunk: number, settings: DatagenGameSettings): string =>
  `${JSON.stringify({ seed: seed >>> 0, gamesPerChunk, settings }, null, 1)}\n`;

/** The settings file's name in the output directory. */
export const shardSettingsFileName = (game: GameKind, shardIndex: number, shardCount: number): string => `${game}-s${shardIndex}of${shardCount}.settings.json`;
