/**
 * Training-record chunks for the nets (`.knr` files): many positions, each with its encoded input
 * planes, the policy target over its legal moves, a search value and the game result, laid out
 * column by column so that PyTorch code reads them with a few `numpy.frombuffer` calls
 * (trainer/kishi_nn/chunks.py). models/README.md documents the layout.
 *
 * Planes are stored losslessly and small: every plane of both encodings is either constant or
 * takes a single non-zero value on some squares, so a plane is a bitmap (which squares are
 * non-zero) times one float (the value there). A chess position takes about 300 bytes.
 *
 * Layout, little-endian, every section aligned to 4 bytes:
 *   "KNNR", u32 version (1), u32 header length, header JSON (game, encoding, count, planes,
 *   height, width, policySize, totalPolicy, textBytes, meta), then
 *   bits     u8  [count][planes][ceil(height*width/8)]   square s of a plane is bit s%8 of byte s/8
 *   scalars  f32 [count][planes]
 *   polStart u32 [count+1]      the legal moves of position i are entries polStart[i]..polStart[i+1)
 *   polIndex u16 [totalPolicy]  policy index of each legal move
 *   polProb  f32 [totalPolicy]  target probability of each legal move (sums to 1 per position)
 *   value    f32 [count]        search value for the side to move (NaN if none)
 *   result   i8  [count]        game result for the side to move: 1, 0, -1 (or -128: unknown)
 *   txtStart u32 [count+1], text u8 [textBytes]   FEN/SFEN plus context, e.g. "<fen>|rep=0|plies=12"
 * Pure: builds and parses bytes; files are the caller's business.
 */
import { KishiError, Result } from '../core/result.js';
import type { EncodingSpec } from './encoding.js';

export const CHUNK_MAGIC = 'KNNR';
export const CHUNK_VERSION = 1;

export interface ChunkHeader {
  readonly game: string;
  readonly encoding: string;
  readonly count: number;
  readonly planes: number;
  readonly height: number;
  readonly width: number;
  readonly policySize: number;
  readonly totalPolicy: number;
  readonly textBytes: number;
  /** Free-form: phase (`bootstrap-alphabeta`, `selfplay`), generator settings, commit. */
  readonly meta: Readonly<Record<string, unknown>>;
}

/** One position for `ChunkWriter.add`. */
export interface ChunkRecord {
  readonly planes: Float32Array;
  readonly moveIndices: ArrayLike<number>;
  /** Target probabilities of the legal moves, same order as `moveIndices`. */
  readonly policy: ArrayLike<number>;
  readonly value: number;
  readonly result: number;
  readonly text: string;
}

const align4 = (n: number): number => (n + 3) & ~3;

export class ChunkWriter {
  private readonly spec: EncodingSpec;
  private readonly meta: Record<string, unknown>;
  private readonly planeBytes: number;
  private bits: number[] = [];
  private scalars: number[] = [];
  private polStart: number[] = [0];
  private polIndex: number[] = [];
  private polProb: number[] = [];
  private values: number[] = [];
  private results: number[] = [];
  private texts: Uint8Array[] = [];

  constructor(spec: EncodingSpec, meta: Record<string, unknown> = {}) {
    this.spec = spec;
    this.meta = meta;
    this.planeBytes = Math.ceil((spec.height * spec.width) / 8);
  }

  get count(): number {
    return this.values.length;
  }

  /** Adds a position; throws if a plane is neither constant nor single-valued (an encoder bug). */
  add(r: ChunkRecord): void {
    const { planes: np, height, width } = this.spec;
    const hw = height * width;
    for (let p = 0; p < np; p++) {
      const base = p * hw;
      let scalar = 0;
      const bytes = new Array<number>(this.planeBytes).fill(0);
      for (let s = 0; s < hw; s++) {
        const v = r.planes[base + s]!;
        if (v === 0) continue;
        if (scalar === 0) scalar = v;
        else if (v !== scalar) throw new Error(`plane ${p} holds two non-zero values (${scalar}, ${v})`);
        bytes[s >> 3]! |= 1 << (s & 7);
      }
      for (const b of bytes) this.bits.push(b);
      this.scalars.push(scalar);
    }
    const n = r.moveIndices.length;
    for (let i = 0; i < n; i++) {
      this.polIndex.push(r.moveIndices[i]!);
      this.polProb.push(r.policy[i]!);
    }
    this.polStart.push(this.polIndex.length);
    this.values.push(r.value);
    this.results.push(r.result);
    this.texts.push(new TextEncoder().encode(r.text));
  }

