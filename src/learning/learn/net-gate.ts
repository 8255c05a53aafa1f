/**
 * The gate of a generation: the candidate net against the teacher it was trained after, both the
 * alpha-beta engine at the same fixed node count (so the result does not depend on the machine's
 * load), played in this process by `runMatch` (src/match/) with each side an `AlphaBetaPlayer` behind
 * a `PlayerEngine`, openings in pairs with colours swapped, stopped by the SPRT. The candidate is
 * promoted only when the SPRT accepts H1 (elo1 over elo0); H0, a test still undecided when the game
 * budget runs out, or an aborted match keep the teacher (alphazero/gate.ts `gateDecision`).
 */
import { mkdirSync } from 'node:fs';
import type { GameKind } from '../../core/game.js';
import { KishiError, Result } from '../../core/result.js';
import type { EngineFailure } from '../../engines/engine-client.js';
import type { EngineSpec } from '../../engines/engine-spec.js';
import type { MatchEngine } from '../../engines/match-engine.js';
import type { AdjudicationRules } from '../../match/adjudication.js';
import { runMatch, type MatchEvent } from '../../match/match-runner.js';
import type { Opening } from '../../books/openings.js';
import { PlayerEngine } from '../../match/player-engine.js';
import type { SprtParams } from '../../match/stats/index.js';
import { NO_TIME_CONTROL } from '../../match/time-control.js';
import { AlphaBetaPlayer } from '../../player/alphabeta-player.js';
import { loadNnueFile } from '../../player/nnue-file.js';
import { loadWeightsFile } from '../../player/weights-file.js';
import { gateDecision, gateResultFromSummary, type GateMatchResult } from '../alphazero/gate.js';

/** The gate's settings. */
export interface NetGateSettings {
  /** Nodes per move of both sides. */
  readonly nodes: number;
  /** Games at most (the SPRT usually stops earlier). */
  readonly games: number;
  readonly sprt: SprtParams;
  /** The SPRT as given (`elo0=0,elo1=5`), for the records. */
  readonly sprtText: string;
  readonly concurrency: number;
  readonly openings: readonly Opening[];
  readonly openingsFile?: string;
  readonly hashMb: number;
  readonly adjudication: AdjudicationRules;
}

export interface NetGateRequest {
  readonly game: GameKind;
  readonly candidate: string;
  readonly teacher: string;
  /** The linear weights file (the engine's fallback evaluation, loaded beside the net). */
  readonly weights: string;
  readonly outDir: string;
  readonly seed: number;
  readonly settings: NetGateSettings;
  readonly signal?: AbortSignal;
  readonly onEvent?: (e: MatchEvent) => void;
}

export interface NetGateOutcome {
  readonly passed: boolean;
  readonly reason: string;
  readonly result: GateMatchResult;
}

/** Plays one gate; a net that does not load is an `ERR_NNUE` naming it (never a silent linear fallback). */
export type NetGateRunner = (r: NetGateRequest) => Promise<Result<NetGateOutcome, KishiError>>;

const inProcessSpec = (name: string): EngineSpec => ({ name, command: 'in-process', args: [], options: {}, time: {}, kishi: false });

/** The in-process gate (see the module comment). */
export const runNetGate: NetGateRunner = async (r) => {
  const weights = loadWeightsFile(r.weights, r.game);
  if (weights.isErr) return Result.err(weights.error);
  const nets: Uint8Array[] = [];
  for (const file of [r.candidate, r.teacher]) {
    const loaded = loadNnueFile(file, r.game);
    if (loaded.isErr) return Result.err(loaded.error);
    nets.push(loaded.value.bytes);
  }
  const s = r.settings;
  const side = (name: string, nnue: Uint8Array) => ({
    spec: inProcessSpec(name),
    tc: { ...NO_TIME_CONTROL, nodes: s.nodes },
    factory: async (): Promise<Result<MatchEngine, EngineFailure>> =>
      Result.ok(
        new PlayerEngine(new AlphaBetaPlayer({ game: r.game, theta: weights.value.theta, nnue, hashMb: s.hashMb, moveOverheadMs: 0, threads: 1 }), {
          game: r.game,
          variant: 'standard',
          name,
        }),
      ),
  });
  mkdirSync(r.outDir, { recursive: true });
  const summary = await runMatch({
    game: r.game,
    variant: 'standard',
    engines: [side('candidate', nets[0]!), side('teacher', nets[1]!)],
    games: s.games,
    openings: s.openings,
    openingOrder: 'random',
    seed: r.seed,
    ...(s.openingsFile !== undefined ? { openingsFile: s.openingsFile } : {}),
    concurrency: s.concurrency,
    adjudication: s.adjudication,
    sprt: s.sprt,
    hangTimeoutMs: 600_000,
    graceMs: 5000,
    startTimeoutMs: 60_000,
    logLines: 50,
    outDir: r.outDir,
    event: 'kishi learn gate',
    ...(r.onEvent !== undefined ? { onEvent: r.onEvent } : {}),
    ...(r.signal !== undefined ? { signal: r.signal } : {}),
  });
  if (summary.stoppedEarly === 'abort') return Result.err(new KishiError('ERR_ABORTED', 'gate interrupted (it is replayed from its first game)'));
  const result = gateResultFromSummary(summary, `${r.outDir}/summary.json`);
  if (result.isErr) return Result.err(result.error);
  const decision = gateDecision({ mode: 'sprt', games: s.games, playouts: s.nodes, sprt: s.sprtText, threshold: 0.5, concurrency: s.concurrency }, result.value);
  return Result.ok({ ...decision, result: result.value });
};
