/**
 * The chunks of a data folder checked whole before they are counted or trained on: every
 * `<game>-s<i>of<n>-c<c>.kdg` (the files trainer/nnue_train.py reads) is parsed with its checksum
 * (chunk.ts `parseChunk`), so a corrupt or truncated chunk stops the step with its file name instead
 * of a trainer traceback hours later.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import { parseChunk } from '../datagen/chunk.js';

export interface DataFolderSummary {
  readonly chunks: number;
  readonly positions: number;
}

const CHUNK_NAME = (game: GameKind): RegExp => new RegExp(`^${game}-s\\d+of\\d+-c\\d+\\.kdg$`);

/** The chunk files of `dir` for `game`, sorted (a missing folder has none). */
export const chunkFilesOf = (dir: string, game: GameKind): string[] => {
  try {
    return readdirSync(dir).filter((n) => CHUNK_NAME(game).test(n)).sort();
  } catch {
    return [];
  }
};

/** Parses every chunk of `dir`; the first bad one is an `ERR_CHUNK` naming it. */
export const checkDataFolder = (dir: string, game: GameKind): Result<DataFolderSummary, KishiError> => {
  let positions = 0;
  const names = chunkFilesOf(dir, game);
  for (const name of names) {
    const file = join(dir, name);
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(readFileSync(file));
    } catch (e) {
      return Result.err(new KishiError('ERR_CHUNK', `datagen chunk ${file}: unreadable (${(e as Error).message})`));
    }
    const parsed = parseChunk(bytes, file);
    if (parsed.isErr) return Result.err(parsed.error);
    if (parsed.value.header.game !== game) return Result.err(new KishiError('ERR_CHUNK', `datagen chunk ${file}: a ${parsed.value.header.game} chunk in a ${game} run`));
    positions += parsed.value.header.count;
  }
  return Result.ok({ chunks: names.length, positions });
};
