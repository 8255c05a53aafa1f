import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNetwork, serializeNetwork } from '../../../src/eval/nnue/format.js';
import { createAlphaBetaPlayer } from '../../../src/player/factory.js';
import { loadNnueFile, nnueManifestPath, nnueOutputOf, validateNnue } from '../../../src/player/nnue-file.js';
import { randomNetwork } from './random-network.js';

const net = randomNetwork('chess', 8, 'screlu', 11);
const positions = ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - - 0 1'];
const manifest = (refs = positions.map((p) => ({ position: p, output: nnueOutputOf(net, p).unwrap() }))) =>
  JSON.stringify({ format: 'kishi-nnue', version: 1, game: 'chess', arch: { features: 768, hidden: 8, activation: 'screlu', qa: 255, qb: 64, scale: 400 }, references: refs });

describe('network file', () => {
  it('round-trips', () => {
    const back = parseNetwork(serializeNetwork(net), 'x').unwrap();
    expect(back).toEqual(net);
  });

  it('names what is wrong with a truncated, corrupt or foreign file', () => {
    const bytes = serializeNetwork(net);
    const cut = parseNetwork(bytes.subarray(0, bytes.length - 10), 'n.bin');
    expect(cut.isErr && cut.error.message).toMatch(/network n\.bin: .* bytes, a 768x8 network takes .* \(truncated\)/);
    const flipped = bytes.slice();
    flipped[100]! ^= 4;
    const bad = parseNetwork(flipped, 'n.bin');
    expect(bad.isErr && bad.error.message).toMatch(/checksum mismatch/);
    const shogi = validateNnue(bytes, manifest(), 'shogi', 'n.bin');
    expect(shogi.isErr && shogi.error.message).toMatch(/a chess network, not shogi/);
    const other = parseNetwork(new TextEncoder().encode(JSON.stringify({ format: 'kishi-linear-weights', theta: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0] })), 'n.bin');
    expect(other.isErr && other.error.message).toMatch(/not a network file/);
  });

  it('checks the manifest and its reference outputs exactly', () => {
    const bytes = serializeNetwork(net);
    expect(validateNnue(bytes, manifest(), 'chess', 'n.bin').isOk).toBe(true);
    const off = manifest([{ position: positions[0]!, output: nnueOutputOf(net, positions[0]!).unwrap() + 1 }]);
    const r = validateNnue(bytes, off, 'chess', 'n.bin');
    expect(r.isErr && r.error.message).toMatch(/reference .* gives -?\d+, the manifest says -?\d+/);
    const arch = validateNnue(bytes, manifest().replace('"hidden":8', '"hidden":16'), 'chess', 'n.bin');
    expect(arch.isErr && arch.error.message).toMatch(/arch\.hidden is 16, the network file says 8/);
  });

  it('reads version 1 (base features) and version 2 (king-bucket-9) files; the shipped nets load', () => {
    expect(serializeNetwork(net)[4]).toBe(1);
    const kb = randomNetwork('shogi', 4, 'crelu', 12, 'king-bucket-9');
    const bytes = serializeNetwork(kb);
    expect(bytes[4]).toBe(2);
    const back = parseNetwork(bytes, 'kb.bin').unwrap();
    expect(back).toEqual(kb);
    expect(back.featureSet).toBe('king-bucket-9');
    const kz = randomNetwork('shogi', 4, 'screlu', 13, 'king-zone');
    expect(parseNetwork(serializeNetwork(kz), 'kz.bin').unwrap()).toEqual(kz);
    for (const game of ['chess', 'shogi'] as const) {
      const shipped = loadNnueFile(`models/${game}-nnue.bin`, game);
      expect(shipped.isOk, shipped.isErr ? shipped.error.message : '').toBe(true);
    }
  });

  it('names a bad or mismatched feature set', () => {
    const kb = randomNetwork('shogi', 4, 'crelu', 12, 'king-bucket-9');
    const bytes = serializeNetwork(kb);
    const unknown = bytes.slice();
    new DataView(unknown.buffer).setUint32(32, 7, true);
    const u = parseNetwork(unknown, 'kb.bin');
    expect(u.isErr && u.error.message).toMatch(/unknown feature set 7/);
    const chessKb = serializeNetwork({ ...randomNetwork('chess', 4, 'crelu', 12), featureSet: 'king-bucket-9' });
    const c = parseNetwork(chessKb, 'c.bin');
    expect(c.isErr && c.error.message).toMatch(/feature set king-bucket-9 is not defined for chess/);
    const sfen = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
    const arch = { featureSet: 'king-bucket-9', features: kb.features, hidden: 4, activation: 'crelu', qa: 255, qb: 64, scale: 400 };
    const m = (version: number, a: object) => JSON.stringify({ format: 'kishi-nnue', version, game: 'shogi', arch: a, references: [{ position: sfen, output: nnueOutputOf(kb, sfen).unwrap() }] });
    expect(validateNnue(bytes, m(2, arch), 'shogi', 'kb.bin').isOk).toBe(true);
    const v1 = validateNnue(bytes, m(1, arch), 'shogi', 'kb.bin');
    expect(v1.isErr && v1.error.message).toMatch(/version 1, the network file is version 2/);
    const { featureSet: _, ...noSet } = arch;
    const base = validateNnue(bytes, m(2, noSet), 'shogi', 'kb.bin');
    expect(base.isErr && base.error.message).toMatch(/arch\.featureSet is "base", the network file says "king-bucket-9"/);
  });

  it('a corrupt network file makes the engine fall back to the linear evaluation', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kishi-nnue-'));
    const file = join(dir, 'bad.bin');
    const bytes = serializeNetwork(net);
    bytes[200]! ^= 1;
    writeFileSync(file, bytes);
    writeFileSync(nnueManifestPath(file), manifest());
    const loaded = loadNnueFile(file, 'chess');
    expect(loaded.isErr && loaded.error.message).toMatch(/checksum mismatch/);
    const player = createAlphaBetaPlayer(
      { search: 'alphabeta', hashMb: 1, moveOverheadMs: 0, chessWeights: 'models/chess-linear.json', shogiWeights: 'models/shogi-linear.json', chessEval: 'nnue', chessNnue: file },
      'chess',
    ).unwrap();
    expect((player as unknown as { settings: { nnue?: Uint8Array } }).settings.nnue).toBeUndefined();
    await player.close();
    // The same file intact is used.
    writeFileSync(file, serializeNetwork(net));
    const good = createAlphaBetaPlayer(
      { search: 'alphabeta', hashMb: 1, moveOverheadMs: 0, chessWeights: 'models/chess-linear.json', shogiWeights: 'models/shogi-linear.json', chessEval: 'nnue', chessNnue: file },
      'chess',
    ).unwrap();
    expect((good as unknown as { settings: { nnue?: Uint8Array } }).settings.nnue).toBeInstanceOf(Uint8Array);
    await good.close();
  });
});
