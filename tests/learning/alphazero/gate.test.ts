/**
 * The gate of the AlphaZero loop (src/learning/alphazero/gate.ts): the promotion rule on match
 * results (SPRT: only H1; fixed: all games played and the threshold reached; never after an abort),
 * the summary.json reader, the players' configs and the match's, an in-process gate match, and, through the loop with
 * injected match results, that a candidate becomes best.onnx only on a passing result.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gateDecision, gateMatchConfig, gatePlayerConfig, gateResultFromSummary, runInProcessGate, type GateConfig, type GateRequest } from '../../../src/learning/alphazero/gate.js';
import { runLoop } from '../../../src/learning/alphazero/loop.js';
import type { LoopSelfplayOptions } from '../../../src/learning/alphazero/loop.js';
import type { TrainJob } from '../../../src/learning/alphazero/train-process.js';
import { fakeInit, fakeTrainer, matchResult, mockSelfplay, quietDeps, scriptedGate, tinySettings } from './loop-fakes.js';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'kishi-az-gate-'));
const sprt: GateConfig = { mode: 'sprt', games: 100, playouts: 50, sprt: 'elo0=0,elo1=30', threshold: 0.55, concurrency: 1 };
const fixed: GateConfig = { ...sprt, mode: 'fixed', games: 20 };
const sprtStatus = (decision: 'H0' | 'H1' | 'continue') => ({ decision, llr: decision === 'H1' ? 2.95 : decision === 'H0' ? -2.95 : 0.4, lower: -2.94, upper: 2.94 });

describe('gate decision', () => {
  it('SPRT: promotes on H1 only', () => {
    expect(gateDecision(sprt, matchResult(30, 10, 10, { sprt: sprtStatus('H1'), stoppedEarly: 'sprt' })).passed).toBe(true);
    expect(gateDecision(sprt, matchResult(10, 10, 30, { sprt: sprtStatus('H0'), stoppedEarly: 'sprt' })).passed).toBe(false);
    // A good score without a decision (the budget ran out) does not promote.
    const undecided = gateDecision(sprt, matchResult(60, 10, 30, { sprt: sprtStatus('continue') }));
    expect(undecided.passed).toBe(false);
    expect(undecided.reason).toMatch(/^SPRT undecided after 100 games/);
    expect(gateDecision(sprt, matchResult(30, 10, 10)).passed).toBe(false); // no SPRT status at all
  });

  it('fixed: all games played and score >= threshold', () => {
    expect(gateDecision(fixed, matchResult(11, 0, 9)).passed).toBe(true); // 0.55
    expect(gateDecision(fixed, matchResult(10, 1, 9)).passed).toBe(false); // 0.525
    expect(gateDecision(fixed, matchResult(12, 0, 6)).passed).toBe(false); // 18 of 20 games
    expect(gateDecision(fixed, matchResult(12, 0, 6)).reason).toMatch(/^only 18 of 20 games/);
  });

  it('never promotes after an abort or without games', () => {
    expect(gateDecision(fixed, matchResult(20, 0, 0, { stoppedEarly: 'abort' })).passed).toBe(false);
    expect(gateDecision(sprt, matchResult(20, 0, 0, { stoppedEarly: 'abort', sprt: sprtStatus('H1') })).passed).toBe(false);
    expect(gateDecision(fixed, { ...matchResult(1, 0, 0), games: 0, wins: 0 }).passed).toBe(false);
  });
});

describe('gate match', () => {
  it('reads a kishi match summary from the candidate side', () => {
    const summary = {
      kind: 'kishi-match',
      gamesPlanned: 40,
      gamesPlayed: 24,
      results: { games: 24, wdl: { wins: 14, draws: 6, losses: 4 }, trinomial: { score: 0.7083, elo: 153.2, eloLow: 40.1, eloHigh: 'inf' } },
      sprt: { params: {}, status: { decision: 'H1', llr: 3.0, lower: -2.94, upper: 2.94 } },
      stoppedEarly: 'sprt',
    };
    const r = gateResultFromSummary(summary, 'x/summary.json').unwrap();
    expect(r).toEqual({
      games: 24,
      gamesPlanned: 40,
      wins: 14,
      draws: 6,
      losses: 4,
      score: 0.7083,
      elo: 153.2,
      eloLow: 40.1,
      eloHigh: Infinity,
      sprt: { decision: 'H1', llr: 3.0, lower: -2.94, upper: 2.94 },
      stoppedEarly: 'sprt',
      summary: 'x/summary.json',
    });
    expect(gateResultFromSummary({ kind: 'kishi-gauntlet' }).isErr).toBe(true);
  });

  it('plays both nets as MCTS at fixed playouts, the candidate first', () => {
    expect(gatePlayerConfig('shogi', '/r/nets/gen-3-int8.onnx', -0.1)).toEqual({ moveOverheadMs: 0, shogiModel: '/r/nets/gen-3-int8.onnx', mctsDrawScore: -10 });
    expect(gatePlayerConfig('chess', '/n/b.onnx', 0)).toEqual({ moveOverheadMs: 0, chessModel: '/n/b.onnx' });
    const req: GateRequest = { game: 'shogi', candidate: '/c.onnx', best: '/b.onnx', outDir: '/r/gate/gen-3', config: { ...sprt, openings: 'data/openings/taya36.sfen' }, seed: 9 };
    const c = gateMatchConfig(req).unwrap();
    expect(c).toMatchObject({
      game: 'shogi',
      games: 100,
      seed: 9,
      concurrency: 1,
      adjudication: { resign: { moveCount: 4, score: 800, twoSided: true }, maxMoves: 200 },
      outDir: '/r/gate/gen-3/match',
      openingsFile: 'data/openings/taya36.sfen',
      sprt: { elo0: 0, elo1: 30 },
    });
    expect(c.openings.length).toBeGreaterThan(1);
    expect(gateMatchConfig({ ...req, config: { ...sprt, sprt: 'elo0=5,elo1=1' } }).isErr).toBe(true);
    expect(gateMatchConfig({ ...req, config: { ...fixed, openings: '/nonexistent/book.sfen' } }).isErr).toBe(true);
    expect(gateMatchConfig({ ...req, config: fixed }).unwrap().sprt).toBeUndefined();
  });

  it('plays the match in this process, and fails on a net that does not load', async () => {
    const dir = tmp();
    const config: GateConfig = { ...fixed, games: 2, playouts: 8, concurrency: 1 };
    const lines: string[] = [];
    const req: GateRequest = { game: 'chess', candidate: 'models/chess-nnue.bin', best: 'models/chess-nnue.bin', outDir: dir, config, seed: 3, onLine: (l) => lines.push(l) };
    const r = (await runInProcessGate(req)).unwrap();
    expect(r.games).toBe(2);
    expect(r.wins + r.draws + r.losses).toBe(2);
    expect(r.summary).toBe(join(dir, 'match', 'summary.json'));
    expect(JSON.parse(readFileSync(r.summary!, 'utf8')).engines.map((e: { name: string }) => e.name)).toEqual(['candidate', 'best']);
    expect(lines.some((l) => l.includes('candidate'))).toBe(true);
    const bad = await runInProcessGate({ ...req, candidate: join(dir, 'missing-nnue.bin'), outDir: join(dir, 'bad') });
    expect(bad.isErr && bad.error.code).toBe('ERR_GATE');
  }, 120_000);
});

describe('the loop promotes only on a passing gate', () => {
  it('keeps the best net after failing gates and replaces it after a passing one', async () => {
    const dir = tmp();
    const init = fakeInit(join(dir, 'init'));
    const state = join(dir, 'run');
    const selfplay: LoopSelfplayOptions[] = [];
    const trains: TrainJob[] = [];
    const gates: GateRequest[] = [];
    // gen 1: 5-0-5 (0.50 < 0.55), gen 2: 6-0-4 (0.60: passes), gen 3: 9-0-1 but the match was aborted.
    const script = [matchResult(5, 0, 5), matchResult(6, 0, 4), matchResult(9, 0, 1, { stoppedEarly: 'abort' })];
    const deps = quietDeps({ selfplay: mockSelfplay(selfplay), train: fakeTrainer(trains), gate: scriptedGate(script, gates) });
    const r = (await runLoop({ dir: state, settings: tinySettings({ gamesPerGeneration: 2, init }), generations: 3 }, deps)).unwrap();
    expect(r.stopped).toBe('done');
    const st = r.state;
    expect(st.generations.map((g) => [g.generation, g.promoted, g.gate?.passed])).toEqual([
      [0, true, undefined],
      [1, false, false],
      [2, true, true],
      [3, false, false],
    ]);
    // Self-play used the INT8 best net of the time: generation 0 for generations 1 and 2, generation 2 for generation 3.
    expect(selfplay.map((o) => o.model)).toEqual([join(state, 'best-int8.onnx'), join(state, 'best-int8.onnx'), join(state, 'best-int8.onnx')]);
    expect(selfplay.map((o) => o.meta?.['bestGeneration'])).toEqual([0, 0, 2]);
    // Gates: candidate gen g against the best of the time.
    expect(gates.map((g) => [g.candidate, g.best])).toEqual([
      [join(state, 'nets', 'gen-1-int8.onnx'), join(state, 'best-int8.onnx')],
      [join(state, 'nets', 'gen-2-int8.onnx'), join(state, 'best-int8.onnx')],
      [join(state, 'nets', 'gen-3-int8.onnx'), join(state, 'best-int8.onnx')],
    ]);
    expect(readFileSync(join(state, 'best.onnx'), 'utf8')).toBe('net:gen-2');
    expect(readFileSync(join(state, 'best-int8.onnx'), 'utf8')).toBe('net:gen-2-int8');
    expect(readFileSync(join(state, 'best.manifest.json'), 'utf8')).toBe('{"net":"gen-2"}');
    expect(st.best).toMatchObject({ model: 'best.onnx', int8: 'best-int8.onnx', generation: 2, games: 4, steps: 6 });
    // The trainer always continues its own latest checkpoint, promoted or not.
    expect(trains.map((t) => t.resume)).toEqual([join(state, 'trainer', 'gen-0.pt'), join(state, 'trainer', 'gen-1.pt'), join(state, 'trainer', 'gen-2.pt')]);
    // The curve: generation 0 at Elo 0, generation 2 at the gate's Elo (6-0-4: 70.4), intervals in quadrature.
    expect(st.curve.map((c) => [c.generation, c.games, c.steps, Math.round(c.elo * 10) / 10, Math.round((c.high - c.low) * 10) / 10])).toEqual([
      [0, 0, 0, 0, 0],
      [2, 4, 6, 70.4, 200],
    ]);
  }, 60_000);
});
