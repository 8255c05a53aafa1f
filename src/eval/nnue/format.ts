/**
 * The network file (`models/<game>-nnue.bin`, version 1, 2 or 3), all integers little-endian:
 *
 * | offset | size | field |
 * |---|---|---|
 * | 0 | 4 | magic `KNUE` |
 * | 4 | 2 | format version |
 * | 6 | 1 | game: 0 chess, 1 shogi |
 * | 7 | 1 | activation: 0 CReLU, 1 SCReLU |
 * | 8 | 4 | features F |
 * | 12 | 4 | hidden width H |
 * | 16 | 4 | QA |
 * | 20 | 4 | QB |
 * | 24 | 4 | SCALE |
 * | 28 | 4 | output bias (int32, scaled by QA * QB); 0 in version 3, which stores one per bucket |
 * | (32) | (4) | versions 2 and 3: feature set (index in `FEATURE_SETS`, network.ts; 1 = `king-bucket-9`, 2 = `king-zone`, 3 = `king-bucket-4`) |
 * | (36) | (4) | version 3 only: output buckets B (network.ts, `outputBucket`) |
 * | 32 (36, 40) | 2 F H | feature weights, int16, row per feature |
 * | .. | 2 H | feature biases, int16 |
 * | .. | 4 H B | output weights, int16 (per bucket: side to move's H, then the opponent's) |
 * | (..) | (4 B) | version 3 only: output biases, int32, one per bucket |
 * | .. | 4 | CRC-32 of all bytes before |
 *
 * Version 1 files are the `base` feature set (the nets shipped before king-relative features load
 * unchanged); a `base` network without output buckets is written as version 1, one with buckets as
 * version 3, any other feature set as version 2 (or 3 with buckets). Output buckets are defined for
 * chess only (a shogi position always has 40 pieces).
 *
 * The manifest beside it (`<file minus .bin>.manifest.json`) records the architecture, training
 * data and command, date, commit and reference outputs (positions and their exact integer outputs);
 * the loader (src/player/nnue-file.ts) checks both.
 */
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import { crc32 } from '../../core/crc32.js';
import { CHESS_FEATURES_COUNT } from './chess-features.js';
import { CHESS_KB_FEATURES_COUNT } from './chess-king-features.js';
import { ACTIVATIONS, FEATURE_SETS, type FeatureSet, type NnueNetwork } from './network.js';
import { SHOGI_FEATURES_COUNT } from './shogi-features.js';
import { SHOGI_KB_FEATURES_COUNT } from './shogi-king-features.js';
import { SHOGI_KZ_FEATURES_COUNT } from './shogi-king-zone-features.js';

export const NNUE_MAGIC = 'KNUE';
/** The newest format version (versions 1 and 2 are still read and written). */
export const NNUE_VERSION = 3;
/** The most output buckets a file may have. */
export const MAX_OUTPUT_BUCKETS = 16;
const HEADER = 32;

/** Feature count of each game's `base` input set. */
export const NNUE_FEATURES: Readonly<Record<GameKind, number>> = { chess: CHESS_FEATURES_COUNT, shogi: SHOGI_FEATURES_COUNT };

/** Feature count of a game's input set (undefined: the set does not exist for that game). */
export const featureCount = (game: GameKind, set: FeatureSet): number | undefined => {
  if (set === 'base') return NNUE_FEATURES[game];
  if (game === 'chess') return set === 'king-bucket-4' ? CHESS_KB_FEATURES_COUNT : undefined;
  return set === 'king-bucket-9' ? SHOGI_KB_FEATURES_COUNT : set === 'king-zone' ? SHOGI_KZ_FEATURES_COUNT : undefined;
};

/** The file version a network is written in: 3 with output buckets, else 1 for the `base` set, else 2. */
export const fileVersion = (set: FeatureSet, outputBuckets = 1): number => (outputBuckets > 1 ? 3 : set === 'base' ? 1 : 2);

const headerBytes = (version: number): number => HEADER + (version === 1 ? 0 : version === 2 ? 4 : 8);

const bad = (source: string, why: string): Result<never, KishiError> => Result.err(new KishiError('ERR_NNUE', `network ${source}: ${why}`));

