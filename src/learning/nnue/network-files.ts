/**
 * Files of a network being learned (TreeStrap, TD-Leaf, online TD-Leaf in `kishi run`):
 *
 * - `<name>.bin` + `<name>.manifest.json`: the integer network and its manifest, as the engine loads
 *   them (src/player/nnue-file.ts); the manifest keeps the start network's fields, gets fresh
 *   reference outputs (recomputed from the new weights, so the loader's exact check passes) and a
 *   `learning` record saying how the weights moved since the supervised network.
 * - `<name>.bin.master`: the float master copy (src/eval/nnue/float-network.ts), so that the next
 *   update continues from the unrounded weights. Little-endian: magic `KNUM`, u16 version 1, u32
 *   parameter count, u32 CRC-32 of the `.bin` file it belongs to, float64 parameters, u32 CRC-32 of
 *   all bytes before. A master copy that does not belong to the `.bin` beside it (the network was
 *   replaced by hand, or a writer died between the files) is ignored: learning restarts from the
 *   integer weights, which loses nothing but the sub-quantum remainders.
 *
 * All three are replaced atomically (atomic-write.ts), the master and the manifest first and the
 * network last: one process writes them in one synchronous step, so players of that process
 * reload a consistent pair; another process that loads between the renames sees a manifest whose
 * references do not match and falls back to the linear evaluation with that error.
 */
import { readFileSync } from 'node:fs';
import { crc32 } from '../../core/crc32.js';
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import { serializeNetwork, type NnueManifest } from '../../eval/nnue/format.js';
import type { NnueNetwork } from '../../eval/nnue/network.js';
import { TrainableNetwork } from '../../eval/nnue/trainable.js';
import { loadNnueFile, nnueManifestPath, nnueOutputOf, type LoadedNnue } from '../../player/nnue-file.js';
import { resolveModelPath } from '../../core/package-path.js';
import { writeFileAtomic } from '../../core/atomic-write.js';

const MASTER_MAGIC = 'KNUM';
const MASTER_VERSION = 1;
const MASTER_HEADER = 14;

/**
 * The identity of a network file: the CRC-32 of its bytes before its own checksum. (Not of the whole
 * file: a CRC over a message followed by its CRC is the same constant for every message.)
 */
const networkId = (networkBytes: Uint8Array): number => crc32(networkBytes, 0, Math.max(0, networkBytes.length - 4));

/** The master copy's file beside a network file. */
export const masterPath = (networkFile: string): string => `${networkFile}.master`;

/** The master copy's bytes; `networkBytes` is the `.bin` it belongs to. */
export const serializeMaster = (theta: Float64Array, networkBytes: Uint8Array): Uint8Array => {
  const out = new Uint8Array(MASTER_HEADER + 8 * theta.length + 4);
  const v = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) out[i] = MASTER_MAGIC.charCodeAt(i);
  v.setUint16(4, MASTER_VERSION, true);
  v.setUint32(6, theta.length, true);
  v.setUint32(10, networkId(networkBytes), true);
  for (let i = 0; i < theta.length; i++) v.setFloat64(MASTER_HEADER + 8 * i, theta[i]!, true);
  v.setUint32(out.length - 4, crc32(out, 0, out.length - 4), true);
  return out;
};

/** Reads a master copy, checked against the network bytes it must belong to; the reason when it does not. */
export const parseMaster = (bytes: Uint8Array, networkBytes: Uint8Array, size: number): Result<Float64Array, KishiError> => {
  const bad = (why: string): Result<never, KishiError> => Result.err(new KishiError('ERR_NNUE', `master copy: ${why}`));
  if (bytes.length < MASTER_HEADER + 4) return bad('truncated');
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!) !== MASTER_MAGIC) return bad('not a master copy');
  if (v.getUint16(4, true) !== MASTER_VERSION) return bad(`version ${v.getUint16(4, true)}`);
  const n = v.getUint32(6, true);
  if (n !== size) return bad(`${n} parameters, the network has ${size}`);
  if (bytes.length !== MASTER_HEADER + 8 * n + 4) return bad(`${bytes.length} bytes, expected ${MASTER_HEADER + 8 * n + 4}`);
  if (v.getUint32(bytes.length - 4, true) !== crc32(bytes, 0, bytes.length - 4)) return bad('checksum mismatch');
  if (v.getUint32(10, true) !== networkId(networkBytes)) return bad('belongs to another version of the network file');
  const theta = new Float64Array(n);
  for (let i = 0; i < n; i++) theta[i] = v.getFloat64(MASTER_HEADER + 8 * i, true);
  return Result.ok(theta);
};

