/**
 * Reading linear-evaluation weights files from disk (the pure parsing lives in src/eval/linear/weights.ts).
 *
 * Relative paths are tried against the working directory first, then against the package root
 * (src/core/package-path.ts), so the default `models/chess-linear.json` works from any directory.
 */
import { readFileSync } from 'node:fs';
import type { GameKind } from '../core/game.js';
import { resolveModelPath } from '../core/package-path.js';
import { KishiError, Result } from '../core/result.js';
import { featureSetOf } from '../eval/linear/game-features.js';
import { parseWeights, type LinearWeights } from '../eval/linear/weights.js';

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
