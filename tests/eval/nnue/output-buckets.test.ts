/**
 * Output buckets (network.ts): the bucket of a piece count, the version 3 file that stores them, and
 * the child evaluation MCTS reads (the bucket after a capture is the one of the board after it).
 */
import { describe, expect, it } from 'vitest';
import { crc32 } from '../../../src/core/crc32.js';
import { ChessLinearEval } from '../../../src/eval/linear/chess-eval.js';
import { CHESS_FEATURES } from '../../../src/eval/linear/chess-features.js';
import { ChessNnue } from '../../../src/eval/nnue/chess-nnue.js';
import { parseNetwork, serializeNetwork } from '../../../src/eval/nnue/format.js';
import { outputBucket } from '../../../src/eval/nnue/network.js';
import { nnueOutputOf, validateNnue } from '../../../src/player/nnue-file.js';
import { ChessSearchBoard } from '../../../src/search/alphabeta/chess-board.js';
import { randomNetwork } from './random-network.js';

const chessEval = new ChessLinearEval(new Float64Array(CHESS_FEATURES.size));
const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

/** The bytes with the CRC-32 recomputed (to test the checks behind it). */
const resealed = (bytes: Uint8Array): Uint8Array => {
  const out = bytes.slice();
  new DataView(out.buffer).setUint32(out.length - 4, crc32(out, 0, out.length - 4), true);
  return out;
};

describe('output buckets', () => {
  it('split 2..32 pieces into equal slices: (pieces - 2) / 4 for 8 buckets', () => {
    expect([2, 5, 6, 17, 18, 29, 30, 32].map((p) => outputBucket(8, p))).toEqual([0, 0, 1, 3, 4, 6, 7, 7]);
    expect([2, 17, 18, 32].map((p) => outputBucket(2, p))).toEqual([0, 0, 1, 1]);
    expect(outputBucket(1, 32)).toBe(0);
    expect(outputBucket(8, 40)).toBe(7);
  });

  it('are written as version 3, read back, and refused where they do not belong', () => {
    const net = randomNetwork('chess', 8, 'screlu', 5, 'base', 8);
    const bytes = serializeNetwork(net);
    expect(bytes[4]).toBe(3);
    expect(parseNetwork(bytes, 'ob.bin').unwrap()).toEqual(net);
    const cut = parseNetwork(bytes.subarray(0, bytes.length - 8), 'ob.bin');
    expect(cut.isErr && cut.error.message).toMatch(/a 768x8 network takes .* \(truncated\)/);
    const one = bytes.slice();
    new DataView(one.buffer).setUint32(36, 1, true);
    const r1 = parseNetwork(resealed(one), 'ob.bin');
    expect(r1.isErr && r1.error.message).toMatch(/1 output buckets \(a version 3 file has 2 to 16\)/);
    const shogi = serializeNetwork({ ...randomNetwork('shogi', 8, 'screlu', 5, 'king-zone', 2) });
    const r2 = parseNetwork(shogi, 'kz.bin');
    expect(r2.isErr && r2.error.message).toMatch(/output buckets are defined for chess only/);
  });

  it('the manifest says how many, and the reference outputs are checked through them', () => {
    const net = randomNetwork('chess', 8, 'screlu', 6, 'base', 8);
    const positions = [KIWIPETE, '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1'];
    const refs = positions.map((p) => ({ position: p, output: nnueOutputOf(net, p).unwrap() }));
    const arch = { outputBuckets: 8, features: 768, hidden: 8, activation: 'screlu', qa: 255, qb: 64, scale: 400 };
    const manifest = (a: object) => JSON.stringify({ format: 'kishi-nnue', version: 3, game: 'chess', arch: a, references: refs });
    expect(validateNnue(serializeNetwork(net), manifest(arch), 'chess', 'ob.bin').isOk).toBe(true);
    const none = validateNnue(serializeNetwork(net), manifest({ ...arch, outputBuckets: undefined }), 'chess', 'ob.bin');
    expect(none.isErr && none.error.message).toMatch(/arch\.outputBuckets is 1, the network file says 8/);
    // The same first layer with one output layer gives other outputs: the buckets are used.
    const plain = { ...net, outputBuckets: 1, l2w: net.l2w.slice(0, 16), l2b: net.l2b.slice(0, 1) };
    expect(positions.map((p) => nnueOutputOf(plain, p).unwrap())).not.toEqual(refs.map((r) => r.output));
  });

  it('the evaluation after a move, the board unmoved, is the evaluation of the board after it', () => {
    const net = randomNetwork('chess', 16, 'screlu', 9, 'base', 8);
    const nnue = new ChessNnue(net);
    // 30 pieces (kiwipete without its a-pawns): every capture moves the position into the bucket below.
    const board = ChessSearchBoard.fromText('r3k2r/2ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/1PPBBPPP/R3K2R w KQkq - 0 1', [], chessEval, false, nnue).unwrap();
    const list = new Int32Array(board.maxMoves);
    const n = board.generate(list, false);
    let captures = 0;
    for (let i = 0; i < n; i++) {
      const m = list[i]!;
      board.make(m);
      const after = nnue.evaluate(board.board);
      board.unmake();
      if (((m >> 17) & 7) !== 0) {
        captures++;
        expect(outputBucket(8, 29)).not.toBe(outputBucket(8, 30));
      }
      expect(nnue.evaluateAfter(board.board, m)).toBe(after);
    }
    expect(captures).toBeGreaterThan(5);
  });
});