  /** The chunk as bytes. */
  toBytes(): Uint8Array {
    const count = this.count;
    const textBytes = this.texts.reduce((a, t) => a + t.length, 0);
    const header: ChunkHeader = {
      game: this.spec.game,
      encoding: this.spec.version,
      count,
      planes: this.spec.planes,
      height: this.spec.height,
      width: this.spec.width,
      policySize: this.spec.policySize,
      totalPolicy: this.polIndex.length,
      textBytes,
      meta: this.meta,
    };
    const headerBytes = new TextEncoder().encode(JSON.stringify(header));
    const sizes = [
      12 + align4(headerBytes.length),
      align4(this.bits.length),
      4 * this.scalars.length,
      4 * (count + 1),
      align4(2 * this.polIndex.length),
      4 * this.polProb.length,
      4 * count,
      align4(count),
      4 * (count + 1),
      align4(textBytes),
    ];
    const total = sizes.reduce((a, b) => a + b, 0);
    const buf = new ArrayBuffer(total);
    const u8 = new Uint8Array(buf);
    const dv = new DataView(buf);
    u8.set(new TextEncoder().encode(CHUNK_MAGIC), 0);
    dv.setUint32(4, CHUNK_VERSION, true);
    dv.setUint32(8, headerBytes.length, true);
    u8.set(headerBytes, 12);
    let off = sizes[0]!;
    u8.set(this.bits, off);
    off += sizes[1]!;
    new Float32Array(buf, off, this.scalars.length).set(this.scalars);
    off += sizes[2]!;
    new Uint32Array(buf, off, count + 1).set(this.polStart);
    off += sizes[3]!;
    new Uint16Array(buf, off, this.polIndex.length).set(this.polIndex);
    off += sizes[4]!;
    new Float32Array(buf, off, this.polProb.length).set(this.polProb);
    off += sizes[5]!;
    new Float32Array(buf, off, count).set(this.values);
    off += sizes[6]!;
    new Int8Array(buf, off, count).set(this.results);
    off += sizes[7]!;
    const txtStart = new Uint32Array(buf, off, count + 1);
    let t = 0;
    for (let i = 0; i < count; i++) {
      txtStart[i] = t;
      t += this.texts[i]!.length;
    }
    txtStart[count] = t;
    off += sizes[8]!;
    for (const tb of this.texts) {
      u8.set(tb, off);
      off += tb.length;
    }
    return u8;
  }
}

/** A parsed chunk (views into a copy of the bytes). */
export interface Chunk {
  readonly header: ChunkHeader;
  readonly bits: Uint8Array;
  readonly scalars: Float32Array;
  readonly polStart: Uint32Array;
  readonly polIndex: Uint16Array;
  readonly polProb: Float32Array;
  readonly value: Float32Array;
  readonly result: Int8Array;
  readonly txtStart: Uint32Array;
  readonly text: Uint8Array;
}

/** Parses chunk bytes; `ERR_CHUNK` on a malformed chunk. */
export const readChunk = (bytes: Uint8Array): Result<Chunk, KishiError> => {
  const fail = (why: string): Result<Chunk, KishiError> => Result.err(new KishiError('ERR_CHUNK', `training chunk: ${why}`));
  if (bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 4)) !== CHUNK_MAGIC) return fail('bad magic');
  const buf = bytes.slice().buffer;
  const dv = new DataView(buf);
  if (dv.getUint32(4, true) !== CHUNK_VERSION) return fail(`version ${dv.getUint32(4, true)}`);
  const hl = dv.getUint32(8, true);
  let header: ChunkHeader;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + hl))) as ChunkHeader;
  } catch {
    return fail('bad header');
  }
  const { count, planes, height, width, totalPolicy, textBytes } = header;
  const planeBytes = Math.ceil((height * width) / 8);
  let off = 12 + align4(hl);
  const take = <T>(make: (o: number) => T, size: number): T => {
    const v = make(off);
    off += size;
    return v;
  };
  const need = off + align4(count * planes * planeBytes) + 4 * count * planes + 8 * (count + 1) + align4(2 * totalPolicy) + 4 * totalPolicy + 4 * count + align4(count) + align4(textBytes);
  if (need !== bytes.length) return fail(`length ${bytes.length}, header implies ${need}`);
  const bits = take((o) => new Uint8Array(buf, o, count * planes * planeBytes), align4(count * planes * planeBytes));
  const scalars = take((o) => new Float32Array(buf, o, count * planes), 4 * count * planes);
  const polStart = take((o) => new Uint32Array(buf, o, count + 1), 4 * (count + 1));
  const polIndex = take((o) => new Uint16Array(buf, o, totalPolicy), align4(2 * totalPolicy));
  const polProb = take((o) => new Float32Array(buf, o, totalPolicy), 4 * totalPolicy);
  const value = take((o) => new Float32Array(buf, o, count), 4 * count);
  const result = take((o) => new Int8Array(buf, o, count), align4(count));
  const txtStart = take((o) => new Uint32Array(buf, o, count + 1), 4 * (count + 1));
  const text = take((o) => new Uint8Array(buf, o, textBytes), align4(textBytes));
  return Result.ok({ header, bits, scalars, polStart, polIndex, polProb, value, result, txtStart, text });
};

/** The input planes of position `i` of a chunk, written into `out` (`planes * height * width` floats). */
export const chunkPlanes = (c: Chunk, i: number, out: Float32Array): void => {
  const { planes, height, width } = c.header;
  const hw = height * width;
  const pb = Math.ceil(hw / 8);
  for (let p = 0; p < planes; p++) {
    const s = c.scalars[i * planes + p]!;
    const b = (i * planes + p) * pb;
    for (let q = 0; q < hw; q++) out[p * hw + q] = (c.bits[b + (q >> 3)]! >> (q & 7)) & 1 ? s : 0;
  }
};

/** The text of position `i`. */
export const chunkText = (c: Chunk, i: number): string => new TextDecoder().decode(c.text.subarray(c.txtStart[i], c.txtStart[i + 1]));

/** The FEN or SFEN of position `i`: its text up to the first `|` (the fields after it say how it was recorded). */
export const chunkPosition = (c: Chunk, i: number): string => chunkText(c, i).split('|')[0]!;
