/**
 * Evaluator plumbing without a real net: masked softmax over the legal moves, `NetEvaluator`
 * packing a batch for a raw runner, the NN cache (hits, eviction, collision guard), manifest
 * validation, and training chunks written and read back bit-exact.
 */
import { describe, expect, test } from 'vitest';
import { FastChessBoard } from '../../src/games/chess/fast/index.js';
import { CHESS_ENCODING, chessContext, chessMoveIndices, encodeChess } from '../../src/nn/chess-encoding.js';
import { NetEvaluator, maskedSoftmax, type NetRunner, type NnInput } from '../../src/nn/evaluator.js';
import { manifestPathOf, parseManifest } from '../../src/nn/manifest.js';
import { MockEvaluator } from '../../src/nn/mock-evaluator.js';
import { CachedEvaluator } from '../../src/nn/nn-cache.js';
import { SHOGI_ENCODING } from '../../src/nn/shogi-encoding.js';
import { ChunkWriter, chunkPlanes, chunkText, readChunk } from '../../src/nn/training-chunk.js';

test('masked softmax: illegal logits ignored, legal ones renormalised', () => {
  const logits = new Float32Array([5, 0, Math.log(3), 100, 0]);
  const p = maskedSoftmax(logits, 0, Int32Array.from([1, 2, 4]), 3);
  expect(Array.from(p).map((x) => +x.toFixed(6))).toEqual([0.2, 0.6, 0.2]);
  expect(maskedSoftmax(logits, 0, new Int32Array(0), 0).length).toBe(0);
  // Non-finite logits fall back to uniform.
  expect(Array.from(maskedSoftmax(new Float32Array([NaN, NaN]), 0, Int32Array.from([0, 1]), 2))).toEqual([0.5, 0.5]);
});

test('NetEvaluator packs the batch contiguously and masks each position', async () => {
  const seen: number[] = [];
  const runner: NetRunner = {
    spec: CHESS_ENCODING,
    run: (input, batch) => {
      seen.push(batch, input.length, input[0]!, input[CHESS_ENCODING.inputSize]!);
      const policy = new Float32Array(batch * CHESS_ENCODING.policySize);
      for (let b = 0; b < batch; b++) policy[b * CHESS_ENCODING.policySize + 7] = Math.log(4);
      return Promise.resolve({ policy, value: Float32Array.from({ length: batch }, (_, i) => i / 10) });
    },
    close: () => Promise.resolve(),
  };
  const ev = new NetEvaluator(runner, 8);
  const pos = (first: number): NnInput => {
    const planes = new Float32Array(CHESS_ENCODING.inputSize);
    planes[0] = first;
    return { planes, moveIndices: Int32Array.from([7, 9, 11, 0]), moveCount: 2 };
  };
  const out = await ev.evaluate([pos(1), pos(2)]);
  expect(seen).toEqual([2, 2 * CHESS_ENCODING.inputSize, 1, 2]);
  expect(Array.from(out[0]!.priors).map((x) => +x.toFixed(6))).toEqual([0.8, 0.2]);
  expect(out[1]!.value).toBeCloseTo(0.1, 6);
  await expect(ev.evaluate(Array.from({ length: 9 }, () => pos(0)))).rejects.toThrow('maxBatch');
});

describe('NN cache', () => {
  const input = (key: number, n = 3): NnInput => ({ planes: new Float32Array(1), moveIndices: new Int32Array(n), moveCount: n, key });
  test('hits, misses, capacity and the move-count guard', async () => {
    const mock = new MockEvaluator(SHOGI_ENCODING, (i) => ({ value: (i.key ?? 0) / 100 }));
    const cache = new CachedEvaluator(mock, 2);
    let out = await cache.evaluate([input(1), input(2), input(1)]);
    expect(out.map((o) => o.value)).toEqual([0.01, 0.02, 0.01]);
    expect([cache.hits, cache.misses, mock.positions]).toEqual([0, 3, 3]);
    out = await cache.evaluate([input(1), input(2)]);
    expect([cache.hits, cache.misses, mock.positions]).toEqual([2, 3, 3]);
    await cache.evaluate([input(3)]); // stored: the oldest entry (2) goes
    expect([cache.size, mock.positions]).toEqual([2, 4]);
    await cache.evaluate([input(1)]);
    expect([cache.hits, mock.positions]).toEqual([3, 4]);
    await cache.evaluate([input(2)]);
    expect([cache.hits, mock.positions]).toEqual([3, 5]);
    // A key collision with a different number of legal moves is not trusted.
    await cache.evaluate([input(3, 5)]);
    expect([cache.hits, mock.positions]).toEqual([3, 6]);
    const noKey = await cache.evaluate([{ planes: new Float32Array(1), moveIndices: new Int32Array(2), moveCount: 2 }]);
    expect(noKey[0]!.priors.length).toBe(2);
  });
});

