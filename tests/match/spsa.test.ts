/**
 * SPSA (src/match/spsa.ts, spsa-runner.ts): the gain schedule ends at the asked step and rate, the
 * perturbations are reproducible and respect the ranges, the update follows the sign of the
 * result, a simulated noisy objective converges, and the runner plays real game pairs (in-process
 * fake players whose adjudicated strength depends on the tuned value), moves theta toward the
 * better value, and resumes after an abort exactly where an uninterrupted run would be.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KishiError, Result } from '../../src/core/result.js';
import { seededRng } from '../../src/core/rng.js';
import { PlayerEngine } from '../../src/match/player-engine.js';
import { gains, initialState, parseState, probe, spsaSchedule, update } from '../../src/match/spsa.js';
import type { SpsaParam } from '../../src/match/spsa.js';
import { loadState, runSpsa, statePath } from '../../src/match/spsa-runner.js';
import type { SpsaRunConfig } from '../../src/match/spsa-runner.js';
import { FakePlayer, legalMovesOf } from '../fakes/player.js';
import { nodesTc, tempDir } from './helpers.js';

/** The error of a Result that must have failed. */
const errOf = <T>(r: Result<T, KishiError>): KishiError => {
  if (r.isOk) throw new Error('expected an error');
  return r.error;
};

const param = (over: Partial<SpsaParam> = {}): SpsaParam => ({ name: 'x', start: 100, min: 0, max: 300, integer: true, cEnd: 10, rEnd: 0.002, ...over });

describe('SPSA schedule and steps', () => {
  it('reaches c_end and r_end at the last iteration and starts larger', () => {
    const s = spsaSchedule(1000);
    expect(s.bigA).toBe(100);
    const last = gains(param(), s, 999);
    expect(last.c).toBeCloseTo(10, 9);
    expect(last.r).toBeCloseTo(0.002, 9);
    const first = gains(param(), s, 0);
    expect(first.c).toBeGreaterThan(last.c * 1.9); // 1000^0.101 = 2.01
    expect(first.r * first.c).toBeGreaterThan(last.r * last.c);
  });

  it('draws the same signs for the same (seed, k), both signs over many k, and clamps and rounds', () => {
    const ps = [param(), param({ name: 'y', start: 0.5, min: 0, max: 1, integer: false, cEnd: 0.3 }), param({ name: 'z', start: 299, cEnd: 10 })];
    const s = spsaSchedule(100);
    const st = initialState(ps);
    expect(probe(ps, s, st, 7, 3)).toEqual(probe(ps, s, st, 7, 3));
    const signs = new Set<number>();
    for (let k = 0; k < 40; k++) {
      const pr = probe(ps, s, st, k, 3);
      signs.add(pr.delta['x']!);
      expect(Number.isInteger(pr.plus['x'])).toBe(true);
      expect(pr.plus['z']! <= 300 && pr.minus['z']! <= 300).toBe(true);
      expect(pr.plus['y']! >= 0 && pr.plus['y']! <= 1 && pr.minus['y']! >= 0).toBe(true);
      expect(Math.sign(pr.plus['x']! - pr.minus['x']!)).toBe(pr.delta['x']!);
    }
    expect(signs).toEqual(new Set([1, -1]));
  });

  it('moves each parameter along its sign times the result, and not at all on a drawn pair', () => {
    const ps = [param(), param({ name: 'y' })];
    const s = spsaSchedule(100);
    const st = initialState(ps);
    const pr = probe(ps, s, st, 0, 1);
    const won = update(ps, s, st, pr, [1, 1]);
    const { c, r } = gains(ps[0]!, s, 0);
    expect(won.theta['x']).toBeCloseTo(100 + r * c * 2 * pr.delta['x']!, 9);
    expect(won.theta['y']).toBeCloseTo(100 + r * c * 2 * pr.delta['y']!, 9);
    expect([won.iterations, won.wins, won.draws, won.losses]).toEqual([1, 2, 0, 0]);
    const drawn = update(ps, s, st, pr, [1, 0]);
    expect(drawn.theta).toEqual(st.theta);
    const lost = update(ps, s, st, pr, [0, 0.5]);
    expect(Math.sign(lost.theta['x']! - 100)).toBe(-pr.delta['x']!);
    expect([lost.draws, lost.losses]).toEqual([1, 1]);
  });

  it('converges on a noisy objective whose best values it does not know', () => {
    // Elo of a setting: -(x-180)^2/40 - (y-0.8)^2*500; pair outcomes drawn from the logistic model.
    const ps = [param({ name: 'x', start: 120, min: 0, max: 400, cEnd: 10, rEnd: 0.05 }), param({ name: 'y', start: 0.4, min: 0, max: 2, integer: false, cEnd: 0.08, rEnd: 0.05 })];
    const elo = (v: Readonly<Record<string, number>>): number => -((v['x']! - 180) ** 2) / 40 - (v['y']! - 0.8) ** 2 * 500;
    const s = spsaSchedule(3000);
    const rng = seededRng(11);
    let st = initialState(ps);
    for (let k = 0; k < s.iterations; k++) {
      const pr = probe(ps, s, st, k, 5);
      const p = 1 / (1 + 10 ** (-(elo(pr.plus) - elo(pr.minus)) / 400));
      const game = (): 0 | 1 => (rng() < p ? 1 : 0);
      st = update(ps, s, st, pr, [game(), game()]);
    }
    expect(Math.abs(st.theta['x']! - 180)).toBeLessThan(25);
    expect(Math.abs(st.theta['y']! - 0.8)).toBeLessThan(0.2);
  });

  it('rejects a state for other parameters or with bad values, naming the file', () => {
    const ps = [param()];
    expect(parseState(initialState(ps), ps, 's.json').isOk).toBe(true);
    expect(errOf(parseState(initialState([param({ name: 'other' })]), ps, 's.json')).message).toMatch(/s\.json: tunes other, not x/);
    expect(errOf(parseState({ ...initialState(ps), theta: { x: 999 } }, ps, 's.json')).message).toMatch(/theta\.x must be a number in \[0, 300\]/);
    expect(errOf(parseState({ ...initialState(ps), iterations: -1 }, ps, 's.json')).message).toMatch(/iterations/);
    expect(errOf(parseState([], ps, 's.json')).code).toBe('ERR_SPSA_STATE');
  });
});

