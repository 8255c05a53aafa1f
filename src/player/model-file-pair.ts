/**
 * Reading a network file and its JSON manifest, shared by the alpha-beta network (nnue-file.ts)
 * and the MCTS policy (policy-file.ts) loaders: each failure names the file that could not be read.
 */
import { readFileSync } from 'node:fs';
import { KishiError, Result } from '../core/result.js';

/** What the error messages call the two files, and the error code. */
export interface ModelFileLabels {
  readonly code: string;
  /** e.g. "network": "network <file>: cannot read (...)". */
  readonly file: string;
  /** e.g. "network manifest". */
  readonly manifest: string;
}

/** The bytes of `file` and the text of `manifestPath`, or the first read failure. */
export const readModelFilePair = (file: string, manifestPath: string, labels: ModelFileLabels): Result<{ bytes: Uint8Array; text: string }, KishiError> => {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(file));
  } catch (e) {
    return Result.err(new KishiError(labels.code, `${labels.file} ${file}: cannot read (${(e as Error).message})`));
  }
  try {
    return Result.ok({ bytes, text: readFileSync(manifestPath, 'utf8') });
  } catch (e) {
    return Result.err(new KishiError(labels.code, `${labels.manifest} ${manifestPath}: cannot read (${(e as Error).message})`));
  }
};