test('manifests: accepted when they match the encoding, refused with a reason otherwise', () => {
  const good = {
    format: 'kishi-model-1',
    game: 'chess',
    encoding: 'kishi-chess-1',
    precision: 'fp32',
    inputShape: [23, 8, 8],
    policySize: 4672,
    architecture: { kind: 'resnet' },
    trained: false,
    training: {},
    provenance: {},
    reference: { tolerance: 1e-4, positions: [{ start: 'startpos', moves: [], value: 0, priors: { e2e4: 1 } }] },
  };
  expect(parseManifest(JSON.stringify(good), 'chess', 'x').isOk).toBe(true);
  const bad = (patch: Record<string, unknown>, game: 'chess' | 'shogi' = 'chess'): string => {
    const r = parseManifest(JSON.stringify({ ...good, ...patch }), game, 'm.json');
    return r.isErr ? r.error.message : 'ok';
  };
  expect(bad({}, 'shogi')).toMatch(/a chess model, not shogi/);
  expect(bad({ encoding: 'kishi-chess-0' })).toMatch(/encoding "kishi-chess-0", this build reads kishi-chess-1/);
  expect(bad({ inputShape: [22, 8, 8] })).toMatch(/inputShape/);
  expect(bad({ precision: 'fp16' })).toMatch(/precision/);
  expect(bad({ reference: {} })).toMatch(/reference/);
  expect(parseManifest('{', 'chess', 'm.json').isErr).toBe(true);
  expect(manifestPathOf('models/chess-int8.onnx')).toBe('models/chess-int8.manifest.json');
});

test('a training chunk is written and read back bit-exact', () => {
  const board = FastChessBoard.fromFen('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 3 9').unwrap();
  const writer = new ChunkWriter(CHESS_ENCODING, { phase: 'test' });
  const planesIn: Float32Array[] = [];
  const list = new Int32Array(256);
  for (let k = 0; k < 3; k++) {
    const n = board.generateMoves(list);
    const planes = new Float32Array(CHESS_ENCODING.inputSize);
    encodeChess(board, chessContext(board), planes, 0);
    planesIn.push(planes);
    const idx = new Int32Array(n);
    chessMoveIndices(board, list, n, idx);
    const policy = Float32Array.from({ length: n }, (_, i) => (i === 0 ? 0.75 : 0.25 / (n - 1)));
    writer.add({ planes, moveIndices: idx, policy, value: k === 1 ? NaN : 0.125 * k, result: k - 1, text: board.toFen() });
    board.makeMove(list[0]!);
  }
  const bytes = writer.toBytes();
  const c = readChunk(bytes).unwrap();
  expect(c.header.count).toBe(3);
  expect(c.header.meta).toEqual({ phase: 'test' });
  const out = new Float32Array(CHESS_ENCODING.inputSize);
  for (let k = 0; k < 3; k++) {
    chunkPlanes(c, k, out);
    expect(Buffer.from(out.buffer).equals(Buffer.from(planesIn[k]!.buffer))).toBe(true);
  }
  expect(Array.from(c.result)).toEqual([-1, 0, 1]);
  expect(c.value[0]).toBe(0);
  expect(Number.isNaN(c.value[1])).toBe(true);
  expect(c.polProb[c.polStart[2]!]).toBe(0.75);
  expect(chunkText(c, 0)).toBe('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 3 9');
  // Writing the parsed contents again gives the same bytes.
  const again = new ChunkWriter(CHESS_ENCODING, { phase: 'test' });
  for (let k = 0; k < 3; k++) {
    const planes = new Float32Array(CHESS_ENCODING.inputSize);
    chunkPlanes(c, k, planes);
    const a = c.polStart[k]!;
    const b = c.polStart[k + 1]!;
    again.add({ planes, moveIndices: c.polIndex.subarray(a, b), policy: c.polProb.subarray(a, b), value: c.value[k]!, result: c.result[k]!, text: chunkText(c, k) });
  }
  expect(Buffer.from(again.toBytes()).equals(Buffer.from(bytes))).toBe(true);
  expect(readChunk(bytes.subarray(0, bytes.length - 4)).isErr).toBe(true);
});
