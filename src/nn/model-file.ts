/**
 * Reading a model from disk: the manifest next to the ONNX file, then the session. `checkModelFiles`
 * is the cheap synchronous part (files present, manifest valid) that `search: auto` uses to decide
 * without loading the runtime; `loadModel` does everything and returns a ready evaluator.
 * Expected failures (missing, corrupt, mismatching) are `ERR_MODEL` results, never exceptions.
 */
import { readFileSync, statSync } from 'node:fs';
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import { CachedEvaluator } from './nn-cache.js';
import { NetEvaluator } from './evaluator.js';
import { encodingOf, manifestPathOf, parseManifest, type ModelManifest } from './manifest.js';
import type { OnnxRunnerOptions } from './onnx-runner.js';

/** Reads and validates the manifest of the model at `path` (already resolved) and checks the model file is there. */
export const checkModelFiles = (path: string, game: GameKind): Result<ModelManifest, KishiError> => {
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size < 16) return Result.err(new KishiError('ERR_MODEL', `model ${path}: not a model file (${st.size} bytes)`));
  } catch (e) {
    return Result.err(new KishiError('ERR_MODEL', `model ${path}: cannot read (${(e as Error).message})`));
  }
  const mpath = manifestPathOf(path);
  let text: string;
  try {
    text = readFileSync(mpath, 'utf8');
  } catch (e) {
    return Result.err(new KishiError('ERR_MODEL', `model manifest ${mpath}: cannot read (${(e as Error).message})`));
  }
  return parseManifest(text, game, mpath);
};

export interface LoadModelOptions extends OnnxRunnerOptions {
  /** Largest batch the evaluator takes (default 64). */
  readonly maxBatch?: number;
  /** NN cache entries (default 100,000; 0 for none). */
  readonly cacheEntries?: number;
}

export interface LoadedModel {
  readonly manifest: ModelManifest;
  readonly evaluator: CachedEvaluator;
}

/** Loads the model at `path` (already resolved) for `game`: manifest, session, probe run, cache. */
export const loadModel = async (path: string, game: GameKind, options: LoadModelOptions = {}): Promise<Result<LoadedModel, KishiError>> => {
  const manifest = checkModelFiles(path, game);
  if (manifest.isErr) return Result.err(manifest.error);
  // Imported lazily: the native runtime loads only where a model is really used.
  const { OnnxRunner } = await import('./onnx-runner.js');
  const runner = await OnnxRunner.create(path, encodingOf(game), options);
  if (runner.isErr) return Result.err(runner.error);
  const evaluator = new CachedEvaluator(new NetEvaluator(runner.value, options.maxBatch ?? 64), options.cacheEntries ?? 100_000);
  return Result.ok({ manifest: manifest.value, evaluator });
};
