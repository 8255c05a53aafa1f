/**
 * The policy network file (`models/<game>-policy.bin`, version 1), written by
 * `trainer/policy_train.py`; all integers little-endian:
 *
 * | offset | size | field |
 * |---|---|---|
 * | 0 | 4 | magic `KPOL` |
 * | 4 | 2 | format version (1) |
 * | 6 | 1 | game: 0 chess, 1 shogi |
 * | 7 | 1 | keys per move |
 * | 8 | 4 | features F |
 * | 12 | 4 | hidden width H |
 * | 16 | 4 | move keys K |
 * | 20 | 4 | QA (hidden scale) |
 * | 24 | 4 | QB (move weight scale) |
 * | 28 | 4 | base weight (float32, >= 0): the weight of the one-ply prior's log probabilities added to the logits (0: none) |
 * | 32 | 2 F H | feature weights, int16, row per feature (scaled by QA) |
 * | .. | 2 H | hidden biases, int16 (QA) |
 * | .. | 2 K H | move key weights, int16, row per key (QB) |
 * | .. | 4 K | move key biases, int32 (QA * QB) |
 * | .. | 4 | CRC-32 of all bytes before |
 *
 * With a base weight the network is residual: the prior is softmax(logits + w * log one-ply prior),
 * the one-ply prior of src/search/mcts/cpu-evaluator.ts at its default temperature.
 *
 * The manifest beside it (`<file minus .bin>.manifest.json`, format `kishi-policy`) records the
 * architecture, data, training command and accuracy, and reference positions with every legal
 * move's exact integer logit; the loader (src/player/policy-file.ts) checks them all.
 */
import type { GameKind } from '../../core/game.js';
import { crc32 } from '../../core/crc32.js';
import { KishiError, Result } from '../../core/result.js';
import { CHESS_FEATURES_COUNT } from '../nnue/chess-features.js';
import { SHOGI_FEATURES_COUNT } from '../nnue/shogi-features.js';
import { CHESS_KEYS_PER_MOVE, CHESS_POLICY_KEYS } from './chess-policy-input.js';
import { SHOGI_KEYS_PER_MOVE, SHOGI_POLICY_KEYS } from './shogi-policy-input.js';

export const POLICY_MAGIC = 'KPOL';
export const POLICY_VERSION = 1;
const HEADER = 32;

/** The input sizes of each game (features, move keys, keys per move). */
export const POLICY_INPUTS: Readonly<Record<GameKind, { features: number; keys: number; keysPerMove: number }>> = {
  chess: { features: CHESS_FEATURES_COUNT, keys: CHESS_POLICY_KEYS, keysPerMove: CHESS_KEYS_PER_MOVE },
  shogi: { features: SHOGI_FEATURES_COUNT, keys: SHOGI_POLICY_KEYS, keysPerMove: SHOGI_KEYS_PER_MOVE },
};

/** A parsed policy network (integer weights). */
export interface PolicyNet {
  readonly game: GameKind;
  readonly features: number;
  readonly hidden: number;
  readonly keys: number;
  readonly keysPerMove: number;
  readonly qa: number;
  readonly qb: number;
  /** Weight of the one-ply prior's log probabilities in the logits (0: the network alone). */
  readonly baseWeight: number;
  /** `features * hidden`, row per feature. */
  readonly w1: Int16Array;
  readonly b1: Int16Array;
  /** `keys * hidden`, row per move key. */
  readonly w2: Int16Array;
  readonly b2: Int32Array;
}

const bad = (source: string, why: string): Result<never, KishiError> => Result.err(new KishiError('ERR_POLICY', `policy network ${source}: ${why}`));

/** Parses and checks a policy file's bytes. */
export const parsePolicy = (bytes: Uint8Array, source: string): Result<PolicyNet, KishiError> => {
  if (bytes.length < HEADER + 4) return bad(source, `truncated (${bytes.length} bytes)`);
  const magic = String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!);
  if (magic !== POLICY_MAGIC) return bad(source, `not a policy file (magic ${JSON.stringify(magic)}, expected ${POLICY_MAGIC})`);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = v.getUint16(4, true);
  if (version !== POLICY_VERSION) return bad(source, `format version ${version}, this build reads ${POLICY_VERSION}`);
  const gameCode = v.getUint8(6);
  if (gameCode > 1) return bad(source, `unknown game code ${gameCode}`);
  const game: GameKind = gameCode === 0 ? 'chess' : 'shogi';
  const kpm = v.getUint8(7);
  const features = v.getUint32(8, true);
  const hidden = v.getUint32(12, true);
  const keys = v.getUint32(16, true);
  const qa = v.getUint32(20, true);
  const qb = v.getUint32(24, true);
  const baseWeight = v.getFloat32(28, true);
  const want = POLICY_INPUTS[game];
  if (features !== want.features || keys !== want.keys || kpm !== want.keysPerMove) {
    return bad(source, `inputs ${features} features, ${keys} keys, ${kpm} per move; the ${game} policy inputs are ${want.features}, ${want.keys}, ${want.keysPerMove}`);
  }
  if (hidden < 1 || hidden > 1024 || qa < 1 || qa > 32767 || qb < 1) return bad(source, `implausible sizes (hidden ${hidden}, QA ${qa}, QB ${qb})`);
  if (!(baseWeight >= 0 && baseWeight < 100)) return bad(source, `base weight ${baseWeight} out of range`);
  const expected = HEADER + 2 * features * hidden + 2 * hidden + 2 * keys * hidden + 4 * keys + 4;
  if (bytes.length !== expected) return bad(source, `${bytes.length} bytes, a ${features}x${hidden} policy with ${keys} keys takes ${expected}${bytes.length < expected ? ' (truncated)' : ''}`);
  const stored = v.getUint32(expected - 4, true);
  const actual = crc32(bytes, 0, expected - 4);
  if (stored !== actual) return bad(source, `checksum mismatch (stored ${stored.toString(16)}, computed ${actual.toString(16)}): the file is corrupt`);
  let off = HEADER;
  const i16 = (n: number): Int16Array => {
    const out = new Int16Array(n);
    for (let i = 0; i < n; i++) out[i] = v.getInt16(off + 2 * i, true);
    off += 2 * n;
    return out;
  };
  const w1 = i16(features * hidden);
  const b1 = i16(hidden);
  const w2 = i16(keys * hidden);
  const b2 = new Int32Array(keys);
  for (let i = 0; i < keys; i++) b2[i] = v.getInt32(off + 4 * i, true);
  return Result.ok({ game, features, hidden, keys, keysPerMove: kpm, qa, qb, baseWeight, w1, b1, w2, b2 });
};

