/**
 * Model manifests: the JSON file next to each ONNX model (`models/chess.onnx` ->
 * `models/chess.manifest.json`) that says what the net is (game, encoding version, shapes,
 * precision, architecture), where it came from (training data and steps, or `trained: false`),
 * and reference outputs for a few fixed positions recorded when it was exported (tests compare
 * the ONNX runtime's outputs with them). models/README.md documents the fields.
 *
 * Parsing is pure; reading the file is the caller's business (model-file.ts).
 */
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import { CHESS_ENCODING } from './chess-encoding.js';
import type { EncodingSpec } from './encoding.js';
import { SHOGI_ENCODING } from './shogi-encoding.js';

export const MANIFEST_FORMAT = 'kishi-model-1';

/** Precision of the weights: plain float32, or static INT8 with QuantizeLinear/DequantizeLinear pairs. */
export const PRECISIONS = ['fp32', 'int8-qdq'] as const;
export type Precision = (typeof PRECISIONS)[number];

/** One reference position: the net's outputs recorded at export. */
export interface ReferencePosition {
  /** FEN/SFEN or `startpos`. */
  readonly start: string;
  /** Moves from `start` (UCI/USI). */
  readonly moves: readonly string[];
  /** Chess960 castling rules for the start position. */
  readonly chess960?: boolean;
  /** The value output. */
  readonly value: number;
  /** Masked, renormalised policy per legal move (UCI castling as king takes rook / USI). */
  readonly priors: Readonly<Record<string, number>>;
}

export interface ModelManifest {
  readonly format: typeof MANIFEST_FORMAT;
  readonly game: GameKind;
  /** The encoding version the net was trained with (must equal the code's). */
  readonly encoding: string;
  readonly precision: Precision;
  /** [planes, height, width] of the `input` tensor. */
  readonly inputShape: readonly [number, number, number];
  /** Length of the `policy` output per position. */
  readonly policySize: number;
  /** Free-form description of the net (kind, blocks, filters, heads, parameters). */
  readonly architecture: Readonly<Record<string, unknown>>;
  /** Whether the weights were trained at all (false: a random net, for tests only). */
  readonly trained: boolean;
  /** Free-form: data, phases, steps, losses, measured strength (only what was measured). */
  readonly training: Readonly<Record<string, unknown>>;
  /** Free-form: who/what made the file, when, from which commit and source model. */
  readonly provenance: Readonly<Record<string, unknown>>;
  /** Reference outputs and the tolerance (absolute) they hold to. */
  readonly reference: { readonly tolerance: number; readonly positions: readonly ReferencePosition[] };
}

/** The encoding the code uses for `game`. */
export const encodingOf = (game: GameKind): EncodingSpec => (game === 'chess' ? CHESS_ENCODING : SHOGI_ENCODING);

/** The manifest path of a model path: `x.onnx` -> `x.manifest.json`. */
export const manifestPathOf = (modelPath: string): string => modelPath.replace(/\.onnx$/i, '') + '.manifest.json';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Parses and checks a manifest for `game`: the format, the game, the encoding version and the
 * shapes must match the code. `ERR_MODEL` says what is wrong, quoting `where`.
 */
export const parseManifest = (text: string, game: GameKind, where: string): Result<ModelManifest, KishiError> => {
  const fail = (why: string): Result<ModelManifest, KishiError> => Result.err(new KishiError('ERR_MODEL', `model manifest ${where}: ${why}`));
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return fail(`not JSON (${(e as Error).message})`);
  }
  if (!isObject(raw)) return fail('not a JSON object');
  if (raw.format !== MANIFEST_FORMAT) return fail(`format ${JSON.stringify(raw.format)}, expected ${MANIFEST_FORMAT}`);
  if (raw.game !== game) return fail(`a ${String(raw.game)} model, not ${game}`);
  const spec = encodingOf(game);
  if (raw.encoding !== spec.version) return fail(`encoding ${JSON.stringify(raw.encoding)}, this build reads ${spec.version}`);
  if (!PRECISIONS.includes(raw.precision as Precision)) return fail(`precision ${JSON.stringify(raw.precision)}`);
  const shape = raw.inputShape;
  if (!Array.isArray(shape) || shape[0] !== spec.planes || shape[1] !== spec.height || shape[2] !== spec.width) {
    return fail(`inputShape ${JSON.stringify(shape)}, expected [${spec.planes}, ${spec.height}, ${spec.width}]`);
  }
  if (raw.policySize !== spec.policySize) return fail(`policySize ${String(raw.policySize)}, expected ${spec.policySize}`);
  if (typeof raw.trained !== 'boolean') return fail('missing "trained"');
  for (const key of ['architecture', 'training', 'provenance'] as const) if (!isObject(raw[key])) return fail(`missing object "${key}"`);
  const ref = raw.reference;
  if (!isObject(ref) || typeof ref.tolerance !== 'number' || !Array.isArray(ref.positions)) return fail('missing "reference" {tolerance, positions}');
  for (const p of ref.positions as unknown[]) {
    if (!isObject(p) || typeof p.start !== 'string' || !Array.isArray(p.moves) || typeof p.value !== 'number' || !isObject(p.priors)) {
      return fail('a reference position lacks start/moves/value/priors');
    }
  }
  return Result.ok(raw as unknown as ModelManifest);
};
