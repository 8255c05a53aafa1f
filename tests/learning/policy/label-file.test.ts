import { describe, expect, it } from 'vitest';
import type { KishiError, Result } from '../../../src/core/result.js';
import { LabelWriter, readLabels } from '../../../src/learning/policy/label-file.js';

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
