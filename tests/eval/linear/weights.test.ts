import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHESS_FEATURES } from '../../../src/eval/linear/chess-features.js';
import { chessMaterialTheta } from '../../../src/eval/linear/material.js';
import { SHOGI_FEATURES } from '../../../src/eval/linear/shogi-features.js';
import { parseWeights, serializeWeights } from '../../../src/eval/linear/weights.js';
import { loadWeightsFile } from '../../../src/player/weights-file.js';

const chessFile = readFileSync(new URL('../../../models/chess-linear.json', import.meta.url), 'utf8');

const errorOf = (text: string): string => {
  const r = parseWeights(text, CHESS_FEATURES, 'test.json');
  expect(r.isErr).toBe(true);
  return r.isErr ? `${r.error.code}: ${r.error.message}` : '';
};

const edit = (f: (json: { manifest: Record<string, unknown>; weights: Record<string, unknown> }) => void): string => {
  const json = JSON.parse(chessFile);
  f(json);
  return JSON.stringify(json);
};

describe('weights files', () => {
  it('loads the shipped material weights for both games', () => {
    const chess = loadWeightsFile('models/chess-linear.json', 'chess').unwrap();
    expect(chess.manifest.featureSet).toBe('chess-linear-1');
    expect(chess.manifest.provenance.method).toBe('material');
    expect(chess.theta[CHESS_FEATURES.indexOf.get('material.queen')!]).toBe(900);
    expect(chess.theta.reduce((a, b) => a + Math.abs(b), 0)).toBe(100 + 300 + 300 + 500 + 900);
    const shogi = loadWeightsFile('models/shogi-linear.json', 'shogi').unwrap();
    expect(shogi.theta[SHOGI_FEATURES.indexOf.get('material.dragon')!]).toBe(1550);
    expect(shogi.theta[SHOGI_FEATURES.indexOf.get('hand.rook')!]).toBe(1100);
  });

  it('round-trips through serializeWeights', () => {
    const theta = chessMaterialTheta();
    theta[CHESS_FEATURES.indexOf.get('pst.mg.knight.e4')!] = 12.5;
    const text = serializeWeights(CHESS_FEATURES, theta, { method: 'treestrap-ab', games: 3 });
    const back = parseWeights(text, CHESS_FEATURES, 'x').unwrap();
    expect([...back.theta]).toEqual([...theta]);
    expect(back.manifest.provenance.games).toBe(3);
  });

  it('refuses a file that does not match the feature set, saying why', () => {
    expect(errorOf('{')).toMatch(/^ERR_WEIGHTS: weights test.json: invalid JSON/);
    expect(errorOf(edit((j) => (j.manifest['game'] = 'shogi')))).toBe(
      'ERR_WEIGHTS: weights test.json: weights are for shogi, but this evaluation plays chess',
    );
    expect(errorOf(edit((j) => (j.manifest['featureSet'] = 'chess-linear-0')))).toBe(
      'ERR_WEIGHTS: weights test.json: feature set mismatch: the file was made for "chess-linear-0", this build has "chess-linear-1"',
    );
    expect(errorOf(edit((j) => (j.manifest['features'] = 977)))).toMatch(/manifest.features is 977, but feature set "chess-linear-1" has 978/);
    expect(errorOf(edit((j) => (j.weights['material.king'] = 5)))).toMatch(/1 unknown feature name\(s\) for "chess-linear-1": material.king/);
    expect(errorOf(edit((j) => (j.weights['material.pawn'] = 'a')))).toMatch(/weight material.pawn is "a", not a finite number/);
    expect(errorOf(edit((j) => delete (j as Record<string, unknown>)['manifest']))).toMatch(/missing "manifest"/);
    expect(errorOf(edit((j) => (j.manifest['format'] = 'other')))).toMatch(/manifest.format/);
  });

  it('refuses the other game through the loader', () => {
    const r = loadWeightsFile('models/shogi-linear.json', 'chess');
    expect(r.isErr && r.error.message).toMatch(/weights are for shogi, but this evaluation plays chess/);
    const missing = loadWeightsFile('models/nope.json', 'chess');
    expect(missing.isErr && missing.error.code).toBe('ERR_WEIGHTS');
  });
});
