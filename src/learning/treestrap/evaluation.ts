/**
 * Evaluation matches of the learner against fixed references (the untrained weights, the shipped
 * material weights), played by the match runner (src/match/match-runner.ts) with in-process
 * engines in tournament mode at a fixed number of nodes per move, openings in pairs with colours
 * swapped. The result is a learning-curve point: the pentanomial Elo with its 95% interval.
 */
import type { GameKind } from '../../core/game.js';
import type { NnueNetwork } from '../../eval/nnue/network.js';
import { Result } from '../../core/result.js';
import type { EngineFailure } from '../../engines/engine-client.js';
import type { MatchEngine } from '../../engines/match-engine.js';
import type { MatchEngineEntry } from '../../match/match-runner.js';
import type { MatchSummary } from '../../match/match-runner.js';
import { runMatch } from '../../match/match-runner.js';
import type { Opening } from '../../books/openings.js';
import { InlineEngine } from './inline-engine.js';
import type { CurvePointRecord } from './checkpoint.js';

export interface EvalSettings {
  /** Games per reference (rounded up to pairs). */
  readonly games: number;
  readonly nodes?: number;
  readonly depth?: number;
  readonly openings: readonly Opening[];
  readonly seed: number;
  /** Full moves after which a game is a draw. */
  readonly maxMoves: number;
  /** Where the match writes records and summary.json (nothing written without it). */
  readonly outDir?: string;
}

export interface WeightsPlayer {
  readonly name: string;
  /** Linear weights. */
  readonly theta: Float64Array;
  /** A network evaluation (the linear weights then go unused). */
  readonly nnue?: NnueNetwork;
}

/** Plays `learner` against `reference`; resolves the match summary (from the learner's view). */
export const evaluationMatch = async (game: GameKind, learner: WeightsPlayer, reference: WeightsPlayer, s: EvalSettings): Promise<MatchSummary> => {
  const tc = {
    incMs: 0,
    byoyomiMs: 0,
    movesPerSession: 0,
    marginMs: 0,
    ...(s.nodes !== undefined ? { nodes: s.nodes } : {}),
    ...(s.depth !== undefined ? { depth: s.depth } : {}),
  };
  const entry = (p: WeightsPlayer): MatchEngineEntry => ({
    spec: { name: p.name, command: 'inline', args: [], options: {}, time: {}, kishi: false },
    tc,
    factory: async () => Result.ok<MatchEngine, EngineFailure>(new InlineEngine(p.name, game, p.theta, 16, p.nnue)),
  });
  return runMatch({
    game,
    variant: 'standard',
    engines: [entry(learner), entry(reference)],
    games: s.games + (s.games % 2),
    openings: s.openings,
    openingOrder: 'random',
    repeat: true,
    seed: s.seed,
    concurrency: 1,
    adjudication: { maxMoves: s.maxMoves, resign: { moveCount: 4, score: 2000, twoSided: true } },
    hangTimeoutMs: 600_000,
    graceMs: 1000,
    startTimeoutMs: 30_000,
    logLines: 20,
    ...(s.outDir !== undefined ? { outDir: s.outDir } : {}),
    event: 'kishi train evaluation',
  });
};

/** The curve point of a finished evaluation match at `x` training games. */
export const curvePoint = (m: MatchSummary, x: number, series: string): CurvePointRecord => {
  const r = m.results;
  const pairs = r.pentanomial.reduce((a, b) => a + b, 0);
  const e = pairs > 0 ? r.pentanomialEstimate : r.trinomial;
  return { x, series, elo: e.elo, low: e.eloLow, high: e.eloHigh, games: r.games, wins: r.wdl.wins, draws: r.wdl.draws, losses: r.wdl.losses };
};
