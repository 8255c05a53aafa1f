/**
 * The two halves of a datagen chunk (chunk-play.ts), as the job queue runs them: chunks played out
 * of order on fresh searches (as on different workers), then deduplicated in chunk order, give the
 * local `runDatagen`'s chunk files byte for byte; and the setup built from the command-line choices
 * (datagen-setup.ts) reproduces the settings file of a local run.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkBytes, chunkFileName } from '../../../src/learning/datagen/chunk.js';
import { dedupChunk, playChunkGames, shardSettingsFileName, shardSettingsText } from '../../../src/learning/datagen/chunk-play.js';
import { runDatagen } from '../../../src/learning/datagen/datagen-run.js';
import { datagenFiles, prepareDatagen, type DatagenChoices } from '../../../src/learning/datagen/datagen-setup.js';
import { KeySet } from '../../../src/learning/datagen/key-set.js';

describe('datagen chunks played apart and deduplicated in order', () => {
  it('equal the local run byte for byte', () => {
    const choices: DatagenChoices = { game: 'chess', nodes: 120, hash: 1 };
    const dir = mkdtempSync(join(tmpdir(), 'kishi-chunk-play-'));
    try {
      const local = prepareDatagen(choices).unwrap();
      const common = { seed: 9, shardIndex: 1, shardCount: 2, gamesPerChunk: 2 };
      const r = runDatagen({ ...local, ...common, out: dir, targetPositions: 1_000_000, maxChunks: 3 });
      expect(r.isOk).toBe(true);
      expect(readFileSync(join(dir, shardSettingsFileName('chess', 1, 2)), 'utf8')).toBe(shardSettingsText(9, 2, local.settings));
      // Played backwards, each on a fresh setup (another worker), then applied in order.
      const raws = [2, 1, 0].map((c) => playChunkGames(c, { ...prepareDatagen(choices).unwrap(), ...common })!).reverse();
      const keys = new KeySet();
      for (const raw of raws) {
        const kept = dedupChunk(raw, keys);
        const bytes = chunkBytes({ game: 'chess', chunkIndex: raw.chunkIndex, shardIndex: 1, shardCount: 2, games: raw.games, seed: 9 }, kept.records);
        expect(Buffer.compare(Buffer.from(bytes), readFileSync(join(dir, chunkFileName('chess', 1, 2, raw.chunkIndex)))), `chunk ${raw.chunkIndex}`).toBe(0);
      }
      expect(readdirSync(dir).filter((n) => n.endsWith('.kdg'))).toHaveLength(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the files a job reads, and reports a bad choice as a usage error', () => {
    expect(datagenFiles({ game: 'chess', hash: 1 })).toEqual(['models/chess-linear.json', 'data/openings/chess-balanced.epd']);
    expect(datagenFiles({ game: 'shogi', hash: 1, nnue: 'models/shogi-nnue.bin' })).toEqual(['models/shogi-linear.json', 'models/shogi-nnue.bin']);
    const bad = prepareDatagen({ game: 'chess', hash: 1, randomPlies: '9-2' });
    expect(bad.isErr && bad.error.code).toBe('ERR_USAGE');
  });
});
