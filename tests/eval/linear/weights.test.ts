import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHESS_FEATURES } from '../../../src/eval/linear/chess-features.js';
import { ChessLinearEval } from '../../../src/eval/linear/chess-eval.js';
import { thetaGrain } from '../../../src/eval/linear/grain.js';
import { chessMaterialTheta, shogiMaterialTheta } from '../../../src/eval/linear/material.js';
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
  it('keeps the material-only weights as models/<game>-material.json', () => {
    const chess = loadWeightsFile('models/chess-material.json', 'chess').unwrap();
    expect(chess.manifest.featureSet).toBe('chess-linear-1');
    expect(chess.manifest.provenance.method).toBe('material');
    expect(chess.manifest.evalGrain).toBeUndefined();
    expect([...chess.theta]).toEqual([...chessMaterialTheta()]);
    const shogi = loadWeightsFile('models/shogi-material.json', 'shogi').unwrap();
    expect(shogi.manifest.featureSet).toBe('shogi-linear-1');
    expect(shogi.manifest.provenance.method).toBe('material');
    expect([...shogi.theta]).toEqual([...shogiMaterialTheta()]);
    expect(shogi.theta[SHOGI_FEATURES.indexOf.get('material.dragon')!]).toBe(1550);
    expect(shogi.theta[SHOGI_FEATURES.indexOf.get('hand.rook')!]).toBe(1100);
  });

  it('ships TreeStrap weights for shogi, with their provenance, on top of the frozen material values', () => {
    const shogi = loadWeightsFile('models/shogi-linear.json', 'shogi').unwrap();
    const m = shogi.manifest;
    expect([m.featureSet, m.features, m.evalGrain]).toEqual(['shogi-linear-1', 1322, 10]);
    expect(thetaGrain(shogi.theta)).toBe(10);
    const p = m.provenance;
    expect([p.method, p.games, p.trainingSeconds]).toEqual(['treestrap-ab', 103, 506]);
    expect(p.command).toMatch(/^kishi train treestrap --game shogi --init material --method treestrap-ab --update calm --freeze tempo,material\.\*,hand\.pawn,/);
    expect(p.commit).toMatch(/^[0-9a-f]{40}(\+dirty)?$/);
    // Material (board and hand) and tempo were not learned: they are the material file's.
    const material = shogiMaterialTheta();
    SHOGI_FEATURES.names.forEach((name, i) => {
      if (name.startsWith('material.') || /^hand\.[a-z]+$/.test(name) || name === 'tempo') expect([name, shogi.theta[i]]).toEqual([name, material[i]]);
    });
    // ... and the positional weights were.
    expect(shogi.theta.filter((w, i) => w !== material[i]!).length).toBeGreaterThan(500);
  });

  it('ships TreeStrap weights for chess, with their provenance, on top of the frozen material values', () => {
    const chess = loadWeightsFile('models/chess-linear.json', 'chess').unwrap();
    const m = chess.manifest;
    expect([m.featureSet, m.features, m.evalGrain]).toEqual(['chess-linear-1', 978, 10]);
    expect(thetaGrain(chess.theta)).toBe(10);
    const p = m.provenance;
    expect([p.method, p.games, p.trainingSeconds]).toEqual(['treestrap-ab', 500, 607]);
    expect(p.command).toMatch(/^kishi train treestrap --game chess --init material --method treestrap-ab --update calm --freeze tempo,material\.\*,pawn\.isolated\.\*,pawn\.connected\.\*,pawn\.doubled\.\* --eta 1e-5 /);
    expect(p.commit).toMatch(/^[0-9a-f]{40}(\+dirty)?$/);
    const material = chessMaterialTheta();
    CHESS_FEATURES.names.forEach((name, i) => {
      if (/^(material\.|pawn\.(isolated|connected|doubled)\.)/.test(name) || name === 'tempo') expect([name, chess.theta[i]]).toEqual([name, material[i]]);
    });
    expect(chess.theta.filter((w, i) => w !== material[i]!).length).toBeGreaterThan(500);
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

  it('reads an evaluation grain from the manifest and attaches it to theta', () => {
    const plain = parseWeights(chessFile.replace(/"evalGrain": \d+,\s*/, ''), CHESS_FEATURES, 'x').unwrap();
    expect(thetaGrain(plain.theta)).toBe(1);
    expect(new ChessLinearEval(plain.theta).grain).toBe(1);
    const text = serializeWeights(CHESS_FEATURES, chessMaterialTheta(), { method: 'test' }, 10);
    const coarse = parseWeights(text, CHESS_FEATURES, 'x').unwrap();
    expect(coarse.manifest.evalGrain).toBe(10);
    expect(thetaGrain(coarse.theta)).toBe(10);
    expect(new ChessLinearEval(coarse.theta).grain).toBe(10);
    expect(serializeWeights(CHESS_FEATURES, chessMaterialTheta(), { method: 'test' }, 1)).not.toContain('evalGrain');
    // A loaded file's grain is kept when its theta is written back (TD-Leaf updates the shipped weights in place).
    expect(parseWeights(serializeWeights(CHESS_FEATURES, coarse.theta, { method: 'again' }), CHESS_FEATURES, 'y').unwrap().manifest.evalGrain).toBe(10);
    expect(errorOf(edit((j) => (j.manifest['evalGrain'] = 2.5)))).toMatch(/manifest.evalGrain is 2.5, expected a whole number of centipawns >= 1/);
  });

  it('refuses the other game through the loader', () => {
    const r = loadWeightsFile('models/shogi-linear.json', 'chess');
    expect(r.isErr && r.error.message).toMatch(/weights are for shogi, but this evaluation plays chess/);
    const missing = loadWeightsFile('models/nope.json', 'chess');
    expect(missing.isErr && missing.error.code).toBe('ERR_WEIGHTS');
  });
});