/** The file bytes of a policy network (the inverse of `parsePolicy`). */
export const serializePolicy = (net: PolicyNet): Uint8Array => {
  const { features: f, hidden: h, keys: k } = net;
  const size = HEADER + 2 * f * h + 2 * h + 2 * k * h + 4 * k + 4;
  const out = new Uint8Array(size);
  const v = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) out[i] = POLICY_MAGIC.charCodeAt(i);
  v.setUint16(4, POLICY_VERSION, true);
  v.setUint8(6, net.game === 'chess' ? 0 : 1);
  v.setUint8(7, net.keysPerMove);
  v.setUint32(8, f, true);
  v.setUint32(12, h, true);
  v.setUint32(16, k, true);
  v.setUint32(20, net.qa, true);
  v.setUint32(24, net.qb, true);
  v.setFloat32(28, net.baseWeight, true);
  let off = HEADER;
  for (const arr of [net.w1, net.b1, net.w2]) for (let i = 0; i < arr.length; i++, off += 2) v.setInt16(off, arr[i]!, true);
  for (let i = 0; i < k; i++, off += 4) v.setInt32(off, net.b2[i]!, true);
  v.setUint32(off, crc32(out, 0, off), true);
  return out;
};

/** One reference: a position and every legal move's integer logit, by UCI/USI text. */
export interface PolicyReference {
  readonly position: string;
  readonly logits: Readonly<Record<string, number>>;
}

export interface PolicyManifest {
  readonly format: 'kishi-policy';
  readonly version: number;
  readonly game: GameKind;
  readonly arch: { readonly features: number; readonly hidden: number; readonly keys: number; readonly keysPerMove: number; readonly qa: number; readonly qb: number; readonly baseWeight?: number };
  readonly data?: unknown;
  readonly training?: unknown;
  /** The softmax temperature the MCTS plays the network at (measured in matches); 1 when absent. */
  readonly temperature?: number;
  readonly date?: string;
  readonly commit?: string;
  readonly references: readonly PolicyReference[];
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Checks a parsed manifest against the network it describes (not yet the reference values). */
export const checkPolicyManifest = (json: unknown, net: PolicyNet, source: string): Result<PolicyManifest, KishiError> => {
  const fail = (why: string) => Result.err(new KishiError('ERR_POLICY', `policy manifest ${source}: ${why}`));
  if (!isRecord(json) || json.format !== 'kishi-policy') return fail('not a kishi-policy manifest');
  if (json.version !== POLICY_VERSION) return fail(`version ${String(json.version)}, expected ${POLICY_VERSION}`);
  if (json.game !== net.game) return fail(`for ${String(json.game)}, the network is ${net.game}`);
  const a = json.arch;
  if (!isRecord(a)) return fail('no arch');
  for (const k of ['features', 'hidden', 'keys', 'keysPerMove', 'qa', 'qb'] as const) {
    if (a[k] !== net[k]) return fail(`arch.${k} is ${JSON.stringify(a[k])}, the network file says ${JSON.stringify(net[k])}`);
  }
  // float32 in the file, a double in the manifest: compared at float32 precision.
  if (Math.fround(Number(a.baseWeight ?? 0)) !== net.baseWeight) return fail(`arch.baseWeight is ${JSON.stringify(a.baseWeight)}, the network file says ${net.baseWeight}`);
  if (json.temperature !== undefined && !(typeof json.temperature === 'number' && json.temperature > 0 && json.temperature < 100)) {
    return fail(`temperature ${JSON.stringify(json.temperature)}: expected a number in (0, 100)`);
  }
  const refs = json.references;
  if (!Array.isArray(refs) || refs.length === 0) return fail('no reference outputs');
  for (const r of refs) {
    if (!isRecord(r) || typeof r.position !== 'string' || !isRecord(r.logits) || !Object.values(r.logits).every((x) => Number.isInteger(x))) {
      return fail(`bad reference ${JSON.stringify(r).slice(0, 200)}`);
    }
  }
  return Result.ok(json as unknown as PolicyManifest);
};
