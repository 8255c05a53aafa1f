import { describe, expect, it } from 'vitest';
import { CHESS_FEATURES } from '../../../src/eval/linear/chess-features.js';
import { parseGameLogText } from '../../../src/records/game-log-reader.js';
import { gameSamples, isReplayProblem, leafEvaluator } from '../../../src/learning/tdleaf/leaf.js';
import { KNIGHTCAP_BETA, squash } from '../../../src/learning/tdleaf/squash.js';
import type { LeafSample } from '../../../src/learning/tdleaf/td-lambda.js';
import { applyDelta, tdLeafUpdate } from '../../../src/learning/tdleaf/td-lambda.js';
import { trainTdLeaf } from '../../../src/learning/tdleaf/trainer.js';
import { MATERIAL, TOY_GAME, linesText, scriptLines } from './helpers.js';

describe('squashing', () => {
  it('maps one pawn to 0.25 as KnightCap did', () => {
    expect(KNIGHTCAP_BETA).toBeCloseTo(0.0025541281188299534, 15);
    expect(squash(100, KNIGHTCAP_BETA)).toBeCloseTo(0.25, 15);
    expect(squash(-100, KNIGHTCAP_BETA)).toBeCloseTo(-0.25, 15);
  });
});

describe('TD-Leaf(lambda) update, by hand', () => {
  // A tiny linear evaluation H = theta0*phi0 + theta1*phi1 with theta = (100, 50), and a three-move
  // game whose principal leaves have features (1, 0), (1, 1), (0, -1); the game is lost (r = -1).
  const theta = [100, 50];
  const phi = [
    [1, 0],
    [1, 1],
    [0, -1],
  ];
  const beta = 0.01;
  const lambda = 0.7;
  const alpha = 10;
  const H = phi.map((f) => theta[0]! * f[0]! + theta[1]! * f[1]!); // 100, 150, -50
  const samples: LeafSample[] = phi.map((f, t) => ({
    value: H[t]!,
    features: new Map(
      f.flatMap((v, i) => (v !== 0 ? [[i, v] as [number, number]] : [])),
    ),
  }));

  it('matches the hand computation to 1e-12', () => {
    // J_t = tanh(beta * H_t).
    const J0 = Math.tanh(1);
    const J1 = Math.tanh(1.5);
    const J2 = Math.tanh(-0.5);
    // Temporal differences; the last against the result r = -1.
    const d0 = J1 - J0;
    const d1 = J2 - J1;
    const d2 = -1 - J2;
    // Traces sum_{j>=t} lambda^(j-t) d_j.
    const e0 = d0 + 0.7 * d1 + 0.49 * d2;
    const e1 = d1 + 0.7 * d2;
    const e2 = d2;
    // grad J_t = beta (1 - J_t^2) phi_t.
    const g0 = 0.01 * (1 - J0 * J0);
    const g1 = 0.01 * (1 - J1 * J1);
    const g2 = 0.01 * (1 - J2 * J2);
    const dTheta0 = 10 * (g0 * 1 * e0 + g1 * 1 * e1 + g2 * 0 * e2);
    const dTheta1 = 10 * (g0 * 0 * e0 + g1 * 1 * e1 + g2 * -1 * e2);
    // The same numbers, evaluated once independently (Python, IEEE doubles).
    expect(dTheta0).toBeCloseTo(-0.07674651996852107, 12);
    expect(dTheta1).toBeCloseTo(0.010790350490058352, 12);

    const u = tdLeafUpdate(samples, -1, { lambda, alpha, beta, pruneBlundersCp: 0 });
    expect(Math.abs(u.delta.get(0)! - dTheta0)).toBeLessThan(1e-12);
    expect(Math.abs(u.delta.get(1)! - dTheta1)).toBeLessThan(1e-12);
    expect(u.steps.map((s) => s.d)).toEqual([d0, d1, d2]);
    expect(Math.abs(u.steps[0]!.trace - e0)).toBeLessThan(1e-15);
  });

  it('lambda 0 and lambda 1 are TD(0) and the result-only update', () => {
    const J = H.map((h) => Math.tanh(beta * h));
    const u0 = tdLeafUpdate(samples, -1, { lambda: 0, alpha, beta, pruneBlundersCp: 0 });
    const d = [J[1]! - J[0]!, J[2]! - J[1]!, -1 - J[2]!];
    const want0 = 10 * 0.01 * ((1 - J[0]! ** 2) * d[0]! + (1 - J[1]! ** 2) * d[1]!);
    expect(Math.abs(u0.delta.get(0)! - want0)).toBeLessThan(1e-12);
    const u1 = tdLeafUpdate(samples, -1, { lambda: 1, alpha, beta, pruneBlundersCp: 0 });
    const want1 = 10 * 0.01 * ((1 - J[0]! ** 2) * (-1 - J[0]!) + (1 - J[1]! ** 2) * (-1 - J[1]!));
    expect(Math.abs(u1.delta.get(0)! - want1)).toBeLessThan(1e-12);
  });

  it("prunes a gain after an opponent blunder the search did not predict (KnightCap)", () => {
    // The jump 100 -> 150 cp exceeds 40 cp, d0 > 0 and the reply was not predicted: d0 = 0.
    const blunder = samples.map((s, t) => (t === 0 ? { ...s, replyPredicted: false } : s));
    const u = tdLeafUpdate(blunder, -1, { lambda, alpha, beta, pruneBlundersCp: 40 });
    expect(u.steps.map((s) => s.pruned)).toEqual([true, false, false]);
    const J0 = Math.tanh(1);
    const J1 = Math.tanh(1.5);
    const J2 = Math.tanh(-0.5);
    const e0 = 0 + 0.7 * (J2 - J1) + 0.49 * (-1 - J2);
    const e1 = J2 - J1 + 0.7 * (-1 - J2);
    const want = 10 * (0.01 * (1 - J0 * J0) * e0 + 0.01 * (1 - J1 * J1) * e1);
    expect(Math.abs(u.delta.get(0)! - want)).toBeLessThan(1e-12);
    // Predicted, or a jump below the threshold: not pruned.
    expect(tdLeafUpdate(samples.map((s, t) => (t === 0 ? { ...s, replyPredicted: true } : s)), -1, { lambda, alpha, beta, pruneBlundersCp: 40 }).steps[0]!.pruned).toBe(false);
    expect(tdLeafUpdate(blunder, -1, { lambda, alpha, beta, pruneBlundersCp: 60 }).steps[0]!.pruned).toBe(false);
  });

  it('terminal leaves take part in the differences but have no gradient', () => {
    const withMate: LeafSample[] = [samples[0]!, samples[1]!, { value: -30000, features: new Map(), terminal: -1 }];
    const u = tdLeafUpdate(withMate, -1, { lambda, alpha, beta, pruneBlundersCp: 0 });
    const J0 = Math.tanh(1);
    const J1 = Math.tanh(1.5);
    const e1 = -1 - J1 + 0.7 * 0;
    const e0 = J1 - J0 + 0.7 * e1;
    expect(Math.abs(u.delta.get(1)! - 10 * 0.01 * (1 - J1 * J1) * e1)).toBeLessThan(1e-12);
    expect(Math.abs(u.delta.get(0)! - 10 * 0.01 * ((1 - J0 * J0) * e0 + (1 - J1 * J1) * e1))).toBeLessThan(1e-12);
  });

  it('caps each weight change', () => {
    const t = new Float64Array([1, 2, 3]);
    expect(applyDelta(t, new Map([[0, 5], [2, -0.5]]), 2)).toBe(2);
    expect([...t]).toEqual([3, 2, 2.5]);
  });
});