/** Parses and checks a network file's bytes. */
export const parseNetwork = (bytes: Uint8Array, source: string): Result<NnueNetwork, KishiError> => {
  if (bytes.length < HEADER + 4) return bad(source, `truncated (${bytes.length} bytes)`);
  const magic = String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!);
  if (magic !== NNUE_MAGIC) return bad(source, `not a network file (magic ${JSON.stringify(magic)}, expected ${NNUE_MAGIC})`);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = v.getUint16(4, true);
  if (version < 1 || version > NNUE_VERSION) return bad(source, `format version ${version}, this build reads 1 to ${NNUE_VERSION}`);
  const header = headerBytes(version);
  if (bytes.length < header + 4) return bad(source, `truncated (${bytes.length} bytes)`);
  const setCode = version === 1 ? 0 : v.getUint32(HEADER, true);
  if (setCode >= FEATURE_SETS.length) return bad(source, `unknown feature set ${setCode}`);
  const featureSet = FEATURE_SETS[setCode]!;
  if (version === 2 && featureSet === 'base') return bad(source, 'a version 2 file with the base feature set (written as version 1)');
  const buckets = version === 3 ? v.getUint32(HEADER + 4, true) : 1;
  if (version === 3 && (buckets < 2 || buckets > MAX_OUTPUT_BUCKETS)) return bad(source, `${buckets} output buckets (a version 3 file has 2 to ${MAX_OUTPUT_BUCKETS})`);
  const gameCode = v.getUint8(6);
  if (gameCode > 1) return bad(source, `unknown game code ${gameCode}`);
  const game: GameKind = gameCode === 0 ? 'chess' : 'shogi';
  const act = v.getUint8(7);
  if (act >= ACTIVATIONS.length) return bad(source, `unknown activation ${act}`);
  const features = v.getUint32(8, true);
  const hidden = v.getUint32(12, true);
  const qa = v.getUint32(16, true);
  const qb = v.getUint32(20, true);
  const scale = v.getUint32(24, true);
  const count = featureCount(game, featureSet);
  if (count === undefined) return bad(source, `feature set ${featureSet} is not defined for ${game}`);
  if (features !== count) return bad(source, `${features} features, the ${game} ${featureSet} input set has ${count}`);
  if (hidden < 1 || hidden > 4096 || qa < 1 || qb < 1 || scale < 1) return bad(source, `implausible sizes (hidden ${hidden}, QA ${qa}, QB ${qb}, SCALE ${scale})`);
  if (buckets > 1 && game !== 'chess') return bad(source, `output buckets are defined for chess only, the network is ${game}`);
  const expected = header + 2 * features * hidden + 2 * hidden + 4 * hidden * buckets + (version === 3 ? 4 * buckets : 0) + 4;
  if (bytes.length !== expected) return bad(source, `${bytes.length} bytes, a ${features}x${hidden} network takes ${expected}${bytes.length < expected ? ' (truncated)' : ''}`);
  const stored = v.getUint32(expected - 4, true);
  const actual = crc32(bytes, 0, expected - 4);
  if (stored !== actual) return bad(source, `checksum mismatch (stored ${stored.toString(16)}, computed ${actual.toString(16)}): the file is corrupt`);
  // Copies: the input buffer may be unaligned for Int16Array views.
  let off = header;
  const i16 = (n: number): Int16Array => {
    const out = new Int16Array(n);
    for (let i = 0; i < n; i++) out[i] = v.getInt16(off + 2 * i, true);
    off += 2 * n;
    return out;
  };
  const l1w = i16(features * hidden);
  const l1b = i16(hidden);
  const l2w = i16(2 * hidden * buckets);
  const l2b = new Int32Array(buckets);
  if (version === 3) for (let b = 0; b < buckets; b++, off += 4) l2b[b] = v.getInt32(off, true);
  else l2b[0] = v.getInt32(28, true);
  return Result.ok({ game, featureSet, features, hidden, activation: ACTIVATIONS[act]!, qa, qb, scale, outputBuckets: buckets, l1w, l1b, l2w, l2b });
};

