/**
 * Reading a network evaluation from disk: the network file (src/eval/nnue/format.ts) and its
 * manifest beside it (`<name>.manifest.json` for `<name>.bin`), both validated, and the manifest's
 * reference outputs recomputed by this build's inference and compared exactly. Any failure is an
 * `ERR_NNUE` saying what is wrong; the engine then plays with the linear evaluation (factory.ts).
 */
import type { GameKind } from '../core/game.js';
import { parseJsonText } from '../core/json.js';
import { KishiError, Result } from '../core/result.js';
import { ChessNnue } from '../eval/nnue/chess-nnue.js';
import { checkManifest, parseNetwork, type NnueManifest } from '../eval/nnue/format.js';
import type { NnueNetwork } from '../eval/nnue/network.js';
import { ShogiNnue } from '../eval/nnue/shogi-nnue.js';
import { FastChessBoard } from '../games/chess/fast/board.js';
import { FastShogiBoard } from '../games/shogi/fast/board.js';
import { readModelFilePair } from './model-file-pair.js';
import { resolveModelPath } from '../core/package-path.js';

export interface LoadedNnue {
  readonly net: NnueNetwork;
  readonly manifest: NnueManifest;
  /** The file's bytes (handed to search workers). */
  readonly bytes: Uint8Array;
  readonly file: string;
}

/** The manifest path of a network file. */
export const nnueManifestPath = (file: string): string => `${file.endsWith('.bin') ? file.slice(0, -4) : file}.manifest.json`;

/** The network's integer output (side to move's view) for a FEN or SFEN. */
export const nnueOutputOf = (net: NnueNetwork, position: string): Result<number, KishiError> => {
  if (net.game === 'chess') {
    const b = FastChessBoard.fromFen(position);
    if (b.isErr) return Result.err(b.error);
    const n = new ChessNnue(net);
    n.attach(b.value);
    return Result.ok(n.evaluate(b.value));
  }
  const b = FastShogiBoard.fromSfen(position);
  if (b.isErr) return Result.err(b.error);
  const n = new ShogiNnue(net);
  n.attach(b.value);
  return Result.ok(n.evaluate(b.value));
};

/** Checks bytes + manifest JSON text for `game` (no file access). */
export const validateNnue = (bytes: Uint8Array, manifestText: string, game: GameKind, file: string): Result<LoadedNnue, KishiError> => {
  const net = parseNetwork(bytes, file);
  if (net.isErr) return Result.err(net.error);
  if (net.value.game !== game) return Result.err(new KishiError('ERR_NNUE', `network ${file}: a ${net.value.game} network, not ${game}`));
  const json = parseJsonText(manifestText, 'ERR_NNUE', `network manifest of ${file}`);
  if (json.isErr) return Result.err(json.error);
  const manifest = checkManifest(json.value, net.value, nnueManifestPath(file));
  if (manifest.isErr) return Result.err(manifest.error);
  for (const r of manifest.value.references) {
    const out = nnueOutputOf(net.value, r.position);
    if (out.isErr) return Result.err(new KishiError('ERR_NNUE', `network ${file}: reference position ${JSON.stringify(r.position)}: ${out.error.message}`));
    if (out.value !== r.output) {
      return Result.err(new KishiError('ERR_NNUE', `network ${file}: reference ${JSON.stringify(r.position)} gives ${out.value}, the manifest says ${r.output} (file and manifest do not belong together, or the inference changed)`));
    }
  }
  return Result.ok({ net: net.value, manifest: manifest.value, bytes, file });
};

/** Reads and validates a network file and its manifest. */
export const loadNnueFile = (path: string, game: GameKind): Result<LoadedNnue, KishiError> => {
  const file = resolveModelPath(path);
  const read = readModelFilePair(file, nnueManifestPath(file), { code: 'ERR_NNUE', file: 'network', manifest: 'network manifest' });
  if (read.isErr) return Result.err(read.error);
  return validateNnue(read.value.bytes, read.value.text, game, file);
};
