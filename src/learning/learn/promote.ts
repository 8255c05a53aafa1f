/**
 * Promotion: a candidate that passed its gate is copied into the models folder as
 * `<game>-nnue.bin`, with its trainer manifest extended by a `learn` section (the data sets and their
 * positions, the training command, the gate result), which the loader ignores and a reader of
 * models/ finds; and the next generation's teacher is written (the promoted net, or the old teacher
 * when the gate failed). Every file is written atomically (src/core/atomic-write.ts), the net
 * before its manifest; rerunning a promotion writes the same bytes.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { GameKind } from '../../core/game.js';
import { stringifyResultJson } from '../../core/json.js';
import { KishiError, Result } from '../../core/result.js';
import { nnueManifestPath } from '../../player/nnue-file.js';
import { writeFileAtomic } from '../../core/atomic-write.js';
import type { GateRecord, TrainRecord } from './state.js';

/** The `learn` section of a promoted net's manifest. */
export interface LearnProvenance {
  readonly generation: number;
  readonly dataSets: TrainRecord['dataSets'];
  readonly positions: number;
  /** The training command, the run directory written `$DIR`. */
  readonly command: string;
  readonly gate: GateRecord;
  /** The datagen budget and evaluation the data was made with. */
  readonly datagen: { readonly nodes: number; readonly seeds: readonly number[] };
}

/** Copies a net and its manifest (`x.bin` + `x.manifest.json`) to `dst`, adding `extra` to the manifest. */
export function copyNet(src: string, dst: string, extra?: Record<string, unknown>): Result<void, KishiError> {
  let bytes: Uint8Array;
  let manifest: Record<string, unknown>;
  try {
    bytes = new Uint8Array(readFileSync(src));
    manifest = JSON.parse(readFileSync(nnueManifestPath(src), 'utf8')) as Record<string, unknown>;
  } catch (e) {
    return Result.err(new KishiError('ERR_NNUE', `cannot read the net ${src} and its manifest: ${(e as Error).message}`));
  }
  try {
    mkdirSync(dirname(dst), { recursive: true });
    writeFileAtomic(dst, bytes, { keepPrevious: false });
    writeFileAtomic(nnueManifestPath(dst), `${stringifyResultJson({ ...manifest, ...(extra ?? {}) })}\n`, { keepPrevious: false });
  } catch (e) {
    return Result.err(new KishiError('ERR_OUTPUT', `cannot write ${dst}: ${(e as Error).message}`));
  }
  return Result.ok(undefined);
}

/** The promoted net's path in the models folder. */
export const promotedPath = (models: string, game: GameKind): string => join(models, `${game}-nnue.bin`);

/** Copies the candidate into `models/<game>-nnue.bin` with the `learn` section in its manifest. */
export const promoteCandidate = (candidate: string, models: string, game: GameKind, provenance: LearnProvenance): Result<string, KishiError> => {
  const dst = promotedPath(models, game);
  return copyNet(candidate, dst, { learn: provenance }).map(() => dst);
};
