/**
 * The NNUE hot loops in WebAssembly SIMD (nnue-simd.wat): accumulator updates eight int16 lanes at
 * a time and the SCReLU output sum, over one WebAssembly memory that holds a copy of the network's
 * first-layer weights, its biases, its output weights, a scratch list of feature rows and the
 * accumulators. The accumulator array the stack works on is a view of that memory, so the
 * TypeScript code around it (copies, tests, refreshes into other arrays) is unchanged.
 *
 * Bit-exact with the TypeScript loops (see the .wat). Used when the runtime validates the module
 * (Node 16.4+), the hidden width is a multiple of 8 and qa fits an int16 lane; the engine config's
 * `nnueSimd: false` (UCI/USI `NnueSimd`) switches it off, passed down to the stacks (benchmarks
 * compare the two paths with it).
 */
import { weightsGeneration, type NnueNetwork } from '../network.js';
import { NNUE_SIMD_WASM_BASE64 } from './simd-module.js';

interface SimdExports {
  addSub(dst: number, src: number, a: number, s: number, bytes: number): void;
  update(dst: number, src: number, rows: number, nAdd: number, nSub: number, bytes: number): void;
  screlu(us: number, them: number, w: number, bytes: number, qa: number): number;
}

/**
 * The part of the WebAssembly JS API used here (the compiler's libraries declare it only with the
 * DOM, which this project does not load).
 */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: unknown };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** Feature rows one `update` call can take (a shogi refresh: 128 codes, each with a zone row). */
export const MAX_SIMD_ROWS = 512;
const PAGE = 65536;

let compiled: object | null | undefined;

/** The compiled module, or null when this runtime cannot run it (no SIMD). Compiled once per thread. */
const simdModule = (): object | null => {
  if (compiled === undefined) {
    try {
      compiled = new wasm.Module(Buffer.from(NNUE_SIMD_WASM_BASE64, 'base64'));
    } catch {
      compiled = null;
    }
  }
  return compiled ?? null;
};

/** Whether this runtime runs the SIMD module (the default of the stacks' `simd` switch). */
export const simdSupported = (): boolean => simdModule() !== null;

const align16 = (n: number): number => (n + 15) & ~15;

export class NnueSimd {
  /** The accumulators (a view of the module's memory; replaced when `growAcc` grows it). */
  acc: Int16Array;
  /** Scratch list of feature rows (byte offsets) for `update`; a new view after `growAcc`. */
  rows: Int32Array;
  /** Byte offsets of the first-layer weights and biases in the memory. */
  readonly w1Byte: number;
  readonly b1Byte: number;
  private readonly w2Byte: number;
  private readonly rowsByte: number;
  private readonly accByte: number;
  private readonly halfBytes: number;
  private readonly memory: WasmMemory;
  private readonly fn: SimdExports;
  /** The `weightsGeneration` of the weights in the memory. */
  private generation = -1;

  private constructor(
    private readonly net: NnueNetwork,
    accElems: number,
    module: object,
  ) {
    const h = net.hidden;
    this.halfBytes = 2 * h;
    this.w1Byte = 16;
    this.b1Byte = align16(this.w1Byte + 2 * net.l1w.length);
    this.w2Byte = align16(this.b1Byte + 2 * h);
    this.rowsByte = align16(this.w2Byte + 4 * h * net.outputBuckets);
    this.accByte = align16(this.rowsByte + 4 * MAX_SIMD_ROWS);
    this.memory = new wasm.Memory({ initial: Math.ceil((this.accByte + 2 * accElems) / PAGE) });
    const instance = new wasm.Instance(module, { env: { mem: this.memory } });
    this.fn = instance.exports as unknown as SimdExports;
    this.copyWeights();
    const buf = this.memory.buffer;
    this.rows = new Int32Array(buf, this.rowsByte, MAX_SIMD_ROWS);
    this.acc = new Int16Array(buf, this.accByte, accElems);
  }

  /** The kernels for `net` with room for `accElems` accumulator entries, or undefined where they do not apply. */
  static create(net: NnueNetwork, accElems: number): NnueSimd | undefined {
    if (net.hidden % 8 !== 0 || net.qa > 32767 || net.l2w.length !== 2 * net.hidden * net.outputBuckets) return undefined;
    const module = simdModule();
    return module === null ? undefined : new NnueSimd(net, accElems, module);
  }

  /** The network's weights into the memory (again when `markWeightsChanged` says they changed since). */
  syncWeights(): void {
    if (weightsGeneration(this.net) !== this.generation) this.copyWeights();
  }

  private copyWeights(): void {
    const buf = this.memory.buffer;
    const net = this.net;
    new Int16Array(buf, this.w1Byte, net.l1w.length).set(net.l1w);
    new Int16Array(buf, this.b1Byte, net.hidden).set(net.l1b);
    new Int16Array(buf, this.w2Byte, net.l2w.length).set(net.l2w);
    this.generation = weightsGeneration(net);
  }

  /** Room for `accElems` accumulator entries; the contents are kept, `acc` is a new view. */
  growAcc(accElems: number): void {
    const need = this.accByte + 2 * accElems;
    if (need > this.memory.buffer.byteLength) this.memory.grow(Math.ceil((need - this.memory.buffer.byteLength) / PAGE));
    this.acc = new Int16Array(this.memory.buffer, this.accByte, accElems);
    this.rows = new Int32Array(this.memory.buffer, this.rowsByte, MAX_SIMD_ROWS);
  }

  /** Byte offset of accumulator element `elem`. */
  accAt(elem: number): number {
    return this.accByte + 2 * elem;
  }

  /** Byte offset of the first-layer row that starts at element `elem` of `l1w`. */
  rowAt(elem: number): number {
    return this.w1Byte + 2 * elem;
  }

  /** acc[dst..dst+H) = acc[src..src+H) + row a - row s (element offsets; a, s: `l1w` element offsets). */
  addSub(dst: number, src: number, a: number, s: number): void {
    this.fn.addSub(this.accByte + 2 * dst, this.accByte + 2 * src, this.w1Byte + 2 * a, this.w1Byte + 2 * s, this.halfBytes);
  }

  /**
   * acc[dst..dst+H) = source + the first `nAdd` rows of `rows` - the next `nSub` (byte offsets from
   * `rowAt`); `srcByte` is a byte offset (`accAt(e)`, or `b1Byte` for a refresh).
   */
  update(dst: number, srcByte: number, nAdd: number, nSub: number): void {
    this.fn.update(this.accByte + 2 * dst, srcByte, this.rowsByte, nAdd, nSub, this.halfBytes);
  }

  /** The SCReLU output sum (before the division by qa) of the halves at elements `us` and `them`, output bucket `bucket`. */
  screlu(us: number, them: number, bucket = 0): number {
    return this.fn.screlu(this.accByte + 2 * us, this.accByte + 2 * them, this.w2Byte + 2 * this.halfBytes * bucket, this.halfBytes, this.net.qa);
  }
}