export interface LoadedTrainable {
  readonly trainable: TrainableNetwork;
  readonly loaded: LoadedNnue;
  /** Whether the float master copy was found and used (otherwise theta is the dequantised network). */
  readonly fromMaster: boolean;
  /** Why a master copy on disk was not used, if one was there. */
  readonly masterProblem?: string;
}

/** Loads a network file (validated, src/player/nnue-file.ts) and its master copy when one belongs to it. */
export const loadTrainableNetwork = (path: string, game: GameKind): Result<LoadedTrainable, KishiError> => {
  const loaded = loadNnueFile(path, game);
  if (loaded.isErr) return Result.err(loaded.error);
  const L = loaded.value;
  let masterBytes: Uint8Array | undefined;
  try {
    masterBytes = new Uint8Array(readFileSync(masterPath(L.file)));
  } catch {
    masterBytes = undefined;
  }
  const size = new TrainableNetwork(L.net).layout.size;
  if (masterBytes !== undefined) {
    const theta = parseMaster(masterBytes, L.bytes, size);
    if (theta.isOk) return Result.ok({ trainable: new TrainableNetwork(L.net, theta.value), loaded: L, fromMaster: true });
    return Result.ok({ trainable: new TrainableNetwork(L.net), loaded: L, fromMaster: false, masterProblem: theta.error.message });
  }
  return Result.ok({ trainable: new TrainableNetwork(L.net), loaded: L, fromMaster: false });
};

/** How a learnt network came about (the manifest's `learning` field). */
export interface LearningRecord {
  readonly method: string;
  readonly games?: number;
  readonly date: string;
  readonly notes?: string;
  /** The supervised network learning started from (its manifest's date and commit). */
  readonly startedFrom?: string;
}

/** A manifest for `net`: `base`'s fields, the references recomputed, `learning` set. */
export const learntManifest = (net: NnueNetwork, base: NnueManifest, learning: LearningRecord): NnueManifest => {
  const references = base.references.map((r) => ({ position: r.position, output: nnueOutputOf(net, r.position).unwrap() }));
  return { ...base, references, date: learning.date, learning } as NnueManifest;
};

/** `learning.startedFrom` for a run starting at `manifest` (carried over when it was learnt already). */
export const startedFrom = (manifest: NnueManifest): string => {
  const prev = (manifest as { learning?: LearningRecord }).learning;
  if (prev?.startedFrom !== undefined) return prev.startedFrom;
  return `supervised network of ${manifest.date ?? 'unknown date'}${manifest.commit !== undefined ? ` (commit ${manifest.commit})` : ''}`;
};

/** The file contents of a learnt network: `.bin`, manifest text and master copy. */
export const learntNetworkFiles = (t: TrainableNetwork, base: NnueManifest, learning: LearningRecord): { bin: Uint8Array; manifest: string; master: Uint8Array } => {
  const bin = serializeNetwork(t.net);
  return { bin, manifest: `${JSON.stringify(learntManifest(t.net, base, learning), null, 2)}\n`, master: serializeMaster(t.theta, bin) };
};

/** Writes a learnt network (`.bin`, manifest, master copy) atomically, the `.bin` last. Throws on I/O errors. */
export const writeLearntNetwork = (path: string, t: TrainableNetwork, base: NnueManifest, learning: LearningRecord): void => {
  const file = resolveModelPath(path);
  const f = learntNetworkFiles(t, base, learning);
  writeFileAtomic(masterPath(file), f.master, { keepPrevious: false });
  writeFileAtomic(nnueManifestPath(file), f.manifest);
  writeFileAtomic(file, f.bin);
};