/**
 * Fake players whose strength is the tuned value: one set at or above 150 claims a winning score,
 * one below claims a losing one, so two-sided resign adjudication makes the first win when they
 * disagree (and the cap draws equal ones). SPSA should push x from 130 up toward 150 and past it.
 */
const runConfig = (outDir: string, over: Partial<SpsaRunConfig> = {}): SpsaRunConfig => {
  const params = [param({ start: 130, cEnd: 25, rEnd: 0.02 })];
  return {
    game: 'chess',
    variant: 'standard',
    params,
    schedule: spsaSchedule(30),
    openings: [{ start: 'startpos', moves: [], source: 'startpos' }],
    seed: 9,
    concurrency: 1,
    tc: nodesTc(10),
    adjudication: { resign: { moveCount: 1, score: 500, twoSided: true }, maxMoves: 4 },
    hangTimeoutMs: 5000,
    outDir,
    makeEngine: async (values, name) => {
      const cp = values['x']! >= 150 ? 1000 : -1000;
      const player = new FakePlayer({
        name,
        answer: (request) => {
          const move = legalMovesOf(request)[0]!;
          return { move, info: { depth: 1, score: { cp }, nodes: 1, nps: 1, timeMs: 0, pv: [move] } };
        },
      });
      return Result.ok(new PlayerEngine(player, { game: 'chess', variant: 'standard', name }));
    },
    ...over,
  };
};

describe('SPSA runner', () => {
  it('plays pairs, moves theta toward the stronger value and writes state and history', async () => {
    const dir = tempDir('spsa');
    const r = await runSpsa(runConfig(dir));
    const st = r.unwrap();
    expect(st.iterations).toBe(30);
    expect(st.theta['x']).toBeGreaterThan(140);
    expect(st.wins + st.draws + st.losses).toBe(60);
    const history = readFileSync(join(dir, 'history.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { k: number; games: number[]; plus: { x: number }; minus: { x: number } });
    expect(history.map((h) => h.k)).toEqual([...Array(30).keys()]);
    // The side at or above 150 wins both games of its pair; equal sides draw both.
    for (const h of history) {
      const strong = (v: { x: number }): boolean => v.x >= 150;
      expect(h.games).toEqual(strong(h.plus) === strong(h.minus) ? [0.5, 0.5] : strong(h.plus) ? [1, 1] : [0, 0]);
    }
    expect(st.wins + st.losses).toBeGreaterThan(0);
    expect(loadState(dir, runConfig(dir).params).unwrap()).toEqual(st);
  });

  it('resumes after an abort to the same theta as an uninterrupted run', async () => {
    const whole = (await runSpsa(runConfig(tempDir('spsa-whole')))).unwrap();
    const dir = tempDir('spsa-resume');
    const abort = new AbortController();
    const first = await runSpsa(runConfig(dir, { signal: abort.signal, onPair: (s) => (s.iterations === 11 ? abort.abort() : undefined) }));
    expect(first.unwrap().iterations).toBe(11);
    const resumed = (await runSpsa(runConfig(dir))).unwrap();
    expect(resumed).toEqual(whole);
  });

  it('refuses a corrupt state file with a clear error and leaves it alone', async () => {
    const dir = tempDir('spsa-bad');
    await runSpsa(runConfig(dir, { schedule: spsaSchedule(1) }));
    writeFileSync(statePath(dir), '{"kind": "kishi-spsa", "vers');
    const r = await runSpsa(runConfig(dir));
    expect(errOf(r).code).toBe('ERR_SPSA_STATE');
    expect(errOf(r).message).toContain('state.json');
    expect(readFileSync(statePath(dir), 'utf8')).toBe('{"kind": "kishi-spsa", "vers');
    expect(existsSync(join(dir, 'history.jsonl'))).toBe(true);
  });

  it('stops with the engine maker\'s error', async () => {
    const r = await runSpsa(runConfig(tempDir('spsa-fail'), { makeEngine: async () => Result.err(new KishiError('ERR_WEIGHTS', 'no net')) }));
    expect(errOf(r).message).toBe('no net');
  });
});