/** The file bytes of a network (the inverse of `parseNetwork`). */
export const serializeNetwork = (net: NnueNetwork): Uint8Array => {
  const { features: f, hidden: h, outputBuckets: nb } = net;
  const version = fileVersion(net.featureSet, nb);
  const header = headerBytes(version);
  const size = header + 2 * f * h + 2 * h + 4 * h * nb + (version === 3 ? 4 * nb : 0) + 4;
  const out = new Uint8Array(size);
  const v = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) out[i] = NNUE_MAGIC.charCodeAt(i);
  v.setUint16(4, version, true);
  v.setUint8(6, net.game === 'chess' ? 0 : 1);
  v.setUint8(7, ACTIVATIONS.indexOf(net.activation));
  v.setUint32(8, f, true);
  v.setUint32(12, h, true);
  v.setUint32(16, net.qa, true);
  v.setUint32(20, net.qb, true);
  v.setUint32(24, net.scale, true);
  v.setInt32(28, version === 3 ? 0 : net.l2b[0]!, true);
  if (version !== 1) v.setUint32(HEADER, FEATURE_SETS.indexOf(net.featureSet), true);
  if (version === 3) v.setUint32(HEADER + 4, nb, true);
  let off = header;
  for (const arr of [net.l1w, net.l1b, net.l2w]) for (let i = 0; i < arr.length; i++, off += 2) v.setInt16(off, arr[i]!, true);
  if (version === 3) for (let b = 0; b < nb; b++, off += 4) v.setInt32(off, net.l2b[b]!, true);
  v.setUint32(off, crc32(out, 0, off), true);
  return out;
};

/** One reference output: a position and the network's exact integer output for it (side to move's view). */
export interface NnueReference {
  readonly position: string;
  readonly output: number;
}

export interface NnueManifest {
  readonly format: 'kishi-nnue';
  readonly version: number;
  readonly game: GameKind;
  /** `featureSet`: absent (version 1 manifests) means `base`; `outputBuckets`: absent means 1. */
  readonly arch: { readonly featureSet?: string; readonly outputBuckets?: number; readonly features: number; readonly hidden: number; readonly activation: string; readonly qa: number; readonly qb: number; readonly scale: number };
  readonly data?: unknown;
  readonly training?: unknown;
  readonly date?: string;
  readonly commit?: string;
  readonly references: readonly NnueReference[];
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Checks a parsed manifest against the network it describes. */
export const checkManifest = (json: unknown, net: NnueNetwork, source: string): Result<NnueManifest, KishiError> => {
  const fail = (why: string) => Result.err(new KishiError('ERR_NNUE', `network manifest ${source}: ${why}`));
  if (!isRecord(json) || json.format !== 'kishi-nnue') return fail('not a kishi-nnue manifest');
  const version = fileVersion(net.featureSet, net.outputBuckets);
  if (json.version !== version) return fail(`version ${String(json.version)}, the network file is version ${version}`);
  if (json.game !== net.game) return fail(`for ${String(json.game)}, the network is ${net.game}`);
  const a = json.arch;
  if (!isRecord(a)) return fail('no arch');
  const set = a.featureSet ?? 'base';
  if (set !== net.featureSet) return fail(`arch.featureSet is ${JSON.stringify(set)}, the network file says ${JSON.stringify(net.featureSet)}`);
  const buckets = a.outputBuckets ?? 1;
  if (buckets !== net.outputBuckets) return fail(`arch.outputBuckets is ${JSON.stringify(buckets)}, the network file says ${net.outputBuckets}`);
  for (const k of ['features', 'hidden', 'activation', 'qa', 'qb', 'scale'] as const) {
    if (a[k] !== net[k]) return fail(`arch.${k} is ${JSON.stringify(a[k])}, the network file says ${JSON.stringify(net[k])}`);
  }
  const refs = json.references;
  if (!Array.isArray(refs) || refs.length === 0) return fail('no reference outputs');
  for (const r of refs) if (!isRecord(r) || typeof r.position !== 'string' || !Number.isInteger(r.output)) return fail(`bad reference ${JSON.stringify(r)}`);
  return Result.ok(json as unknown as NnueManifest);
};
