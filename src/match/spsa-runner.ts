/**
 * `kishi tune`'s loop: SPSA iterations (spsa.ts), each one game pair between two freshly made
 * engines (theta + c_k delta against theta - c_k delta) on one opening with colours swapped, the
 * update applied as each pair ends. `concurrency` pairs are in flight at once, as fishtest's
 * workers are.
 *
 * Resumable: `state.json` in the output directory is rewritten (write, then rename) after every
 * pair, and a run started on a directory with a state goes on from it; a pair in flight at a kill
 * is lost and played again. `history.jsonl` gets one line per pair (the values both sides played,
 * the games, theta after the update) for plots and audits.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GameKind, Side } from '../core/game.js';
import { parseJsonText } from '../core/json.js';
import { KishiError, Result } from '../core/result.js';
import { randomInt, seededRng } from '../core/rng.js';
import type { MatchEngine } from '../engines/match-engine.js';
import type { AdjudicationRules } from './adjudication.js';
import type { MatchVariant } from '../games/game-factory.js';
import { scoreFor } from './game-record.js';
import { playGame } from './game-runner.js';
import type { Opening } from '../books/openings.js';
import type { SpsaParam, SpsaProbe, SpsaSchedule, SpsaState } from './spsa.js';
import { initialState, parseState, probe, update } from './spsa.js';
import type { TimeControl } from './time-control.js';

/** Makes one engine playing with `values` (the tuned parameters only; the rest keep their defaults). */
export type SpsaEngineMaker = (values: Readonly<Record<string, number>>, name: string) => Promise<Result<MatchEngine, KishiError>>;

export interface SpsaRunConfig {
  readonly game: GameKind;
  readonly variant: MatchVariant;
  readonly params: readonly SpsaParam[];
  readonly schedule: SpsaSchedule;
  readonly openings: readonly Opening[];
  /** Seeds the perturbation signs and the opening of each pair. */
  readonly seed: number;
  /** Pairs played at once. */
  readonly concurrency: number;
  readonly tc: TimeControl;
  readonly adjudication: AdjudicationRules;
  readonly hangTimeoutMs: number;
  /** Holds state.json and history.jsonl; a state there is resumed. */
  readonly outDir: string;
  readonly makeEngine: SpsaEngineMaker;
  readonly signal?: AbortSignal;
  /** Called after each pair's update. */
  readonly onPair?: (state: SpsaState, pr: SpsaProbe, games: readonly (0 | 0.5 | 1)[]) => void;
}

export const statePath = (outDir: string): string => join(outDir, 'state.json');

/** The state in `outDir`, or a fresh one when there is none. */
export function loadState(outDir: string, params: readonly SpsaParam[]): Result<SpsaState, KishiError> {
  const file = statePath(outDir);
  if (!existsSync(file)) return Result.ok(initialState(params));
  return parseJsonText(readFileSync(file, 'utf8'), 'ERR_SPSA_STATE', file).chain((raw) => parseState(raw, params, file));
}

const saveState = (outDir: string, state: SpsaState): void => {
  const file = statePath(outDir);
  writeFileSync(`${file}.part`, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(`${file}.part`, file);
};

/** The opening of pair k: a function of (seed, k) only, so a resumed run plays the same ones. */
const openingFor = (openings: readonly Opening[], seed: number, k: number): Opening =>
  openings[randomInt(seededRng((seed ^ Math.imul(k + 1, 0x27d4eb2d)) >>> 0), openings.length)]!;

/** Runs until the schedule's iterations are done or the signal aborts; returns the last state. */
export async function runSpsa(config: SpsaRunConfig): Promise<Result<SpsaState, KishiError>> {
  if (config.openings.length === 0) return Result.err(new KishiError('ERR_SPSA', 'no openings'));
  mkdirSync(config.outDir, { recursive: true });
  const loaded = loadState(config.outDir, config.params);
  if (loaded.isErr) return loaded;
  let state = loaded.value;
  let next = state.iterations;
  let failure: KishiError | undefined;
  const live = new Set<MatchEngine>();
  const onAbort = (): void => {
    for (const e of live) void e.close();
  };
  config.signal?.addEventListener('abort', onAbort);
  const stopped = (): boolean => failure !== undefined || config.signal?.aborted === true;

  const playPair = async (k: number): Promise<void> => {
    const pr = probe(config.params, config.schedule, state, k, config.seed);
    const made: MatchEngine[] = [];
    const games: (0 | 0.5 | 1)[] = [];
    try {
      for (const [values, name] of [[pr.plus, 'plus'], [pr.minus, 'minus']] as const) {
        const e = await config.makeEngine(values, name);
        if (e.isErr) {
          failure = e.error;
          return;
        }
        made.push(e.value);
        live.add(e.value);
      }
      const [plus, minus] = made as [MatchEngine, MatchEngine];
      const opening = openingFor(config.openings, config.seed, k);
      for (const plusSide of ['first', 'second'] as Side[]) {
        if (stopped()) break;
        const r = await playGame({
          id: 2 * k + games.length + 1,
          pair: k,
          round: `${k + 1}.${games.length + 1}`,
          game: config.game,
          variant: config.variant,
          opening,
          engines: plusSide === 'first' ? { first: plus, second: minus } : { first: minus, second: plus },
          timeControls: { first: config.tc, second: config.tc },
          adjudication: config.adjudication,
          hangTimeoutMs: config.hangTimeoutMs,
        });
        games.push(scoreFor(r.end, plusSide));
      }
    } finally {
      for (const e of made) live.delete(e);
      await Promise.all(made.map((e) => e.close()));
    }
    // An abort (or another pair's failure) during this pair: its games do not count.
    if (stopped() || games.length < 2) return;
    state = update(config.params, config.schedule, state, pr, games);
    saveState(config.outDir, state);
    appendFileSync(join(config.outDir, 'history.jsonl'), `${JSON.stringify({ k, games, plus: pr.plus, minus: pr.minus, theta: state.theta })}\n`);
    config.onPair?.(state, pr, games);
  };

  const worker = async (): Promise<void> => {
    while (!stopped() && next < config.schedule.iterations) await playPair(next++);
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, config.concurrency) }, () => worker()));
  } finally {
    config.signal?.removeEventListener('abort', onAbort);
  }
  return failure !== undefined ? Result.err(failure) : Result.ok(state);
}