describe('TD-Leaf(lambda) through a logged chess game, by hand', () => {
  it('replays the toy game, resolves the leaves and updates the material weights as computed by hand', () => {
    const log = parseGameLogText(linesText(scriptLines(TOY_GAME)), 'toy.jsonl').log!;
    const theta = new Float64Array(CHESS_FEATURES.size);
    for (const [k, v] of Object.entries(MATERIAL)) theta[CHESS_FEATURES.indexOf.get(k)!] = v;
    const replay = gameSamples(log, leafEvaluator('chess', theta));
    expect(isReplayProblem(replay)).toBe(false);
    if (isReplayProblem(replay)) return;
    expect(replay.samples.map((s) => s.value)).toEqual([300, 400, 400]);
    expect(replay.samples.map((s) => s.replyPredicted)).toEqual([true, true, undefined]);
    expect(replay.scoreGaps).toEqual([0, 0, 0]);

    const beta = KNIGHTCAP_BETA;
    const J0 = Math.tanh(300 * beta);
    const J1 = Math.tanh(400 * beta);
    const J2 = J1;
    const d0 = J1 - J0;
    const d1 = 0;
    const d2 = 1 - J2; // black resigned: r = +1
    const e0 = d0 + 0.7 * d1 + 0.49 * d2;
    const e1 = d1 + 0.7 * d2;
    const e2 = d2;
    const alpha = 1000;
    // Material features (white minus black): leaf 0 knight +1, pawn 0; leaves 1 and 2 knight +1, pawn +1.
    const knight = alpha * beta * ((1 - J0 * J0) * e0 + (1 - J1 * J1) * e1 + (1 - J2 * J2) * e2);
    const pawn = alpha * beta * ((1 - J1 * J1) * e1 + (1 - J2 * J2) * e2);

    const summary = trainTdLeaf([log], theta, {
      lambda: 0.7,
      alpha,
      beta,
      pruneBlundersCp: 0,
      maxChangePerGameCp: 0,
      minMoves: 1,
      filter: { game: 'chess', networkTimeLossMs: 2000 },
    });
    expect(summary.used).toBe(1);
    expect(Math.abs(theta[CHESS_FEATURES.indexOf.get('material.knight')!]! - (300 + knight))).toBeLessThan(1e-12);
    expect(Math.abs(theta[CHESS_FEATURES.indexOf.get('material.pawn')!]! - (100 + pawn))).toBeLessThan(1e-12);
    expect(theta[CHESS_FEATURES.indexOf.get('material.queen')!]).toBe(900);
  });
});
