/**
 * Reading linear-evaluation weights files from disk (the pure parsing lives in src/eval/linear/weights.ts).
 *
 * Relative paths are tried against the working directory first, then against the package root,
 * so the default `models/chess-linear.json` works from any directory.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import { CHESS_FEATURES } from '../eval/linear/chess-features.js';
import type { FeatureSet } from '../eval/linear/feature-registry.js';
import { SHOGI_FEATURES } from '../eval/linear/shogi-features.js';
import { parseWeights, type LinearWeights } from '../eval/linear/weights.js';

/** The feature set of a game's linear evaluation. */
export const featureSetOf = (game: GameKind): FeatureSet<never> =>
  (game === 'chess' ? CHESS_FEATURES : SHOGI_FEATURES) as unknown as FeatureSet<never>;

/** The directory holding package.json, found upwards from this file (works from src/ and dist/src/). */
export const packageRoot = (): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    dir = dirname(dir);
  }
  return process.cwd();
};

/** Resolves a model path: absolute, else relative to the working directory if it exists there, else to the package root. */
export const resolveModelPath = (path: string): string => {
  if (isAbsolute(path)) return path;
  const local = resolve(path);
  if (existsSync(local)) return local;
  return join(packageRoot(), path);
};

/** Reads and validates a weights file for `game`; `ERR_WEIGHTS` says what is wrong. */
export const loadWeightsFile = (path: string, game: GameKind): Result<LinearWeights, KishiError> => {
  const file = resolveModelPath(path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return Result.err(new KishiError('ERR_WEIGHTS', `weights ${file}: cannot read (${(e as Error).message})`));
  }
  return parseWeights(text, featureSetOf(game), file);
};
