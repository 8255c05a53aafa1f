/**
 * Weights files of the linear evaluation: JSON with a manifest and the non-zero weights by name.
 *
 * ```json
 * {
 *   "manifest": { "format": "kishi-linear-weights", "formatVersion": 1, "game": "chess",
 *                 "featureSet": "chess-linear-1", "features": 1000, "scale": "centipawns",
 *                 "provenance": { "method": "material", "date": "2025-01-01" } },
 *   "weights": { "material.pawn": 100, "material.knight": 300 }
 * }
 * ```
 *
 * Features not listed weigh 0. A file for another game, another feature-set version or naming a
 * feature the set does not have is refused with a `KishiError` (`ERR_WEIGHTS`) that says why.
 * Pure: parsing and serialising only; reading the file is the caller's business.
 */
import { GAME_KINDS, type GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import type { FeatureSet } from './feature-registry.js';
import { setThetaGrain, thetaGrain } from './grain.js';

export const WEIGHTS_FORMAT = 'kishi-linear-weights';
export const WEIGHTS_FORMAT_VERSION = 1;

/** Where a set of weights came from (TreeStrap fills in command, games, time and commit). */
export interface WeightsProvenance {
  /** `material`, `treestrap-ab`, `treestrap-minimax`, `rootstrap-ab`, `tdleaf`, ... */
  readonly method: string;
  readonly command?: string;
  readonly games?: number;
  readonly trainingSeconds?: number;
  readonly commit?: string;
  readonly date?: string;
  readonly notes?: string;
}

export interface WeightsManifest {
  readonly format: typeof WEIGHTS_FORMAT;
  readonly formatVersion: number;
  readonly game: GameKind;
  /** `FeatureSet.version` the weights belong to. */
  readonly featureSet: string;
  /** `FeatureSet.size`, as a cross-check. */
  readonly features: number;
  /** Unit of H(s): centipawns (a chess pawn, a shogi pawn = 100). */
  readonly scale: 'centipawns';
  /** Optional: H(s) is rounded to a multiple of this many centipawns when these weights play (grain.ts); absent: 1. */
  readonly evalGrain?: number;
  readonly provenance: WeightsProvenance;
}

/** Validated weights: theta indexed like the feature set. */
export interface LinearWeights {
  readonly manifest: WeightsManifest;
  readonly theta: Float64Array;
}

const fail = (source: string, why: string): Result<LinearWeights, KishiError> =>
  Result.err(new KishiError('ERR_WEIGHTS', `weights ${source}: ${why}`));

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Validates parsed JSON against `featureSet`. `source` names the file in error messages. */
export const weightsFromJson = <B>(json: unknown, featureSet: FeatureSet<B>, source: string): Result<LinearWeights, KishiError> => {
  if (!isRecord(json)) return fail(source, 'not a JSON object');
  const m = json['manifest'];
  if (!isRecord(m)) return fail(source, 'missing "manifest" object');
  if (m['format'] !== WEIGHTS_FORMAT) return fail(source, `manifest.format is ${JSON.stringify(m['format'])}, expected "${WEIGHTS_FORMAT}"`);
  if (m['formatVersion'] !== WEIGHTS_FORMAT_VERSION)
    return fail(source, `manifest.formatVersion is ${JSON.stringify(m['formatVersion'])}, expected ${WEIGHTS_FORMAT_VERSION}`);
  const game = m['game'];
  if (typeof game !== 'string' || !(GAME_KINDS as readonly string[]).includes(game))
    return fail(source, `manifest.game is ${JSON.stringify(game)}, expected one of ${GAME_KINDS.join(', ')}`);
  if (game !== featureSet.game) return fail(source, `weights are for ${game}, but this evaluation plays ${featureSet.game}`);
  if (m['featureSet'] !== featureSet.version)
    return fail(
      source,
      `feature set mismatch: the file was made for ${JSON.stringify(m['featureSet'])}, this build has "${featureSet.version}"`,
    );
  if (m['features'] !== featureSet.size)
    return fail(source, `manifest.features is ${JSON.stringify(m['features'])}, but feature set "${featureSet.version}" has ${featureSet.size}`);
  if (m['scale'] !== 'centipawns') return fail(source, `manifest.scale is ${JSON.stringify(m['scale'])}, expected "centipawns"`);
  const grain = m['evalGrain'];
  if (grain !== undefined && (typeof grain !== 'number' || !Number.isInteger(grain) || grain < 1))
    return fail(source, `manifest.evalGrain is ${JSON.stringify(grain)}, expected a whole number of centipawns >= 1`);
  const prov = m['provenance'];
  if (!isRecord(prov) || typeof prov['method'] !== 'string') return fail(source, 'manifest.provenance.method missing');
  const w = json['weights'];
  if (!isRecord(w)) return fail(source, 'missing "weights" object (feature name -> number)');
  const theta = new Float64Array(featureSet.size);
  const unknown: string[] = [];
  for (const [name, value] of Object.entries(w)) {
    const i = featureSet.indexOf.get(name);
    if (i === undefined) {
      unknown.push(name);
      continue;
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) return fail(source, `weight ${name} is ${JSON.stringify(value)}, not a finite number`);
    theta[i] = value;
  }
  if (unknown.length > 0)
    return fail(source, `${unknown.length} unknown feature name(s) for "${featureSet.version}": ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ', ...' : ''}`);
  if (typeof grain === 'number') setThetaGrain(theta, grain);
  return Result.ok({ manifest: m as unknown as WeightsManifest, theta });
};

/** Parses and validates a weights file's text. */
export const parseWeights = <B>(text: string, featureSet: FeatureSet<B>, source: string): Result<LinearWeights, KishiError> => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return fail(source, `invalid JSON (${(e as Error).message})`);
  }
  return weightsFromJson(json, featureSet, source);
};

/** A manifest for `featureSet` with the given provenance. */
export const makeManifest = <B>(featureSet: FeatureSet<B>, provenance: WeightsProvenance, evalGrain?: number): WeightsManifest => ({
  format: WEIGHTS_FORMAT,
  formatVersion: WEIGHTS_FORMAT_VERSION,
  game: featureSet.game,
  featureSet: featureSet.version,
  features: featureSet.size,
  scale: 'centipawns',
  ...(evalGrain !== undefined && evalGrain > 1 ? { evalGrain } : {}),
  provenance,
});

/**
 * Serialises weights (non-zero ones, in index order) as the JSON text of a weights file; the grain
 * is `evalGrain`, else the one attached to `theta` (a loaded file's), written only when above 1.
 */
export const serializeWeights = <B>(
  featureSet: FeatureSet<B>,
  theta: Float64Array,
  provenance: WeightsProvenance,
  evalGrain: number = thetaGrain(theta),
): string => {
  const weights: Record<string, number> = {};
  for (let i = 0; i < featureSet.size; i++) if (theta[i] !== 0) weights[featureSet.names[i]!] = theta[i]!;
  return `${JSON.stringify({ manifest: makeManifest(featureSet, provenance, evalGrain), weights }, null, 1)}\n`;
};
