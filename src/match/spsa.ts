/**
 * SPSA (simultaneous perturbation stochastic approximation, Spall 1992, "Multivariate stochastic
 * approximation using a simultaneous perturbation gradient approximation") as fishtest runs it
 * for Stockfish: each iteration flips a fair coin per parameter (delta = +1 or -1), plays one
 * game pair (one opening, colours swapped) between theta + c_k delta and theta - c_k delta, and
 * moves every parameter by R_k c_k (wins - losses of the plus side) delta_i.
 *
 * Gains follow Spall's schedule with fishtest's parametrisation per parameter, from the step
 * `cEnd` and the learning rate `rEnd` wanted at the last iteration N:
 *   c_k = c / (k + 1)^gamma,            c = cEnd N^gamma
 *   a_k = a / (A + k + 1)^alpha,        a = rEnd cEnd^2 (A + N)^alpha,   R_k = a_k / c_k^2
 * with alpha = 0.602, gamma = 0.101 and A = N / 10 (Spall's recommended values).
 *
 * Pure functions over a serialisable state, so a run resumes after a kill from its state file.
 */
import { KishiError, Result } from '../core/result.js';
import { seededRng } from '../core/rng.js';

/** One tuned parameter. */
export interface SpsaParam {
  readonly name: string;
  /** Starting value. */
  readonly start: number;
  readonly min: number;
  readonly max: number;
  /** Whole numbers only: the perturbed values sent to the engine are rounded. */
  readonly integer: boolean;
  /** Perturbation size at the last iteration (fishtest's c_end). */
  readonly cEnd: number;
  /** Learning rate at the last iteration (fishtest's r_end; 0.002 is fishtest's usual value). */
  readonly rEnd: number;
}

export interface SpsaSchedule {
  /** Planned iterations (game pairs), N. */
  readonly iterations: number;
  readonly alpha: number;
  readonly gamma: number;
  /** Stability constant A (Spall: about a tenth of the iterations). */
  readonly bigA: number;
}

export const spsaSchedule = (iterations: number): SpsaSchedule => ({ iterations, alpha: 0.602, gamma: 0.101, bigA: Math.round(iterations / 10) });

/** The run's progress, as written to its state file. */
export interface SpsaState {
  readonly kind: 'kishi-spsa';
  readonly version: 1;
  /** Iterations (game pairs) applied so far. */
  readonly iterations: number;
  /** Current values (unrounded) by parameter name. */
  readonly theta: Readonly<Record<string, number>>;
  /** Games from the plus side's view, over all pairs. */
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
}

/** One iteration's engines: the values each side plays with (clamped, rounded for integers). */
export interface SpsaProbe {
  readonly k: number;
  readonly delta: Readonly<Record<string, 1 | -1>>;
  /** c_k per parameter. */
  readonly c: Readonly<Record<string, number>>;
  readonly plus: Readonly<Record<string, number>>;
  readonly minus: Readonly<Record<string, number>>;
}

export const initialState = (params: readonly SpsaParam[]): SpsaState => ({
  kind: 'kishi-spsa',
  version: 1,
  iterations: 0,
  theta: Object.fromEntries(params.map((p) => [p.name, p.start])),
  wins: 0,
  draws: 0,
  losses: 0,
});

const clamp = (p: SpsaParam, x: number): number => Math.min(p.max, Math.max(p.min, x));
const engineValue = (p: SpsaParam, x: number): number => (p.integer ? Math.round(clamp(p, x)) : clamp(p, x));

/** c_k and R_k for parameter `p` at iteration k (0-based). */
export function gains(p: SpsaParam, s: SpsaSchedule, k: number): { c: number; r: number } {
  const c = p.cEnd * s.iterations ** s.gamma;
  const a = p.rEnd * p.cEnd ** 2 * (s.bigA + s.iterations) ** s.alpha;
  const ck = c / (k + 1) ** s.gamma;
  const ak = a / (s.bigA + k + 1) ** s.alpha;
  return { c: ck, r: ak / ck ** 2 };
}

/** Iteration k's perturbation: the signs come from (seed, k) alone, so a resumed run draws the same ones. */
export function probe(params: readonly SpsaParam[], s: SpsaSchedule, state: SpsaState, k: number, seed: number): SpsaProbe {
  const rng = seededRng((Math.imul(seed, 0x9e3779b1) ^ Math.imul(k + 1, 0x85ebca6b)) >>> 0);
  const delta: Record<string, 1 | -1> = {};
  const c: Record<string, number> = {};
  const plus: Record<string, number> = {};
  const minus: Record<string, number> = {};
  for (const p of params) {
    const d = rng() < 0.5 ? -1 : 1;
    const ck = gains(p, s, k).c;
    const theta = state.theta[p.name] ?? p.start;
    delta[p.name] = d;
    c[p.name] = ck;
    plus[p.name] = engineValue(p, theta + ck * d);
    minus[p.name] = engineValue(p, theta - ck * d);
  }
  return { k, delta, c, plus, minus };
}

/**
 * The state after one pair: `games` are the plus side's scores (1, 0.5 or 0) in its games, and
 * the step uses their wins - losses, as fishtest does. Applied to the current theta even when the
 * probe was drawn from an older one (fishtest's workers do the same: several pairs are in flight
 * at once).
 */
export function update(params: readonly SpsaParam[], s: SpsaSchedule, state: SpsaState, pr: SpsaProbe, games: readonly (0 | 0.5 | 1)[]): SpsaState {
  const wins = games.filter((g) => g === 1).length;
  const losses = games.filter((g) => g === 0).length;
  const result = wins - losses;
  const theta: Record<string, number> = { ...state.theta };
  for (const p of params) {
    const { r } = gains(p, s, pr.k);
    theta[p.name] = clamp(p, (theta[p.name] ?? p.start) + r * pr.c[p.name]! * result * pr.delta[p.name]!);
  }
  return { ...state, iterations: state.iterations + 1, theta, wins: state.wins + wins, draws: state.draws + games.length - wins - losses, losses: state.losses + losses };
}

/** Reads a state file's JSON, checking that it tunes exactly `params`. */
export function parseState(raw: unknown, params: readonly SpsaParam[], what: string): Result<SpsaState, KishiError> {
  const bad = (why: string): Result<SpsaState, KishiError> => Result.err(new KishiError('ERR_SPSA_STATE', `${what}: ${why}`));
  if (typeof raw !== 'object' || raw === null) return bad('not a JSON object');
  const o = raw as Record<string, unknown>;
  if (o['kind'] !== 'kishi-spsa' || o['version'] !== 1) return bad('not a kishi SPSA state (kind kishi-spsa, version 1)');
  for (const k of ['iterations', 'wins', 'draws', 'losses']) {
    const v = o[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) return bad(`${k} must be a non-negative integer`);
  }
  const theta = o['theta'];
  if (typeof theta !== 'object' || theta === null) return bad('theta must be an object');
  const t = theta as Record<string, unknown>;
  const names = params.map((p) => p.name);
  const stored = Object.keys(t);
  if (stored.length !== names.length || !names.every((n) => stored.includes(n))) {
    return bad(`tunes ${stored.join(', ')}, not ${names.join(', ')} (use another state file to tune other parameters)`);
  }
  for (const p of params) {
    const v = t[p.name];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < p.min || v > p.max) return bad(`theta.${p.name} must be a number in [${p.min}, ${p.max}]`);
  }
  return Result.ok(o as unknown as SpsaState);
}
