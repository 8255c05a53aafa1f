import { describe, expect, it } from 'vitest';
import { crc32 } from '../../../src/core/crc32.js';
import type { KishiError, Result } from '../../../src/core/result.js';
import { checkLabelFile, LabelWriter, readLabels } from '../../../src/learning/policy/label-file.js';

const sample = (): LabelWriter => {
  const w = new LabelWriter('shogi', 4);
  w.add({ features: [1, 2, 3], featureCount: 3, keys: new Array(8).fill(7), moveCount: 2, base: [-0.5, -1], target: 1, score: -42, text: 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\t7g7f 2g2f' });
  w.add({ features: [9], featureCount: 1, keys: new Array(4).fill(3), moveCount: 1, base: [0], target: 0, score: 123, text: '4k4/9/9/9/9/9/9/9/4K4 b G 1\tG*5b' });
  return w;
};

const errorOf = (r: Result<unknown, KishiError>): KishiError => {
  if (r.isOk) throw new Error('expected an error');
  return r.error;
};

describe('readLabels', () => {
  it('reads back the positions, moves, targets and scores written', () => {
    const labels = readLabels(sample().bytes(), 'mem').unwrap();
    expect(labels).toEqual([
      { position: 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1', moves: ['7g7f', '2g2f'], target: 1, score: -42 },
      { position: '4k4/9/9/9/9/9/9/9/4K4 b G 1', moves: ['G*5b'], target: 0, score: 123 },
    ]);
  });

  it('refuses a corrupt file, and one whose header announces more records than it holds', () => {
    const bytes = sample().bytes();
    const flipped = bytes.slice();
    flipped[40]! ^= 1;
    expect(errorOf(readLabels(flipped, 'mem')).message).toMatch(/checksum/);
    // The count is outside the checksum: three announced, two stored.
    const more = bytes.slice();
    new DataView(more.buffer).setUint32(8, 3, true);
    const err = errorOf(readLabels(more, 'mem'));
    expect(err.code).toBe('ERR_LABELS');
    expect(err.message).toMatch(/record 2 of 3 is cut short/);
    const fewer = bytes.slice();
    new DataView(fewer.buffer).setUint32(8, 1, true);
    expect(errorOf(readLabels(fewer, 'mem')).message).toMatch(/bytes after the last record/);
  });
});

describe('label files version 3: visit targets', () => {
  const START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
  const record = (visits?: number[]) => ({
    features: [1, 2, 3],
    featureCount: 3,
    keys: new Array(12).fill(5),
    moveCount: 3,
    base: [-1, -2, -3],
    target: 2,
    score: 17,
    text: `${START}\t7g7f 2g2f 5i5h`,
    ...(visits !== undefined ? { visits } : {}),
  });

  it('round-trips visits, and a record without them has none, in one file', () => {
    const w = new LabelWriter('shogi', 4);
    w.add(record([0.1, 0.2, 0.7]));
    w.add(record());
    w.add(record([0, 0, 1]));
    const bytes = w.bytes();
    expect(checkLabelFile(bytes, 'mem').unwrap().version).toBe(3);
    const labels = readLabels(bytes, 'mem').unwrap();
    expect(labels.length).toBe(3);
    expect(labels[0]!.visits!.length).toBe(3);
    [0.1, 0.2, 0.7].forEach((p, i) => expect(labels[0]!.visits![i]).toBeCloseTo(p, 6));
    expect(labels[0]!.visits![0]).toBe(Math.fround(0.1));
    expect('visits' in labels[1]!).toBe(false);
    expect(labels[1]).toEqual({ position: START, moves: ['7g7f', '2g2f', '5i5h'], target: 2, score: 17 });
    expect(labels[2]!.visits).toEqual([0, 0, 1]);
    // Flags bit 0 and 12 extra bytes on the records with visits only.
    const v = new DataView(bytes.buffer, bytes.byteOffset);
    const size = 12 + 2 * 3 + 2 * 12 + 4 * 3 + new TextEncoder().encode(record().text).length;
    expect(bytes.length).toBe(16 + 3 * size + 2 * 12);
    expect([v.getUint16(16 + 10, true), v.getUint16(16 + size + 12 + 10, true), v.getUint16(16 + 2 * size + 12 + 10, true)]).toEqual([1, 0, 1]);
  });

  it('a file of records without visits differs from version 2 only in its version', () => {
    const w = new LabelWriter('shogi', 4);
    w.add(record());
    const bytes = w.bytes();
    const v2 = bytes.slice();
    new DataView(v2.buffer).setUint16(4, 2, true);
    expect(readLabels(v2, 'mem').unwrap()).toEqual(readLabels(bytes, 'mem').unwrap());
    expect(new DataView(bytes.buffer).getUint16(16 + 10, true)).toBe(0);
  });

  it('refuses visits of the wrong length, negative, not finite or not summing to 1', () => {
    const w = new LabelWriter('shogi', 4);
    expect(() => w.add(record([0.5, 0.5]))).toThrow(/2 visit targets for 3 moves/);
    expect(() => w.add(record([0.5, 0.6, -0.1]))).toThrow(/not a finite non-negative/);
    expect(() => w.add(record([0.5, Number.NaN, 0.5]))).toThrow(/not a finite non-negative/);
    expect(() => w.add(record([0.2, 0.2, 0.2]))).toThrow(/sum to 0\.6/);
    expect(() => w.add(record([0.2, 0.2, 0.602]))).toThrow(/sum to/);
    w.add(record([0.2, 0.2, 0.6005]));
    expect(w.count).toBe(1);
  });

  it('refuses a record with an unknown flag bit', () => {
    const w = new LabelWriter('shogi', 4);
    w.add(record([0.1, 0.2, 0.7]));
    const bytes = w.bytes();
    const v = new DataView(bytes.buffer);
    v.setUint16(16 + 10, 3, true);
    v.setUint32(12, crc32(bytes, 16), true);
    const err = errorOf(readLabels(bytes, 'mem'));
    expect(err.code).toBe('ERR_LABELS');
    expect(err.message).toMatch(/unknown record flags/);
    // Back to bit 0 alone (same checksum fix): it reads.
    v.setUint16(16 + 10, 1, true);
    v.setUint32(12, crc32(bytes, 16), true);
    expect(readLabels(bytes, 'mem').isOk).toBe(true);
  });
});
